// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckStep} from "./PorCheckStep.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckExec: the executor of `check_requirement` one-step proofs (SPEC §14.8,
/// §12.5.3): `PorOneStepCheck`'s common part with the chunk's re-execution only.
contract PorCheckExec {
    bytes32 public constant KIND = keccak256("check_requirement");

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it): (won,
    /// check id, por_root); any other step kind reverts `CourtPath(kind)`.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorOneStepCheck.checkWith(proof, PorCheckStep.execute);
    }
}
