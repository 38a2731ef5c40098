// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorInclusion} from "./PorInclusion.sol";

/// @title PorAggregateWire: what the aggregate's reader hands its selector (R's `Spec`, the
/// cited `Item`s, the chunk's `Chunk`), as one run of words instead of ABI-encoded structs.
/// @notice `pack` copies each struct's words in member order, each fixed array member's
/// words in place of its pointer: the Spec's 10 words and 4 arrays (8, 8, 8, 10 words),
/// the item count, each Item's 7 words and 2 arrays (8, 8), then the Chunk's 5 words.
/// `unpack` rebuilds the same memory structs from those words (calldata). Both follow
/// Solidity's memory layout of these structs (a struct: one word per member, a fixed array
/// member a pointer to its words); `tests/chain/test_onchain_aggregate.py` runs every
/// member through it (each one changes an answer when misplaced).
/// `handOver` and `takeOver` do the same for what the executor hands the reader (the parts'
/// leaf offsets, the carried records' value offsets, the step's, the PromptSpec's top):
/// each array as its length word and its words, one after another, instead of the ABI.
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

    /// The words of the parts' counts and leaf offsets (`R.Leaves`), of `records` (their
    /// count, then each array), of `at` and of `top`: each array its length, then its words.
    function handOver(
        PorInclusion.Part[] memory all,
        uint256 evidenceCount,
        uint256 priorCount,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top
    ) internal pure returns (bytes memory b) {
        assembly ("memory-safe") {
            b := mload(0x40)
            let q := add(b, 32)
            mstore(q, evidenceCount)
            mstore(add(q, 32), priorCount)
            let n := mload(all)
            mstore(add(q, 64), n)
            q := add(q, 96)
            // each part's leaf offset (PorInclusion.Part's fifth member)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(q, mload(add(mload(add(all, shl(5, add(i, 1)))), 0x80)))
                q := add(q, 32)
            }
            n := mload(records)
            mstore(q, n)
            q := add(q, 32)
            for { let i := 0 } lt(i, add(n, 2)) { i := add(i, 1) } {
                // records[i], then at, then top
                let a := at
                if lt(i, n) { a := mload(add(records, shl(5, add(i, 1)))) }
                if eq(i, add(n, 1)) { a := top }
                let size := shl(5, add(mload(a), 1))
                mcopy(q, a, size)
                q := add(q, size)
            }
            mstore(b, sub(q, add(b, 32)))
            mstore(0x40, q)
        }
    }

    /// The arrays `handOver` wrote to `b`, in memory again (each one calldatacopy); reverts
    /// when an array's length runs past `b`.
    function takeOver(bytes calldata b)
        internal
        pure
        returns (R.Leaves memory parts, uint256[][] memory records, uint256[] memory at, uint256[] memory top)
    {
        bool bad;
        assembly ("memory-safe") {
            let q := b.offset
            let end := add(q, b.length)
            // the array at q (its length word, then its words) copied to free memory:
            // (its pointer, the offset after it, past the end)
            function take(from, limit) -> a, next, over {
                let size := shl(5, add(calldataload(from), 1))
                next := add(from, size)
                over := or(gt(next, limit), gt(size, 0xffffffff))
                a := mload(0x40)
                if iszero(over) {
                    calldatacopy(a, from, size)
                    mstore(0x40, add(a, size))
                }
            }
            let o := 0
            let leaves := 0
            parts := mload(0x40)
            mstore(0x40, add(parts, 96))
            mstore(add(parts, 32), calldataload(q))
            mstore(add(parts, 64), calldataload(add(q, 32)))
            leaves, q, o := take(add(q, 64), end)
            mstore(parts, leaves)
            bad := o
            let n := calldataload(q)
            records := mload(0x40)
            bad := or(bad, gt(n, 0xffff))
            if iszero(bad) {
                mstore(records, n)
                mstore(0x40, add(records, shl(5, add(n, 1))))
                q := add(q, 32)
                for { let i := 0 } and(lt(i, n), iszero(bad)) { i := add(i, 1) } {
                    let a := 0
                    a, q, o := take(q, end)
                    mstore(add(records, shl(5, add(i, 1))), a)
                    bad := or(bad, o)
                }
            }
            if iszero(bad) {
                at, q, o := take(q, end)
                bad := o
            }
            if iszero(bad) {
                top, q, o := take(q, end)
                bad := or(o, iszero(eq(q, end)))
            }
        }
        if (bad) revert();
    }
}
