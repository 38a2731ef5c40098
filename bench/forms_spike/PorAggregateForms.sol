// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "./PorMerkle.sol";
import {PorAggregateFormsVote} from "./PorAggregateFormsVote.sol";

/// @title PorAggregateForms: the aggregate re-executed on chain forms (ADR 0017 spike, s38).
/// @notice Scratch, not deployed: takes the forms of `bench/forms_spike/forms.py` (COMMON,
/// REQUIREMENT, CHUNK, AGGREGATE, then the cited EXTRACT steps in citation order) with
/// their RFC 9162 paths in the `forms` tree (leaves LH(F)) and that tree's component leaf
/// path (index 6 of 7) to `porRoot`; recomputes the aggregate step's form by SPEC
/// §12.5.4 and compares it with the committed one: 0 match, 1 mismatch, 2 unexecutable
/// (the chunk's `sources` do not name the cited items: step.citation_mismatch). A proof whose
/// inclusions fail, whose forms have the wrong tags, or whose extract/chunk forms are not
/// the step's cited ones reverts (the proof is invalid, not the step). Numbers whose
/// aligned magnitude overflows a word revert `Unexecutable` (the real executor falls back
/// to PorDecimal.absDiffLe there; the spike leaves that out).
contract PorAggregateForms is PorAggregateFormsVote {
    function execute(
        bytes32 porRoot,
        uint256 formsSize,
        bytes32[] calldata componentPath,
        bytes[] calldata forms,
        uint256[] calldata leaves,
        bytes32[][] calldata paths
    ) external view returns (uint256) {
        if (forms.length < 4 || leaves.length != forms.length || paths.length != forms.length) {
            revert BadForm(type(uint256).max);
        }
        bytes32 formsRoot;
        for (uint256 i; i < forms.length; ++i) {
            bytes32 r = PorMerkle.rootFromPath(PorMerkle.leafHash(forms[i]), leaves[i], formsSize, paths[i]);
            if (i == 0) formsRoot = r;
            else if (r != formsRoot) revert BadInclusion(i);
        }
        bytes32 top = PorMerkle.rootFromPath(
            PorMerkle.componentLeafHash(formsRoot, uint64(formsSize)), 6, 7, componentPath
        );
        if (top != porRoot) revert BadInclusion(forms.length);
        return _recompute(forms);
    }

    function _recompute(bytes[] calldata forms) private view returns (uint256) {
        Ctx memory c = _read(forms);
        if (!_sourcesMatch(c)) return 2; // the chunk does not name the cited items: unexecutable
        uint256 start;
        assembly { start := mload(0x40) }
        uint256 o = _head(c, start);
        uint256 fbSlot = o - 64;
        for (uint256 f; f < c.nFields; ++f) {
            o = _field(c, o);
        }
        _put(fbSlot, c.fbUsed);
        // sources_used
        uint256 count;
        uint256 countSlot = o;
        o += 32;
        for (uint256 k; k < c.n; ++k) {
            if (c.used >> k & 1 == 1) {
                o = _copy(o, c.ext[k] + 160, _tsize(c.ext[k] + 160));
                ++count;
            }
        }
        _put(countSlot, count);
        o = _put(o, 0); // the output's rest
        o = _description(c, o);
        bool same;
        uint256 agg = c.agg;
        uint256 len = forms[3].length;
        assembly {
            let built := sub(o, start)
            if eq(built, len) {
                calldatacopy(o, agg, len)
                same := eq(keccak256(start, len), keccak256(o, len))
            }
        }
        return same ? 0 : 1;
    }

    function _read(bytes[] calldata forms) private view returns (Ctx memory c) {
        uint256 n = forms.length - 4;
        c.n = n;
        c.common = _at(forms, 0, 1);
        c.req = _at(forms, 1, 2);
        c.chunk = _at(forms, 2, 4);
        c.agg = _at(forms, 3, 5);
        c.ext = new uint256[](n);
        c.claims = new uint256[](n);
        c.vk = new uint256[](n);
        c.vc = new uint256[](n);
        c.order = new uint256[](n);
        c.tier = new uint256[](n);
        c.num = new int256[](n);
        c.scale = new uint256[](n);
        for (uint256 k; k < n; ++k) {
            uint256 e = _at(forms, 4 + k, 3);
            c.ext[k] = e;
            c.claims[k] = e + 160 + _tsize(e + 160);
        }
        uint256 r = c.req;
        c.nTargets = _w(r + 192);
        c.targets = r + 224;
        c.nFields = _w(c.targets + 32 * c.nTargets);
        c.fields = c.targets + 32 * c.nTargets + 32;
        // the step's requirement: its REQUIREMENT and its CHUNK
        bytes32 rid = _sha(c.agg + 64);
        if (bytes32(_w(r + 32)) != rid) revert BadForm(1);
        if (bytes32(_w(c.chunk + 64)) != rid) revert BadForm(2);
        // priors: the extract steps, then the chunk
        uint256 p = c.agg + 64 + _tsize(c.agg + 64);
        if (_w(p) != n + 1) revert BadForm(3);
        for (uint256 k; k < n; ++k) {
            if (_w(p + 32 + 32 * k) != _w(c.ext[k] + 32)) revert BadForm(4 + k);
        }
        if (_w(p + 32 + 32 * n) != _w(c.chunk + 32)) revert BadForm(2);
    }

    function _at(bytes[] calldata forms, uint256 i, uint256 tag) private pure returns (uint256 p) {
        bytes calldata f = forms[i];
        assembly { p := f.offset }
        if (f.length < 64 || _w(p) != tag) revert BadForm(i);
    }

    function _sha(uint256 t) private view returns (bytes32 h) {
        uint256 len = _w(t);
        assembly {
            let m := mload(0x40)
            calldatacopy(m, add(t, 32), len)
            if iszero(staticcall(gas(), 0x02, m, len, 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
        }
    }

    /// The chunk's `sources` name exactly the cited extract steps, their items and sources.
    function _sourcesMatch(Ctx memory c) private pure returns (bool) {
        uint256 s = c.chunk + 256;
        if (_w(s) != c.n) return false;
        for (uint256 k; k < c.n; ++k) {
            uint256 q = s + 32 + 96 * k;
            uint256 e = c.ext[k];
            if (_w(q) != _w(e + 32) || _w(q + 32) != _w(e + 128) || _w(q + 64) != _w(e + 64)) {
                return false;
            }
        }
        return true;
    }

    /// The form up to the output's fields: tag, step id, requirement, priors, evidence
    /// ids, the output's requirement_id, strategy, chunk-copied words, fallback_used (a
    /// slot filled last) and the field count.
    function _head(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 a = c.agg;
        uint256 ridSize = _tsize(a + 64);
        uint256 p = a + 64 + ridSize;
        o = _copy(o, a, p + 32 * (c.n + 2) - a); // tag, step id, T(rid), priors (checked)
        o = _put(o, c.n);
        for (uint256 k; k < c.n; ++k) {
            o = _copy(o, c.ext[k] + 160, _tsize(c.ext[k] + 160));
        }
        o = _copy(o, a + 64, ridSize);
        o = _put(o, _w(c.req + 64));
        o = _copy(o, c.chunk + 96, 160); // covered, provenance_ok, item_count, last_leaf
        o = _put(o, 0);
        return _put(o, c.nFields);
    }

    /// One field: voters, the strategy, its form.
    function _field(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 fp = c.fields;
        uint256 kind = _w(fp);
        bytes32 key = bytes32(_w(fp + 32));
        uint256 keySize = _tsize(fp + 64);
        c.fields = fp + 64 + keySize;
        uint256 nv = _voters(c, kind, key);
        o = _copy(o, fp + 64, keySize);
        o = _put(o, kind);
        uint256 strategy = _w(c.req + 64);
        if (nv == 0) {
            o = _empty(o, 1, 0, 0);
        } else if (strategy == 1) {
            o = _quorum(c, o, kind, nv);
        } else {
            o = _single(c, o, kind, nv, strategy);
        }
        return _put(_votes(c, o, kind, key, nv), 0); // the field's rest
    }

    /// The field's voters: each cited item's first claim with its key and kind.
    function _voters(Ctx memory c, uint256 kind, bytes32 key) private pure returns (uint256 nv) {
        uint256[] memory claims = c.claims;
        uint256[] memory vk = c.vk;
        uint256[] memory vc = c.vc;
        uint256 n = c.n;
        assembly ("memory-safe") {
            for { let k := 0 } lt(k, n) { k := add(k, 1) } {
                let q := mload(add(claims, shl(5, add(k, 1))))
                let nc := calldataload(q)
                q := add(q, 32)
                for { let j := 0 } lt(j, nc) { j := add(j, 1) } {
                    let ck := calldataload(add(q, 32))
                    if and(eq(calldataload(q), key), eq(ck, kind)) {
                        nv := add(nv, 1)
                        mstore(add(vk, shl(5, nv)), k)
                        mstore(add(vc, shl(5, nv)), q)
                        break
                    }
                    let v := add(add(q, 96), and(add(calldataload(add(q, 64)), 31), not(31)))
                    switch ck
                    case 1 { q := add(add(v, 32), and(add(and(calldataload(v), 0xffffffff), 31), not(31))) }
                    case 3 { q := add(add(v, 32), and(add(calldataload(v), 31), not(31))) }
                    default { q := add(v, 32) }
                }
            }
        }
    }

    /// status, candidates, fallback_used false, no value, no quorum, empty lists.
    function _empty(uint256 o, uint256 status, uint256 candidates, uint256 quorumWords) private pure returns (uint256) {
        o = _put4(o, status, candidates, 0, 0);
        if (quorumWords == 0) return _put(_put2(o, 0, 0), 0);
        return o; // the caller writes the quorum map and the lists
    }

    function _single(Ctx memory c, uint256 o, uint256 kind, uint256 nv, uint256 strategy) private pure returns (uint256) {
        uint256 best;
        bool fb;
        if (strategy == 2) {
            uint256 bestRank = type(uint256).max;
            for (uint256 i; i < nv; ++i) {
                uint256 rank = _rank(c, _w(c.ext[c.vk[i]] + 64));
                if (rank < bestRank) (best, bestRank) = (i, rank);
            }
            fb = c.nTargets == 0 || _w(c.ext[c.vk[best]] + 64) != _w(c.targets);
        } else if (_w(c.req + 96) == 1) {
            uint256 tier;
            for (uint256 i; i < nv; ++i) {
                uint256 t = _w(c.ext[c.vk[i]] + 96);
                if (i == 0 || t > tier) (best, tier) = (i, t);
            }
        }
        if (fb) c.fbUsed = 1;
        ++c.sel;
        o = _put4(o, 0, nv, fb ? 1 : 0, 1);
        (uint256 vp, uint256 vs) = _value(kind, c.vc[best]);
        o = _put2(_copy(o, vp, vs), 0, 1);
        o = _copy(o, c.vc[best] + 64, _tsize(c.vc[best] + 64));
        o = _put(o, 1);
        uint256 e = c.ext[c.vk[best]] + 160;
        c.used |= 1 << c.vk[best];
        return _copy(o, e, _tsize(e));
    }

    function _quorum(Ctx memory c, uint256 o, uint256 kind, uint256 nv) private pure returns (uint256) {
        if (nv < _w(c.req + 128)) return _empty(o, 2, nv, 0);
        uint256 need = _w(c.req + 160);
        if (kind == 1) _numbers(c, nv);
        _tieOrder(c, nv);
        uint256 most;
        for (uint256 i; i < nv; ++i) {
            uint256 v = c.order[i];
            uint256 count = _count(c, kind, v, nv);
            if (count > most) most = count;
            if (count >= need) return _group(c, o, kind, nv, v, count, need);
        }
        o = _put4(_empty(o, 3, nv, 1), 1, need, most, 0);
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
        for (uint256 j; j < nv; ++j) {
            if (_agree(c, kind, v, j)) o = _copy(o, c.vc[j] + 64, _tsize(c.vc[j] + 64));
        }
        o = _put(o, count);
        for (uint256 j; j < nv; ++j) {
            if (_agree(c, kind, v, j)) {
                uint256 e = c.ext[c.vk[j]] + 160;
                c.used |= 1 << c.vk[j];
                o = _copy(o, e, _tsize(e));
            }
        }
        return o;
    }

    function _votes(Ctx memory c, uint256 o, uint256 kind, bytes32 key, uint256 nv) private pure returns (uint256) {
        if (_w(c.common + 64) == 0 || bytes32(_w(c.common + 32)) != key) return _put(o, 0);
        o = _put2(o, 1, nv);
        for (uint256 i; i < nv; ++i) {
            (uint256 vp, uint256 vs) = _value(kind, c.vc[i]);
            o = _copy(o, vp, vs);
            uint256 e = c.ext[c.vk[i]];
            o = _put(o, _w(e + 64));
            o = _copy(o, e + 160, _tsize(e + 160));
            o = _put(o, 0); // the vote's rest
        }
        return o;
    }

    /// T("aggregate requirement " R " by " strategy ": " selected " of " fields " field(s) selected").
    function _description(Ctx memory c, uint256 o) private pure returns (uint256) {
        uint256 t = o;
        o += 32;
        uint256 rid = c.agg + 64;
        uint256 len = _w(rid);
        uint256 strategy = _w(c.req + 64);
        assembly {
            mstore(o, "aggregate requirement ")
            o := add(o, 22)
            calldatacopy(o, add(rid, 32), len)
            o := add(o, len)
            mstore(o, " by ")
            o := add(o, 4)
            switch strategy
            case 0 { mstore(o, "single_best") o := add(o, 11) }
            case 1 { mstore(o, "multi_source_quorum") o := add(o, 19) }
            default { mstore(o, "fallback_chain") o := add(o, 14) }
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
            assembly { mstore8(add(o, sub(i, 1)), add(48, mod(v, 10))) }
            v /= 10;
        }
        return o + n;
    }
}
