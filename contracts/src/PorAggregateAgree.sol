// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorDecimal} from "./PorDecimal.sol";

/// @title PorAggregateAgree: multi_source_quorum's agreement of one field's voters (SPEC
/// §12.5.4): numbers within numeric_tolerance exactly, other kinds equal (split from
/// `PorAggregateStep`, which applies the policy).
library PorAggregateAgree {
    /// Each voter's agreeing group (`group[v]` bit u: u agrees with v) and its size; the
    /// caller keeps the largest size. Each voter's value is one word (`words`) and two
    /// agree when the absolute difference of their words is at most `t`: numbers aligned
    /// to the field's largest scale (exact), other kinds their bytes' hash with `t` 0
    /// (equal). Numbers too large for one word are compared by `PorDecimal.absDiffLe`.
    function agreeing(bytes calldata d, uint256 tolerance, uint256 n, uint256[] memory value, uint256 kind)
        internal
        pure
        returns (uint256[] memory group, uint256[] memory size)
    {
        group = new uint256[](n);
        size = new uint256[](n);
        (bool fits, uint256 t, uint256[] memory w) = words(d, tolerance, n, value, kind);
        if (!fits) return exact(d, tolerance, n, value, group, size);
        assembly ("memory-safe") {
            // agreement is symmetric: each unordered pair (u < v) decided once
            let wp := add(w, 32)
            let gp := add(group, 32)
            let sp := add(size, 32)
            for { let v := 0 } lt(v, n) { v := add(v, 1) } {
                let a := mload(add(wp, shl(5, v)))
                let m := shl(v, 1) // v agrees with itself
                let c := add(mload(add(sp, shl(5, v))), 1)
                for { let u := 0 } lt(u, v) { u := add(u, 1) } {
                    let x := sub(a, mload(add(wp, shl(5, u))))
                    if slt(x, 0) { x := sub(0, x) }
                    if iszero(gt(x, t)) {
                        m := or(m, shl(u, 1))
                        c := add(c, 1)
                        let q := shl(5, u)
                        mstore(add(gp, q), or(mload(add(gp, q)), shl(v, 1)))
                        mstore(add(sp, q), add(mload(add(sp, q)), 1))
                    }
                }
                mstore(add(gp, shl(5, v)), or(mload(add(gp, shl(5, v))), m))
                mstore(add(sp, shl(5, v)), c)
            }
        }
    }

    /// Each voter's value as one word and the tolerance word (`agreeing`); fits false
    /// when an aligned number or the tolerance reaches 2^254 (then `exact` decides).
    function words(bytes calldata d, uint256 tolerance, uint256 n, uint256[] memory value, uint256 kind)
        private
        pure
        returns (bool fits, uint256 t, uint256[] memory w)
    {
        w = new uint256[](n);
        if (kind != R.NUMERIC) {
            for (uint256 v = 0; v < n; v++) w[v] = R.rawHash(d, value[v]);
            return (true, 0, w);
        }
        // the texts are canonical decimals (the reader checked them): read by `number`
        uint256[] memory mag = new uint256[](n + 1);
        uint256[] memory sc = new uint256[](n + 1);
        uint256 negs = 0; // bit v: voter v's number is negative
        uint256 scale = 0;
        for (uint256 v = 0; v <= n; v++) {
            bool neg;
            (neg, mag[v], sc[v]) = number(d, v == n ? tolerance : value[v]);
            if (neg) negs |= 1 << v;
            if (sc[v] > scale) scale = sc[v];
        }
        for (uint256 v = 0; v <= n; v++) {
            unchecked {
                uint256 e = 10 ** (scale - sc[v]); // scales <= 62 (canonical texts)
                uint256 m = mag[v] * e; // mag[v] < 10^64, e <= 10^62: may wrap
                if (m / e != mag[v] || m >= 2 ** 254) return (false, 0, w);
                if (v == n) t = m;
                else w[v] = (negs >> v) & 1 == 1 ? 0 - m : m;
            }
        }
        return (true, t, w);
    }

    /// The canonical decimal text at `pos` (checked by the reader): its sign, its digits
    /// as an integer and its fractional digit count (`PorDecimal.parseText`'s, nothing
    /// checked again, nothing allocated).
    function number(bytes calldata d, uint256 pos) private pure returns (bool neg, uint256 m, uint256 scale) {
        assembly ("memory-safe") {
            let p := add(d.offset, pos)
            let len := and(byte(0, calldataload(p)), 31)
            p := add(p, 1)
            if eq(len, 24) {
                len := byte(0, calldataload(p)) // at most 64 characters: a one-byte length
                p := add(p, 1)
            }
            let end := add(p, len)
            if eq(byte(0, calldataload(p)), 0x2d) {
                neg := 1
                p := add(p, 1)
            }
            let frac := 0
            for {} lt(p, end) { p := add(p, 1) } {
                let c := byte(0, calldataload(p))
                switch c
                case 0x2e { frac := 1 }
                default {
                    m := add(mul(m, 10), sub(c, 0x30))
                    scale := add(scale, frac)
                }
            }
        }
    }

    /// `agreeing` for numbers past one word: each ordered pair by `PorDecimal.absDiffLe`.
    function exact(
        bytes calldata d,
        uint256 tolerance,
        uint256 n,
        uint256[] memory value,
        uint256[] memory group,
        uint256[] memory size
    ) private pure returns (uint256[] memory, uint256[] memory) {
        (, PorDecimal.Dec memory t) = PorDecimal.parseText(d, tolerance);
        PorDecimal.Dec[] memory num = new PorDecimal.Dec[](n);
        for (uint256 v = 0; v < n; v++) (, num[v]) = PorDecimal.parseText(d, value[v]);
        for (uint256 v = 0; v < n; v++) {
            for (uint256 u = 0; u < n; u++) {
                if (PorDecimal.absDiffLe(num[u], num[v], t)) {
                    group[v] |= 1 << u;
                    size[v]++;
                }
            }
        }
        return (group, size);
    }
}
