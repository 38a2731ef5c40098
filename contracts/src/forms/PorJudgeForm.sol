// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorJudgeFormRead} from "./PorJudgeFormRead.sol";

/// @title PorJudgeForm: the JudgeProof (SPEC §10.2.5) on chain forms (ADR 0017 stage 4;
/// SPEC §7.1-§7.4 on `docs/spec-forms-draft.md`'s layouts).
/// @notice `execute(forms, inc)` takes the forms by ABI as `PorAggregateForm` does:
/// `forms[0]` the committed VERDICT (index size - 1), `forms[1]` COMMON (index 0),
/// `forms[2]` the last reasoning leaf's form (index size - 2), then the EXTRACT forms of
/// the items `source_summary` names (each id once, in order; leaves below the verdict's
/// `evidence_count`); `inc` their indexes and paths and the forms component's path.
/// It answers as Python's `verify_judge_proof`: (won, check id, 0): won
/// `judge.final_step` (the last leaf is not a map step), `judge.mismatch` (the verdict's
/// market, outcome, confidence, rule or resolution time is not the judge's); lost
/// `judge.match`. The reference words (7-11) are the committed form's, as §10.2.5 takes
/// them. An invalid proof reverts: `ProofForm()` (`proof.form`), `FinalStep()`
/// (`proof.final_step`), `Citations(i)` (`proof.citations`), the inclusions' errors.
contract PorJudgeForm is PorJudgeFormRead {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:judge").
    bytes32 public constant KIND = keccak256("form:judge");

    bytes32 internal constant MATCH = keccak256("judge.match");
    bytes32 internal constant MISMATCH = keccak256("judge.mismatch");
    bytes32 internal constant FINAL_STEP = keccak256("judge.final_step");

    /// The final step is not the last reasoning leaf (`proof.final_step`).
    error FinalStep();
    /// The carried EXTRACT forms are not the summarised items' (`proof.citations`).
    error Citations(uint256 form);

    /// Outcome and rule codes (draft §1.1).
    uint256 private constant YES = 0;
    uint256 private constant NO = 1;
    uint256 private constant INVALID = 2;
    uint256 private constant R_VALIDITY = 1;
    uint256 private constant R_CONFLICT = 2;
    uint256 private constant R_BINARY_DECISION = 3;
    uint256 private constant R_CONFIDENCE = 4;
    uint256 private constant R_INVALID_FALLBACK = 5;

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        return _run(forms, inc.index, inc.size);
    }

    function _run(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        pure
        returns (bool, bytes32, bytes32)
    {
        if (forms.length < 3 || index[0] + 1 != size || index[1] != 0) revert F.ProofForm();
        uint256 evidenceCount = _verdict(forms[0]);
        Spec memory s = _common(forms[1]);
        uint256 r = s.reqs.length;
        if (index[2] + 2 != size) revert FinalStep();
        if (F.stepTag(forms[2], index[2], r, size) != F.MAP) return (true, FINAL_STEP, 0);
        return _onMap(forms, index, r + 1 + evidenceCount, s);
    }

    /// The last leaf is a map step: its variables, the carried EXTRACTs, the judge.
    function _onMap(bytes[] calldata forms, uint256[] calldata index, uint256 below, Spec memory s)
        private
        pure
        returns (bool, bytes32, bytes32)
    {
        Vars memory v = _map(forms[2], forms.length - 3);
        uint256 minConf = _cards(forms, index, below, v, s);
        return _same(forms[0], s, _judge(s, v, minConf)) ? (false, MATCH, bytes32(0)) : (true, MISMATCH, bytes32(0));
    }

    /// The committed verdict's decision words (1-6) are the judge's (outcome, confidence, rule).
    function _same(bytes calldata f, Spec memory s, uint256[3] memory j) private pure returns (bool) {
        return F.word(f, 1) == uint256(s.market) && F.word(f, 2) == j[0] && F.word(f, 3) == j[1]
            && F.word(f, 4) == j[2] && F.word(f, 5) == 1 && F.word(f, 6) == s.end;
    }

    /// The committed VERDICT checked whole; its evidence count.
    function _verdict(bytes calldata f) private pure returns (uint256 count) {
        uint256 o = F.open(f, F.VERDICT) + 32;
        (, o) = F.readE(f, o, 3);
        (, o) = F.readW(f, o);
        uint256 rule;
        (rule, o) = F.readE(f, o, 6);
        if (rule == 0) F.fault();
        (,, o) = F.readO(f, o, type(uint64).max);
        (count, o) = F.readW(f, o + 64);
        (, o) = F.readW(f, o + 32);
        F.end(f, o);
    }

    /// The carried EXTRACT forms are the summarised items' in order (leaves below the
    /// evidence count; word 4, `H(evidence_id)`, is the summary's word); the lock counts
    /// the code points of each one's word 5, `T(evidence_id)` (1..128, §7.4: else
    /// `v.lockFails`; a word 4 that is not `H` of word 5 is that EXTRACT's FormProof's
    /// fault, §5.6.15: the judge counts word 5 as carried); a card below its requirement's
    /// tier or of an unknown requirement sets `v.prov` false (the same R_VALIDITY).
    /// Returns the lowest confidence.
    function _cards(bytes[] calldata forms, uint256[] calldata index, uint256 below, Vars memory v, Spec memory s)
        private
        pure
        returns (uint256 minConf)
    {
        uint256 n = v.ids.length;
        if (v.tooMany || forms.length != 3 + n) revert Citations(forms.length);
        minConf = type(uint256).max;
        for (uint256 i; i < n; ++i) {
            bytes calldata e = forms[3 + i];
            if (index[3 + i] >= below || index[3 + i] <= s.reqs.length || F.tagOf(e) != F.EXTRACT) {
                revert Citations(3 + i);
            }
            if (bytes32(F.at(e, 128)) != v.ids[i]) revert Citations(3 + i);
            (uint256 p, uint256 len, uint256 o) = F.readT(e, 160);
            uint256 points = _points(p, len);
            if (points == 0 || points > 128) v.lockFails = true;
            (uint256 tier, uint256 conf, bytes32 req) = _card(e, o);
            if (conf < minConf) minConf = conf;
            if (!_tierOk(s, req, tier)) v.prov = false;
        }
    }

    /// An EXTRACT's tier, confidence and requirement, the form checked from its claims on.
    function _card(bytes calldata e, uint256 o) private pure returns (uint256 tier, uint256 conf, bytes32 req) {
        tier = F.word(e, 3);
        if (tier > 3) F.fault();
        uint256 n;
        (n, o) = F.readL(e, o);
        for (uint256 i; i < n; ++i) {
            uint256 kind;
            (kind, o) = F.readE(e, o + 32, 4); // after H(key)
            (, o) = F.readH(e, o); // H(claim_id)
            if (kind == F.TEXT) (, o) = F.readH(e, o); // a text value's H
            else o = F.skipV(e, o, kind);
        }
        (req, o) = F.readH(e, o);
        (, o) = F.readW(e, o);
        (, o) = F.readW(e, o);
        (conf, o) = F.readW(e, o);
        (, o) = F.readB(e, o);
        F.end(e, o);
    }

    /// `tiers.get(item.requirement_id)` (the last requirement with the id) and the floor.
    function _tierOk(Spec memory s, bytes32 req, uint256 tier) private pure returns (bool) {
        for (uint256 k = s.reqs.length; k > 0; --k) {
            if (s.reqs[k - 1] == req) return tier >= s.tiers[k - 1];
        }
        return false;
    }

    /// §7.2-§7.4: (outcome, confidence, rule).
    function _judge(Spec memory s, Vars memory v, uint256 minConf) private pure returns (uint256[3] memory) {
        uint256 invalidConf = s.conf[4] < s.conf[1] ? s.conf[4] : s.conf[1];
        if (!_valid(s, v)) return [INVALID, invalidConf, R_VALIDITY];
        if (v.conflict && s.onConflictInvalid) return [INVALID, invalidConf, R_CONFLICT];
        (bool decided, bool yes) = _decide(s, v);
        if (!decided) return [INVALID, invalidConf, R_INVALID_FALLBACK];
        uint256 c = s.conf[0] < minConf ? s.conf[0] : minConf;
        if (v.conflict) c = (c * s.conf[2] + 5000) / 10000;
        if (v.fb) c = (c * s.conf[3] + 5000) / 10000;
        if (c > 10000) c = 10000;
        if (c < s.conf[1]) return [INVALID, invalidConf, R_CONFIDENCE];
        return [yes ? YES : NO, c, R_BINARY_DECISION];
    }

    /// The lock (COMMON's parts, the variables) and stage 1.
    function _valid(Spec memory s, Vars memory v) private pure returns (bool) {
        if (s.lockFails || v.lockFails || v.insufficient || !v.prov || v.nSummary == 0) return false;
        if (v.hasStamp && (v.stamp + s.slack < s.start || v.stamp > s.end + s.slack)) return false;
        return !(_numeric(s) && !v.hasNum && !_eventDecides(s, v));
    }

    function _numeric(Spec memory s) private pure returns (bool) {
        uint256 p = s.ps.predicate;
        return p == 1 || p == 2 || p == 3 || p == 5;
    }

    function _eventDecides(Spec memory s, Vars memory v) private pure returns (bool) {
        if (s.hasK) return true;
        return (s.anyOtherwiseNo || s.ps.absentNo) && !v.hasNum && v.hasEvent && !v.eventTrue;
    }

    /// Stage 3: the numeric value against the predicate's bound, else the event.
    function _decide(Spec memory s, Vars memory v) private pure returns (bool decided, bool yes) {
        bool numeric = _numeric(s);
        bool ed = _eventDecides(s, v);
        if (v.hasNum && numeric && !ed) return (true, _holds(s, v.num));
        if (v.hasEvent && (!numeric || ed)) return (true, v.eventTrue);
        return (false, false);
    }
}
