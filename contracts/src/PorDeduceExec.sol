// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDeduceRead} from "./PorDeduceRead.sol";
import {PorDeduceStep} from "./PorDeduceStep.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorDeduceExec: a one-step proof of a `deduce` step decided on chain (SPEC §14.8).
/// @notice Stateless. `PorOneStepCheck`'s common part runs here; the deduce re-execution
/// (`PorDeduceStep`) runs in `PorDeduceCore`, which the constructor deploys (`core()`):
/// both in one contract would pass the 24 576-byte code limit. A step of any other kind
/// reverts `CourtPath(keccak256(kind))`.
contract PorDeduceExec {
    bytes32 public constant KIND = PorIds.DEDUCE;
    PorDeduceCore public immutable core;

    constructor() {
        core = new PorDeduceCore();
    }

    /// A por.OneStepProof/1 whose bytes passed the §2 reader (the router runs it).
    function execute(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        uint256[] memory flat;
        uint256[][] memory tables;
        (won, checkId, porRoot, flat, tables) = PorDeduceRead.prepare(proof, KIND);
        if (checkId != 0) return (won, checkId, porRoot);
        (won, checkId) = core.run(proof, flat, tables);
    }
}

/// @title PorDeduceCore: `PorDeduceStep.run` behind an external call (stateless, pure).
contract PorDeduceCore {
    /// (won, check id) of the deduce step in `proof` at `PorDeduceRead.flatten`'s offsets
    /// and tables.
    function run(bytes calldata proof, uint256[] calldata flat, uint256[][] calldata tables)
        external
        pure
        returns (bool, bytes32)
    {
        return PorDeduceStep.run(proof, flat, tables);
    }
}
