// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";
import {PorFormsSort as Sort} from "./PorFormsSort.sol";
import {PorFormStep} from "./PorFormStep.sol";

/// @title PorAggregateFormRead: what the aggregate executor on chain forms reads, checked
/// (ADR 0017 stage 4; `docs/spec-forms-draft.md` §2.1-§2.6, §3, §4).
/// @notice Each carried form is read through `PorForms`' bounds-checked readers, up to
/// the last word the aggregate reads (a malformation there reverts `ProofForm()`; the
/// parts no rule of §12.5.4 reads are not walked). What was read is kept as calldata
/// positions in `Ctx`, so the vote reads checked words with `calldataload` alone.
abstract contract PorAggregateFormRead is PorFormStep {
    /// Calldata positions of the forms and what the recomputation needs from them.
    struct Ctx {
        uint256 agg; // AGGREGATE form
        uint256 aggIndex; // its forms index
        uint256 rid; // AGGREGATE: T(inputs.requirement_id)
        bytes32 ridHash; // H(R): its output's requirement_id
        uint256 priors; // AGGREGATE: L[H] prior_step_ids
        uint256 evid; // AGGREGATE: L[H] evidence_ids
        uint256 evidEnd;
        uint256 common;
        uint256 reqs; // COMMON: its requirement table count word
        uint256 req; // REQUIREMENT
        uint256 chunk; // CHUNK
        uint256 chunkAt; // the chunk's place among the cited forms
        uint256 nChunks;
        uint256 n; // cited extract steps
        uint256 strategy;
        uint256 tiers; // tie_breaker highest_provenance
        uint256 targets; // REQUIREMENT: first target hash
        uint256 nTargets;
        uint256 fields; // REQUIREMENT: the next field
        uint256 nFields;
        uint256 sel; // fields selected
        uint256 fbUsed;
        uint256 exact; // 1: the current numeric field compares with PorDecimal
        uint256 tol; // the tolerance aligned to the current numeric field
        uint256[] ext; // extract k: its form
        uint256[] claims; // extract k: its claims' count word
        uint256[] ixH; // above FEW fields: each item's first claim per (H(key), kind), as
        uint256[] ixK; //   keccak256 of both (sorted), its extract index
        uint256[] ixC; //   and its claim position (`PorAggregateFormVote._index`)
        bytes32[] tWords; // above FEW targets: R's source targets (`PorAggregateFormVote._rank`)
        uint256[] tOrder; //   and their positions sorted, built at the first rank
        uint256[] vk; // voters of the current field: extract index
        uint256[] vc; // voters: claim position
        uint256[] order; // voters in tie-breaker order (indexes into vk)
        uint256[] used; // extract k: 1 when its item is in some field's evidence_ids
        uint256[] key; // voters: the merge sort's key (2^64 - 1 - tier; a value's word)
        uint256[] tmp; // the merge sort's other half
        uint256[] byValue; // voters in value order (the groups' binary searches)
        uint256[] cnt; // voters: the size of each one's agreeing group
        uint256[] agreeing; // voters: 1 when in the selected group
        int256[] num; // numeric voters: aligned signed magnitude
        uint256[] mag; // numeric voters: magnitude (digits)
        uint256[] scale; // numeric voters: scale
        uint256[] neg; // numeric voters: 1 when negative
        bool badClaim; // a cited claim's timestamp above 2^63 - 1 (Python's bad claim value)
        PorDecimal.Dec[] decs; // numeric voters as decimals (the exact comparison)
        PorDecimal.Dec tdec; // the tolerance as a decimal
    }

    /// Each form's role by its forms index (draft §3): COMMON at 0 (its requirement table
    /// gives r), the AGGREGATE and the cited steps at step indexes 1 + r .. size - 2
    /// with step tags, the REQUIREMENT at 1 .. r. Another tag at an index is `ProofForm()`.
    function _roles(Ctx memory c, bytes[] calldata forms, uint256[] calldata index, uint256 size) internal pure {
        if (forms.length < 3 || index[1] != 0) revert F.ProofForm();
        bytes calldata common = forms[1];
        c.common = F.pos(common);
        (, uint256 table, uint256 r,) = C.head(common);
        c.reqs = c.common + table;
        if (size < r + 3) revert F.ProofForm(); // COMMON, r REQUIREMENTs, a step, VERDICT
        uint256 last = size - 2;
        c.aggIndex = index[0];
        if (index[0] < 1 + r || index[0] > last) revert F.ProofForm();
        if (index[2] < 1 || index[2] > r) revert F.ProofForm();
        for (uint256 i = 3; i < forms.length; ++i) {
            F.stepTag(forms[i], index[i], r, size);
        }
    }

    /// The AGGREGATE's words up to its evidence ids: T(R), Ri, priors, evidence ids.
    /// The carried cited forms must be the step's priors, in order (`Citations`).
    function _aggregate(Ctx memory c, bytes[] calldata forms) internal view returns (uint256 ri) {
        bytes calldata a = forms[0];
        uint256 o = F.open(a, F.AGGREGATE) + 32; // the step id
        F.at(a, 32);
        (uint256 p,, uint256 next) = F.readT(a, o);
        c.agg = p - 96;
        c.rid = p - 32;
        c.ridHash = F.hashT(c.rid);
        ri = F.at(a, next);
        (uint256 count, uint256 q) = F.readL(a, next + 32);
        c.priors = c.agg + next + 32;
        F.span(a, q, count << 5);
        if (count != forms.length - 3) revert Citations(forms.length);
        for (uint256 k; k < count; ++k) {
            if (F.at(a, q + (k << 5)) != F.at(forms[3 + k], 32)) revert Citations(3 + k);
        }
        q += count << 5;
        c.evid = c.agg + q;
        (count, q) = F.readL(a, q); // L[H]: the count bounds its words
        c.evidEnd = c.agg + q + (count << 5);
    }

    /// The step id at reasoning leaf `leaf` is `step_id(leaf + 1)`.
    function _idAt(Ctx memory c, uint256 leaf) internal view returns (bool) {
        return F.stepIdHash(leaf + 1) == bytes32(F.load(c.agg + 32));
    }

    /// The cited forms split as Python's `_split`: extract steps in order and check
    /// chunks; 0, or `step.citation_mismatch` for another kind or not one chunk.
    function _split(Ctx memory c, bytes[] calldata forms) internal pure returns (bytes32) {
        uint256 m = forms.length - 3;
        c.ext = new uint256[](m);
        for (uint256 k; k < m; ++k) {
            bytes calldata f = forms[3 + k];
            uint256 t = F.tagOf(f);
            if (t == F.EXTRACT) {
                c.ext[c.n++] = k;
            } else if (t == F.CHUNK) {
                c.chunkAt = k;
                c.nChunks++;
            } else {
                return CITATION_MISMATCH;
            }
        }
        if (c.nChunks != 1) return CITATION_MISMATCH;
        return 0;
    }

    /// Each EXTRACT read up to its claims (all checked), then the k-th extract step's
    /// evidence id must be the step's k-th cited id (`read_cards`); one per cited id.
    function _extracts(Ctx memory c, bytes[] calldata forms) internal pure returns (bytes32) {
        uint256 n = c.n;
        uint256[] memory ext = c.ext;
        c.claims = new uint256[](n);
        if (F.load(c.evid) != n) return CITATION_MISMATCH;
        for (uint256 k; k < n; ++k) {
            bytes calldata f = forms[3 + ext[k]];
            uint256 o = F.open(f, F.EXTRACT);
            F.at(f, 128); // step id, source id, tier, evidence id hash
            (, o) = F.readW(f, 96); // tier
            o = F.skipT(f, 160); // T(evidence_id), read by the judge only
            bool bad;
            (c.claims[k], bad) = _claimsOf(f, o);
            if (bad) c.badClaim = true;
            ext[k] = F.pos(f);
        }
        uint256 e = c.evid + 32; // each cited id's H against the item's word 4
        for (uint256 k; k < n; ++k) {
            if (F.load(ext[k] + 128) != F.load(e + (k << 5))) return CITATION_MISMATCH;
        }
        return 0;
    }

    /// The claims of an EXTRACT at o, each checked: key, kind, claim id (`H(key) E(kind)
    /// H(claim_id)`, three words), value (`F.skipV`; a text's `H`, one word); `bad` when a
    /// timestamp is above 2^63 - 1 (a form, but not a claim value of §12.5.2).
    function _claimsOf(bytes calldata f, uint256 o) private pure returns (uint256, bool bad) {
        (uint256 count, uint256 q) = F.readL(f, o);
        for (uint256 j; j < count; ++j) {
            uint256 kind;
            assembly {
                kind := calldataload(add(f.offset, add(q, 32)))
                if or(gt(add(q, 96), f.length), gt(kind, 3)) {
                    mstore(0, 0xddd09231) // ProofForm()
                    revert(28, 4)
                }
                q := add(q, 96)
            }
            if (kind == F.TIMESTAMP && F.at(f, q) > F.MAX_UINT63) bad = true;
            if (kind == F.TEXT) (, q) = F.readH(f, q);
            else q = F.skipV(f, q, kind);
        }
        return (F.pos(f) + o, bad);
    }

    /// R in COMMON's requirement table (`step.bad_inputs` when none, as `_requirement`),
    /// the carried REQUIREMENT its form, read up to its fields.
    function _requirement(Ctx memory c, bytes[] calldata forms, uint256[] calldata index) internal pure returns (bytes32) {
        uint256 r = F.load(c.reqs);
        uint256 k;
        while (k < r && bytes32(F.load(c.reqs + 32 + (k << 7))) != c.ridHash) ++k;
        if (k == r) return BAD_INPUTS;
        if (index[2] != 1 + k) revert Citations(2);
        bytes calldata q = forms[2];
        F.open(q, F.REQUIREMENT);
        if (bytes32(F.at(q, 32)) != c.ridHash) revert F.ProofForm();
        (c.strategy,) = F.readE(q, 64, 3);
        (c.tiers,) = F.readE(q, 96, 2);
        F.readW(q, 128); // min_sources
        F.readW(q, 160); // quorum
        (uint256 nt, uint256 o) = F.readL(q, 192);
        F.span(q, o, nt << 5);
        c.req = F.pos(q);
        c.targets = c.req + o;
        c.nTargets = nt;
        o += nt << 5;
        (uint256 nf, uint256 p) = F.readL(q, o);
        c.nFields = nf;
        c.fields = c.req + p;
        for (uint256 j; j < nf; ++j) {
            (, p) = F.readE(q, p, 4);
            (, p) = F.readH(q, p); // L[E(kind) H(key)]
        }
        return 0;
    }

    /// The cited chunk as `read_state` reads it: R's (`step.citation_mismatch`), its
    /// counts in 0..2^63-1, `covered` iff `admitted_count` > 0, `provenance_ok` when
    /// covered, `sources` entries with no other key and distinct sources
    /// (`step.bad_prior_output`); then its `sources` name exactly the cited items
    /// (`step.citation_mismatch`).
    function _chunk(Ctx memory c, bytes[] calldata forms) internal pure returns (bytes32 cause) {
        bytes calldata f = forms[3 + c.chunkAt];
        c.chunk = F.pos(f);
        (uint256 ns, uint256 o) = F.readL(f, 256);
        F.span(f, o, ns << 7);
        cause = _state(c, f, o + (ns << 7));
        if (cause != 0) return cause;
        uint256 s = c.chunk + o;
        // a rest word that is not 0, or a source id twice: the same cause, in any order
        for (uint256 k; k < ns; ++k) {
            if (F.load(s + (k << 7) + 96) != 0) return BAD_PRIOR_OUTPUT;
        }
        if (_repeats(s, ns)) return BAD_PRIOR_OUTPUT;
        if (ns != c.n) return CITATION_MISMATCH;
        for (uint256 k; k < ns; ++k) {
            uint256 e = s + (k << 7);
            uint256 x = c.ext[k];
            if (F.load(e) != F.load(x + 32) || F.load(e + 32) != F.load(x + 128) || F.load(e + 64) != F.load(x + 64)) {
                return CITATION_MISMATCH;
            }
        }
    }

    /// Whether two of the `ns` sources at `s` (128 bytes apart) name the same source (word
    /// +64), in O(ns log ns) on any input (`PorFormsSort.repeats`: the count is the
    /// signer's; s40 attack finding 2).
    function _repeats(uint256 s, uint256 ns) private pure returns (bool) {
        uint256[] memory a = new uint256[](ns);
        for (uint256 k; k < ns; ++k) a[k] = F.load(s + (k << 7) + 64);
        return Sort.repeats(a);
    }

    /// The chunk's requirement (its `inputs` and `output`: `step.citation_mismatch`), its
    /// counts and coverage (`step.bad_prior_output`); `o` is its T(inputs.requirement_id).
    function _state(Ctx memory c, bytes calldata f, uint256 o) private pure returns (bytes32) {
        (,, uint256 q) = F.readT(f, o);
        if (!F.sameT(c.chunk + o, c.rid)) return CITATION_MISMATCH;
        if (bytes32(F.at(f, 64)) != c.ridHash) return CITATION_MISMATCH;
        F.at(f, q); // Ri
        uint256 count;
        (count, q) = F.readL(f, q + 32); // priors, L[H]
        (count, q) = F.readL(f, q + (count << 5)); // evidence ids, L[H]
        q += count << 5;
        (uint256 chunkNo,) = F.readW(f, q);
        (uint256 admitted,) = F.readW(f, q + 32);
        (uint256 claimCount,) = F.readW(f, q + 64);
        (bool covered,) = F.readB(f, 96);
        (bool provenanceOk,) = F.readB(f, 128);
        (uint256 itemCount,) = F.readW(f, 160);
        (, uint256 lastLeaf,) = F.readO(f, 192, type(uint64).max);
        if ((itemCount | chunkNo | admitted | claimCount | lastLeaf) > F.MAX_UINT63) return BAD_PRIOR_OUTPUT;
        if (covered != (admitted > 0) || (covered && !provenanceOk)) return BAD_PRIOR_OUTPUT;
        return 0;
    }
}
