// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorAggregateFormVote} from "./PorAggregateFormVote.sol";

/// @title PorAggregateForm: an `aggregate` step re-executed on chain forms (ADR 0017 stage
/// 4; SPEC §12.5.4 on `docs/spec-forms-draft.md`'s layouts).
/// @notice `execute(forms, inc)` takes the forms by ABI: `forms[0]` the step's AGGREGATE, `forms[1]`
/// COMMON, `forms[2]` the REQUIREMENT of the step's requirement R (any REQUIREMENT when
/// COMMON lists no R), then the forms of the step's `prior_step_ids`, in citation order;
/// `inc` (`PorForms.Inclusion`): `index[i]` is form i's index in the `forms` tree of
/// `size` leaves, `paths[i]` its RFC 9162 path, `componentPath` the forms component
/// leaf's path (index 6 of 7) to `porRoot`. It answers as Python's one-step check of the step's OneStepProof:
/// (won, check id, cause): won `one_step.id_position`, `one_step.prior_order`,
/// `one_step.unexecutable` (cause `step.bad_inputs`, `step.citation_mismatch` or
/// `step.bad_prior_output` where the forms show it), `one_step.mismatch`; lost
/// `one_step.match`. An invalid proof reverts: `ProofForm()` (`proof.form`: a carried
/// form does not parse, or its tag is not its index's), `Citations(i)`
/// (`proof.citations`), `FormsInclusion`/`FormsPorRoot`/PorMerkle's errors (the
/// inclusions). Rules of the cited records that their forms do not hold (a claim's
/// `path`, an extract step's own `evidence_ids`, the chunk's groups) are their own
/// proofs' (ADR 0017 decision 3).
contract PorAggregateForm is PorAggregateFormVote {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:aggregate").
    bytes32 public constant KIND = keccak256("form:aggregate");

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        return _run(forms, inc.index, inc.size);
    }

    function _run(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        Ctx memory c;
        _roles(c, forms, index, size);
        bytes32 ri = bytes32(_aggregate(c, forms));
        if (!_idAt(c, index[0] - 1 - F.load(c.reqs))) return (true, ID_POSITION, 0);
        for (uint256 i = 3; i < forms.length; ++i) {
            if (index[i] >= index[0]) return (true, PRIOR_ORDER, 0);
        }
        bytes32 cause = _causes(c, forms, index, ri);
        // the recomputed step cites its extract steps, then C: C cited elsewhere fails
        // `recompute_step`'s last check (its prior_step_ids), before the comparison
        if (cause == 0 && c.chunkAt != forms.length - 4) cause = CITATION_MISMATCH;
        if (cause != 0) return (true, UNEXECUTABLE, cause);
        if (!_recompute(c, forms[0].length)) return (true, MISMATCH, 0);
        return (false, MATCH, 0);
    }

    /// Python's checks before the selection, in its order (`recompute_step`,
    /// `aggregate_step`): 0 when all hold, else the cause.
    function _causes(Ctx memory c, bytes[] calldata forms, uint256[] calldata index, bytes32 ri)
        private
        view
        returns (bytes32 cause)
    {
        if (ri != 0) return BAD_INPUTS; // inputs with another key
        cause = _split(c, forms);
        if (cause == 0) cause = _extracts(c, forms);
        if (cause == 0) cause = _requirement(c, forms, index);
        if (cause == 0) cause = _chunk(c, forms);
        if (cause == 0 && c.badClaim) cause = BAD_PRIOR_OUTPUT; // `read_extract`, after the chunk
    }

    /// The AGGREGATE recomputed in memory and compared with the committed form.
    function _recompute(Ctx memory c, uint256 len) private view returns (bool same) {
        uint256 n = c.n;
        c.vk = new uint256[](n);
        c.vc = new uint256[](n);
        c.order = new uint256[](n);
        c.used = new uint256[](n);
        c.key = new uint256[](n);
        c.tmp = new uint256[](n);
        c.byValue = new uint256[](n);
        c.cnt = new uint256[](n);
        c.agreeing = new uint256[](n);
        c.neg = new uint256[](n);
        c.num = new int256[](n);
        c.mag = new uint256[](n);
        c.scale = new uint256[](n);
        c.decs = new PorDecimal.Dec[](n);
        for (uint256 i; i < n; ++i) {
            c.decs[i] = PorDecimal.Dec(false, 0, 0, 0);
        }
        _tolerance(c);
        if (c.nFields > FEW) _index(c);
        if (c.nTargets > FEW) _targets(c);
        uint256 start;
        assembly {
            // the form is built from `start` on; nothing is allocated while it is built, and
            // the committed form's length is reserved all the same
            start := mload(0x40)
            mstore(0x40, add(start, add(len, 32)))
        }
        uint256 o = _head(c, start);
        uint256 fbSlot = o - 64;
        for (uint256 f; f < c.nFields; ++f) {
            o = _field(c, o);
        }
        _put(fbSlot, c.fbUsed);
        o = _sourcesUsed(c, o);
        o = _put(o, 0); // the output's rest
        o = _description(c, o);
        uint256 agg = c.agg;
        assembly {
            if eq(sub(o, start), len) {
                calldatacopy(o, agg, len)
                same := eq(keccak256(start, len), keccak256(o, len))
            }
        }
    }

    /// The form up to the output's fields: tag, step id, T(R), Ri, priors, evidence ids
    /// (checked equal to the recomputed ones), the output's `requirement_id` (H(R)), strategy,
    /// C's `covered`, `provenance_ok`, `item_count`, `last_leaf`, `fallback_used` (a
    /// slot filled last) and the field count.
    function _head(Ctx memory c, uint256 o) private pure returns (uint256) {
        o = _copy(o, c.agg, c.evidEnd - c.agg);
        o = _put2(o, uint256(c.ridHash), c.strategy);
        o = _copy(o, c.chunk + 96, 160); // covered, provenance_ok, item_count, last_leaf
        return _put2(o, 0, c.nFields);
    }

    /// One field: its voters, the strategy, its form.
    function _field(Ctx memory c, uint256 o) private view returns (uint256) {
        uint256 fp = c.fields;
        uint256 kind = F.load(fp);
        bytes32 key = bytes32(F.load(fp + 32));
        c.fields = fp + 64; // E(kind) H(key)
        uint256 nv = _voters(c, kind, key);
        o = _put2(o, uint256(key), kind);
        if (nv == 0) {
            o = _put(_put4(o, 1, 0, 0, 0), 0); // missing: no value, no quorum
            o = _put2(o, 0, 0); // no claim ids, no evidence ids
        } else if (c.strategy == 1) {
            o = _quorum(c, o, kind, nv);
        } else {
            o = _single(c, o, kind, nv);
        }
        return _put(_votes(c, o, kind, key, nv), 0); // the field's rest
    }

    function _single(Ctx memory c, uint256 o, uint256 kind, uint256 nv) private pure returns (uint256) {
        uint256 best;
        bool fb;
        if (c.strategy == 2) {
            uint256 bestRank = type(uint256).max;
            for (uint256 i; i < nv; ++i) {
                uint256 rank = _rank(c, F.load(c.ext[c.vk[i]] + 64));
                if (rank < bestRank) (best, bestRank) = (i, rank);
            }
            fb = c.nTargets == 0 || F.load(c.ext[c.vk[best]] + 64) != F.load(c.targets);
        } else if (c.tiers == 1) {
            uint256 tier;
            for (uint256 i; i < nv; ++i) {
                uint256 t = F.load(c.ext[c.vk[i]] + 96);
                if (i == 0 || t > tier) (best, tier) = (i, t);
            }
        }
        if (fb) c.fbUsed = 1;
        ++c.sel;
        o = _put4(o, 0, nv, fb ? 1 : 0, 1);
        (uint256 vp, uint256 vs) = _value(kind, c.vc[best]);
        o = _put2(_copy(o, vp, vs), 0, 1); // no quorum, one claim id
        o = _put2(o, F.load(c.vc[best] + 64), 1); // its H(claim_id); one evidence id
        c.used[c.vk[best]] = 1;
        return _put(o, F.load(c.ext[c.vk[best]] + 128));
    }

    function _quorum(Ctx memory c, uint256 o, uint256 kind, uint256 nv) private pure returns (uint256) {
        if (nv < F.load(c.req + 128)) return _put2(_put(_put4(o, 2, nv, 0, 0), 0), 0, 0);
        uint256 need = F.load(c.req + 160);
        if (kind == F.NUMERIC) _numbers(c, nv);
        else _keys(c, nv);
        _tieOrder(c, nv);
        bool few = nv <= FEW;
        if (!few) _counts(c, kind, nv);
        uint256 most;
        for (uint256 i; i < nv; ++i) {
            uint256 v = c.order[i];
            uint256 count = few ? _count(c, kind, v, nv) : c.cnt[v];
            if (count > most) most = count;
            if (count >= need) return _group(c, o, kind, nv, v, count, need);
        }
        o = _put4(_put4(o, 3, nv, 0, 0), 1, need, most, 0); // no value; quorum not met
        return _put(_put2(o, 0, 0), 0); // the quorum's rest, no claim ids, no evidence ids
    }

    /// A selected quorum: the chosen voter's value, its agreeing group's ids.
    function _group(Ctx memory c, uint256 o, uint256 kind, uint256 nv, uint256 v, uint256 count, uint256 need)
        private
        pure
        returns (uint256)
    {
        ++c.sel;
        o = _put4(o, 0, nv, 0, 1);
        (uint256 vp, uint256 vs) = _value(kind, c.vc[v]);
        o = _put4(_copy(o, vp, vs), 1, need, count, 1);
        o = _put2(o, 0, count); // the quorum's rest, the claim ids
        uint256[] memory agreeing = c.agreeing;
        for (uint256 j; j < nv; ++j) {
            agreeing[j] = _agree(c, kind, v, j) ? 1 : 0;
            if (agreeing[j] == 1) o = _put(o, F.load(c.vc[j] + 64));
        }
        o = _put(o, count);
        for (uint256 j; j < nv; ++j) {
            if (agreeing[j] == 1) {
                c.used[c.vk[j]] = 1;
                o = _put(o, F.load(c.ext[c.vk[j]] + 128));
            }
        }
        return o;
    }

    /// `votes` when `sources_required` is set and the field is the metric: every voter's
    /// value, source id (H) and item id.
    function _votes(Ctx memory c, uint256 o, uint256 kind, bytes32 key, uint256 nv) private pure returns (uint256) {
        if (F.load(c.common + 64) == 0 || bytes32(F.load(c.common + 32)) != key) return _put(o, 0);
        o = _put2(o, 1, nv);
        for (uint256 i; i < nv; ++i) {
            (uint256 vp, uint256 vs) = _value(kind, c.vc[i]);
            o = _copy(o, vp, vs);
            uint256 e = c.ext[c.vk[i]];
            o = _put2(o, F.load(e + 64), F.load(e + 128)); // H(source_id) H(evidence_id)
            o = _put(o, 0); // the vote's rest
        }
        return o;
    }

    /// `sources_used`: the cited items, in order, whose id is in some field's
    /// `evidence_ids` (by id, as Python's set of ids: an item sharing a chosen item's id
    /// is used too): each item's id searched among the chosen items' ids, sorted.
    function _sourcesUsed(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 n = c.n;
        if (n <= FEW) return _sourcesUsedFew(c, o, n);
        uint256[] memory chosen = c.byValue;
        uint256 m;
        for (uint256 k; k < n; ++k) {
            c.key[k] = F.load(c.ext[k] + 128);
            if (c.used[k] == 1) chosen[m++] = k;
        }
        _sort(c, chosen, m, false);
        uint256 countSlot = o;
        uint256 count;
        o += 32;
        for (uint256 k; k < n; ++k) {
            uint256 h = c.key[k];
            uint256 at = _bound(c, chosen, m, h, 0, false);
            if (at < m && c.key[chosen[at]] == h) {
                o = _put(o, h);
                ++count;
            }
        }
        _put(countSlot, count);
        return o;
    }

    /// `_sourcesUsed` for a few items: each unused item's id against the used items'.
    function _sourcesUsedFew(Ctx memory c, uint256 o, uint256 n) private pure returns (uint256) {
        uint256[] memory used = c.used;
        for (uint256 k; k < n; ++k) {
            if (used[k] == 1) continue;
            uint256 h = F.load(c.ext[k] + 128);
            for (uint256 j; j < n; ++j) {
                if (used[j] == 1 && F.load(c.ext[j] + 128) == h) {
                    used[k] = 1;
                    break;
                }
            }
        }
        uint256 countSlot = o;
        uint256 count;
        o += 32;
        for (uint256 k; k < n; ++k) {
            if (used[k] == 1) {
                o = _put(o, F.load(c.ext[k] + 128));
                ++count;
            }
        }
        _put(countSlot, count);
        return o;
    }

    /// T("aggregate requirement " R " by " strategy ": " selected " of " fields " field(s) selected").
    function _description(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 t = o;
        o += 32;
        uint256 rid = c.rid;
        uint256 len = F.load(rid);
        uint256 strategy = c.strategy;
        assembly {
            mstore(o, "aggregate requirement ")
            o := add(o, 22)
            calldatacopy(o, add(rid, 32), len)
            o := add(o, len)
            mstore(o, " by ")
            o := add(o, 4)
            switch strategy
            case 0 {
                mstore(o, "single_best")
                o := add(o, 11)
            }
            case 1 {
                mstore(o, "multi_source_quorum")
                o := add(o, 19)
            }
            default {
                mstore(o, "fallback_chain")
                o := add(o, 14)
            }
            mstore(o, ": ")
            o := add(o, 2)
        }
        o = _digits(o, c.sel);
        assembly {
            mstore(o, " of ")
            o := add(o, 4)
        }
        o = _digits(o, c.nFields);
        assembly {
            mstore(o, " field(s) selected")
            o := add(o, 18)
            let l := sub(o, add(t, 32))
            mstore(t, l)
            mstore(o, 0)
            o := add(add(t, 32), and(add(l, 31), not(31)))
        }
        return o;
    }

    function _digits(uint256 o, uint256 v) private pure returns (uint256) {
        uint256 n = 1;
        for (uint256 x = v / 10; x > 0; x /= 10) ++n;
        for (uint256 i = n; i > 0; --i) {
            assembly {
                mstore8(add(o, sub(i, 1)), add(48, mod(v, 10)))
            }
            v /= 10;
        }
        return o + n;
    }
}
