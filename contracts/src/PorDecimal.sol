// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorDecimal: canonical decimal strings (SPEC §3.2) in a por-cbor/1 document, and
/// exact arithmetic on them.
/// @notice A value is (-1)^neg * (hi * 2^256 + lo) / 10^scale, never -0. A canonical text
/// has at most 64 characters, so at most 64 digits and 62 fractional digits; aligned to a
/// common scale <= 62 an operand is below 10^126 < 2^419, and a sum of up to 2^90 such
/// operands stays below 2^512: two words hold it exactly (SPEC §3.2, ADR 0013). An
/// arithmetic result past two words reverts (Panic 0x11, or `ScaleOverflow` for scales more
/// than 77 apart): neither can arise from canonical inputs within the SPEC §12.4.1 term cap.
library PorDecimal {
    /// Longest canonical decimal (SPEC §3.2).
    uint256 internal constant MAX_LENGTH = 64;

    /// Two operands' scales differ by more than 77 (impossible for canonical texts: <= 62).
    error ScaleOverflow();

    struct Dec {
        bool neg;
        uint256 hi;
        uint256 lo;
        uint256 scale;
    }

    /// d[off:off+len] matches `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?`, is not `-0` and has
    /// at most 64 characters (por.numbers.is_canonical_decimal).
    function isCanonical(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool ok) {
        (ok,,,) = scan(d, off, len);
    }

    /// The value of the canonical text d[off:off+len]; ok false (and zero) for any other
    /// text. At most 64 digits: the magnitude fits `lo` (10^64 < 2^213).
    function parse(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool ok, Dec memory v) {
        (ok, v.neg, v.lo, v.scale) = scan(d, off, len);
    }

    /// One left-to-right pass over d[off:off+len] (in assembly, ~115 gas a character):
    /// whether it is canonical, and then its sign, digits as an integer and fractional
    /// digit count; all zero when it is not canonical.
    function scan(bytes calldata d, uint256 off, uint256 len)
        private
        pure
        returns (bool ok, bool neg, uint256 m, uint256 scale)
    {
        d[off:off + len]; // reverts when the text runs past d, as an index would
        assembly ("memory-safe") {
            function at(q) -> c {
                c := byte(0, calldataload(q))
            }
            for {} 1 {} {
                if or(iszero(len), gt(len, 64)) { break }
                let p := add(d.offset, off)
                let end := add(p, len)
                if eq(at(p), 0x2d) {
                    neg := 1
                    p := add(p, 1)
                }
                if eq(p, end) { break }
                let c := at(p)
                if gt(sub(c, 0x30), 9) { break } // wraps below "0"
                p := add(p, 1)
                m := sub(c, 0x30)
                if m {
                    for {} lt(p, end) { p := add(p, 1) } {
                        c := sub(byte(0, calldataload(p)), 0x30)
                        if gt(c, 9) { break }
                        m := add(mul(m, 10), c)
                    }
                }
                if eq(p, end) {
                    ok := iszero(and(neg, iszero(m))) // not -0
                    break
                }
                // A fraction: ".", then at least one digit, the last not "0".
                if iszero(eq(at(p), 0x2e)) { break }
                p := add(p, 1)
                if eq(p, end) { break }
                scale := sub(end, p)
                let bad := eq(at(sub(end, 1)), 0x30)
                for {} lt(p, end) { p := add(p, 1) } {
                    c := sub(byte(0, calldataload(p)), 0x30)
                    bad := or(bad, gt(c, 9))
                    m := add(mul(m, 10), c)
                }
                if bad { break }
                ok := 1
                break
            }
            if iszero(ok) {
                neg := 0
                m := 0
                scale := 0
            }
        }
    }

    /// The value of the CBOR text item at `pos` of a checked document; ok false when the
    /// item is not a text or not canonical.
    function parseText(bytes calldata d, uint256 pos) internal pure returns (bool ok, Dec memory v) {
        (uint8 major, uint256 len, uint256 next) = PorCbor.head(d, pos);
        if (major != PorCbor.TEXT) return (false, v);
        return parse(d, next, len);
    }

    /// Zero.
    function zero() internal pure returns (Dec memory z) {
        return z;
    }

    /// -v (zero stays non-negative).
    function negate(Dec memory v) internal pure returns (Dec memory r) {
        r = Dec(!v.neg, v.hi, v.lo, v.scale);
        if (r.hi == 0 && r.lo == 0) r.neg = false;
    }

    /// -1, 0 or 1 as a <, =, > b, exactly.
    function cmp(Dec memory a, Dec memory b) internal pure returns (int256) {
        if (a.neg != b.neg) return a.neg ? int256(-1) : int256(1);
        (uint256 ah, uint256 al, uint256 bh, uint256 bl,) = aligned(a, b);
        int256 m = cmpMag(ah, al, bh, bl);
        return a.neg ? -m : m;
    }

    /// a + b, exactly, at the larger of the two scales.
    function add(Dec memory a, Dec memory b) internal pure returns (Dec memory r) {
        (uint256 ah, uint256 al, uint256 bh, uint256 bl, uint256 s) = aligned(a, b);
        r.scale = s;
        if (a.neg == b.neg) {
            (r.hi, r.lo) = addMag(ah, al, bh, bl);
            r.neg = a.neg;
        } else if (cmpMag(ah, al, bh, bl) >= 0) {
            (r.hi, r.lo) = subMag(ah, al, bh, bl);
            r.neg = a.neg;
        } else {
            (r.hi, r.lo) = subMag(bh, bl, ah, al);
            r.neg = b.neg;
        }
        if (r.hi == 0 && r.lo == 0) r.neg = false;
    }

    /// a - b, exactly, at the larger of the two scales.
    function sub(Dec memory a, Dec memory b) internal pure returns (Dec memory) {
        return add(a, negate(b));
    }

    /// |a - b| <= t (false for a negative t).
    /// Nothing allocated: `sub`'s alignment and `cmp`'s, on the stack.
    function absDiffLe(Dec memory a, Dec memory b, Dec memory t) internal pure returns (bool) {
        (uint256 ah, uint256 al, uint256 bh, uint256 bl, uint256 s) = aligned(a, b);
        if (a.neg != b.neg) {
            (ah, al) = addMag(ah, al, bh, bl);
        } else if (cmpMag(ah, al, bh, bl) >= 0) {
            (ah, al) = subMag(ah, al, bh, bl);
        } else {
            (ah, al) = subMag(bh, bl, ah, al);
        }
        if (t.neg) return false;
        (bh, bl) = (t.hi, t.lo);
        if (s < t.scale) (ah, al) = mulWord(ah, al, pow10(t.scale - s));
        else if (t.scale < s) (bh, bl) = mulWord(bh, bl, pow10(s - t.scale));
        return cmpMag(ah, al, bh, bl) <= 0;
    }

    /// The canonical SPEC §3.2 text of v (no trailing fractional zeros, no `-0`);
    /// fits false (and empty text) when it has more than 64 characters.
    function toText(Dec memory v) internal pure returns (bool fits, bytes memory text) {
        uint256 hi = v.hi;
        uint256 lo = v.lo;
        uint256 scale = v.scale;
        if (hi == 0 && lo == 0) return (true, bytes("0"));
        // Strip trailing fractional zeros: 2^256 = 6 (mod 10).
        while (scale > 0 && (mulmod(hi, 6, 10) + lo % 10) % 10 == 0) {
            (hi, lo,) = divSmall(hi, lo, 10);
            scale--;
        }
        // hi != 0: the magnitude is >= 2^256 > 10^77, more than 64 digits.
        if (hi != 0) return (false, text);
        uint256 n = 1;
        unchecked {
            for (uint256 x = lo / 10; x != 0; x /= 10) n++;
        }
        uint256 intDigits = n > scale ? n - scale : 1;
        uint256 total = (v.neg ? 1 : 0) + intDigits + (scale > 0 ? 1 + scale : 0);
        if (total > MAX_LENGTH) return (false, text);
        text = new bytes(total);
        assembly ("memory-safe") {
            let base := add(text, 32)
            let p := add(base, total)
            for { let k := 0 } lt(k, scale) { k := add(k, 1) } {
                p := sub(p, 1)
                mstore8(p, add(0x30, mod(lo, 10)))
                lo := div(lo, 10)
            }
            if scale {
                p := sub(p, 1)
                mstore8(p, 0x2e)
            }
            for { let k := 0 } lt(k, intDigits) { k := add(k, 1) } {
                p := sub(p, 1)
                mstore8(p, add(0x30, mod(lo, 10)))
                lo := div(lo, 10)
            }
            if gt(p, base) { mstore8(base, 0x2d) }
        }
        return (true, text);
    }

    // --- two-word magnitudes --------------------------------------------------------

    /// Both magnitudes at the larger scale s.
    function aligned(Dec memory a, Dec memory b)
        private
        pure
        returns (uint256 ah, uint256 al, uint256 bh, uint256 bl, uint256 s)
    {
        (ah, al, bh, bl) = (a.hi, a.lo, b.hi, b.lo);
        if (a.scale < b.scale) {
            s = b.scale;
            (ah, al) = mulWord(ah, al, pow10(s - a.scale));
        } else {
            s = a.scale;
            if (b.scale < s) (bh, bl) = mulWord(bh, bl, pow10(s - b.scale));
        }
    }

    /// 10^k for k <= 77 (reverts `ScaleOverflow` above).
    function pow10(uint256 k) private pure returns (uint256 r) {
        if (k > 77) revert ScaleOverflow();
        assembly ("memory-safe") {
            r := exp(10, k)
        }
    }

    /// (hi, lo) * k, reverting past two words. The 512-bit product of lo and k is
    /// (p1, p0) with p0 = lo * k mod 2^256 and p1 = (mulmod(lo, k, 2^256 - 1) - p0) with
    /// borrow (the Chinese remainder identity over 2^256 and 2^256 - 1).
    function mulWord(uint256 hi, uint256 lo, uint256 k) private pure returns (uint256, uint256) {
        uint256 p0;
        uint256 p1;
        assembly ("memory-safe") {
            let mm := mulmod(lo, k, not(0))
            p0 := mul(lo, k)
            p1 := sub(sub(mm, p0), lt(mm, p0))
        }
        return (hi * k + p1, p0);
    }

    function addMag(uint256 ah, uint256 al, uint256 bh, uint256 bl) private pure returns (uint256 h, uint256 l) {
        unchecked {
            l = al + bl;
        }
        h = ah + bh + (l < al ? 1 : 0);
    }

    /// a - b for a >= b.
    function subMag(uint256 ah, uint256 al, uint256 bh, uint256 bl) private pure returns (uint256 h, uint256 l) {
        unchecked {
            l = al - bl;
            h = ah - bh - (al < bl ? 1 : 0);
        }
    }

    function cmpMag(uint256 ah, uint256 al, uint256 bh, uint256 bl) private pure returns (int256) {
        if (ah != bh) return ah < bh ? int256(-1) : int256(1);
        if (al != bl) return al < bl ? int256(-1) : int256(1);
        return 0;
    }

    /// (hi, lo) / q and the remainder, for 0 < q < 2^128: long division over 128-bit
    /// limbs (each partial dividend is below 2^256).
    function divSmall(uint256 hi, uint256 lo, uint256 q) private pure returns (uint256, uint256, uint256 r) {
        unchecked {
            uint256 x = (hi >> 128);
            uint256 q3 = x / q;
            r = x % q;
            x = (r << 128) | (hi & type(uint128).max);
            uint256 q2 = x / q;
            r = x % q;
            x = (r << 128) | (lo >> 128);
            uint256 q1 = x / q;
            r = x % q;
            x = (r << 128) | (lo & type(uint128).max);
            uint256 q0 = x / q;
            r = x % q;
            return ((q3 << 128) | q2, (q1 << 128) | q0, r);
        }
    }
}
