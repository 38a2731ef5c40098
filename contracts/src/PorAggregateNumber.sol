// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDecimal} from "./PorDecimal.sol";

/// @title PorAggregateNumber: a claim's canonical decimal (SPEC §3.2) checked and read in one
/// pass over words, not characters (the aggregate's reader; ADR 0013 "s37, agg6").
/// @notice The same answer as `PorDecimal.isCanonical` / `parse` (ok false for any other
/// text: `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, not `-0`, 1 to 64 characters), the value
/// packed in one word: `m << 8 | scale << 1 | neg` (m the digits as an integer, below
/// 10^64 < 2^213; scale the fractional digit count, at most 62). The text's at most 64
/// bytes are two words; each word's bytes are classed at once (SWAR: a byte is a digit
/// when its high nibble is 3 and its low nibble at most 9; a dot when it equals 0x2e),
/// and a run of up to 32 digits becomes an integer in five multiply-and-add steps.
library PorAggregateNumber {
    /// Texts of this many characters or more are read a word at a time (`words`).
    uint256 internal constant WORDWISE = 28;

    /// The CBOR text item at `pos` (0: absent) of a checked document: (a canonical
    /// decimal, its packed value).
    function text(bytes calldata d, uint256 pos) internal pure returns (bool ok, uint256 num) {
        if (pos == 0) return (false, 0);
        (bool isText, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!isText) return (false, 0);
        return parse(d, off, len);
    }

    /// The text item at `pos` (0: absent) a canonical decimal (`text` without the value).
    function isDecimal(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (bool isText, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!isText) return false;
        if (len < WORDWISE) return PorDecimal.isCanonical(d, off, len);
        (ok,) = words(d, off, len);
    }

    /// d[off:off+len] a canonical decimal: (ok, its packed value; 0 when not ok). Under
    /// `WORDWISE` characters `PorDecimal.parse`'s character loop costs less.
    function parse(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool ok, uint256 num) {
        if (len < WORDWISE) {
            (bool canonical, PorDecimal.Dec memory v) = PorDecimal.parse(d, off, len);
            return (canonical, v.lo << 8 | v.scale << 1 | (v.neg ? 1 : 0));
        }
        return words(d, off, len);
    }

    /// `parse` a word at a time.
    function words(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool ok, uint256 num) {
        d[off:off + len]; // reverts when the text runs past d, as an index would
        assembly ("memory-safe") {
            let o := div(not(0), 0xff) // 0x0101..01: a byte value times o is in every byte
            let l7f := mul(o, 0x7f)
            // flags (high bit of a byte) of the top k (<= 32) bytes of w: not a digit; a dot
            function flags(w, k, ones, l) -> nd, dt {
                let valid := and(not(shr(shl(3, k), not(0))), mul(ones, 0x80))
                let hi := xor(and(w, mul(ones, 0xf0)), mul(ones, 0x30))
                let low := shl(3, and(add(and(w, mul(ones, 0x0f)), mul(ones, 6)), mul(ones, 0x10)))
                nd := and(or(or(add(and(hi, l), l), hi), low), valid)
                let y := xor(w, mul(ones, 0x2e))
                dt := and(not(or(add(and(y, l), l), y)), valid)
            }
            // the k (<= 32) digits at q as an integer: bytes to values, then pairs of lanes
            // joined (x10, x100, x10^4, x10^8, x10^16; lane masks from all-ones / (2^w - 1))
            // (while the k digits span more than one lane of w bits: w / 8 digits)
            function run(q, k, ones) -> v {
                let s := shl(3, sub(32, k))
                v := sub(shr(s, calldataload(q)), shr(s, mul(ones, 0x30)))
                let f := 10
                for { let w := 8 } gt(k, shr(3, w)) { w := shl(1, w) } {
                    let m := mul(div(not(0), sub(shl(shl(1, w), 1), 1)), sub(shl(w, 1), 1))
                    v := add(mul(and(shr(w, v), m), f), and(v, m))
                    f := mul(f, f)
                }
            }
            // the k (1 to 64) digits at q as an integer
            function digits(q, k, ones) -> v {
                switch gt(k, 32)
                case 0 { v := run(q, k, ones) }
                default {
                    let h := sub(k, 32)
                    v := add(mul(run(q, h, ones), 100000000000000000000000000000000), run(add(q, h), 32, ones))
                }
            }
            for {} 1 {} {
                if or(iszero(len), gt(len, 64)) { break }
                let p := add(d.offset, off)
                let neg := eq(byte(0, calldataload(p)), 0x2d)
                p := add(p, neg)
                let n := sub(len, neg) // the characters after the sign
                if iszero(n) { break }
                let k := n
                if gt(k, 32) { k := 32 }
                let nd0, dt0 := flags(calldataload(p), k, o, l7f)
                let nd1, dt1 := flags(calldataload(add(p, 32)), sub(n, k), o, l7f)
                // every character a digit or a dot, at most one dot
                if or(xor(nd0, dt0), xor(nd1, dt1)) { break }
                if and(iszero(iszero(dt0)), iszero(iszero(dt1))) { break }
                if or(and(dt0, sub(dt0, 1)), and(dt1, sub(dt1, 1))) { break }
                let zero := eq(byte(0, calldataload(p)), 0x30) // a leading "0"
                let j := n // the integer part's length
                let scale := 0
                let x := or(dt0, dt1)
                if x {
                    // the dot's character index j: its flag is bit 8 r + 7 of its word, j = 31 - r
                    j := shl(5, iszero(dt0))
                    let r := 0
                    for { let w := 128 } gt(w, 7) { w := shr(1, w) } {
                        if shr(w, x) {
                            x := shr(w, x)
                            r := add(r, shr(3, w))
                        }
                    }
                    j := add(j, sub(31, r))
                    scale := sub(sub(n, j), 1) // the fraction's digits
                    if or(iszero(j), iszero(scale)) { break }
                    if eq(byte(0, calldataload(add(p, sub(n, 1)))), 0x30) { break } // a last "0"
                }
                if and(gt(j, 1), zero) { break }
                let m := digits(p, j, o)
                if scale { m := add(mul(m, exp(10, scale)), digits(add(p, add(j, 1)), scale, o)) }
                if and(neg, iszero(m)) { break } // -0
                ok := 1
                num := or(shl(8, m), or(shl(1, scale), neg))
                break
            }
        }
    }
}
