// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckStep} from "./PorCheckStep.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorCheckCompute: the `check_requirement` chunk's re-execution (SPEC §12.5.3) on
/// parts `PorCheckExec` verified. It holds no state and trusts its caller's parts: only
/// the executor that deployed it calls it (an answer to anyone else proves nothing).
contract PorCheckCompute {
    function run(
        bytes calldata proof,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory at
    ) external pure returns (bool won, bytes32 checkId) {
        return PorCheckStep.execute(proof, parts, records, at, PorCheckStep.KIND);
    }
}

/// @title PorCheckExec: the executor of `check_requirement` one-step proofs (SPEC §14.8):
/// `PorOneStepCheck`'s common part here, the chunk's re-execution in the
/// `PorCheckCompute` it deploys (the two would pass EIP-170's 24 576 bytes as one).
contract PorCheckExec {
    bytes32 public constant KIND = keccak256("check_requirement");
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
        (checkId, won, porRoot, parts, records, at, kind) = PorOneStepCheck.prepared(proof);
        if (checkId != 0) return (won, checkId, porRoot);
        if (kind != KIND) revert PorOneStepCheck.CourtPath(kind);
        (won, checkId) = compute.run(proof, parts, records, at);
    }
}
