// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorIds: the check ids and step kinds the contracts name, each once (SPEC §10.5,
/// §12.5, §14.8). A check id is keccak256 of its text, as `checkProof` returns it; a step
/// kind is keccak256 of its `inputs.kind` text. Constants: no code of their own.
library PorIds {
    bytes32 internal constant MALFORMED = keccak256("proof.malformed");
    bytes32 internal constant SCHEMA = keccak256("proof.schema");
    bytes32 internal constant UNSUPPORTED = keccak256("proof.unsupported");
    bytes32 internal constant CITATIONS = keccak256("proof.citations");
    bytes32 internal constant INVALID_RECORD = keccak256("one_step.invalid_record");
    bytes32 internal constant ID_POSITION = keccak256("one_step.id_position");
    bytes32 internal constant PRIOR_ORDER = keccak256("one_step.prior_order");
    bytes32 internal constant UNEXECUTABLE = keccak256("one_step.unexecutable");
    bytes32 internal constant MATCH = keccak256("one_step.match");
    bytes32 internal constant MISMATCH = keccak256("one_step.mismatch");

    bytes32 internal constant EXTRACT_CLAIMS = keccak256("extract_claims");
    bytes32 internal constant CHECK_REQUIREMENT = keccak256("check_requirement");
    bytes32 internal constant AGGREGATE = keccak256("aggregate");
    bytes32 internal constant CONTRADICTIONS = keccak256("contradictions");
    bytes32 internal constant DEDUCE = keccak256("deduce");
    bytes32 internal constant MAP = keccak256("map");
}
