// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorProofCheck, PorRegistryTypes} from "./PorRegistryTypes.sol";

/// @title PorOutcomeCall: the outcome proof's answer for the registry (SPEC §14.4 "The
/// outcome proof"; ADR 0017 s45 `bind`).
/// @notice `settleByForms(marketKey, keccak256("form:outcome"), args)`: `args` carries the
/// committed VERDICT form with its inclusion under a por_root (as a FormStepProof's);
/// PorProofCheck's `checkOutcome` proves it and reads the words a proposal stores. Any
/// stored word that is not the committed verdict's (the outcome, `confidenceBps`,
/// `evidenceCount`, `reasoningCount`) wins `signature.field_mismatch`: the signer signed a
/// verdict the bundle does not hold. All equal is lost `one_step.match`; an invalid proof
/// is lost with its id. The proof hash is keccak256(kind || args), as a FormStepProof's.
library PorOutcomeCall {
    bytes32 internal constant KIND = keccak256("form:outcome");
    bytes32 internal constant FIELD_MISMATCH = keccak256("signature.field_mismatch");
    bytes32 internal constant MATCH = keccak256("one_step.match");

    /// (won, check id, the proof's por_root, the proof hash) of an outcome proof against the
    /// market's stored record.
    function check(address proofCheck, PorRegistryTypes.Record storage record, bytes calldata args)
        internal
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot, bytes32 proofHash)
    {
        proofHash = keccak256(abi.encodePacked(KIND, args));
        bytes32 words;
        (checkId, porRoot, words) = IPorProofCheck(proofCheck).checkOutcome(args);
        if (checkId != 0) return (false, checkId, porRoot, proofHash);
        uint256 stored = uint256(record.outcome) << 192 | uint256(record.confidenceBps) << 128
            | uint256(record.evidenceCount) << 64 | uint256(record.reasoningCount);
        won = stored != uint256(words);
        checkId = won ? FIELD_MISMATCH : MATCH;
    }
}
