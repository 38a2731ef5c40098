// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorCborKeys: map keys of a checked document (SPEC §2) compared as one word.
/// @notice A key of fewer than 32 bytes is one word: its bytes left-aligned, its length in
/// the low byte (free: a shorter key leaves it zero). `pick` reads several keys of one map
/// in one walk where `PorCbor.get` walks the map once per key (SPEC §14.8, ADR 0013).
library PorCborKeys {
    /// `PorCbor.get(d, m, key)` of each key of `keys` (texts of at most 23 bytes, each
    /// after its length byte), in one walk of the map at `m` of a checked document: the
    /// value offsets in the order of `keys` (0: absent; all 0 when `m` is not a map).
    function pick(bytes calldata d, uint256 m, bytes memory keys) internal pure returns (uint256[] memory at) {
        at = new uint256[](keyCount(keys));
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, m, PorCbor.MAP);
        if (isMap) walk(d, p, count, keys, at);
    }

    /// `pick` of the top-level map of a document whose §2 pass kept where its items start
    /// (`PorCborTop.checkTop`: `top`, offsets from `base`, keys at even indexes); `pick`
    /// when it kept none (more than `PorCbor.TOP_ITEMS` items, or not a map). No value is
    /// skipped: each key compared as its key word (keys under 24 bytes, one-byte head).
    function pickTop(bytes calldata d, uint256 base, uint256[] memory top, bytes memory keys)
        internal
        pure
        returns (uint256[] memory at)
    {
        if (top.length == 0) return pick(d, base, keys);
        uint256[] memory words = keyWords(keys);
        at = new uint256[](words.length);
        assembly ("memory-safe") {
            let n := mload(words)
            for { let i := 0 } lt(i, mload(top)) { i := add(i, 2) } {
                let k := add(base, mload(add(top, shl(5, add(i, 1)))))
                let ib := byte(0, calldataload(add(d.offset, k)))
                if and(eq(shr(5, ib), 3), lt(and(ib, 31), 24)) {
                    ib := and(ib, 31)
                    let w := or(and(calldataload(add(d.offset, add(k, 1))), not(shr(shl(3, ib), not(0)))), ib)
                    for { let j := 0 } lt(j, n) { j := add(j, 1) } {
                        if eq(mload(add(words, shl(5, add(j, 1)))), w) {
                            mstore(add(at, shl(5, add(j, 1))), add(base, mload(add(top, shl(5, add(i, 2))))))
                            break
                        }
                    }
                }
            }
        }
    }

    /// `pick` over the `count` entries from `p` on (the rest of a map), stopping as soon
    /// as every key of `keys` is found (`at`: their value offsets, 0 for one not found):
    /// (the offset of the last key's value, not skipped, and the entries after it), or
    /// (the end, 0) when a key is absent. One assembly loop: each text key of fewer than
    /// 24 bytes (a one-byte head; a longer one cannot be one of `keys`) compared as its key
    /// word with the words not yet found, each value skipped as `PorCbor.skip` does.
    function walk(bytes calldata d, uint256 p, uint256 count, bytes memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256, uint256)
    {
        return walkWords(d, p, count, keyWords(keys), at);
    }

    /// `walk` with the keys as key words (`keyWords`).
    function walkWords(bytes calldata d, uint256 p, uint256 count, uint256[] memory words, uint256[] memory at)
        private
        pure
        returns (uint256 end, uint256 left)
    {
        assembly ("memory-safe") {
            // the offset after the item at q (PorCbor.skip)
            function skip(b, q) -> r {
                r := add(b, q)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(r))
                    if lt(sub(hb, 0x60), 24) {
                        // a short text (most often a key): its head and bytes
                        r := add(r, sub(hb, 0x5f))
                        units := sub(units, 1)
                        continue
                    }
                    let a := and(hb, 31)
                    r := add(r, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(r))
                        r := add(r, width)
                    }
                    // a nibble of 0x421100 per major (hb >> 5): bit 0 a string (its bytes follow),
                    // bits 1-2 the units a count opens (1 an array's, 2 a map's)
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    r := add(r, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                r := sub(r, b)
            }
            // keeps v in `out` at the first key not yet found whose word is w: found or not
            function keep(ws, out, w, v) -> found {
                for { let i := 0 } lt(i, mload(ws)) { i := add(i, 1) } {
                    let slot := add(out, shl(5, add(i, 1)))
                    if and(iszero(mload(slot)), eq(mload(add(ws, shl(5, add(i, 1)))), w)) {
                        mstore(slot, v)
                        found := 1
                        break
                    }
                }
            }
            let missing := mload(words)
            for {} count { count := sub(count, 1) } {
                let v := skip(d.offset, p)
                // a text key under 24 bytes (one-byte head), compared as its key word
                let ib := byte(0, calldataload(add(d.offset, p)))
                if and(eq(shr(5, ib), 3), lt(and(ib, 31), 24)) {
                    ib := and(ib, 31)
                    if keep(words, at, or(and(calldataload(add(d.offset, add(p, 1))), not(shr(shl(3, ib), not(0)))), ib), v) {
                        missing := sub(missing, 1)
                        if iszero(missing) {
                            end := v
                            left := sub(count, 1)
                            break
                        }
                    }
                }
                p := skip(d.offset, v)
            }
            if iszero(end) { end := p }
        }
    }

    /// The map at `p` of a checked document has exactly `n` (at most 5) entries, their keys
    /// `k[0..n)` (texts under 24 bytes: head and bytes as one word, left-aligned, their
    /// length in the low byte), and value i is a text where bit i of `texts` is set
    /// (`PorRecords.fields` and `PorCbor.str` in one assembly pass, values skipped as
    /// `PorCbor.skip` does): (ok, the value offsets, the offset after the map).
    function exact(bytes calldata d, uint256 p, uint256[5] memory k, uint256 n, uint256 texts)
        internal
        pure
        returns (bool ok, uint256[5] memory e, uint256 next)
    {
        assembly ("memory-safe") {
            let b := d.offset
            ok := eq(byte(0, calldataload(add(b, p))), or(0xa0, n)) // a map of n entries
            p := add(p, 1)
            for { let i := 0 } and(ok, lt(i, n)) { i := add(i, 1) } {
                let want := mload(add(k, shl(5, i)))
                let len := and(want, 0xff)
                ok := eq(and(calldataload(add(b, p)), not(shr(shl(3, len), not(0)))), and(want, not(0xff)))
                p := add(p, len)
                mstore(add(e, shl(5, i)), p)
                // the value: a text where asked; skipped (PorCbor.skip)
                if and(shr(i, texts), 1) { if iszero(eq(shr(5, byte(0, calldataload(add(b, p)))), 3)) { ok := 0 } }
                p := add(b, p)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(p))
                    if lt(sub(hb, 0x60), 24) {
                        // a short text (most often a key): its head and bytes
                        p := add(p, sub(hb, 0x5f))
                        units := sub(units, 1)
                        continue
                    }
                    let a := and(hb, 31)
                    p := add(p, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(p))
                        p := add(p, width)
                    }
                    // a nibble of 0x421100 per major (hb >> 5): bit 0 a string (its bytes follow),
                    // bits 1-2 the units a count opens (1 an array's, 2 a map's)
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    p := add(p, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                p := sub(p, b)
            }
            next := p
        }
    }

    /// A card's keys, canonical order, exactly these (SPEC §12.5.2, `step_io.read_card`:
    /// source_id, status_code, retrieved_at, confidence_bps, provenance_tier) as `exact`
    /// words (each key's head and bytes, its length in the low byte).
    function cardWords() internal pure returns (uint256[5] memory) {
        return [
            uint256(0x69736f757263655f69640000000000000000000000000000000000000000000a),
            0x6b7374617475735f636f6465000000000000000000000000000000000000000c,
            0x6c7265747269657665645f61740000000000000000000000000000000000000d,
            0x6e636f6e666964656e63655f627073000000000000000000000000000000000f,
            0x6f70726f76656e616e63655f7469657200000000000000000000000000000010
        ];
    }

    /// The number of keys in `keys` (each after its length byte).
    function keyCount(bytes memory keys) internal pure returns (uint256 n) {
        assembly ("memory-safe") {
            let end := add(add(keys, 32), mload(keys))
            for { let k := add(keys, 32) } lt(k, end) { k := add(k, add(1, byte(0, mload(k)))) } { n := add(n, 1) }
        }
    }

    /// The text d[off:off+len] (len < 32) as a key word: its bytes left-aligned, its length
    /// in the low byte.
    function wordAt(bytes calldata d, uint256 off, uint256 len) internal pure returns (uint256 w) {
        assembly ("memory-safe") {
            w := or(and(calldataload(add(d.offset, off)), not(shr(mul(8, len), not(0)))), len)
        }
    }

    /// Each key of `keys` as one word: its bytes left-aligned, its length in the low byte.
    function keyWords(bytes memory keys) private pure returns (uint256[] memory word) {
        uint256 n = keyCount(keys);
        word = new uint256[](n);
        assembly ("memory-safe") {
            let k := add(keys, 32)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                let len := byte(0, mload(k))
                mstore(add(word, shl(5, add(i, 1))), or(and(mload(add(k, 1)), not(shr(shl(3, len), not(0)))), len))
                k := add(k, add(1, len))
            }
        }
    }
}
