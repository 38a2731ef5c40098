// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsOutput} from "./PorContradictionsOutput.sol";
import {PorContradictionsState} from "./PorContradictionsState.sol";
import {PorContradictionsDecimal} from "./PorContradictionsDecimal.sol";
import {PorContradictionsMaps} from "./PorContradictionsMaps.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorText} from "./PorText.sol";

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

    /// The re-execution proper, on a proof whose steps 1-6 of SPEC §10.5 hold and whose
    /// PromptSpec leaf passed the §2 reader, from the offsets it reads (absolute in `d`,
    /// `PorContradictionsExec.offsets`): `w[0..2]` the step's evidence, description and
    /// output values, `w[3..4]` the PromptSpec's `conflict_policy` and `data_requirements`
    /// values (0: absent), then per cited step its inputs, step_type and output values.
    function recomputeAt(bytes calldata d, uint256[] calldata w) internal pure returns (bool, bytes32) {
        unchecked {
            (bool specOk, uint256[] memory reqIds, uint256 tolerance) = readSpec(d, w[3], w[4]);
            if (!specOk) return (true, INVALID_RECORD);
            // A contradictions step cites no item, and one chunk per requirement
            // (step.citation_mismatch).
            (, uint256 nEvidence,) = PorContradictionsMaps.container(d, w[0], PorCbor.ARRAY);
            if (nEvidence != 0 || (w.length - 5) / 3 != reqIds.length) return (true, UNEXECUTABLE);
            (bool ok, PorContradictionsState.Group[] memory merged, uint256 claims) = PorContradictionsState.merge(d, w, reqIds);
            if (!ok) return (true, UNEXECUTABLE);
            bool same = PorContradictionsOutput.matches(d, w[1], w[2], merged, claims, tolerance);
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
            tolerance = toleranceAt(d, policy);
            if (tolerance == 0) {
                PorCheckKeys.find(d, policy, TOLERANCE, f);
                tolerance = f[0];
            }
            (uint256 e, bool neg) = tolerance == 0 ? (0, false) : PorContradictionsDecimal.end(d, tolerance);
            ok = e != 0 && !neg;
        }
    }

    /// The PromptSpec keys `readSpec` reads, in §2 order (`PorCheckKeys.find`).
    bytes internal constant TOP_KEYS = "\x0fconflict_policy\x11data_requirements";

    /// The values of TOP_KEYS in the PromptSpec map at `spec` (absolute offsets, 0:
    /// absent), its map walked: for a PromptSpec whose top-level offsets the §2 reader
    /// did not keep (`PorCheckKeys.specTop`).
    function topWalked(bytes calldata d, uint256 spec) internal pure returns (uint256[] memory top) {
        top = new uint256[](2);
        PorCheckKeys.find(d, spec, TOP_KEYS, top);
    }
    bytes private constant TOLERANCE = "\x11numeric_tolerance";
    bytes private constant REQ_ID = "\x0erequirement_id";

    /// `numeric_tolerance`'s value when the `conflict_policy` map at `policy` (0: absent)
    /// is {on_conflict (a text), numeric_tolerance} as a PromptSpec is written, read in
    /// place; else 0 (the caller walks it: `find`'s answer either way).
    function toleranceAt(bytes calldata d, uint256 policy) private pure returns (uint256) {
        unchecked {
            if (policy == 0 || d[policy] != 0xa2) return 0;
            // "\x6bon_conflict", then "\x71numeric_tolerance"
            uint256 q = PorCheckKeys.textEnd(d, PorCheckKeys.keyAt(d, policy + 1, 0x6b6f6e5f636f6e666c696374, 12));
            return PorCheckKeys.keyAt(d, q, 0x716e756d657269635f746f6c6572616e6365, 18);
        }
    }

    /// `requirement_id`'s value when the data requirement map at `p` begins {description
    /// (a text), requirement_id} as a PromptSpec is written (no key sorts between them),
    /// read in place; else 0 (the caller walks it: `find`'s answer either way).
    function requirementIdAt(bytes calldata d, uint256 p) private pure returns (uint256) {
        unchecked {
            uint8 ib = uint8(d[p]);
            if (ib < 0xa2 || ib > 0xb7) return 0;
            // "\x6bdescription", then "\x6erequirement_id"
            uint256 q = PorCheckKeys.textEnd(d, PorCheckKeys.keyAt(d, p + 1, 0x6b6465736372697074696f6e, 12));
            return PorCheckKeys.keyAt(d, q, 0x6e726571756972656d656e745f6964, 15);
        }
    }

    /// The requirement id texts of `data_requirements` at `reqs` (0: absent): 1..8 maps,
    /// each with an Id `requirement_id`, none twice; `f` a buffer.
    function requirementIds(bytes calldata d, uint256 reqs, uint256[] memory f)
        private
        pure
        returns (bool, uint256[] memory ids)
    {
        unchecked {
            (bool isArray, uint256 n, uint256 p) = reqs == 0 ? (false, 0, 0) : PorContradictionsMaps.container(d, reqs, PorCbor.ARRAY);
            if (!isArray || n == 0 || n > MAX_REQUIREMENTS) return (false, ids);
            ids = new uint256[](n);
            for (uint256 i = 0; i < n; i++) {
                uint256 id = requirementIdAt(d, p);
                if (id == 0) {
                    PorCheckKeys.find(d, p, REQ_ID, f);
                    id = f[0];
                }
                if (id == 0) return (false, ids);
                // a text of 1..23 bytes (a one-byte head) is an Id; another is read by isId
                if (uint8(d[id]) - 0x61 >= 23) {
                    (bool idOk,,) = PorRecords.isId(d, id);
                    if (!idOk) return (false, ids);
                }
                for (uint256 j = 0; j < i; j++) {
                    if (PorText.sameText(d, ids[j], id)) return (false, ids);
                }
                ids[i] = id;
                // the next map (none to find after the last)
                if (i + 1 < n) p = PorCbor.skip(d, p);
            }
            return (true, ids);
        }
    }
}
