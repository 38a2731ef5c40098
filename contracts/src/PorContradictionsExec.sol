// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsStep} from "./PorContradictionsStep.sol";
import {PorContradictionsMerge} from "./PorContradictionsMerge.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorContradictionsExec: the stateless executor of the `contradictions` step kind
/// (SPEC §14.8, §12.5.5). `PorOneStepCheck`'s common part runs here (with the PromptSpec
/// leaf's §2 check); the re-execution itself runs in `PorContradictionsMerge`, which the
/// constructor deploys (the two together pass the 24 576-byte code limit), on the parts
/// verified here. Any other kind reverts `CourtPath(kind)`.
contract PorContradictionsExec {
    bytes32 public constant KIND = PorIds.CONTRADICTIONS;
    /// The second half, deployed by the constructor (no storage: an immutable).
    PorContradictionsMerge public immutable merge;

    constructor() {
        merge = new PorContradictionsMerge();
    }

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it).
    /// `PorOneStepCheck.checkKind`, its PromptSpec §2 check run by `PorCheckKeys.specTop`,
    /// which keeps the leaf's top-level offsets: the fields read are found without a walk.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        PorOneStepCheck.Parts memory parts;
        uint256[][] memory records;
        uint256[] memory at;
        bytes32 kind;
        (won, checkId, porRoot, parts, records, at, kind) = PorOneStepCheck.checkUpTo(proof);
        if (checkId != 0) return (won, checkId, porRoot);
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        (bool specOk, uint256[] memory top) = PorCheckKeys.specTop(proof, parts.all[1], PorContradictionsStep.TOP_KEYS);
        if (!specOk) return (true, PorIds.INVALID_RECORD, porRoot);
        // a PromptSpec of more top-level items than the reader keeps: its map walked
        if (top.length == 0) top = PorContradictionsStep.topWalked(proof, parts.all[1].leaf);
        (won, checkId) = merge.recompute(proof, offsets(parts, records, at, top));
    }

    /// Every offset the re-execution reads, absolute in the proof, in one flat list
    /// (`PorContradictionsStep.recomputeAt`'s `w`): the step's evidence, description and
    /// output values, the PromptSpec's `conflict_policy` and `data_requirements` values
    /// (0: absent), then per cited step its inputs, step_type and output values.
    function offsets(PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at, uint256[] memory top)
        private
        pure
        returns (uint256[] memory w)
    {
        unchecked {
            uint256 first = 2 + parts.evidenceCount;
            uint256 n = parts.priorCount;
            w = new uint256[](5 + 3 * n);
            uint256 step = parts.all[0].leaf;
            (w[0], w[1], w[2]) =
                (step + at[PorRecords.STEP_EVIDENCE], step + at[PorRecords.STEP_DESCRIPTION], step + at[PorRecords.STEP_OUTPUT]);
            (w[3], w[4]) = (top[0], top[1]);
            for (uint256 k = 0; k < n; k++) {
                uint256 b = parts.all[first + k].leaf;
                uint256[] memory rec = records[first + k];
                (w[5 + 3 * k], w[6 + 3 * k], w[7 + 3 * k]) =
                    (b + rec[PorRecords.STEP_INPUTS], b + rec[PorRecords.STEP_TYPE], b + rec[PorRecords.STEP_OUTPUT]);
            }
        }
    }
}
