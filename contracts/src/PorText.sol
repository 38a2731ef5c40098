// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// Text equality of CBOR items in calldata (s38): every contract's one `sameText`.
library PorText {
    /// The items at `a` and `b` of `d` are texts with the same head and the same bytes
    /// (Python's `isinstance(x, str) and x == y` on the decoded items). Assumes what a
    /// checked document (SPEC §2) gives: every head is the shortest one (a text in a
    /// non-shortest head, e.g. 0x78 0x05 "hello", never reaches it: §2 rejects it first;
    /// here it would differ from 0x65 "hello"), so equal texts have equal heads, and a
    /// text at `a` lies within the calldata. The item at `a` is read: a text (head
    /// 0x60..0x7b) is compared, head and bytes, with the bytes at `b` as calldata words
    /// (no copy, no hash; one word for a text of at most 23 bytes, head and bytes within
    /// 24), and the bytes at `b` equal to them are that text. Another item at `a` is no
    /// text: false.
    function sameText(bytes calldata d, uint256 a, uint256 b) internal pure returns (bool same) {
        assembly ("memory-safe") {
            let x := add(d.offset, a)
            let y := add(d.offset, b)
            let w := calldataload(x)
            let n := sub(byte(0, w), 0x5f) // head and bytes of a head 0x60..0x77
            switch lt(sub(n, 1), 24)
            case 1 {
                let sh := shl(3, sub(32, n))
                same := eq(shr(sh, w), shr(sh, calldataload(y)))
            }
            default {
                // heads 0x78..0x7b: 1, 2, 4 or 8 length bytes after the head
                let k := sub(n, 25)
                if lt(k, 4) {
                    let width := shl(k, 1)
                    n := add(add(1, width), shr(sub(256, shl(3, width)), shl(8, w)))
                    // the first word (head, length, first bytes), then the rest by hash
                    let diff := xor(w, calldataload(y))
                    if lt(n, 32) { diff := shr(shl(3, sub(32, n)), diff) }
                    if iszero(diff) {
                        same := 1
                        if gt(n, 32) {
                            let m := mload(0x40)
                            calldatacopy(m, x, n)
                            let h := keccak256(m, n)
                            calldatacopy(m, y, n)
                            same := eq(h, keccak256(m, n))
                        }
                    }
                }
            }
        }
    }

    /// `sameText` across two documents of the calldata: the item at `a` of `x` and the
    /// item at `b` of `y` (`b` taken as an offset from `x`'s start, wrapping: the same
    /// calldata position).
    function sameText(bytes calldata x, uint256 a, bytes calldata y, uint256 b) internal pure returns (bool) {
        uint256 c;
        assembly ("memory-safe") {
            c := sub(add(y.offset, b), x.offset)
        }
        return sameText(x, a, c);
    }
}
