// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCoreCall} from "./PorCoreCall.sol";
import {PorJudgeCheck} from "./PorJudgeCheck.sol";

/// @title PorJudgeExec: the JudgeProof (SPEC §10.2.5) checked on chain, stateless.
/// @notice The router sends it a por.JudgeProof/1 whose bytes passed the §2 reader. The
/// schema, the parts and the committed verdict record are verified here; the other
/// records, citations, cards and the judge run in `PorJudgeCore`, which the constructor
/// deploys (`core()`): both in one contract would pass the 24 576-byte code limit.
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
        // the parts' faults are lost proofs; a verdict leaf that is no valid verdict won
        if (checkId != 0) return (checkId == PorJudgeCheck.INVALID_RECORD, checkId, porRoot);
        // `core.decide(proof, flat)`: no tables, the array is `flat`'s length, then its words
        // (`PorJudgeCore`'s input); four bytes no one reads (the core's entry is its fallback)
        uint256[][] memory none; // the empty array at 0x60, not allocated
        (won, checkId) = PorCoreCall.call(address(core), 0, proof, flat, none);
    }
}

/// @title PorJudgeCore: `PorJudgeCheck.decideFlat` behind an external call (stateless).
/// @notice Its one entry is its fallback: the call's data is `PorJudgeExec.check`'s
/// (`PorCoreCall.call`'s: four bytes, then the ABI encoding of `(bytes proof, uint256[]
/// all)`, the proof's offset 0x40, `all` one word longer than `flat`, its first word `flat`'s
/// length; `flat` the parts' words, then the verdict's, `PorJudgeCheck.verify`), read
/// where it stands without the ABI decoder; it returns (won, check id) as two words.
contract PorJudgeCore {
    fallback() external {
        bytes calldata proof;
        uint256[] calldata flat;
        assembly ("memory-safe") {
            proof.length := calldataload(0x44)
            proof.offset := 0x64
            let at := add(calldataload(0x24), 0x24) // `flat`'s length word: `all`'s first
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
