// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorContradictionsOutput} from "./PorContradictionsOutput.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";

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
    bytes32 internal constant KIND = keccak256("contradictions");
    /// Not a check id: `ready`'s answer, never returned by an executor.
    bytes32 internal constant READY = keccak256("contradictions.ready");
    bytes32 internal constant INVALID_RECORD = keccak256("one_step.invalid_record");
    bytes32 internal constant UNEXECUTABLE = keccak256("one_step.unexecutable");
    bytes32 internal constant MATCH = keccak256("one_step.match");
    bytes32 internal constant MISMATCH = keccak256("one_step.mismatch");
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
            return recompute(d, parts, records, at);
        }
    }

    /// `execute`'s first half, for an executor that runs the second in another contract
    /// (the code-size limit): any other kind reverts `CourtPath(kind)`, this one returns
    /// (false, READY) for `recompute`.
    function ready(bytes calldata, PorOneStepCheck.Parts memory, uint256[][] memory, uint256[] memory, bytes32 kind)
        internal
        pure
        returns (bool, bytes32)
    {
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        return (false, READY);
    }

    /// The re-execution proper, on parts whose steps 1-6 of SPEC §10.5 hold.
    function recompute(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at
    ) internal pure returns (bool, bytes32) {
        unchecked {
            (bool specOk, uint256[] memory reqIds, uint256 tolerance) =
                readSpec(d, parts.all[1].leaf, parts.all[1].leafLength);
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

    /// The PromptSpec leaf at d[off:off+len]: a §2 document whose `data_requirements` is an
    /// array of 1..8 maps, each with an Id `requirement_id`, no id twice, and whose
    /// `conflict_policy.numeric_tolerance` is a canonical decimal text that is not negative
    /// (SPEC §4.2). `reqIds`: the offsets of the id texts in `d`; `tolerance` the offset
    /// of the text item.
    function readSpec(bytes calldata d, uint256 off, uint256 len)
        internal
        pure
        returns (bool ok, uint256[] memory reqIds, uint256 tolerance)
    {
        unchecked {
            (bytes32 err,) = PorCbor.check(d[off:off + len]);
            if (err != 0) return (false, reqIds, 0);
            (ok, reqIds) = requirementIds(d, PorCbor.get(d, off, "data_requirements"));
            if (!ok) return (false, reqIds, 0);
            // Absent is invalid too: a record's bytes hold its defaults (canonical form, §4).
            uint256 policy = PorCbor.get(d, off, "conflict_policy");
            tolerance = policy == 0 ? 0 : PorCbor.get(d, policy, "numeric_tolerance");
            (bool text, uint256 to, uint256 tl) = tolerance == 0 ? (false, 0, 0) : PorCbor.str(d, tolerance, PorCbor.TEXT);
            ok = text && PorDecimal.isCanonical(d, to, tl) && d[to] != "-";
        }
    }

    /// The requirement id texts of `data_requirements` at `reqs` (0: absent): 1..8 maps,
    /// each with an Id `requirement_id`, none twice.
    function requirementIds(bytes calldata d, uint256 reqs) private pure returns (bool, uint256[] memory ids) {
        unchecked {
            (bool isArray, uint256 n, uint256 p) = reqs == 0 ? (false, 0, 0) : PorCbor.container(d, reqs, PorCbor.ARRAY);
            if (!isArray || n == 0 || n > MAX_REQUIREMENTS) return (false, ids);
            ids = new uint256[](n);
            for (uint256 i = 0; i < n; i++) {
                uint256 id = PorCbor.get(d, p, "requirement_id");
                if (id == 0) return (false, ids);
                (bool idOk,,) = PorRecords.isId(d, id);
                if (!idOk) return (false, ids);
                for (uint256 j = 0; j < i; j++) {
                    if (PorRecords.sameTextAt(d, ids[j], id)) return (false, ids);
                }
                ids[i] = id;
                p = PorCbor.skip(d, p);
            }
            return (true, ids);
        }
    }
}
