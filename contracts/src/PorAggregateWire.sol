// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateRead as R} from "./PorAggregateRead.sol";

/// @title PorAggregateWire: what the aggregate's reader hands its selector (R's `Spec`, the
/// cited `Item`s, the chunk's `Chunk`), as one run of words instead of ABI-encoded structs.
/// @notice `pack` copies each struct's words in member order, each fixed array member's
/// words in place of its pointer: the Spec's 10 words and 4 arrays (8, 8, 8, 10 words),
/// the item count, each Item's 7 words and 2 arrays (8, 8), then the Chunk's 5 words.
/// `unpack` rebuilds the same memory structs from those words (calldata). Both follow
/// Solidity's memory layout of these structs (a struct: one word per member, a fixed array
/// member a pointer to its words); `tests/chain/test_onchain_aggregate.py` runs every
/// member through it (each one changes an answer when misplaced).
library PorAggregateWire {
    uint256 private constant SPEC_WORDS = 44;
    uint256 private constant ITEM_WORDS = 23;
    uint256 private constant CHUNK_WORDS = 5;

    /// The words of `s`, `its` and `c`.
    function pack(R.Spec memory s, R.Item[] memory its, R.Chunk memory c) internal pure returns (bytes memory b) {
        assembly ("memory-safe") {
            let n := mload(its)
            b := mload(0x40)
            let len := shl(5, add(add(SPEC_WORDS, CHUNK_WORDS), add(1, mul(ITEM_WORDS, n))))
            mstore(b, len)
            mstore(0x40, add(add(b, 32), len))
            let q := add(b, 32)
            // the Spec: members 6, 7, 8 (uint256[8], bytes32[8], uint256[8]) and 10 (bytes32[10])
            for { let i := 0 } lt(i, 14) { i := add(i, 1) } {
                let v := mload(add(s, shl(5, i)))
                switch i
                case 6 { mcopy(q, v, 256) q := add(q, 256) }
                case 7 { mcopy(q, v, 256) q := add(q, 256) }
                case 8 { mcopy(q, v, 256) q := add(q, 256) }
                case 10 { mcopy(q, v, 320) q := add(q, 320) }
                default { mstore(q, v) q := add(q, 32) }
            }
            mstore(q, n)
            q := add(q, 32)
            // each Item: members 7, 8 (uint256[8] each)
            for { let k := 0 } lt(k, n) { k := add(k, 1) } {
                let it := mload(add(its, shl(5, add(k, 1))))
                mcopy(q, it, 224)
                mcopy(add(q, 224), mload(add(it, 224)), 256)
                mcopy(add(q, 480), mload(add(it, 256)), 256)
                q := add(q, 736)
            }
            mcopy(q, c, 160)
        }
    }

    /// The structs `pack` wrote to `b`.
    function unpack(bytes calldata b) internal pure returns (R.Spec memory s, R.Item[] memory its, R.Chunk memory c) {
        if (b.length < 32 * (SPEC_WORDS + 1)) revert();
        uint256 items = uint256(bytes32(b[32 * SPEC_WORDS:32 * SPEC_WORDS + 32]));
        if (b.length != 32 * (SPEC_WORDS + CHUNK_WORDS + 1 + ITEM_WORDS * items)) revert();
        assembly ("memory-safe") {
            let m := mload(0x40)
            let q := b.offset
            // the Spec's words, then its arrays' words, after its 14 member words
            s := m
            m := add(m, 448)
            for { let i := 0 } lt(i, 14) { i := add(i, 1) } {
                let size := 0
                switch i
                case 6 { size := 256 }
                case 7 { size := 256 }
                case 8 { size := 256 }
                case 10 { size := 320 }
                switch size
                case 0 {
                    mstore(add(s, shl(5, i)), calldataload(q))
                    q := add(q, 32)
                }
                default {
                    calldatacopy(m, q, size)
                    mstore(add(s, shl(5, i)), m)
                    m := add(m, size)
                    q := add(q, size)
                }
            }
            let n := calldataload(q)
            q := add(q, 32)
            its := m
            mstore(its, n)
            m := add(m, shl(5, add(n, 1)))
            for { let k := 0 } lt(k, n) { k := add(k, 1) } {
                // the Item's 9 member words, then its two arrays
                mstore(add(its, shl(5, add(k, 1))), m)
                calldatacopy(m, q, 224)
                calldatacopy(add(m, 288), add(q, 224), 512)
                mstore(add(m, 224), add(m, 288))
                mstore(add(m, 256), add(m, 544))
                m := add(m, 800)
                q := add(q, 736)
            }
            c := m
            calldatacopy(c, q, 160)
            mstore(0x40, add(c, 160))
        }
    }
}
