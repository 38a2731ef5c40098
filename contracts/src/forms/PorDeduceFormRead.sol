// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";
import {PorFormStep} from "./PorFormStep.sol";

/// @title PorDeduceFormRead: what the deduce executor on chain forms reads, checked (ADR
/// 0017 stage 4; `docs/spec-forms-draft.md` §2.1, §2.6-§2.8).
/// @notice COMMON (the requirement table and the prediction semantics), the cited
/// AGGREGATE forms (their requirement, coverage, evidence ids and fields) and the
/// CONTRADICTIONS form (its conflicts' kind and key) are read through `PorForms`'
/// bounds-checked readers up to the last word deduce reads (a malformation there reverts
/// `ProofForm()`; words no rule of §12.5.6 reads are skipped, not checked, as
/// `PorAggregateForm` does); what deduce needs is kept in memory as calldata positions.
abstract contract PorDeduceFormRead is PorFormStep {
    /// Roles of a needed field: the metric, a `+` term, a `-` term or `other_metric`, a
    /// precondition.
    uint256 internal constant PLUS = 1;
    uint256 internal constant MINUS = 2;
    uint256 internal constant PRE = 3;

    /// COMMON as deduce reads it (`por.predicates.needed_fields` in `keys`/`kinds`/`roles`).
    struct Sem {
        uint256 k; // sources_required, 0 when absent
        bytes32[] reqs; // H(requirement_id) per requirement
        bool[] chain; // strategy fallback_chain
        uint256[] targets; // #source_targets
        C.Semantics ps;
        bytes32[] keys;
        uint256[] kinds;
        uint256[] roles;
    }

    /// A cited AGGREGATE: its evidence ids (`H` words); per field its words.
    struct Agg {
        uint256 rid; // calldata position of T(inputs.requirement_id) (word 2)
        bool covered;
        bool prov;
        bytes32[] eh; // evidence_ids: H(evidence_id) each
        uint256[] order; // eh's positions sorted (PorFormsIndex), built at the first lookup past FEW ids
        bool[] read;
        bytes32[] fkey; // H(key)
        uint256[] fkind;
        uint256[] fstatus;
        bool[] ffb;
        uint256[] fval; // calldata position of V(value), 0 when absent
        uint256[] fids; // calldata position of L[H](evidence_ids)
        uint256[] fvotes; // calldata position of L[vote], 0 when absent
    }

    /// The head of a step form citing by `prior_step_ids` alone (DEDUCE, CONTRADICTIONS):
    /// tag, step id, Ri, priors, evidence ids.
    struct Head {
        uint256 ri;
        uint256 priors; // calldata position of L[H](prior_step_ids)
        uint256 evid; // offset of L[H](evidence_ids) in the form
        uint256 evidEnd; // offset after it
    }

    /// The prologue the deduce and contradictions executors share (SPEC §10.4.4): COMMON,
    /// the step's head (its tag `tag`), the carried forms against its citations; a non-zero
    /// `answer` (won) with its `cause` when the step's id, its citations' order or its
    /// inputs lie.
    function _prologue(bytes[] calldata forms, uint256[] calldata index, uint256 size, uint256 tag)
        internal
        view
        returns (Sem memory s, Head memory h, bytes32 answer, bytes32 cause)
    {
        if (forms.length < 2 || index[1] != 0) revert F.ProofForm();
        s = _common(forms[1]);
        uint256 r = s.reqs.length;
        h = _head(forms[0], tag);
        if (F.load(h.priors) != forms.length - 2) revert Citations(forms.length);
        for (uint256 i = 2; i < forms.length; ++i) {
            F.stepTag(forms[i], index[i], r, size);
            if (F.word(forms[i], 1) != F.load(h.priors + 32 * (i - 1))) revert Citations(i);
        }
        if (index[0] <= r || index[0] + 2 > size) revert F.ProofForm();
        if (F.stepIdHash(index[0] - 1 - r + 1) != bytes32(F.word(forms[0], 1))) return (s, h, ID_POSITION, 0);
        for (uint256 i = 2; i < forms.length; ++i) {
            if (index[i] >= index[0]) return (s, h, PRIOR_ORDER, 0);
        }
        if (h.ri != 0) return (s, h, UNEXECUTABLE, BAD_INPUTS);
    }

    /// The head of the step's form (its tag checked).
    function _head(bytes calldata f, uint256 tag) internal pure returns (Head memory h) {
        uint256 o = F.open(f, tag) + 32;
        (h.ri, o) = (F.at(f, o), o + 32);
        h.priors = F.pos(f) + o;
        uint256 n;
        (n, o) = F.readL(f, o);
        o += n << 5;
        h.evid = o;
        (n, o) = F.readL(f, o); // L[H]: the count bounds its words
        h.evidEnd = o + (n << 5);
    }

    // ---------------------------------------------------------------- COMMON

    /// COMMON read whole: the requirement table, then the prediction semantics.
    function _common(bytes calldata f) internal pure returns (Sem memory s) {
        (uint256 k, uint256 table, uint256 r, uint256 o) = C.head(f);
        s.k = k;
        (s.reqs, s.chain, s.targets) = (new bytes32[](r), new bool[](r), new uint256[](r));
        uint256 p = F.pos(f) + table + 32;
        for (uint256 i; i < r; ++i) {
            (s.reqs[i], s.chain[i], s.targets[i]) = (bytes32(F.load(p)), F.load(p + 32) == 2, F.load(p + 64));
            p += 128;
        }
        o = C.read(f, _market(f, o), s.ps);
        F.end(f, o);
        _needed(f, s);
    }

    /// Market id to the confidence policy: not read by deduce, skipped (its lists' counts
    /// checked against the form's words).
    function _market(bytes calldata f, uint256 o) private pure returns (uint256) {
        uint256 n;
        (n, o) = F.readL(f, o + 128); // market id, window, slack
        (n, o) = F.readL(f, o + (n << 5)); // allowed sources, then the rule codes
        return o + (n << 5) + 256; // on_conflict, schema ref, strict mode, five confidences
    }

    /// The needed fields: the metric, the terms, other_metric, the preconditions.
    function _needed(bytes calldata f, Sem memory s) private pure {
        C.Semantics memory ps = s.ps;
        uint256 nTerms = ps.nTerms;
        uint256 nPre = ps.preKeys.length;
        uint256 n = 1 + nTerms + (ps.hasOther ? 1 : 0) + nPre;
        (s.keys, s.kinds, s.roles) = (new bytes32[](n), new uint256[](n), new uint256[](n));
        s.keys[0] = bytes32(F.word(f, 1));
        // the metric's kind by predicate: boolean, numeric x3, text, timestamp
        s.kinds[0] = (0x020301010100 >> (8 * ps.predicate)) & 0xff;
        uint256 t = ps.terms >> 5;
        for (uint256 i; i < nTerms; ++i) {
            s.kinds[1 + i] = F.NUMERIC;
            s.roles[1 + i] = F.word(f, t + 2 * i) == 1 ? MINUS : PLUS;
            s.keys[1 + i] = bytes32(F.word(f, t + 2 * i + 1));
        }
        if (ps.hasOther) (s.kinds[1 + nTerms], s.roles[1 + nTerms], s.keys[1 + nTerms]) = (F.NUMERIC, MINUS, ps.other);
        for (uint256 j; j < nPre; ++j) {
            uint256 i = n - nPre + j;
            (s.kinds[i], s.roles[i]) = (F.TEXT, PRE);
            s.keys[i] = ps.preKeys[j];
        }
    }

    // ---------------------------------------------------------------- AGGREGATE

    /// A cited AGGREGATE read up to its fields.
    function _aggregate(bytes calldata f) internal pure returns (Agg memory a) {
        uint256 o = 64; // tag (checked by the caller) and step id
        a.rid = F.pos(f) + o;
        o = F.skipT(f, o) + 32; // Ri
        uint256 n;
        (n, o) = F.readL(f, o);
        o += n << 5; // priors
        (n, o) = F.readL(f, o); // L[H]: the count bounds its words
        (a.eh, a.read) = (new bytes32[](n), new bool[](n));
        uint256 p = F.pos(f) + o;
        for (uint256 j; j < n; ++j) a.eh[j] = bytes32(F.load(p + (j << 5)));
        o += (n << 5) + 64; // H(o.requirement_id), strategy (not read)
        (a.covered, o) = F.readB(f, o);
        (a.prov, o) = F.readB(f, o);
        (n, o) = F.readL(f, o + 128); // item_count, last_leaf, fallback_used (not read)
        (a.fkey, a.fkind, a.fstatus, a.ffb) = (new bytes32[](n), new uint256[](n), new uint256[](n), new bool[](n));
        (a.fval, a.fids, a.fvotes) = (new uint256[](n), new uint256[](n), new uint256[](n));
        for (uint256 j; j < n; ++j) o = _field(f, o, a, j);
        // sources_used, the rests and the description: not read
    }

    /// Field j of an AGGREGATE.
    function _field(bytes calldata f, uint256 o, Agg memory a, uint256 j) private pure returns (uint256) {
        (a.fkey[j], o) = F.readH(f, o); // the REQUIREMENT's H(key), copied
        uint256 kind;
        (kind, o) = F.readE(f, o, 4);
        a.fkind[j] = kind;
        (a.fstatus[j], o) = F.readE(f, o, 4);
        (, o) = F.readW(f, o);
        (a.ffb[j], o) = F.readB(f, o);
        bool present;
        (present, o) = F.readP(f, o);
        if (present) {
            a.fval[j] = F.pos(f) + o;
            o = _skipV(f, o, kind);
        }
        (present, o) = F.readP(f, o);
        if (present) o += 128; // quorum (not read)
        o = _skipHashes(f, o); // claim_ids
        a.fids[j] = F.pos(f) + o;
        o = _skipHashes(f, o);
        (present, o) = F.readP(f, o);
        if (present) {
            a.fvotes[j] = F.pos(f) + o;
            uint256 n;
            (n, o) = F.readL(f, o);
            for (uint256 v; v < n; ++v) o = _skipV(f, o, kind) + 96; // value, H(source_id), H(evidence_id), rest
        }
        F.at(f, o); // the field's rest: every word above is inside the form
        return o + 32;
    }

    /// `V_kind`, checked: a text value is its `H` (one word, SPEC §5.6.1), the others as
    /// `PorForms.skipV` reads them.
    function _skipV(bytes calldata f, uint256 o, uint256 kind) internal pure returns (uint256) {
        if (kind != F.TEXT) return F.skipV(f, o, kind);
        (, o) = F.readH(f, o);
        return o;
    }

    /// A checked `L[H]`: the offset after it (the count bounds its words).
    function _skipHashes(bytes calldata f, uint256 o) internal pure returns (uint256) {
        uint256 n;
        (n, o) = F.readL(f, o);
        return o + (n << 5);
    }

    // ---------------------------------------------------------------- CONTRADICTIONS

    /// The conflicts' (kind, H(key)) of a CONTRADICTIONS, read up to its conflicts.
    function _conflicts(bytes calldata f) internal pure returns (uint256[] memory kinds, bytes32[] memory keys) {
        uint256 o = 96; // tag, step id, Ri
        uint256 n;
        (n, o) = F.readL(f, o);
        o = _skipHashes(f, o + (n << 5));
        (,,,, o) = D.readD(f, o + 32); // after claim_count
        (n, o) = F.readL(f, o);
        (kinds, keys) = (new uint256[](n), new bytes32[](n));
        for (uint256 i; i < n; ++i) {
            (kinds[i], o) = F.readE(f, o + 32, 4); // after the check id (not read)
            (keys[i], o) = F.readH(f, o);
            o = _skipHashes(f, _skipHashes(f, o)); // claim_ids, evidence_ids
            uint256 m;
            (m, o) = F.readL(f, o);
            for (uint256 v; v < m; ++v) {
                if (kinds[i] == F.NUMERIC) (,,,, o) = D.readD(f, o);
                else if (kinds[i] == F.BOOLEAN) (, o) = F.readB(f, o);
                else F.fault();
            }
            o += 64; // claim_count, rest
        }
        // the output's rest and the description: not read
    }
}
