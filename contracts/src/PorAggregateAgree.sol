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
    /// `num`: each voter's number and `tolerance` numeric_tolerance, as the reader read
    /// them (`PorAggregateNumber`'s packed words; `num` read for numbers only).
    function agreeing(
        bytes calldata d,
        uint256 tolerance,
        uint256 n,
        uint256[] memory value,
        uint256[] memory num,
        uint256 kind
    ) internal pure returns (uint256[] memory group, uint256[] memory size) {
        group = new uint256[](n);
        size = new uint256[](n);
        (bool fits, uint256 t, uint256[] memory w) = words(d, tolerance, n, value, num, kind);
        if (!fits) return exact(tolerance, n, num, group, size);
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
    function words(
        bytes calldata d,
        uint256 tolerance,
        uint256 n,
        uint256[] memory value,
        uint256[] memory num,
        uint256 kind
    ) private pure returns (bool fits, uint256 t, uint256[] memory w) {
        w = new uint256[](n);
        if (kind != R.NUMERIC) {
            for (uint256 v = 0; v < n; v++) w[v] = R.rawHash(d, value[v]);
            return (true, 0, w);
        }
        (uint256[] memory mag, uint256[] memory sc, uint256 negs, uint256 scale) = numbers(tolerance, n, num);
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

    /// The voters' numbers (`num`), then the tolerance (`tolerance`), as the reader read
    /// them (`PorAggregateNumber`'s packed words: m << 8 | scale << 1 | neg): their
    /// magnitudes and scales, the negative ones' bits, the largest scale.
    function numbers(uint256 tolerance, uint256 n, uint256[] memory num)
        private
        pure
        returns (uint256[] memory mag, uint256[] memory sc, uint256 negs, uint256 scale)
    {
        mag = new uint256[](n + 1);
        sc = new uint256[](n + 1);
        for (uint256 v = 0; v <= n; v++) {
            uint256 x = v == n ? tolerance : num[v];
            (mag[v], sc[v]) = (x >> 8, (x >> 1) & 0x7f);
            negs |= (x & 1) << v;
            if (sc[v] > scale) scale = sc[v];
        }
    }

    /// A packed number (`numbers`) as a `PorDecimal.Dec`.
    function dec(uint256 x) private pure returns (PorDecimal.Dec memory) {
        return PorDecimal.Dec(x & 1 == 1, 0, x >> 8, (x >> 1) & 0x7f);
    }

    /// `agreeing` for numbers past one word: each ordered pair by `PorDecimal.absDiffLe`.
    function exact(
        uint256 tolerance,
        uint256 n,
        uint256[] memory packed,
        uint256[] memory group,
        uint256[] memory size
    ) private pure returns (uint256[] memory, uint256[] memory) {
        PorDecimal.Dec memory t = dec(tolerance);
        PorDecimal.Dec[] memory num = new PorDecimal.Dec[](n);
        for (uint256 v = 0; v < n; v++) num[v] = dec(packed[v]);
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
