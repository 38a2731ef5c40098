// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorCheckFormRead as R} from "./PorCheckFormRead.sol";

/// @title PorCheckFormItems: the cited items of a check chunk read from their EXTRACT
/// forms (draft §2.3) and admitted by SPEC §12.5.3 (reasons in §12.2's order, the window
/// with slack, observed_at/observed_from, the gate's blank source id through EXTRACT's
/// derived word).
library PorCheckFormItems {
    /// One cited item as read from its EXTRACT form at `e`.
    struct Item {
        uint256 e; // the form
        uint256 claims; // the first claim
        uint256 nClaims;
        uint256 tail; // H(requirement_id), then status, retrieved_at, confidence, blank
        uint256 leaf; // its evidence leaf (its forms index - 1 - r)
        uint256 reasons; // bit c set: reason code c (1..7)
        uint256 observed;
        bool fromClaim;
    }

    /// What the admission reads of COMMON and REQUIREMENT.
    struct Rules {
        uint256 start; // the window with slack
        uint256 end;
        bytes32 metric; // H(ps.metric) when the predicate is timestamp_threshold, else 0
        bool skipMetric;
        uint256 allowed; // L[H] of allowed_sources: its count word
        uint256 targets; // L[H] of R's targets: its count word
        uint256 codes; // L[W] of accepted_status_codes: its count word, 0 when absent
        uint256 minTier;
    }

    /// The EXTRACT form at `e` (end `end`), walked whole (`proof.form` on any fault or a
    /// byte after its last word); `bad` when a timestamp claim's value is above 2^63-1
    /// (Python's `step.bad_prior_output`: `W` admits it, the claim reader does not).
    function read(uint256 e, uint256 end) internal pure returns (Item memory it, bool bad) {
        it.e = e;
        R.code(e + 96, end, 3); // provenance_tier
        uint256 q = R.tEnd(e + 160, end);
        it.nClaims = R.count(q, end, 4);
        it.claims = q + 32;
        q += 32;
        for (uint256 k; k < it.nClaims; ++k) {
            uint256 kind = R.code(q + 32, end, 3);
            q = R.tEnd(q + 64, end);
            if (kind == 2 && R.int64w(q, end) > R.MAX63) bad = true;
            q = R.vEnd(kind, q, end);
        }
        it.tail = q;
        uint256 status = R.w(q + 32, end);
        if (status < 100 || status > 599 || R.w(q + 64, end) > R.MAX63) revert F.ProofForm();
        R.code(q + 96, end, 10_000);
        R.code(q + 128, end, 1);
        if (q + 160 != end) revert F.ProofForm();
    }

    /// The offset of the claim after the one at `q` (its kind word at `q + 32`).
    function nextClaim(uint256 q) internal pure returns (uint256) {
        uint256 kind = _at(q + 32);
        q += 64;
        q += 32 + ((_at(q) + 31) & ~uint256(31));
        if (kind == 0 || kind == 2) return q + 32;
        if (kind == 1) return q + 32 + (_at(q) & ((1 << 232) - 1) > 32 ? 64 : 32);
        return q + 32 + ((_at(q) + 31) & ~uint256(31));
    }

    /// Admit `it` by `rules`: its reasons (bits), observed_at and its source.
    function admit(Item memory it, Rules memory rules) internal pure {
        uint256 e = it.e;
        it.observed = _at(it.tail + 64);
        uint256 q = it.claims;
        for (uint256 k; k < it.nClaims; ++k) {
            if (_at(q + 32) == 2 && !(rules.skipMetric && bytes32(_at(q)) == rules.metric)) {
                it.observed = _at(nextClaim(q) - 32);
                it.fromClaim = true;
                break;
            }
            q = nextClaim(q);
        }
        uint256 source = _at(e + 64);
        uint256 bits;
        if (!_listed(rules.allowed, source)) bits |= 1 << 1;
        if (!_listed(rules.targets, source)) bits |= 1 << 2;
        if (it.observed < rules.start || it.observed > rules.end) bits |= 1 << 3;
        if (_at(e + 96) < rules.minTier) bits |= 1 << 4;
        if (_at(it.tail + 96) > 10_000) bits |= 1 << 5;
        uint256 status = _at(it.tail + 32);
        if (rules.codes == 0 ? status < 200 || status > 299 : !_listed(rules.codes, status)) bits |= 1 << 6;
        if (bits == 0 && _at(it.tail + 128) == 1) bits = 1 << 7;
        it.reasons = bits;
    }

    /// Whether the list whose count word is at `p` holds the word `x`.
    function _listed(uint256 p, uint256 x) private pure returns (bool found) {
        assembly {
            let n := calldataload(p)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                if eq(calldataload(add(p, shl(5, add(i, 1)))), x) {
                    found := 1
                    break
                }
            }
        }
    }

    function _at(uint256 p) private pure returns (uint256 v) {
        assembly { v := calldataload(p) }
    }
}
