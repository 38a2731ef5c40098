// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorInclusion} from "./PorInclusion.sol";

/// @title PorAggregateWire: what the aggregate's reader hands its selector (R's `Spec`, the
/// cited `Item`s, the chunk's `Chunk`), as one run of words instead of ABI-encoded structs.
/// @notice `pack` copies each struct's words in member order, each fixed array member's
/// words in place of its pointer: the Spec's 10 words and 4 arrays (8, 8, 8, 10 words),
/// the item count, each Item's 7 words and 3 arrays (8, 8, 8), then the Chunk's 5 words;
/// it writes them straight into the selector's call data (`begin`, `finish`: no ABI
/// encoder, no second copy).
/// `unpack` rebuilds the same memory structs from those words (calldata). Both follow
/// Solidity's memory layout of these structs (a struct: one word per member, a fixed array
/// member a pointer to its words); `tests/chain/test_onchain_aggregate.py` runs every
/// member through it (each one changes an answer when misplaced).
/// `handOver` and `takeOver` do the same for what the executor hands the reader (the parts'
/// leaf offsets, the carried records' value offsets, the step's, the PromptSpec's top):
/// each array as its length word and its words, one after another, instead of the ABI,
/// written straight into the reader's call data as well.
library PorAggregateWire {
    uint256 private constant SPEC_WORDS = 44;
    uint256 private constant ITEM_WORDS = 31;
    uint256 private constant CHUNK_WORDS = 5;

    /// The words of `s`, `its` and `c`, written from `q` on (free memory); returns their end.
    function pack(uint256 q, R.Spec memory s, R.Item[] memory its, R.Chunk memory c)
        internal
        pure
        returns (uint256 end)
    {
        assembly ("memory-safe") {
            // the Spec: members 0-5, the arrays 6, 7, 8 (uint256[8], bytes32[8], uint256[8]),
            // member 9, the array 10 (bytes32[10]), members 11-13
            mcopy(q, s, 192)
            mcopy(add(q, 192), mload(add(s, 192)), 256)
            mcopy(add(q, 448), mload(add(s, 224)), 256)
            mcopy(add(q, 704), mload(add(s, 256)), 256)
            mstore(add(q, 960), mload(add(s, 288)))
            mcopy(add(q, 992), mload(add(s, 320)), 320)
            mcopy(add(q, 1312), add(s, 352), 96)
            q := add(q, 1408)
            let n := mload(its)
            mstore(q, n)
            q := add(q, 32)
            // each Item: members 7, 8, 9 (uint256[8] each)
            for { let k := 0 } lt(k, n) { k := add(k, 1) } {
                let it := mload(add(its, shl(5, add(k, 1))))
                mcopy(q, it, 224)
                mcopy(add(q, 224), mload(add(it, 224)), 256)
                mcopy(add(q, 480), mload(add(it, 256)), 256)
                mcopy(add(q, 736), mload(add(it, 288)), 256)
                q := add(q, 992)
            }
            mcopy(q, c, 160)
            end := add(q, 160)
        }
    }

    /// The structs `pack` wrote to `b`.
    function unpack(bytes calldata b) internal pure returns (R.Spec memory s, R.Item[] memory its, R.Chunk memory c) {
        if (b.length < 32 * (SPEC_WORDS + 1)) revert();
        uint256 items = uint256(bytes32(b[32 * SPEC_WORDS:32 * SPEC_WORDS + 32]));
        if (b.length != 32 * (SPEC_WORDS + CHUNK_WORDS + 1 + ITEM_WORDS * items)) revert();
        assembly ("memory-safe") {
            let q := b.offset
            // the Spec's 14 member words, then its arrays' words (keyPos, keyWord, kind, targets)
            s := mload(0x40)
            calldatacopy(s, q, 192)
            let a := add(s, 448)
            calldatacopy(a, add(q, 192), 768)
            mstore(add(s, 192), a)
            mstore(add(s, 224), add(a, 256))
            mstore(add(s, 256), add(a, 512))
            mstore(add(s, 288), calldataload(add(q, 960)))
            calldatacopy(add(a, 768), add(q, 992), 320)
            mstore(add(s, 320), add(a, 768))
            calldatacopy(add(s, 352), add(q, 1312), 96)
            let m := add(a, 1088)
            q := add(q, 1408)
            let n := calldataload(q)
            q := add(q, 32)
            its := m
            mstore(its, n)
            m := add(m, shl(5, add(n, 1)))
            for { let k := 0 } lt(k, n) { k := add(k, 1) } {
                // the Item's 10 member words, then its three arrays
                mstore(add(its, shl(5, add(k, 1))), m)
                calldatacopy(m, q, 224)
                calldatacopy(add(m, 320), add(q, 224), 768)
                mstore(add(m, 224), add(m, 320))
                mstore(add(m, 256), add(m, 576))
                mstore(add(m, 288), add(m, 832))
                m := add(m, 1088)
                q := add(q, 992)
            }
            c := m
            calldatacopy(c, q, 160)
            mstore(0x40, add(c, 160))
        }
    }

    /// A call's data begun in free memory: the 4-byte `sel`, `heads` head words (the first
    /// `d`'s offset, the last the words' offset: both written here; the others the caller's,
    /// at `m + 4 + 32 * i`), then `d` (its length, its bytes, zero-padded); returns `m` and
    /// `q`, where the words' length goes (their words follow from `q + 32`).
    function begin(bytes4 sel, bytes calldata d, uint256 heads) internal pure returns (uint256 m, uint256 q) {
        assembly ("memory-safe") {
            m := mload(0x40)
            mstore(m, sel)
            let h := shl(5, heads)
            let padded := and(add(d.length, 31), not(31))
            mstore(add(m, 4), h)
            mstore(add(m, sub(h, 28)), add(h, add(32, padded))) // head word heads - 1
            let p := add(add(m, 4), h)
            mstore(p, d.length)
            mstore(add(p, padded), 0) // the last word's padding
            calldatacopy(add(p, 32), d.offset, d.length)
            q := add(add(p, 32), padded)
            mstore(0x40, add(q, 32))
        }
    }

    /// The call `begin` wrote at `m`, its words ending at `end`, made read-only to `to`: its
    /// two return words; its revert passed on.
    function finish(address to, uint256 m, uint256 q, uint256 end) internal view returns (bool won, bytes32 id) {
        assembly ("memory-safe") {
            mstore(q, sub(end, add(q, 32)))
            mstore(0x40, end)
            if iszero(staticcall(gas(), to, m, sub(end, m), 0, 64)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 64) { revert(0, 0) }
            won := mload(0)
            id := mload(32)
        }
    }

    /// The words of the parts' counts and leaf offsets (`R.Leaves`), of `records` (their
    /// count, then each array), of `at` and of `top`: each array its length, then its words,
    /// written from `q` on (free memory); returns their end.
    function handOver(
        PorInclusion.Part[] memory all,
        uint256 evidenceCount,
        uint256 priorCount,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top,
        uint256 q
    ) internal pure returns (uint256 end) {
        assembly ("memory-safe") {
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
            end := q
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
