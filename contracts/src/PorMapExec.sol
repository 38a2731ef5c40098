// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorMapExec: the `map` step kind's one-step executor (SPEC §14.8).
/// @notice Stateless, one per step kind (each under the 24 576-byte code limit), reached
/// through PorProofCheck's router. `execute` takes a por.OneStepProof/1 whose bytes
/// passed the §2 reader (the router runs it; this contract does not) and runs §10.5;
/// a step of another kind reverts `CourtPath(keccak256(kind))` once steps 1-6 hold.
contract PorMapExec {
    /// keccak256 of the `inputs.kind` this contract re-executes.
    bytes32 public constant KIND = PorIds.MAP;

    /// (won, check id, por_root) of a reader-checked por.OneStepProof/1.
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorOneStepCheck.checkWith(proof, PorOneStepCheck.executeMap);
    }
}
