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
        // the core's input `(proof, all)`: `all` is `flat` (its length, then its words), then
        // each table (its length, then its words); four bytes no one reads before it (the
        // core's entry is its fallback)
        (won, checkId) = PorCoreCall.call(address(core), 0, proof, flat, tables);
    }
}

/// @title PorDeduceCore: `PorDeduceStep.run` behind an external call (stateless, pure).
/// @notice Its one entry is its fallback: the call's data is `PorDeduceExec.execute`'s
/// (`PorCoreCall.call`'s: four bytes no one reads, then the ABI encoding of `(bytes proof,
/// uint256[] all)`, the proof's offset 0x40, `all` being `flat` then each table), read where
/// it stands without the ABI decoder (its checks guarded data only the executor writes);
/// it returns (won, check id) as two words.
contract PorDeduceCore {
    fallback() external {
        bytes calldata proof;
        uint256[] memory flat;
        assembly ("memory-safe") {
            proof.length := calldataload(0x44)
            proof.offset := 0x64
            // `all` copied to memory at once; `flat` is its first word on (`flat`'s length)
            let at := add(calldataload(0x24), 0x04) // `all`'s length word
            let size := shl(5, calldataload(at))
            flat := mload(0x40)
            calldatacopy(flat, add(at, 0x20), size)
            mstore(0x40, add(flat, size))
        }
        (bool won, bytes32 checkId) = PorDeduceStep.run(proof, flat, tables(flat));
        assembly ("memory-safe") {
            mstore(0, won)
            mstore(0x20, checkId)
            return(0, 0x40)
        }
    }

    /// The tables after `flat` in `PorDeduceExec`'s array (copied with it), each a view of
    /// its length word and words there (no copy per table). The number of tables is
    /// `flat[3]`, the prior step count (`PorDeduceRead.flatten`).
    function tables(uint256[] memory flat) private pure returns (uint256[][] memory t) {
        t = new uint256[][](flat[3]);
        assembly ("memory-safe") {
            let p := add(flat, shl(5, add(mload(flat), 1)))
            let end := add(add(t, 32), shl(5, mload(t)))
            for { let q := add(t, 32) } lt(q, end) { q := add(q, 32) } {
                mstore(q, p)
                p := add(p, shl(5, add(mload(p), 1)))
            }
        }
    }
}
