// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorDeduceFormRun} from "./PorDeduceFormRun.sol";
import {PorFormsIndex as I} from "./PorFormsIndex.sol";

/// @title PorDeduceForm: a `deduce` step re-executed on chain forms (ADR 0017 stage 4; SPEC
/// §12.5.6 and §12.4.1 on `docs/spec-forms-draft.md`'s layouts).
/// @notice `execute(forms, inc)` takes the forms by ABI as `PorAggregateForm` does:
/// `forms[0]` the step's DEDUCE, `forms[1]` COMMON, then the forms of the step's
/// `prior_step_ids` in citation order (the r AGGREGATEs, then the CONTRADICTIONS);
/// `inc` (`PorForms.Inclusion`) their indexes and paths in the forms tree and the forms
/// component's path to `porRoot`. It answers as Python's one-step check of the step's
/// OneStepProof: (won, check id, cause): won `one_step.id_position`,
/// `one_step.prior_order`, `one_step.unexecutable` (cause `step.bad_inputs`,
/// `step.citation_mismatch` or `step.bad_prior_output`), `one_step.mismatch`; lost
/// `one_step.match`. The whole DEDUCE form is rebuilt in memory and its hash compared.
/// An invalid proof reverts: `ProofForm()` (`proof.form`), `Citations(i)`
/// (`proof.citations`), `FormsInclusion`/`FormsPorRoot`/PorMerkle's errors.
contract PorDeduceForm is PorDeduceFormRun {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:deduce").
    bytes32 public constant KIND = keccak256("form:deduce");

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        return _run(forms, inc.index, inc.size);
    }

    /// The DEDUCE form's head: tag, step id, Ri, priors, evidence ids.
    struct Head {
        uint256 ri;
        uint256 priors; // calldata position of L[H](prior_step_ids)
        uint256 evid; // offset of L[H](evidence_ids) in the form
        uint256 evidEnd; // offset after it
        bytes32[] eh; // H(evidence_id) each
    }

    function _run(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        if (forms.length < 2 || index[1] != 0) revert F.ProofForm();
        Ctx memory c;
        c.s = _common(forms[1]);
        uint256 r = c.s.reqs.length;
        Head memory h = _head(forms[0]);
        if (F.load(h.priors) != forms.length - 2) revert Citations(forms.length);
        for (uint256 i = 2; i < forms.length; ++i) {
            F.stepTag(forms[i], index[i], r, size);
            if (F.word(forms[i], 1) != F.load(h.priors + 32 * (i - 1))) revert Citations(i);
        }
        if (index[0] <= r || index[0] + 2 > size) revert F.ProofForm();
        if (F.stepIdHash(index[0] - 1 - r + 1) != bytes32(F.word(forms[0], 1))) return (true, ID_POSITION, 0);
        for (uint256 i = 2; i < forms.length; ++i) {
            if (index[i] >= index[0]) return (true, PRIOR_ORDER, 0);
        }
        if (h.ri != 0) return (true, UNEXECUTABLE, BAD_INPUTS);
        bytes32 cause = _priors(c, forms);
        if (cause == 0) cause = _compare(c, forms, h);
        if (cause == MATCH) return (false, MATCH, 0);
        if (cause == MISMATCH) return (true, MISMATCH, 0);
        return (true, UNEXECUTABLE, cause);
    }

    /// The head of the DEDUCE form (its tag checked).
    function _head(bytes calldata f) private pure returns (Head memory h) {
        uint256 o = F.open(f, F.DEDUCE) + 32;
        (h.ri, o) = (F.at(f, o), o + 32);
        h.priors = F.pos(f) + o;
        uint256 n;
        (n, o) = F.readL(f, o);
        o += n << 5;
        h.evid = o;
        (n, o) = F.readL(f, o); // L[H]: the count bounds its words
        h.eh = new bytes32[](n);
        uint256 p = F.pos(f) + o;
        for (uint256 j; j < n; ++j) h.eh[j] = bytes32(F.load(p + (j << 5)));
        h.evidEnd = o + (n << 5);
    }

    /// Python's `_split` and the views (`read_aggregate`, `read_conflict_keys`): 0 when the
    /// step cites r aggregates of its requirements in order and one contradictions step.
    function _priors(Ctx memory c, bytes[] calldata forms) private view returns (bytes32) {
        uint256 m = forms.length - 2;
        uint256 nAgg;
        uint256 nContra;
        for (uint256 i; i < m; ++i) {
            uint256 tag = F.tagOf(forms[2 + i]);
            if (tag == F.AGGREGATE) ++nAgg;
            else if (tag == F.CONTRADICTIONS) ++nContra;
            else return CITATION_MISMATCH;
        }
        if (nContra != 1 || nAgg != c.s.reqs.length) return CITATION_MISMATCH;
        c.aggs = new Agg[](nAgg);
        uint256 k;
        uint256 contra;
        for (uint256 i; i < m; ++i) {
            if (F.tagOf(forms[2 + i]) == F.CONTRADICTIONS) {
                contra = 2 + i;
                continue;
            }
            c.aggs[k] = _aggregate(forms[2 + i]);
            if (F.hashT(c.aggs[k].rid) != c.s.reqs[k]) return CITATION_MISMATCH;
            ++k;
        }
        (c.cKinds, c.cKeys) = _conflicts(forms[contra]);
        return 0;
    }

    /// deduce, the summary, the citations, then the rebuilt form against the committed one.
    function _compare(Ctx memory c, bytes[] calldata forms, Head memory h) private pure returns (bytes32) {
        Out memory out = _deduce(c);
        if (out.bad) return BAD_PRIOR_OUTPUT;
        (bytes32[] memory sum, uint256 count) = _summary(c);
        bool same = count == h.eh.length;
        for (uint256 i; same && i < count; ++i) same = sum[i] == h.eh[i];
        if (!same || _priorsOutOfOrder(forms)) return CITATION_MISMATCH;
        bytes memory built = _build(c, out, forms[0], h);
        return keccak256(built) == keccak256(forms[0]) ? MATCH : MISMATCH;
    }

    /// The recomputed prior_step_ids are the aggregates' then the contradictions'.
    function _priorsOutOfOrder(bytes[] calldata forms) private pure returns (bool) {
        return F.tagOf(forms[forms.length - 1]) != F.CONTRADICTIONS;
    }

    /// source_summary: the read ids (`H` words), requirement order, bundle order within
    /// one, each once.
    /// The read ids are sorted (`PorFormsIndex`) and the first place of each word kept:
    /// O(m log m) on any input.
    function _summary(Ctx memory c) private pure returns (bytes32[] memory sum, uint256 count) {
        uint256 m;
        for (uint256 r; r < c.aggs.length; ++r) m += c.aggs[r].eh.length;
        sum = new bytes32[](m);
        bytes32[] memory read = new bytes32[](m);
        m = 0;
        for (uint256 r; r < c.aggs.length; ++r) {
            Agg memory a = c.aggs[r];
            for (uint256 j; j < a.eh.length; ++j) if (a.read[j]) read[m++] = a.eh[j];
        }
        assembly {
            mstore(read, m)
        }
        uint256[] memory ord = I.order(read);
        bool[] memory keep = new bool[](m);
        for (uint256 i; i < m; ++i) keep[ord[i]] = i == 0 || read[ord[i]] != read[ord[i - 1]];
        for (uint256 i; i < m; ++i) if (keep[i]) sum[count++] = read[i];
    }

    // ---------------------------------------------------------------- the form

    /// The DEDUCE form as deduce_step writes it: the committed head up to the evidence ids
    /// (checked equal to the summary), the output's words, the description.
    function _build(Ctx memory c, Out memory out, bytes calldata f, Head memory h)
        private
        pure
        returns (bytes memory b)
    {
        bool decided = !out.insufficient && out.eventCode != 0;
        uint256 nu;
        bool prov = true;
        bytes memory uncovered;
        for (uint256 i; i < c.aggs.length; ++i) {
            Agg memory a = c.aggs[i];
            prov = prov && a.prov;
            if (a.covered) continue;
            decided = false;
            ++nu;
            uncovered = bytes.concat(uncovered, _tAt(a.rid));
        }
        b = bytes.concat(
            f[:h.evidEnd],
            abi.encode(c.s.ps.predicate, c.s.keys[0], out.status, nu),
            uncovered,
            abi.encode(!decided, out.conflict, out.fb, prov),
            f[h.evid:h.evidEnd]
        );
        b = bytes.concat(b, _variables(out, decided), bytes32(0), _description(c, decided));
    }

    /// P[B](event) P[D](numeric_value) P[W](timestamp).
    function _variables(Out memory out, bool decided) private pure returns (bytes memory) {
        if (!decided) return abi.encode(0, 0, 0);
        bytes memory num = out.hasNum ? abi.encodePacked(uint256(1), _d(out.num)) : abi.encode(0);
        bytes memory st = out.hasStamp ? abi.encode(1, out.stamp) : abi.encode(0);
        return bytes.concat(abi.encode(1, out.eventCode == 2), num, st);
    }

    /// `D` of a canonical decimal text: its word (sign, scale, digit count), then its
    /// digits without the sign, the point and leading zeros, zero-padded.
    function _d(bytes memory t) private pure returns (bytes memory out) {
        out = new bytes(96);
        assembly {
            let len := mload(t)
            let neg := eq(byte(0, mload(add(t, 32))), 0x2d)
            let scale := 0
            let n := 0
            let w := add(out, 64)
            for { let i := neg } lt(i, len) { i := add(i, 1) } {
                let ch := byte(0, mload(add(add(t, 32), i)))
                switch ch
                case 0x2e { scale := sub(sub(len, i), 1) }
                default {
                    if or(n, or(iszero(eq(ch, 0x30)), eq(add(i, 1), len))) {
                        mstore8(add(w, n), ch)
                        n := add(n, 1)
                    }
                }
            }
            mstore(add(out, 32), or(or(shl(255, neg), shl(232, scale)), n))
            if lt(n, 33) { mstore(out, 64) }
        }
    }

    /// The checked T at calldata position p, as bytes.
    function _tAt(uint256 p) private pure returns (bytes memory b) {
        uint256 size = F.tSize(p);
        b = new bytes(size);
        assembly {
            calldatacopy(add(b, 32), p, size)
        }
    }

    /// T("deduce <predicate> on <metric>: variables computed" / "...: insufficient evidence").
    function _description(Ctx memory c, bool decided) private pure returns (bytes memory) {
        bytes memory metric = _tAt(c.s.ps.metricT);
        uint256 len = F.load(c.s.ps.metricT);
        bytes memory text;
        assembly {
            text := add(metric, 32)
            mstore(text, len)
        }
        text = abi.encodePacked(
            "deduce ", _predicateName(c.s.ps.predicate), " on ", text, ": ",
            decided ? "variables computed" : "insufficient evidence"
        );
        return bytes.concat(bytes32(text.length), text, new bytes((32 - text.length % 32) % 32));
    }

    /// The predicate's name: its (offset, length) in one packed text.
    function _predicateName(uint256 p) private pure returns (bytes memory name) {
        bytes memory all = "event_observednumeric_thresholdnumeric_rangefield_comparisontext_equalstimestamp_threshold";
        uint256 at = (0x5a473c2c1f0e00 >> (8 * p)) & 0xff;
        uint256 len = ((0x5a473c2c1f0e00 >> (8 * p + 8)) & 0xff) - at;
        name = new bytes(len);
        assembly {
            mstore(add(name, 32), mload(add(add(all, 32), at))) // len <= 19: one word (packed by length)
        }
    }
}
