// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormStep: the answers every one-step executor on chain forms gives (ADR 0017
/// stage 4; SPEC §5.6.15, §10.8), declared once.
/// @notice The check ids (keccak256 of the id text), the causes of
/// `one_step.unexecutable` (Python's AuditError ids) and the invalid-proof error a
/// carried form in the wrong role raises. The JudgeProof on forms answers `judge.*`.
abstract contract PorFormStep {
    bytes32 internal constant MATCH = keccak256("one_step.match");
    bytes32 internal constant MISMATCH = keccak256("one_step.mismatch");
    bytes32 internal constant UNEXECUTABLE = keccak256("one_step.unexecutable");
    bytes32 internal constant ID_POSITION = keccak256("one_step.id_position");
    bytes32 internal constant PRIOR_ORDER = keccak256("one_step.prior_order");
    bytes32 internal constant CITATION_MISMATCH = keccak256("step.citation_mismatch");
    bytes32 internal constant BAD_PRIOR_OUTPUT = keccak256("step.bad_prior_output");
    bytes32 internal constant BAD_INPUTS = keccak256("step.bad_inputs");

    /// The carried form `form` is not the one its role needs: not the step's citation
    /// there, not one form per prior id, or not R's REQUIREMENT (`proof.citations`).
    error Citations(uint256 form);
}
