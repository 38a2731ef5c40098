// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsOutput} from "./PorContradictionsOutput.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorContradictionsStep: the `contradictions` step re-executed on chain (SPEC
/// §12.5.5, §10.5 step 7, §14.8).
/// @notice The step cites the last check chunk of each requirement, in requirement order;
/// their contradiction groups (§12.5.3) are merged by (kind, key) and every merged group
/// that conflicts gives a conflict record. The PromptSpec leaf is read for the
/// requirement ids and `conflict_policy.numeric_tolerance` only (a read field that is
/// malformed: won `one_step.invalid_record`). The committed description and output are
/// compared with the canonical encoding of the recomputed ones piece by piece
/// (`PorContradictionsOutput`). Every fault Python raises while recomputing
/// (`step.citation_mismatch`, `step.bad_prior_output`) is won `one_step.unexecutable`.
library PorContradictionsStep {
    bytes32 internal constant KIND = PorIds.CONTRADICTIONS;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;
    bytes32 internal constant MATCH = PorIds.MATCH;
    bytes32 internal constant MISMATCH = PorIds.MISMATCH;
    /// SPEC §4.2: 1..8 requirements (`MAX_REQUIREMENTS`).
    uint256 internal constant MAX_REQUIREMENTS = 8;

    /// `PorOneStepCheck.checkWith`'s kind re-execution for `contradictions`; any other
    /// kind reverts `CourtPath(kind)`.
    function execute(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        bytes32 kind
    ) internal pure returns (bool, bytes32) {
        unchecked {
            if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
            if (!PorOneStepCheck.specIsCbor(d, parts)) return (true, INVALID_RECORD);
            return recompute(d, parts, records, at);
        }
    }

    /// The re-execution proper, on parts whose steps 1-6 of SPEC §10.5 hold and whose
    /// PromptSpec leaf passed the §2 reader (`PorOneStepCheck.specIsCbor`).
    function recompute(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at
    ) internal pure returns (bool, bytes32) {
        return recomputeAt(d, parts, records, at, new uint256[](0));
    }

    /// `recompute` with the PromptSpec's `conflict_policy` and `data_requirements` value
    /// offsets in `d` in `top` (0: absent) as `PorCheckKeys.topValues` reads them from the
    /// §2 reader's pass over the leaf, or `top` empty: the leaf's map walked for them.
    function recomputeAt(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top
    ) internal pure returns (bool, bytes32) {
        unchecked {
            if (top.length == 0) {
                top = new uint256[](2);
                PorCheckKeys.find(d, parts.all[1].leaf, TOP_KEYS, top);
            }
            (bool specOk, uint256[] memory reqIds, uint256 tolerance) = readSpec(d, top[0], top[1]);
            if (!specOk) return (true, INVALID_RECORD);
            // A contradictions step cites no item, and one chunk per requirement
            // (step.citation_mismatch).
            (, uint256 nEvidence,) = PorCbor.container(d, parts.all[0].leaf + at[PorRecords.STEP_EVIDENCE], PorCbor.ARRAY);
            if (nEvidence != 0 || parts.priorCount != reqIds.length) return (true, UNEXECUTABLE);
            return compare(d, parts, records, at, reqIds, tolerance);
        }
    }

    /// The merge, then the recomputed description and output against the committed ones.
    function compare(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory reqIds,
        uint256 tolerance
    ) private pure returns (bool, bytes32) {
        unchecked {
            (bool ok, PorContradictionsState.Group[] memory merged, uint256 claims) =
                PorContradictionsState.merge(d, parts, records, reqIds);
            if (!ok) return (true, UNEXECUTABLE);
            uint256 base = parts.all[0].leaf;
            bool same = PorContradictionsOutput.matches(
                d, base + at[PorRecords.STEP_DESCRIPTION], base + at[PorRecords.STEP_OUTPUT], merged, claims, tolerance
            );
            return same ? (false, MATCH) : (true, MISMATCH);
        }
    }

    /// The PromptSpec leaf (it passed the §2 reader) whose `conflict_policy` and
    /// `data_requirements` values are at `policy` and `reqs` (0: absent): its
    /// `data_requirements` is an array of 1..8 maps, each with an Id `requirement_id`, no
    /// id twice, and its `conflict_policy.numeric_tolerance` is a canonical decimal text
    /// that is not negative (SPEC §4.2). `reqIds`: the offsets of the id texts in `d`;
    /// `tolerance` the offset of the text item. Each map is walked once for the keys read.
    function readSpec(bytes calldata d, uint256 policy, uint256 reqs)
        internal
        pure
        returns (bool ok, uint256[] memory reqIds, uint256 tolerance)
    {
        unchecked {
            uint256[] memory f = new uint256[](2);
            (ok, reqIds) = requirementIds(d, reqs, f);
            if (!ok) return (false, reqIds, 0);
            // Absent is invalid too: a record's bytes hold its defaults (canonical form, §4).
            PorCheckKeys.find(d, policy, TOLERANCE, f);
            tolerance = f[0];
            (bool text, uint256 to, uint256 tl) = tolerance == 0 ? (false, 0, 0) : PorCbor.str(d, tolerance, PorCbor.TEXT);
            ok = text && PorDecimal.isCanonical(d, to, tl) && d[to] != "-";
        }
    }

    /// The PromptSpec keys `readSpec` reads, in §2 order (`PorCheckKeys.find`).
    bytes internal constant TOP_KEYS = "\x0fconflict_policy\x11data_requirements";
    bytes private constant TOLERANCE = "\x11numeric_tolerance";
    bytes private constant REQ_ID = "\x0erequirement_id";

    /// The requirement id texts of `data_requirements` at `reqs` (0: absent): 1..8 maps,
    /// each with an Id `requirement_id`, none twice; `f` a buffer.
    function requirementIds(bytes calldata d, uint256 reqs, uint256[] memory f)
        private
        pure
        returns (bool, uint256[] memory ids)
    {
        unchecked {
            (bool isArray, uint256 n, uint256 p) = reqs == 0 ? (false, 0, 0) : PorCbor.container(d, reqs, PorCbor.ARRAY);
            if (!isArray || n == 0 || n > MAX_REQUIREMENTS) return (false, ids);
            ids = new uint256[](n);
            for (uint256 i = 0; i < n; i++) {
                PorCheckKeys.find(d, p, REQ_ID, f);
                uint256 id = f[0];
                if (id == 0) return (false, ids);
                (bool idOk,,) = PorRecords.isId(d, id);
                if (!idOk) return (false, ids);
                for (uint256 j = 0; j < i; j++) {
                    if (PorCheckKeys.sameText(d, ids[j], id)) return (false, ids);
                }
                ids[i] = id;
                p = PorCbor.skip(d, p);
            }
            return (true, ids);
        }
    }
}
