// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckCompute} from "./PorCheckCompute.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckParts} from "./PorCheckParts.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorCheckExec: the executor of `check_requirement` one-step proofs (SPEC §14.8):
/// `PorOneStepCheck`'s common part here, the chunk's re-execution in the
/// `PorCheckCompute` it deploys (the two would pass EIP-170's 24 576 bytes as one).
contract PorCheckExec {
    bytes32 public constant KIND = PorIds.CHECK_REQUIREMENT;
    PorCheckCompute public immutable compute;

    constructor() {
        compute = new PorCheckCompute();
    }

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it): (won,
    /// check id, por_root); any other step kind reverts `CourtPath(kind)`.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        PorOneStepCheck.Parts memory parts;
        uint256[][] memory records;
        uint256[] memory at;
        bytes32 kind;
        (won, checkId, porRoot, parts, records, at, kind) = PorOneStepCheck.checkUpTo(proof);
        if (checkId != 0) return (won, checkId, porRoot);
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        // The PromptSpec leaf's §2 check (SPEC §14.8, `PorOneStepCheck.checkKind`'s), its
        // top-level offsets kept; the fields read are checked where they are read.
        (bool specOk, uint256[] memory top) = PorCheckKeys.specTop(proof, parts.all[1], PorCheckSpec.TOP_KEYS, 4);
        if (!specOk) return (true, PorCheckStep.INVALID_RECORD, porRoot);
        (uint256 fault, PorCheckSpec.Spec memory spec) =
            top.length != 0 ? PorCheckSpec.readSpecAt(proof, parts, at, top) : PorCheckSpec.readSpec(proof, parts, at);
        if (fault != 0) return (true, fault == 1 ? PorCheckStep.INVALID_RECORD : PorCheckStep.UNEXECUTABLE, porRoot);
        (won, checkId) = PorCheckParts.call(address(compute), proof, parts, records, at, spec);
    }
}
