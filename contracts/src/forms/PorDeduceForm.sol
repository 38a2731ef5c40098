// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorDeduceFormRun} from "./PorDeduceFormRun.sol";
import {PorDeduceFormWrite as W} from "./PorDeduceFormWrite.sol";
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
    /// The form's writer (EIP-170: the two would not fit as one).
    W public immutable WRITE;

    constructor() {
        WRITE = new W();
    }

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        return _run(forms, inc.index, inc.size);
    }

    /// The prologue is `PorDeduceFormRead._prologue`'s, written out here: called, its
    /// returned structs cost this contract 112 bytes of its EIP-170 room (s45).
    function _run(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        if (forms.length < 2 || index[1] != 0) revert F.ProofForm();
        Ctx memory c;
        c.s = _common(forms[1]);
        uint256 r = c.s.reqs.length;
        Head memory h = _head(forms[0], F.DEDUCE);
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

    /// deduce, then the summary and the rebuilt form (`PorDeduceFormWrite`) against the
    /// committed ones, the citations' order.
    function _compare(Ctx memory c, bytes[] calldata forms, Head memory h) private view returns (bytes32) {
        Out memory out = _deduce(c);
        if (out.bad) return BAD_PRIOR_OUTPUT;
        (bool same, bytes32 built) = _built(c, out, forms[0], h);
        if (!same || _priorsOutOfOrder(forms)) return CITATION_MISMATCH;
        return built == keccak256(forms[0]) ? MATCH : MISMATCH;
    }

    /// The recomputed prior_step_ids are the aggregates' then the contradictions'.
    function _priorsOutOfOrder(bytes[] calldata forms) private pure returns (bool) {
        return F.tagOf(forms[forms.length - 1]) != F.CONTRADICTIONS;
    }

    /// The read ids, requirement order, bundle order within one (the summary before
    /// de-duplication).
    function _readIds(Ctx memory c) private pure returns (bytes32[] memory read) {
        uint256 m;
        for (uint256 r; r < c.aggs.length; ++r) m += c.aggs[r].eh.length;
        read = new bytes32[](m);
        m = 0;
        for (uint256 r; r < c.aggs.length; ++r) {
            Agg memory a = c.aggs[r];
            for (uint256 j; j < a.eh.length; ++j) if (a.read[j]) read[m++] = a.eh[j];
        }
        assembly {
            mstore(read, m)
        }
    }

    // ---------------------------------------------------------------- the form

    /// The DEDUCE form as deduce_step writes it, hashed by `PorDeduceFormWrite` (the
    /// writer, split out for EIP-170): the committed head up to the evidence ids (checked
    /// equal to the summary), the output's words, the description.
    function _built(Ctx memory c, Out memory out, bytes calldata f, Head memory h) private view returns (bool, bytes32) {
        (bytes memory texts, uint256[8] memory v) = _words(c, out, h.evid);
        return WRITE.hash(f[:h.evidEnd], texts, out.num, _readIds(c), v);
    }

    /// The metric's T, the uncovered aggregates' T(inputs.requirement_id), and the
    /// writer's words.
    function _words(Ctx memory c, Out memory out, uint256 evid)
        private
        pure
        returns (bytes memory texts, uint256[8] memory v)
    {
        texts = _tAt(c.s.ps.metricT);
        bool decided = !out.insufficient && out.eventCode != 0;
        bool prov = true;
        uint256 nu;
        for (uint256 i; i < c.aggs.length; ++i) {
            Agg memory a = c.aggs[i];
            prov = prov && a.prov;
            if (a.covered) continue;
            decided = false;
            ++nu;
            texts = bytes.concat(texts, _tAt(a.rid));
        }
        uint256 flags = (decided ? 1 : 0) | (out.conflict ? 2 : 0) | (out.fb ? 4 : 0) | (prov ? 8 : 0)
            | (out.hasNum ? 16 : 0) | (out.hasStamp ? 32 : 0);
        v = [evid, c.s.ps.predicate, uint256(c.s.keys[0]), out.status, nu, flags, out.eventCode, out.stamp];
    }

    /// The checked T at calldata position p, as bytes.
    function _tAt(uint256 p) private pure returns (bytes memory b) {
        uint256 size = F.tSize(p);
        b = new bytes(size);
        assembly {
            calldatacopy(add(b, 32), p, size)
        }
    }
}
