// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsIndex as Index} from "./PorFormsIndex.sol";
import {PorAggregateFormRead} from "./PorAggregateFormRead.sol";

/// @title PorAggregateFormVote: a field's voters and the vote of §12.5.4 on checked forms
/// (ADR 0017 stage 4, from the s38 spike's `PorAggregateFormsVote`): the voters, the tie
/// order, the agreeing groups and the numbers aligned to the field's largest scale, with
/// `PorDecimal.absDiffLe` where an aligned number or the tolerance reaches 2^254.
abstract contract PorAggregateFormVote is PorAggregateFormRead {
    /// Up to this many voters (or cited items) the vote runs its quadratic loops, cheaper
    /// for the few of an honest proof (at most 10); above, its O(n log n) ones (s41).
    uint256 internal constant FEW = 16;

    /// Memory words for the forms' copies.
    function _copy(uint256 o, uint256 p, uint256 size) internal pure returns (uint256) {
        assembly {
            calldatacopy(o, p, size)
        }
        return o + size;
    }

    function _put(uint256 o, uint256 v) internal pure returns (uint256) {
        assembly {
            mstore(o, v)
        }
        return o + 32;
    }

    function _put2(uint256 o, uint256 a, uint256 b) internal pure returns (uint256) {
        assembly {
            mstore(o, a)
            mstore(add(o, 32), b)
        }
        return o + 64;
    }

    function _put4(uint256 o, uint256 a, uint256 b, uint256 c, uint256 d) internal pure returns (uint256) {
        assembly {
            mstore(o, a)
            mstore(add(o, 32), b)
            mstore(add(o, 64), c)
            mstore(add(o, 96), d)
        }
        return o + 128;
    }

    /// The value V of the claim at `claim` (H key, E kind, H claim id, V) and its size (a
    /// numeric's `D`, else one word: a text's `H`).
    function _value(uint256 kind, uint256 claim) internal pure returns (uint256 p, uint256 size) {
        p = claim + 96;
        size = kind == F.NUMERIC ? F.vSize(kind, p) : 32;
    }

    /// The index of `source` in R's `source_targets` (the last one, as Python's rank
    /// table), or the target count when it is none. Up to FEW targets the walk; above,
    /// `_targets`' sorted positions and a binary search for the last place (s42
    /// `dedbound`: the walk per voter per field was O(fields x voters x targets), the
    /// targets a count the signer commits).
    function _rank(Ctx memory c, uint256 source) internal pure returns (uint256 rank) {
        uint256 n = c.nTargets;
        if (n > FEW) {
            (bool found, uint256 j) = Index.last(c.tWords, c.tOrder, bytes32(source));
            return found ? j : n;
        }
        rank = n;
        for (uint256 i; i < n; ++i) {
            if (F.load(c.targets + 32 * i) == source) rank = i;
        }
    }

    /// R's source targets (checked words) and their positions sorted by word
    /// (`PorFormsIndex.order`), for `_rank` above FEW targets; built before the form is
    /// (nothing is allocated while it is).
    function _targets(Ctx memory c) internal pure {
        uint256 n = c.nTargets;
        uint256 p = c.targets;
        bytes32[] memory w = new bytes32[](n);
        assembly {
            calldatacopy(add(w, 32), p, shl(5, n))
        }
        (c.tWords, c.tOrder) = (w, Index.order(w));
    }

    /// Every cited claim's (H(key), kind) as one word, keccak256 of both, sorted stably
    /// (`PorFormsIndex.order`: by word, then item, then claim), each item's first claim
    /// per word kept (`c.ixH`, `c.ixK`, `c.ixC`): a field's voters are then the run of
    /// its word, found by a binary search. Built when the REQUIREMENT has more than FEW
    /// fields: the walk of every cited claim per field was O(fields x claims), both counts
    /// the signer's (s41 `boundsa`); at or below FEW fields the walk is linear and cheaper.
    function _index(Ctx memory c) internal pure {
        uint256 n = c.n;
        uint256 total;
        for (uint256 k; k < n; ++k) total += F.load(c.claims[k]);
        bytes32[] memory h = new bytes32[](total);
        uint256[] memory item = new uint256[](total);
        uint256[] memory at = new uint256[](total);
        uint256 i;
        for (uint256 k; k < n; ++k) {
            uint256 q = c.claims[k];
            uint256 nc = F.load(q);
            q += 32;
            for (uint256 j; j < nc; ++j) {
                uint256 ck = F.load(q + 32);
                h[i] = _word(F.load(q), ck);
                item[i] = k;
                at[i] = q;
                ++i;
                q = ck == F.NUMERIC ? q + 96 + F.vSize(ck, q + 96) : q + 128;
            }
        }
        _keep(c, h, Index.order(h), item, at);
    }

    /// `_index`'s claims in the order `o`, each item's first per word kept.
    function _keep(Ctx memory c, bytes32[] memory h, uint256[] memory o, uint256[] memory item, uint256[] memory at)
        private
        pure
    {
        uint256 total = o.length;
        (uint256[] memory xh, uint256[] memory xk, uint256[] memory xc) =
            (new uint256[](total), new uint256[](total), new uint256[](total));
        uint256 m;
        for (uint256 r; r < total; ++r) {
            uint256 p = o[r];
            if (m > 0 && xh[m - 1] == uint256(h[p]) && xk[m - 1] == item[p]) continue; // not the item's first
            (xh[m], xk[m], xc[m]) = (uint256(h[p]), item[p], at[p]);
            ++m;
        }
        assembly {
            mstore(xh, m)
            mstore(xk, m)
            mstore(xc, m)
        }
        (c.ixH, c.ixK, c.ixC) = (xh, xk, xc);
    }

    function _word(uint256 key, uint256 kind) private pure returns (bytes32 w) {
        assembly {
            mstore(0, key)
            mstore(32, kind)
            w := keccak256(0, 64)
        }
    }

    /// The field's voters: each cited item's first claim with the field's key and kind
    /// (`c.ixH`'s run when `_index` built it; nothing is allocated).
    function _voters(Ctx memory c, uint256 kind, bytes32 key) internal pure returns (uint256 nv) {
        if (c.nFields > FEW) {
            uint256[] memory xh = c.ixH;
            uint256 w = uint256(_word(uint256(key), kind));
            (uint256 lo, uint256 hi) = (0, xh.length);
            while (lo < hi) {
                uint256 mid = (lo + hi) >> 1;
                if (xh[mid] < w) lo = mid + 1;
                else hi = mid;
            }
            for (; lo < xh.length && xh[lo] == w; ++lo) {
                c.vk[nv] = c.ixK[lo];
                c.vc[nv++] = c.ixC[lo];
            }
            return nv;
        }
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
                    let v := add(q, 96) // H(key) E(kind) H(claim_id), then V
                    switch ck
                    case 1 { q := add(add(v, 32), and(add(and(calldataload(v), 0xffffffff), 31), not(31))) }
                    default { q := add(v, 32) }
                }
            }
        }
    }

    /// Voters in tie-breaker order (`c.order`): voter order, or highest provenance tier
    /// first, stable (a merge sort on 2^64 - 1 - tier, O(nv log nv) in any order: the
    /// voters are as many as the cited items a signer's chunk names; s41).
    function _tieOrder(Ctx memory c, uint256 nv) internal pure {
        if (nv <= FEW) return _tieOrderFew(c, nv);
        uint256[] memory order = c.order;
        for (uint256 i; i < nv; ++i) order[i] = i;
        if (c.tiers != 1) return;
        for (uint256 i; i < nv; ++i) c.key[i] = type(uint64).max - F.load(c.ext[c.vk[i]] + 96); // tier < 2^64
        _sort(c, order, nv, false);
    }

    /// `_tieOrder` for a few voters: an insertion sort (stable), tiers kept in `c.key`.
    function _tieOrderFew(Ctx memory c, uint256 nv) private pure {
        uint256[] memory order = c.order;
        uint256[] memory tier = c.key;
        uint256[] memory ext = c.ext;
        uint256[] memory vk = c.vk;
        bool tiers = c.tiers == 1;
        assembly ("memory-safe") {
            for { let i := 0 } lt(i, nv) { i := add(i, 1) } {
                let at := shl(5, add(i, 1))
                let t := 0
                if tiers { t := calldataload(add(mload(add(ext, shl(5, add(mload(add(vk, at)), 1)))), 96)) }
                mstore(add(tier, at), t)
                let j := i
                for {} and(gt(j, 0), lt(mload(add(tier, shl(5, add(mload(add(order, shl(5, j))), 1)))), t)) {} {
                    mstore(add(order, shl(5, add(j, 1))), mload(add(order, shl(5, j))))
                    j := sub(j, 1)
                }
                mstore(add(order, shl(5, add(j, 1))), i)
            }
        }
    }

    /// The size of voter v's agreeing group, counted against every voter (a few).
    function _count(Ctx memory c, uint256 kind, uint256 v, uint256 nv) internal pure returns (uint256 count) {
        if (kind == F.NUMERIC && c.exact == 1) {
            for (uint256 j; j < nv; ++j) {
                if (_within(c, v, j)) ++count;
            }
            return count;
        }
        int256[] memory num = c.num;
        uint256 tol = c.tol;
        bool numeric = kind == F.NUMERIC;
        assembly ("memory-safe") {
            let x := mload(add(num, shl(5, add(v, 1))))
            for { let j := 0 } lt(j, nv) { j := add(j, 1) } {
                let y := mload(add(num, shl(5, add(j, 1))))
                switch numeric
                case 0 { count := add(count, eq(x, y)) }
                default {
                    let d := sub(x, y)
                    if slt(d, 0) { d := sub(0, d) }
                    count := add(count, iszero(gt(d, tol)))
                }
            }
        }
    }

    /// `idx[0..n)` sorted stably by `c.key` ascending, or by the voters' decimals (`dec`):
    /// a bottom-up merge sort through `c.tmp`, O(n log n) on any input.
    function _sort(Ctx memory c, uint256[] memory idx, uint256 n, bool dec) internal pure {
        uint256[] memory a = idx;
        uint256[] memory b = c.tmp;
        bool swapped;
        for (uint256 width = 1; width < n; width <<= 1) {
            for (uint256 lo; lo < n; lo += width << 1) {
                uint256 mid = lo + width < n ? lo + width : n;
                uint256 hi = lo + (width << 1) < n ? lo + (width << 1) : n;
                (uint256 i, uint256 j, uint256 k) = (lo, mid, lo);
                while (i < mid && j < hi) b[k++] = _less(c, a[j], a[i], dec) ? a[j++] : a[i++];
                while (i < mid) b[k++] = a[i++];
                while (j < hi) b[k++] = a[j++];
            }
            (a, b) = (b, a);
            swapped = !swapped;
        }
        if (swapped) {
            for (uint256 k; k < n; ++k) idx[k] = a[k];
        }
    }

    function _less(Ctx memory c, uint256 x, uint256 y, bool dec) private pure returns (bool) {
        if (dec) return PorDecimal.cmp(c.decs[x], c.decs[y]) < 0;
        return c.key[x] < c.key[y];
    }

    /// Each voter's agreeing group size (`c.cnt`), as many as `_agree` finds: the voters
    /// in value order (`c.byValue`), where the voters agreeing with x are a run (|x - y|
    /// <= tolerance holds on an interval of y; other values: equal words), found by two
    /// binary searches. O(nv log nv), where every candidate against every voter was
    /// quadratic in a count the signer commits (s41).
    function _counts(Ctx memory c, uint256 kind, uint256 nv) internal pure {
        uint256[] memory s = c.byValue;
        uint256[] memory cnt = c.cnt;
        bool dec = kind == F.NUMERIC && c.exact == 1;
        for (uint256 i; i < nv; ++i) s[i] = i;
        if (dec) {
            _sort(c, s, nv, true);
            for (uint256 x; x < nv; ++x) {
                // a negative tolerance: no two numbers agree, nor one with itself (`absDiffLe`)
                cnt[x] = c.tdec.neg ? 0 : _boundDec(c, nv, x, true) - _boundDec(c, nv, x, false);
            }
            return;
        }
        uint256 tol = kind == F.NUMERIC ? c.tol : 0;
        // the value's word, sign bit flipped: a number's order (|x| < 2^254), a key's equality
        for (uint256 i; i < nv; ++i) c.key[i] = uint256(c.num[i]) ^ (1 << 255);
        _sort(c, s, nv, false);
        for (uint256 x; x < nv; ++x) {
            uint256 k = c.key[x];
            cnt[x] = _bound(c, s, nv, k, tol, true) - _bound(c, s, nv, k, tol, false);
        }
    }

    /// The first position p of `s[0..n)` (in `c.key` order) whose key y is past x's run:
    /// y > x + tol (`high`), else y >= x - tol; n when none.
    function _bound(Ctx memory c, uint256[] memory s, uint256 n, uint256 x, uint256 tol, bool high)
        internal
        pure
        returns (uint256 lo)
    {
        uint256 hi = n;
        while (lo < hi) {
            uint256 mid = (lo + hi) >> 1;
            uint256 y = c.key[s[mid]];
            if (high ? y > x + tol : y + tol >= x) hi = mid;
            else lo = mid + 1;
        }
    }

    /// `_bound` on the voters' decimals (`c.byValue` in their order) for voter x: past
    /// x's run when y > x and not within the tolerance (`high`), else y >= x or within.
    function _boundDec(Ctx memory c, uint256 n, uint256 x, bool high) private pure returns (uint256 lo) {
        uint256 hi = n;
        while (lo < hi) {
            uint256 mid = (lo + hi) >> 1;
            uint256 y = c.byValue[mid];
            int256 o = PorDecimal.cmp(c.decs[y], c.decs[x]);
            bool near = PorDecimal.absDiffLe(c.decs[x], c.decs[y], c.tdec);
            if (high ? o > 0 && !near : o >= 0 || near) hi = mid;
            else lo = mid + 1;
        }
    }

    /// Voters a and b agree: numbers within the tolerance, other values equal (their keys).
    function _agree(Ctx memory c, uint256 kind, uint256 a, uint256 b) internal pure returns (bool) {
        if (kind == F.NUMERIC) return _within(c, a, b);
        return c.num[a] == c.num[b];
    }

    /// Each non-numeric voter's value as one word (`c.num`): a boolean's or timestamp's
    /// word, a text's `H` (equal iff the texts are).
    function _keys(Ctx memory c, uint256 nv) internal pure {
        for (uint256 i; i < nv; ++i) {
            c.num[i] = int256(F.load(c.vc[i] + 96));
        }
    }

    /// |a - b| <= tolerance: on the field's aligned words, or exactly (`PorDecimal`).
    function _within(Ctx memory c, uint256 a, uint256 b) internal pure returns (bool) {
        if (c.exact == 0) {
            int256 x = c.num[a];
            int256 y = c.num[b];
            return uint256(x > y ? x - y : y - x) <= c.tol; // |x|, |y| < 2^254: no overflow
        }
        return PorDecimal.absDiffLe(c.decs[a], c.decs[b], c.tdec); // no memory returned: nothing allocated
    }

    /// COMMON's tolerance as a decimal, in `c.tdec` (allocated before the form is built:
    /// nothing is allocated while it is).
    function _tolerance(Ctx memory c) internal pure {
        (bool neg, uint256 scale, uint256 len, uint256 p) = D.dAt(c.common + 96);
        c.tdec = PorDecimal.Dec(neg, 0, D.magnitude(p, len), scale);
    }

    /// Each numeric voter's number and the tolerance aligned to the field's largest scale
    /// (theirs and the tolerance's) as one signed word each (SPEC §12.5.4); when one of
    /// them reaches 2^254 (or the tolerance is negative), `exact`: pairs compare with
    /// `PorDecimal.absDiffLe` on the digits.
    function _numbers(Ctx memory c, uint256 nv) internal pure {
        (bool tneg, uint256 st, uint256 tlen, uint256 tp) = D.dAt(c.common + 96);
        uint256 s = st;
        uint256[] memory neg = c.neg;
        uint256[] memory vc = c.vc;
        uint256[] memory mag = c.mag;
        uint256[] memory scale = c.scale;
        for (uint256 i; i < nv; ++i) {
            uint256 head;
            uint256 p;
            assembly ("memory-safe") {
                p := add(mload(add(vc, shl(5, add(i, 1)))), 96) // the claim's D
                head := calldataload(p)
            }
            uint256 sc = (head >> 232) & 0x7fffff;
            uint256 m = D.magnitude(p + 32, head & 0xffffffff); // <= 64 digits: below 2^213
            assembly ("memory-safe") {
                mstore(add(mag, shl(5, add(i, 1))), m)
                mstore(add(scale, shl(5, add(i, 1))), sc)
            }
            neg[i] = head >> 255;
            if (sc > s) s = sc;
        }
        bool over = tneg;
        int256[] memory num = c.num;
        assembly ("memory-safe") {
            for { let i := 0 } lt(i, nv) { i := add(i, 1) } {
                let at := shl(5, add(i, 1))
                let m := mload(add(mag, at))
                let pw := exp(10, sub(s, mload(add(scale, at)))) // 10^k, k <= 62
                let r := mul(m, pw)
                over := or(over, or(iszero(eq(div(r, pw), m)), shr(254, r)))
                if mload(add(neg, at)) { r := sub(0, r) }
                mstore(add(num, at), r)
            }
        }
        (uint256 t, bool ot) = _aligned(D.magnitude(tp, tlen), s - st);
        c.tol = t;
        c.exact = over || ot ? 1 : 0;
        if (c.exact == 1) _decimals(c, nv);
    }

    /// The voters as decimals for the exact comparison (`c.decs`, filled in place:
    /// nothing allocated).
    function _decimals(Ctx memory c, uint256 nv) private pure {
        for (uint256 i; i < nv; ++i) {
            PorDecimal.Dec memory d = c.decs[i];
            (d.neg, d.lo, d.scale) = (c.neg[i] == 1, c.mag[i], c.scale[i]);
        }
    }

    /// mag * 10^k, and whether it reaches 2^254 (or overflows); k <= 62.
    function _aligned(uint256 mag, uint256 k) private pure returns (uint256 r, bool over) {
        assembly ("memory-safe") {
            let p := 1
            for {} k { k := sub(k, 1) } { p := mul(p, 10) }
            r := mul(mag, p)
            over := or(iszero(eq(div(r, p), mag)), shr(254, r))
        }
    }
}
