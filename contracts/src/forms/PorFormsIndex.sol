// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormsIndex: lookups by word in a list of words whose length a signer commits,
/// in O(log n) after an O(n log n) sort on any input (s41 `execb2`: the deduce executor's
/// id and key lookups were pairwise, O(n^2) over counts a lying form chooses; ADR 0017,
/// addendum (s41, execb2)).
/// @notice `order(keys)` is the positions of `keys` sorted by (word, position): a stable
/// bottom-up merge sort. `first`/`last` find the smallest/largest position holding a word.
library PorFormsIndex {
    /// The positions 0..n-1 of `keys` sorted by (key, position) (in assembly: no bounds
    /// checks, every index below n).
    function order(bytes32[] memory keys) internal pure returns (uint256[] memory a) {
        uint256 n = keys.length;
        a = new uint256[](n);
        uint256[] memory b = new uint256[](n);
        assembly {
            let ka := add(keys, 32)
            let pa := add(a, 32)
            let pb := add(b, 32)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } { mstore(add(pa, shl(5, i)), i) }
            for { let width := 1 } lt(width, n) { width := shl(1, width) } {
                for { let lo := 0 } lt(lo, n) { lo := add(lo, shl(1, width)) } {
                    let mid := add(lo, width)
                    if gt(mid, n) { mid := n }
                    let hi := add(mid, width)
                    if gt(hi, n) { hi := n }
                    let i := lo
                    let j := mid
                    let k := lo
                    for {} and(lt(i, mid), lt(j, hi)) { k := add(k, 1) } {
                        let ai := mload(add(pa, shl(5, i)))
                        let aj := mload(add(pa, shl(5, j)))
                        switch gt(mload(add(ka, shl(5, ai))), mload(add(ka, shl(5, aj))))
                        case 0 {
                            mstore(add(pb, shl(5, k)), ai)
                            i := add(i, 1)
                        }
                        default {
                            mstore(add(pb, shl(5, k)), aj)
                            j := add(j, 1)
                        }
                    }
                    for {} lt(i, mid) { i := add(i, 1) } {
                        mstore(add(pb, shl(5, k)), mload(add(pa, shl(5, i))))
                        k := add(k, 1)
                    }
                    for {} lt(j, hi) { j := add(j, 1) } {
                        mstore(add(pb, shl(5, k)), mload(add(pa, shl(5, j))))
                        k := add(k, 1)
                    }
                }
                let t := pa
                pa := pb
                pb := t
            }
            a := sub(pa, 32)
        }
    }

    /// The smallest position holding `k` (found, position).
    function first(bytes32[] memory keys, uint256[] memory a, bytes32 k) internal pure returns (bool found, uint256 p) {
        assembly {
            let ka := add(keys, 32)
            let pa := add(a, 32)
            let n := mload(a)
            let lo := 0
            let hi := n
            for {} lt(lo, hi) {} {
                let mid := shr(1, add(lo, hi))
                switch lt(mload(add(ka, shl(5, mload(add(pa, shl(5, mid)))))), k)
                case 1 { lo := add(mid, 1) }
                default { hi := mid }
            }
            if lt(lo, n) {
                p := mload(add(pa, shl(5, lo)))
                found := eq(mload(add(ka, shl(5, p))), k)
            }
        }
    }

    /// The largest position holding `k` (found, position).
    function last(bytes32[] memory keys, uint256[] memory a, bytes32 k) internal pure returns (bool found, uint256 p) {
        assembly {
            let ka := add(keys, 32)
            let pa := add(a, 32)
            let lo := 0
            let hi := mload(a)
            for {} lt(lo, hi) {} {
                let mid := shr(1, add(lo, hi))
                switch gt(mload(add(ka, shl(5, mload(add(pa, shl(5, mid)))))), k)
                case 1 { hi := mid }
                default { lo := add(mid, 1) }
            }
            if lo {
                p := mload(add(pa, shl(5, sub(lo, 1))))
                found := eq(mload(add(ka, shl(5, p))), k)
            }
        }
    }
}
