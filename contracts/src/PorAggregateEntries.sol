// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorAggregateEntries: a claim's entries found in one walk (SPEC §12.5.4; split
/// from `PorAggregateRead`, which checks them).
library PorAggregateEntries {
    /// The value offsets of kind, key, value, claim_id and path in the map at `p` (0:
    /// absent), the offset after the map, which of the five values are texts (bit i of
    /// at[6]) and the key's word when it is a text (at[7], `PorAggregateRead.keyWord`'s:
    /// under 32 bytes its bytes left-aligned and its length in the low byte, else keccak256
    /// of its bytes with the low byte 0xff): one assembly loop over the entries, each key (a
    /// text, §2) compared as its key word (`PorCborKeys.wordAt`), each value skipped.
    function entries(bytes calldata d, uint256 p) internal pure returns (bool isMap, uint256[8] memory at) {
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
                let slot := 5 // none of the five
                if lt(len, 32) {
                    switch or(and(calldataload(add(base, off)), not(shr(shl(3, len), not(0)))), len)
                    case 0x6b696e6400000000000000000000000000000000000000000000000000000004 { slot := 0 }
                    case 0x6b65790000000000000000000000000000000000000000000000000000000003 { slot := 1 }
                    case 0x76616c7565000000000000000000000000000000000000000000000000000005 { slot := 2 }
                    case 0x636c61696d5f6964000000000000000000000000000000000000000000000008 { slot := 3 }
                    case 0x7061746800000000000000000000000000000000000000000000000000000004 { slot := 4 }
                }
                if lt(slot, 5) {
                    mstore(add(at, shl(5, slot)), p)
                    let vb := byte(0, calldataload(add(base, p)))
                    if eq(shr(5, vb), 3) {
                        mstore(add(at, 0xc0), or(mload(add(at, 0xc0)), shl(slot, 1)))
                        if eq(slot, 1) {
                            // the key's word
                            let tl, to := arg(base, p, and(vb, 31))
                            let w := 0
                            switch lt(tl, 32)
                            case 1 { w := or(and(calldataload(add(base, to)), not(shr(shl(3, tl), not(0)))), tl) }
                            default {
                                let m := mload(0x40)
                                calldatacopy(m, add(base, to), tl)
                                w := or(keccak256(m, tl), 0xff)
                            }
                            mstore(add(at, 0xe0), w)
                        }
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
