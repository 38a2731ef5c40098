// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCoreCall} from "./PorCoreCall.sol";
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
        // `core.run(proof, all)`: `all` is `flat` (its length, then its words), then each
        // table (its length, then its words)
        (won, checkId) = PorCoreCall.call(address(core), PorDeduceCore.run.selector, proof, flat, tables);
    }
}

/// @title PorDeduceCore: `PorDeduceStep.run` behind an external call (stateless, pure).
contract PorDeduceCore {
    /// (won, check id) of the deduce step in `proof` at `PorDeduceRead.flatten`'s offsets
    /// and tables.
    function run(bytes calldata proof, uint256[] calldata packed) external pure returns (bool, bytes32) {
        (uint256[] memory flat, uint256[][] memory tables) = unpack(packed);
        return PorDeduceStep.run(proof, flat, tables);
    }

    /// `PorDeduceExec.run`'s array back as `flat` and `tables`: copied to memory once,
    /// each array a view of its length word and words there (no copy per table). The
    /// number of tables is `flat[3]`, the prior step count (`PorDeduceRead.flatten`).
    function unpack(uint256[] calldata packed)
        private
        pure
        returns (uint256[] memory flat, uint256[][] memory tables)
    {
        assembly ("memory-safe") {
            // `packed` copied to memory at once (the ABI's calldata-to-memory copy checks
            // and stores word by word); `flat` is its first word on
            flat := mload(0x40)
            let size := shl(5, packed.length)
            calldatacopy(flat, packed.offset, size)
            mstore(0x40, add(flat, size))
        }
        tables = new uint256[][](flat[3]);
        assembly ("memory-safe") {
            let p := add(flat, shl(5, add(mload(flat), 1)))
            let end := add(add(tables, 32), shl(5, mload(tables)))
            for { let t := add(tables, 32) } lt(t, end) { t := add(t, 32) } {
                mstore(t, p)
                p := add(p, shl(5, add(mload(p), 1)))
            }
        }
    }
}
