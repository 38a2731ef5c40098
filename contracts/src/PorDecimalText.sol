// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorDecimalText: exact comparison of canonical decimal texts (SPEC §3.2) in a
/// checked por-cbor/1 document, digit by digit (no word limit: a canonical decimal has at
/// most 64 characters). Used by `PorContradictionsStep` until `PorDecimal`'s two-word
/// arithmetic (`cmp`, `absDiffLe`) is merged; both must agree with Python's `Decimal`.
library PorDecimalText {
    /// A canonical decimal text: sign, integer digits and fraction digits (offsets in `d`).
    struct Num {
        bool neg;
        uint256 intOff;
        uint256 intLen;
        uint256 fracOff;
        uint256 fracLen;
    }

    /// The canonical decimal text item at `pos` (0: the text "0").
    function read(bytes calldata d, uint256 pos) private pure returns (Num memory x) { unchecked {
        if (pos == 0) return x;
        (, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        uint256 end = off + len;
        if (d[off] == "-") (x.neg, off) = (true, off + 1);
        uint256 i = off;
        while (i < end && d[i] != ".") i++;
        (x.intOff, x.intLen) = (off, i - off);
        if (i < end) (x.fracOff, x.fracLen) = (i + 1, end - i - 1);
        if (x.intLen == 1 && d[off] == "0") x.intLen = 0; // "0" has no significant digit
    }}

    /// -1, 0 or 1 as the decimal text item at `a` is below, equal to or above the one at `b`.
    function cmp(bytes calldata d, uint256 a, uint256 b) internal pure returns (int256) { unchecked {
        Num memory x = read(d, a);
        Num memory y = read(d, b);
        if (x.neg != y.neg) return x.neg ? int256(-1) : int256(1);
        int256 m = cmpMagnitude(d, x, y);
        return x.neg ? -m : m;
    }}

    /// |a - b| <= t for the decimal text items at `a`, `b` and `t` (t 0: "0"), exactly.
    function absDiffLe(bytes calldata d, uint256 a, uint256 b, uint256 t) internal pure returns (bool) { unchecked {
        Num memory x = read(d, a);
        Num memory y = read(d, b);
        Num memory z = read(d, t);
        uint256 ints = max(max(x.intLen, y.intLen), z.intLen) + 1;
        uint256 fracs = max(max(x.fracLen, y.fracLen), z.fracLen);
        bytes memory u = digits(d, x, ints, fracs);
        bytes memory v = digits(d, y, ints, fracs);
        bytes memory w = digits(d, z, ints, fracs);
        bytes memory diff;
        if (x.neg != y.neg) {
            diff = addDigits(u, v);
        } else {
            diff = lessDigits(u, v) ? subDigits(v, u) : subDigits(u, v);
        }
        return !lessDigits(w, diff);
    }}

    /// The byte at `i` of `d` (no bounds check: `i` lies in a checked item).
    function byteAt(bytes calldata d, uint256 i) internal pure returns (bytes1 b) {
        assembly ("memory-safe") {
            b := calldataload(add(d.offset, i))
        }
    }

    function max(uint256 a, uint256 b) private pure returns (uint256) { unchecked {
        return a > b ? a : b;
    }}

    /// |x| vs |y|: more integer digits is larger, then digit by digit, the fraction of the
    /// shorter read as followed by zeros.
    function cmpMagnitude(bytes calldata d, Num memory x, Num memory y) private pure returns (int256) { unchecked {
        if (x.intLen != y.intLen) return x.intLen < y.intLen ? int256(-1) : int256(1);
        for (uint256 i = 0; i < x.intLen; i++) {
            if (d[x.intOff + i] != d[y.intOff + i]) return d[x.intOff + i] < d[y.intOff + i] ? int256(-1) : int256(1);
        }
        uint256 n = max(x.fracLen, y.fracLen);
        for (uint256 i = 0; i < n; i++) {
            bytes1 p = i < x.fracLen ? d[x.fracOff + i] : bytes1("0");
            bytes1 q = i < y.fracLen ? d[y.fracOff + i] : bytes1("0");
            if (p != q) return p < q ? int256(-1) : int256(1);
        }
        return 0;
    }}

    /// |x| as `ints + fracs` digit values (0..9), most significant first.
    function digits(bytes calldata d, Num memory x, uint256 ints, uint256 fracs) private pure returns (bytes memory out) { unchecked {
        out = new bytes(ints + fracs);
        uint256 lead = ints - x.intLen;
        for (uint256 i = 0; i < x.intLen; i++) out[lead + i] = bytes1(uint8(d[x.intOff + i]) - 48);
        for (uint256 i = 0; i < x.fracLen; i++) out[ints + i] = bytes1(uint8(d[x.fracOff + i]) - 48);
    }}

    /// u < v, digit arrays of one length.
    function lessDigits(bytes memory u, bytes memory v) private pure returns (bool) { unchecked {
        for (uint256 i = 0; i < u.length; i++) {
            if (u[i] != v[i]) return u[i] < v[i];
        }
        return false;
    }}

    /// u + v (the leading digit is a free carry place: both have a leading zero).
    function addDigits(bytes memory u, bytes memory v) private pure returns (bytes memory out) { unchecked {
        out = new bytes(u.length);
        uint256 carry = 0;
        for (uint256 i = u.length; i > 0; i--) {
            uint256 s = uint8(u[i - 1]) + uint8(v[i - 1]) + carry;
            (out[i - 1], carry) = (bytes1(uint8(s % 10)), s / 10);
        }
    }}

    /// u - v for u >= v.
    function subDigits(bytes memory u, bytes memory v) private pure returns (bytes memory out) { unchecked {
        out = new bytes(u.length);
        uint256 borrow = 0;
        for (uint256 i = u.length; i > 0; i--) {
            uint256 a = uint8(u[i - 1]);
            uint256 b = uint8(v[i - 1]) + borrow;
            (out[i - 1], borrow) = a >= b ? (bytes1(uint8(a - b)), 0) : (bytes1(uint8(a + 10 - b)), 1);
        }
    }}
}
