// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";

/// @title PorOutcomeForm: the committed verdict's words a proposal stored (SPEC §14.4 "The
/// outcome proof"; ADR 0017 s45 `bind`).
/// @notice `execute(forms, inc)` takes one form by ABI as the FormStepProof executors do:
/// `forms[0]` the committed VERDICT form (§5.6.12), the forms tree's last leaf (`inc.index[0]`
/// = `inc.size - 1`), with its path and the forms component's path to `inc.porRoot`
/// (`F.included`). It answers (false, 0, words): `words` = the outcome as the registry codes
/// it (1 YES, 2 NO, 3 INVALID) << 192 | `confidence_bps` << 128 | `evidence_count` << 64 |
/// `reasoning_count`, which the registry compares with what `proposeVerdict` stored. An
/// invalid proof reverts: `ProofForm()` (not one form at the last index, or not a whole
/// VERDICT form: its words as the JudgeProof's executor reads them, and `confidence_bps` at
/// most 10 000), the inclusions' errors. A VERDICT form that is not `F` of the committed
/// verdict record is the FormProof's (§10.2.8): the two proofs cover every stored field.
contract PorOutcomeForm {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:outcome").
    bytes32 public constant KIND = keccak256("form:outcome");

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        if (forms.length != 1 || inc.index[0] + 1 != inc.size) revert F.ProofForm();
        F.included(forms, inc);
        return (false, 0, bytes32(_words(forms[0])));
    }

    /// The VERDICT form `f` checked whole (as `PorJudgeForm._verdict`); its stored words.
    function _words(bytes calldata f) private pure returns (uint256) {
        uint256 o = F.open(f, F.VERDICT) + 32;
        uint256 outcome;
        uint256 confidence;
        uint256 rule;
        uint256 evidence;
        uint256 reasoning;
        (outcome, o) = F.readE(f, o, 3);
        (confidence, o) = F.readW(f, o);
        if (confidence > 10_000) F.fault();
        (rule, o) = F.readE(f, o, 6);
        if (rule == 0) F.fault();
        (,, o) = F.readO(f, o, type(uint64).max);
        (evidence, o) = F.readW(f, o + 64);
        (reasoning, o) = F.readW(f, o + 32);
        F.end(f, o);
        return (outcome + 1) << 192 | confidence << 128 | evidence << 64 | reasoning;
    }
}
