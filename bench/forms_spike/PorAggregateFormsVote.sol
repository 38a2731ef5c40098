// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorAggregateFormsVote: the word readers and the vote of PorAggregateForms (ADR
/// 0017 spike, s38): the forms' calldata words, the tie order, the agreeing groups and
/// the numbers aligned to a field's scale. Scratch; `bench/forms_spike/spike.py` compiles
/// it with PorAggregateForms in one unit.
abstract contract PorAggregateFormsVote {
    error BadInclusion(uint256 form);
    error BadForm(uint256 form);
    error Unexecutable();

    /// Calldata offsets of the forms and what the recomputation needs from them.
    struct Ctx {
        uint256 common;
        uint256 req;
        uint256 chunk;
        uint256 agg;
        uint256 n; // extract steps
        uint256 fields; // REQUIREMENT: offset of its first field
        uint256 nFields;
        uint256 targets; // REQUIREMENT: offset of its first target hash
        uint256 nTargets;
        uint256 sel; // fields selected
        uint256 used; // bit k: extract k's item is in some field's evidence_ids
        uint256 fbUsed;
        uint256 tol; // the tolerance aligned to the current numeric field
        uint256[] ext; // extract k: its form
        uint256[] claims; // extract k: its claim count word
        uint256[] vk; // voters of the current field: extract index
        uint256[] vc; // voters: claim offset
        uint256[] order; // voters in tie-breaker order (indexes into vk)
        uint256[] tier; // voters: provenance tier (highest_provenance), else 0
        int256[] num; // numeric voters: signed magnitude
        uint256[] scale; // numeric voters: scale
    }

    function _w(uint256 p) internal pure returns (uint256 v) {
        assembly { v := calldataload(p) }
    }

    /// Size of a T at p: its length word and its padded bytes.
    function _tsize(uint256 p) internal pure returns (uint256) {
        return 32 + ((_w(p) + 31) & ~uint256(31));
    }

    /// Size of a claim value V of `kind` at p.
    function _vsize(uint256 kind, uint256 p) internal pure returns (uint256) {
        if (kind == 1) return 32 + (((_w(p) & 0xffffffff) + 31) & ~uint256(31));
        if (kind == 3) return _tsize(p);
        return 32;
    }

    function _copy(uint256 o, uint256 p, uint256 size) internal pure returns (uint256) {
        assembly { calldatacopy(o, p, size) }
        return o + size;
    }

    function _put(uint256 o, uint256 v) internal pure returns (uint256) {
        assembly { mstore(o, v) }
        return o + 32;
    }

    function _put2(uint256 o, uint256 a, uint256 b) internal pure returns (uint256) {
        assembly { mstore(o, a) mstore(add(o, 32), b) }
        return o + 64;
    }

    function _put4(uint256 o, uint256 a, uint256 b, uint256 c, uint256 d) internal pure returns (uint256) {
        assembly { mstore(o, a) mstore(add(o, 32), b) mstore(add(o, 64), c) mstore(add(o, 96), d) }
        return o + 128;
    }

    function _value(uint256 kind, uint256 claim) internal pure returns (uint256 p, uint256 size) {
        p = claim + 64 + _tsize(claim + 64);
        size = _vsize(kind, p);
    }

    function _rank(Ctx memory c, uint256 source) internal pure returns (uint256) {
        for (uint256 i; i < c.nTargets; ++i) {
            if (_w(c.targets + 32 * i) == source) return i;
        }
        return c.nTargets;
    }

    /// Voters in tie-breaker order: voter order, or highest provenance tier first (stable).
    function _tieOrder(Ctx memory c, uint256 nv) internal pure {
        uint256[] memory order = c.order;
        uint256[] memory tier = c.tier;
        uint256[] memory ext = c.ext;
        uint256[] memory vk = c.vk;
        bool tiers = _w(c.req + 96) == 1;
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

    /// The size of voter v's agreeing group.
    function _count(Ctx memory c, uint256 kind, uint256 v, uint256 nv) internal pure returns (uint256 count) {
        if (kind != 1) {
            for (uint256 j; j < nv; ++j) {
                if (_agree(c, kind, v, j)) ++count;
            }
            return count;
        }
        int256[] memory num = c.num;
        uint256 tol = c.tol;
        assembly ("memory-safe") {
            let x := mload(add(num, shl(5, add(v, 1))))
            for { let j := 0 } lt(j, nv) { j := add(j, 1) } {
                let d := sub(x, mload(add(num, shl(5, add(j, 1)))))
                if slt(d, 0) { d := sub(0, d) }
                count := add(count, iszero(gt(d, tol)))
            }
        }
    }

    function _agree(Ctx memory c, uint256 kind, uint256 a, uint256 b) internal pure returns (bool) {
        if (a == b) return true;
        if (kind == 1) return _within(c, a, b);
        (uint256 pa, uint256 sa) = _value(kind, c.vc[a]);
        (uint256 pb, uint256 sb) = _value(kind, c.vc[b]);
        if (sa != sb) return false;
        for (uint256 i; i < sa; i += 32) {
            if (_w(pa + i) != _w(pb + i)) return false;
        }
        return true;
    }

    /// |a - b| <= tolerance on the field's aligned words (`_numbers`).
    function _within(Ctx memory c, uint256 a, uint256 b) internal pure returns (bool) {
        int256 x = c.num[a];
        int256 y = c.num[b];
        return uint256(x > y ? x - y : y - x) <= c.tol; // |x|, |y| < 2^254: no overflow
    }

    /// Each numeric voter's number and the tolerance aligned to the field's largest
    /// scale (theirs and the tolerance's), as one signed word each (SPEC §12.5.4); an
    /// aligned number at or above 2^254 is left out (`Unexecutable`).
    function _numbers(Ctx memory c, uint256 nv) internal pure {
        (, uint256 st, uint256 mt) = _decimal(c.common + 96);
        uint256 s = st;
        uint256 negs;
        for (uint256 i; i < nv; ++i) {
            (uint256 p,) = _value(1, c.vc[i]);
            (bool neg, uint256 scale, uint256 mag) = _decimal(p);
            c.num[i] = int256(mag); // < 10^76: fits
            c.scale[i] = scale;
            if (neg) negs |= 1 << i;
            if (scale > s) s = scale;
        }
        if (s > 76) revert Unexecutable();
        for (uint256 i; i < nv; ++i) {
            uint256 aligned = _aligned(uint256(c.num[i]), s - c.scale[i]);
            c.num[i] = negs >> i & 1 == 1 ? -int256(aligned) : int256(aligned);
        }
        c.tol = _aligned(mt, s - st);
    }

    /// mag * 10^k, below 2^254 (else `Unexecutable`).
    function _aligned(uint256 mag, uint256 k) internal pure returns (uint256 r) {
        bool over;
        assembly ("memory-safe") {
            let p := 1
            for {} k { k := sub(k, 1) } { p := mul(p, 10) }
            r := mul(mag, p)
            over := or(iszero(eq(div(r, p), mag)), shr(254, r))
        }
        if (over) revert Unexecutable();
    }

    function _decimal(uint256 p) internal pure returns (bool neg, uint256 scale, uint256 mag) {
        uint256 head = _w(p);
        neg = head >> 255 == 1;
        scale = (head >> 232) & 0x7fffff;
        uint256 len = head & 0xffffffff;
        if (len > 76) revert Unexecutable();
        assembly ("memory-safe") {
            let q := add(p, 32)
            for { let i := 0 } lt(i, len) { i := add(i, 1) } {
                mag := add(mul(mag, 10), sub(byte(0, calldataload(add(q, i))), 48))
            }
        }
    }
}
