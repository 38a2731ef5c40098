// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckParts} from "./PorCheckParts.sol";
import {PorContradictionsStep} from "./PorContradictionsStep.sol";
import {PorContradictionsMerge} from "./PorContradictionsMerge.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
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
        (won, checkId) = merge.recompute(proof, PorCheckParts.pack(parts), parts.evidenceCount, records, at, top);
    }
}
