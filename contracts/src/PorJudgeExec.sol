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
        (won, checkId) = core.decide(proof, flat);
    }
}

/// @title PorJudgeCore: `PorJudgeCheck.decideFlat` behind an external call (stateless, pure).
contract PorJudgeCore {
    /// (won, check id) of the verified JudgeProof `proof` whose parts are `flat`
    /// (`PorJudgeCheck.verify`'s).
    function decide(bytes calldata proof, uint256[] calldata flat) external pure returns (bool, bytes32) {
        return PorJudgeCheck.decideFlat(proof, flat);
    }
}
