// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorAggregateEntries: a claim's entries found in one walk (SPEC §12.5.4; split
/// from `PorAggregateRead`, which checks them).
library PorAggregateEntries {
    /// The value offsets of kind, key, value, claim_id and path in the map at `p` (0:
    /// absent), and the offset after the map: one assembly loop over the entries, each key
    /// (a text, §2) compared as its key word (`PorCborKeys.wordAt`), each value skipped.
    function entries(bytes calldata d, uint256 p) internal pure returns (bool isMap, uint256[6] memory at) {
        assembly ("memory-safe") {
            let base := d.offset
            // (argument, offset after the head) of the head at q whose argument bits are a
            function arg(b, q, a) -> v, r {
                v := a
                r := add(q, 1)
                if gt(a, 23) {
                    let width := shl(sub(a, 24), 1)
                    v := shr(sub(256, shl(3, width)), calldataload(add(b, r)))
                    r := add(r, width)
                }
            }
            let ib := byte(0, calldataload(add(base, p)))
            isMap := eq(shr(5, ib), 5)
            let n := 0
            n, p := arg(base, p, and(ib, 31))
            if iszero(isMap) { n := 0 }
            for {} n { n := sub(n, 1) } {
                let len, off := arg(base, p, and(byte(0, calldataload(add(base, p))), 31))
                p := add(off, len)
                if lt(len, 32) {
                    switch or(and(calldataload(add(base, off)), not(shr(shl(3, len), not(0)))), len)
                    case 0x6b696e6400000000000000000000000000000000000000000000000000000004 { mstore(at, p) }
                    case 0x6b65790000000000000000000000000000000000000000000000000000000003 {
                        mstore(add(at, 0x20), p)
                    }
                    case 0x76616c7565000000000000000000000000000000000000000000000000000005 {
                        mstore(add(at, 0x40), p)
                    }
                    case 0x636c61696d5f6964000000000000000000000000000000000000000000000008 {
                        mstore(add(at, 0x60), p)
                    }
                    case 0x7061746800000000000000000000000000000000000000000000000000000004 {
                        mstore(add(at, 0x80), p)
                    }
                }
                // skip the value (PorCbor.skip)
                for { let left := 1 } left { left := sub(left, 1) } {
                    let vb := byte(0, calldataload(add(base, p)))
                    let major := shr(5, vb)
                    let a := 0
                    a, p := arg(base, p, and(vb, 31))
                    if or(eq(major, 2), eq(major, 3)) { p := add(p, a) }
                    if eq(major, 4) { left := add(left, a) }
                    if eq(major, 5) { left := add(left, shl(1, a)) }
                }
            }
            mstore(add(at, 0xa0), p)
        }
    }
}
