// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorJudgeCheck} from "./PorJudgeCheck.sol";

/// @title PorJudgeExec: the JudgeProof (SPEC §10.2.5) checked on chain, stateless.
/// @notice The router sends it a por.JudgeProof/1 whose bytes passed the §2 reader. The
/// schema and the parts are verified here; the records, citations, cards and the judge
/// run in `PorJudgeCore`, which the constructor deploys (`core()`): both in one contract
/// would pass the 24 576-byte code limit.
contract PorJudgeExec {
    /// The proof schema it decides (SPEC §14.8, the router's `KIND()`).
    bytes32 public constant KIND = keccak256("por.JudgeProof/1");
    PorJudgeCore public immutable core;

    constructor() {
        core = new PorJudgeCore();
    }

    /// (won, check id, por_root) of `verify_judge_proof` for the proof bytes (SPEC §14.8).
    function check(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        uint256[] memory flat;
        (checkId, porRoot, flat) = PorJudgeCheck.verify(proof);
        if (checkId != 0) return (false, checkId, porRoot);
        (won, checkId) = decide(proof, flat);
    }

    /// `core.decide(proof, flat)`, the call's data written here (the proof with one
    /// `calldatacopy`, `flat`'s length and words with one `mcopy`, where the ABI encoder
    /// stored `flat` word by word). The core's revert is passed on.
    function decide(bytes calldata proof, uint256[] memory flat) private view returns (bool won, bytes32 checkId) {
        address to = address(core);
        bytes4 selector = 0; // four bytes no one reads: the core's entry is its fallback
        assembly ("memory-safe") {
            let m := mload(0x40)
            let padded := and(add(proof.length, 31), not(31))
            mstore(m, selector)
            mstore(add(m, 0x04), 0x40)
            mstore(add(m, 0x24), add(0x60, padded))
            mstore(add(m, 0x44), proof.length)
            mstore(add(m, add(0x44, padded)), 0) // the proof's last word, zero padded
            calldatacopy(add(m, 0x64), proof.offset, proof.length)
            let at := add(add(m, 0x64), padded) // the array's length word
            let size := shl(5, add(mload(flat), 1))
            mcopy(at, flat, size)
            if iszero(staticcall(gas(), to, m, sub(add(at, size), m), 0, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            won := iszero(iszero(mload(0)))
            checkId := mload(0x20)
        }
    }
}

/// @title PorJudgeCore: `PorJudgeCheck.decideFlat` behind an external call (stateless).
/// @notice Its one entry is its fallback: the call's data is `PorJudgeExec.decide`'s
/// (four bytes, then the ABI encoding of `(bytes proof, uint256[] flat)`, the proof's
/// offset 0x40), read where it stands without the ABI decoder; it returns (won, check id)
/// as two words.
contract PorJudgeCore {
    fallback() external {
        bytes calldata proof;
        uint256[] calldata flat;
        assembly ("memory-safe") {
            proof.length := calldataload(0x44)
            proof.offset := 0x64
            let at := add(calldataload(0x24), 0x04) // the array's length word
            flat.length := calldataload(at)
            flat.offset := add(at, 0x20)
        }
        (bool won, bytes32 checkId) = PorJudgeCheck.decideFlat(proof, flat);
        assembly ("memory-safe") {
            mstore(0, won)
            mstore(0x20, checkId)
            return(0, 0x40)
        }
    }
}
