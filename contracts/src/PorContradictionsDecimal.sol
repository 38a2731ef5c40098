// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorContradictionsDecimal: a claim reference's decimal value and the tolerance
/// read in place (SPEC §3.2, §12.5.5), each in one assembly pass with no copy, no memory
/// and no call to the generic head reader (ADR 0013, s37 contra6 addendum).
/// @notice Offsets are absolute in a proof `d` whose leaves passed the §2 reader (every
/// item's head is shortest and lies inside `d`). `end` accepts exactly the texts
/// `PorDecimal.isCanonical` accepts; `exceeds` decides `|a - b| > t` exactly for short
/// canonical texts and leaves any other to `PorDecimal` (its `fast` false).
library PorContradictionsDecimal {
    /// The offset after the text item at `v` when it is a canonical decimal (SPEC §3.2:
    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, not `-0`, 1..64 characters), else 0; `neg`
    /// its first character is "-".
    function end(bytes calldata d, uint256 v) internal pure returns (uint256 e, bool neg) {
        assembly ("memory-safe") {
            let b := d.offset
            let ib := byte(0, calldataload(add(b, v)))
            // a text of 1..23 bytes (one-byte head) or of 24..255 (0x78, one length byte)
            let len := sub(ib, 0x60) // wraps below 0x60: too long
            let q := add(add(b, v), 1)
            if eq(ib, 0x78) {
                len := byte(0, calldataload(q))
                q := add(q, 1)
            }
            for {} and(iszero(gt(ib, 0x78)), iszero(gt(sub(len, 1), 63))) {} {
                let last := add(q, len)
                neg := eq(byte(0, calldataload(q)), 0x2d)
                q := add(q, neg)
                if eq(q, last) { break }
                let lead := sub(byte(0, calldataload(q)), 0x30)
                if gt(lead, 9) { break } // wraps below "0"
                q := add(q, 1)
                // after a leading 0, no more integer digits
                if lead {
                    for {} lt(q, last) { q := add(q, 1) } {
                        if gt(sub(byte(0, calldataload(q)), 0x30), 9) { break }
                    }
                }
                if eq(q, last) {
                    // not -0
                    if iszero(and(neg, iszero(lead))) { e := sub(last, b) }
                    break
                }
                // a fraction: ".", then at least one digit, the last not "0"
                if iszero(eq(byte(0, calldataload(q)), 0x2e)) { break }
                q := add(q, 1)
                if eq(q, last) { break }
                if eq(byte(0, calldataload(sub(last, 1))), 0x30) { break }
                for {} lt(q, last) { q := add(q, 1) } {
                    if gt(sub(byte(0, calldataload(q)), 0x30), 9) { break }
                }
                if eq(q, last) { e := sub(last, b) }
                break
            }
            if iszero(e) { neg := 0 }
        }
    }

    /// Whether `|a - b| > t` for the canonical decimal text items at `a`, `b` and `t` (`t`
    /// not negative), exactly, when each has at most 23 characters (`fast`): each is then
    /// below 10^23 with at most 21 fractional digits, so aligned to a common scale each
    /// is below 10^44 and a sum below 2^256 (one word each). `fast` false for a longer
    /// text (the caller decides it with `PorDecimal`).
    function exceeds(bytes calldata d, uint256 a, uint256 b, uint256 t) internal pure returns (bool fast, bool over) {
        assembly ("memory-safe") {
            // a canonical decimal text of a one-byte head: (negative, digits, scale); a
            // scale of 0x100 for another text
            function dec(bs, p) -> neg, m, scale {
                let w := calldataload(add(bs, p))
                let len := sub(byte(0, w), 0x60)
                scale := 0x100
                if lt(sub(len, 1), 23) {
                    scale := 0
                    let frac := 0
                    for { let i := 1 } iszero(gt(i, len)) { i := add(i, 1) } {
                        let c := byte(i, w)
                        switch c
                        case 0x2d { neg := 1 }
                        case 0x2e { frac := 1 }
                        default {
                            m := add(mul(m, 10), sub(c, 0x30))
                            scale := add(scale, frac)
                        }
                    }
                }
            }
            // |x - y| at the larger scale `s` of the two (0x100 or more: a long text)
            function absDiff(bs, x, y) -> diff, s {
                let negX, mx, sx := dec(bs, x)
                let negY, my, sy := dec(bs, y)
                s := or(sx, sy) // 0x100 set when either is long
                if lt(s, 0x100) {
                    s := sx
                    if gt(sy, s) { s := sy }
                    mx := mul(mx, exp(10, sub(s, sx)))
                    my := mul(my, exp(10, sub(s, sy)))
                    // the sum of the magnitudes for opposite signs (-0 is not canonical)
                    diff := add(mx, my)
                    if eq(negX, negY) {
                        diff := sub(mx, my)
                        if lt(mx, my) { diff := sub(my, mx) }
                    }
                }
            }
            let diff, s := absDiff(d.offset, a, b)
            let negT, mt, st := dec(d.offset, t)
            fast := lt(or(s, st), 0x100)
            if fast {
                // both at the larger scale
                switch lt(s, st)
                case 1 { diff := mul(diff, exp(10, sub(st, s))) }
                default { mt := mul(mt, exp(10, sub(s, st))) }
                over := gt(diff, mt)
            }
        }
    }
}
