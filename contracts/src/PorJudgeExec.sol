// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorJudgeCheck} from "./PorJudgeCheck.sol";

/// @title PorJudgeExec: the JudgeProof (SPEC §10.2.5) checked on chain, stateless.
/// @notice The router sends it a por.JudgeProof/1 whose bytes passed the §2 reader.
contract PorJudgeExec {
    /// The proof schema it decides (SPEC §14.8, the router's `KIND()`).
    bytes32 public constant KIND = keccak256("por.JudgeProof/1");

    /// (won, check id, por_root) of `verify_judge_proof` for the proof bytes (SPEC §14.8).
    function check(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorJudgeCheck.check(proof);
    }
}
