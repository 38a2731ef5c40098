// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorMapStep: the `map` step re-executed on chain (SPEC §12.5.7, §10.5 step 7).
/// @notice The step reads one cited `deduce` step; its output is
/// `{"evaluation_variables": V}` with V the deduce output's entries among the eight
/// evaluation variables, validated as `variables_from` (por.lean.trace) validates them.
/// Both records are canonical, so V's bytes are the deduce output's entries of those keys,
/// in the same order: the recomputed step is compared entry by entry, never re-encoded.
library PorMapStep {
    bytes32 internal constant KIND = PorIds.MAP;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;
    bytes32 internal constant MATCH = PorIds.MATCH;
    bytes32 internal constant MISMATCH = PorIds.MISMATCH;
    uint256 private constant NAMES = 8;

    /// (won, check id) for the map step `leaf` (value offsets `at`) citing one step,
    /// `prior` (offsets `priorAt`).
    function recompute(bytes calldata leaf, uint256[] memory at, bytes calldata prior, uint256[] memory priorAt)
        internal
        pure
        returns (bool, bytes32)
    {
        // The cited step is a deduce step (step.citation_mismatch).
        {
            (bool known, bytes32 kind,) = PorRecords.computation(prior, priorAt);
            if (!known || kind != PorIds.DEDUCE) return (true, UNEXECUTABLE);
        }
        // read_variables: the picked entries, valid (step.bad_prior_output).
        (bool ok, uint256[] memory ranges, uint256 summary) = variables(prior, priorAt[PorRecords.STEP_OUTPUT]);
        if (!ok) return (true, UNEXECUTABLE);
        // The step cites the summary as its evidence (step.citation_mismatch).
        if (!sameItem(leaf, at[PorRecords.STEP_EVIDENCE], prior, summary)) return (true, UNEXECUTABLE);
        bool same = PorCbor.isText(leaf, at[PorRecords.STEP_DESCRIPTION], "map to evaluation variables")
            && output(leaf, at[PorRecords.STEP_OUTPUT], prior, ranges);
        return same ? (false, MATCH) : (true, MISMATCH);
    }

    /// The item at `a` of `x` has the bytes of the item at `b` of `y`.
    function sameItem(bytes calldata x, uint256 a, bytes calldata y, uint256 b) private pure returns (bool) {
        return keccak256(x[a:PorCbor.skip(x, a)]) == keccak256(y[b:PorCbor.skip(y, b)]);
    }

    /// The committed output is `{"evaluation_variables": V}` with V's entries the picked
    /// entries of `prior` (`ranges`: start and end of each), in order.
    function output(bytes calldata leaf, uint256 pos, bytes calldata prior, uint256[] memory ranges)
        private
        pure
        returns (bool)
    {
        (, uint256 count, uint256 p) = PorCbor.container(leaf, pos, PorCbor.MAP);
        if (count != 1 || !PorCbor.isText(leaf, p, "evaluation_variables")) return false;
        bool isMap;
        (isMap, count, p) = PorCbor.container(leaf, PorCbor.skip(leaf, p), PorCbor.MAP);
        if (!isMap || 2 * count != ranges.length) return false;
        for (uint256 i = 0; i < ranges.length; i += 2) {
            uint256 end = PorCbor.skip(leaf, PorCbor.skip(leaf, p));
            if (end - p != ranges[i + 1] - ranges[i]
                    || keccak256(leaf[p:end]) != keccak256(prior[ranges[i]:ranges[i + 1]])) {
                return false;
            }
            p = end;
        }
        return true;
    }

    /// The entries of the map at `pos` whose key is an evaluation variable (start and end
    /// of key and value, in pairs), valid as `variables_from` requires: the four flags
    /// present and boolean, `source_summary` a list of distinct Ids, `event_observed`
    /// boolean, `numeric_value` a canonical decimal, `timestamp` 0..2^63-1, each when
    /// present; `summary` the offset of `source_summary`.
    function variables(bytes calldata d, uint256 pos)
        private
        pure
        returns (bool ok, uint256[] memory ranges, uint256 summary)
    {
        uint256[] memory found = new uint256[](2 * NAMES);
        (, uint256 count, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        uint256 flags = 0;
        uint256 n = 0;
        for (uint256 i = 0; i < count; i++) {
            (uint256 valid, uint256 role, uint256 end) = variable(d, p);
            if (valid == 2) return (false, ranges, 0);
            if (valid == 1) {
                if (role == FLAG) flags++;
                if (role == SUMMARY) summary = PorCbor.skip(d, p);
                (found[n], found[n + 1]) = (p, end);
                n += 2;
            }
            p = end;
        }
        ranges = new uint256[](n);
        for (uint256 i = 0; i < n; i++) ranges[i] = found[i];
        ok = flags == 4 && summary != 0;
    }

    uint256 private constant FLAG = 1;
    uint256 private constant SUMMARY = 2;

    /// The entry at `p` (its end): `valid` 0 when its key is not an evaluation variable, 1
    /// when it is and its value is valid, 2 when it is not; `role` FLAG for the four
    /// required flags, SUMMARY for source_summary.
    function variable(bytes calldata d, uint256 p) private pure returns (uint256 valid, uint256 role, uint256 end) {
        (, uint256 off, uint256 len) = PorCbor.str(d, p, PorCbor.TEXT);
        uint256 value = off + len;
        end = PorCbor.skip(d, value);
        bytes32 key = keccak256(d[off:value]);
        bool good;
        if (key == keccak256("conflict_detected") || key == keccak256("insufficient_evidence")
                || key == keccak256("fallback_used") || key == keccak256("provenance_ok")) {
            (role, good) = (FLAG, isBool(d, value));
        } else if (key == keccak256("event_observed")) {
            good = isBool(d, value);
        } else if (key == keccak256("source_summary")) {
            (role, good) = (SUMMARY, idSet(d, value));
        } else if (key == keccak256("numeric_value")) {
            (bool text, uint256 vo, uint256 vl) = PorCbor.str(d, value, PorCbor.TEXT);
            good = text && PorDecimal.isCanonical(d, vo, vl);
        } else if (key == keccak256("timestamp")) {
            (good,) = PorRecords.uintIn(d, value, 0, PorRecords.MAX_COUNT);
        } else {
            return (0, 0, end);
        }
        valid = good ? 1 : 2;
    }

    function isBool(bytes calldata d, uint256 pos) private pure returns (bool ok) {
        (ok,) = PorCbor.boolAt(d, pos);
    }

    /// A list of Ids (1..128 code points), none twice.
    function idSet(bytes calldata d, uint256 pos) private pure returns (bool) {
        (bool ok, uint256 count, uint256 first) = PorRecords.idList(d, pos);
        return ok && !PorRecords.hasRepeat(d, first, count);
    }
}
