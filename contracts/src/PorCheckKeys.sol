// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorInclusion} from "./PorInclusion.sol";

/// @title PorCheckKeys: several keys of one map found in one walk, and texts compared by
/// hash without memory growth (the check chunk's readers, SPEC §12.5.3, §14.8).
/// @notice Positions are offsets in a document that passed the §2 reader, so a map's keys
/// are unique and sorted by the bytewise order of their encodings (SPEC §2 rule 2): a
/// walk merging them with a sorted list of wanted keys finds each in one pass and stops
/// at the first key past the last wanted one.
library PorCheckKeys {
    /// The value positions of the keys `keys` of the map at `pos`, written to `at[0..]`
    /// (0 for a key absent, all 0 when `pos` is 0 or not a map). `keys` packs each key as one
    /// length byte (at most 23: a one-byte text head) and its bytes, sorted as their
    /// encodings sort (shorter first, then bytewise); `at` has room for them all.
    /// `end`: the offset just after the map when the walk reached it, else 0 (it stops
    /// at the last wanted key's value when more entries follow, without skipping it:
    /// `left` is then the number of entries after that one, for `findAfter`).
    function find(bytes calldata d, uint256 pos, bytes memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256 end, uint256 left)
    {
        uint256 base;
        uint256 count;
        uint256 p;
        assembly ("memory-safe") {
            base := d.offset
            // PorCbor.container(d, pos, MAP) of a checked document, inline
            let ib := byte(0, calldataload(add(base, pos)))
            count := and(ib, 31)
            p := add(pos, 1)
            if gt(count, 23) {
                let width := shl(sub(count, 24), 1)
                count := shr(sub(256, shl(3, width)), calldataload(add(base, p)))
                p := add(p, width)
            }
            // pos 0: a value the caller found absent
            if or(iszero(pos), iszero(eq(shr(5, ib), 5))) { count := 0 }
        }
        end = walk(base, p, count, keys, at);
        if (end >> 255 != 0) (end, left) = (0, end & (type(uint256).max >> 1));
    }

    /// `find` over the `left` entries from the entry at `p` (the rest of a map `find`
    /// stopped in, its last value skipped by the caller).
    function findAfter(bytes calldata d, uint256 p, uint256 left, bytes memory keys, uint256[] memory at) internal pure {
        uint256 base;
        assembly ("memory-safe") {
            base := d.offset
        }
        walk(base, p, left, keys, at);
    }

    /// `findAfter` telling where it stopped, as `find` does: (the offset after the map, 0)
    /// when it walked the `left` entries, else (0, the entries after the one whose value it
    /// stopped at).
    function findFrom(bytes calldata d, uint256 p, uint256 left, bytes memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256 end, uint256 rest)
    {
        uint256 base;
        assembly ("memory-safe") {
            base := d.offset
        }
        end = walk(base, p, left, keys, at);
        if (end >> 255 != 0) (end, rest) = (0, end & (type(uint256).max >> 1));
    }

    /// A last packed key that sorts after every text key of at most 23 bytes (23 bytes
    /// 0xff: never UTF-8), so a `find` whose list ends with it walks the whole map and
    /// tells its end (0 when a longer or non-text key stops it); its `at` slot stays 0.
    bytes internal constant ALL =
        "\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";

    /// The keys of `find` over the whole map at `pos` (`keys` ending with `ALL`) and the
    /// offset after the map (`PorCbor.skip` when the walk could not tell it, or when `pos`
    /// is not a map).
    function findAll(bytes calldata d, uint256 pos, bytes memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256 end)
    {
        (end,) = find(d, pos, keys, at);
        (bool isMap,,) = PorCbor.container(d, pos, PorCbor.MAP);
        if (end == 0 || !isMap) end = PorCbor.skip(d, pos);
    }

    /// `find`'s merge walk over `count` entries from `p` (calldata offset `base`): the
    /// offset after the last entry when it walked them all, or 2^255 | the number of
    /// entries after the one whose value it stopped at, or 0.
    function walk(uint256 base, uint256 p, uint256 count, bytes memory keys, uint256[] memory at)
        private
        pure
        returns (uint256 end)
    {
        assembly ("memory-safe") {
            // the packed key at `q` as its encoding (head 0x60|len, then its bytes),
            // left-aligned and zero-padded: one word
            function enc(q) -> r {
                let l := byte(0, mload(q))
                r := and(or(shl(248, or(0x60, l)), and(mload(q), shr(8, not(0)))), not(shr(shl(3, add(1, l)), not(0))))
            }
            // PorCbor.skip's walk (iterative: a counter of items left); a short text
            // (a one-byte head: most keys and many values) stepped over first
            function skipAt(b, from) -> r {
                r := from
                for { let left := 1 } left { left := sub(left, 1) } {
                    let ib := byte(0, calldataload(add(b, r)))
                    r := add(r, 1)
                    if lt(sub(ib, 0x60), 24) {
                        r := add(r, sub(ib, 0x60))
                        continue
                    }
                    let arg := and(ib, 31)
                    if gt(arg, 23) {
                        let width := shl(sub(arg, 24), 1)
                        arg := shr(sub(256, shl(3, width)), calldataload(add(b, r)))
                        r := add(r, width)
                    }
                    // shr(6, ib): 1 for majors 2 and 3 (their bytes), 2 for 4 and 5 (their
                    // items: a map's twice its count)
                    switch shr(6, ib)
                    case 1 { r := add(r, arg) }
                    case 2 { left := add(left, shl(and(shr(5, ib), 1), arg)) }
                }
            }
            let k := add(keys, 32)
            let e := add(k, mload(keys))
            let slot := add(at, 32)
            for { let q := k } lt(q, e) { q := add(q, add(1, byte(0, mload(q)))) } {
                mstore(slot, 0)
                slot := add(slot, 32)
            }
            slot := add(at, 32)
            let want := enc(k)
            for {} count { count := sub(count, 1) } {
                let w := calldataload(add(base, p))
                let h := byte(0, w)
                let v := 0
                // the entry's key as one word (a long or non-text key compares by its
                // first byte alone, which decides) and its value's offset
                switch lt(sub(h, 0x60), 0x18)
                case 1 {
                    w := and(w, not(shr(shl(3, sub(h, 0x5f)), not(0))))
                    v := add(p, sub(h, 0x5f))
                }
                default { v := skipAt(base, p) }
                // wanted keys sorting before this entry's are absent
                for {} gt(w, want) {} {
                    k := add(k, add(1, byte(0, mload(k))))
                    slot := add(slot, 32)
                    want := enc(k)
                    if iszero(lt(k, e)) { want := not(0) }
                }
                if iszero(lt(k, e)) { break }
                if eq(w, want) {
                    mstore(slot, v)
                    k := add(k, add(1, byte(0, mload(k))))
                    slot := add(slot, 32)
                    // the last wanted value, more entries after it: not skipped
                    if iszero(lt(k, e)) {
                        if gt(count, 1) {
                            end := or(shl(255, 1), sub(count, 1))
                            break
                        }
                    }
                    want := enc(k)
                }
                // the value: a short text or small unsigned integer from its head
                let vb := byte(0, calldataload(add(base, v)))
                switch or(lt(vb, 0x18), lt(sub(vb, 0x60), 0x18))
                case 1 { p := add(add(v, 1), mul(gt(vb, 0x5f), sub(vb, 0x60))) }
                default { p := skipAt(base, v) }
            }
            if iszero(count) { end := p }
        }
    }

    /// The PromptSpec leaf `spec` passes the §2 reader (`PorOneStepCheck.specIsCbor`'s
    /// check, by `PorCborTop.checkTop`'s one pass) and the values of its top-level `keys`
    /// (packed as for `find`, at most 23 bytes each; `n` of them): absolute offsets in `d`, 0 for a key
    /// absent; `top` empty when the reader kept no offsets (a map of more than
    /// `PorCbor.TOP_ITEMS` items: the caller walks it).
    function specTop(bytes calldata d, PorInclusion.Part memory spec, bytes memory keys, uint256 n)
        internal
        pure
        returns (bool ok, uint256[] memory top)
    {
        uint256 base = spec.leaf;
        (bytes32 err,, uint256[] memory offsets,) = PorCborTop.checkTop(d[base:base + spec.leafLength]);
        if (err != 0) return (false, top);
        if (offsets.length == 0) return (true, top);
        top = new uint256[](n);
        uint256 cbase;
        assembly ("memory-safe") {
            cbase := add(d.offset, base)
        }
        lookup(cbase, base, offsets, keys, top);
        ok = true;
    }

    /// `specTop`'s search: each packed key of `keys` among the keys at even places of
    /// `offsets` (of the leaf at calldata `cbase`, offset `base` in `d`), its value's
    /// offset plus `base` into `top`. One merge: both lists are in their encodings' order
    /// (SPEC §2 rule 2), a key compared as one word (a short text key masked to its
    /// encoding; any other's first byte decides against a wanted key's).
    function lookup(uint256 cbase, uint256 base, uint256[] memory offsets, bytes memory keys, uint256[] memory top)
        private
        pure
    {
        assembly ("memory-safe") {
            let at := add(top, 32)
            let end := add(add(keys, 32), mload(keys))
            let last := add(offsets, shl(5, mload(offsets)))
            let o := add(offsets, 32)
            for { let q := add(keys, 32) } lt(q, end) { q := add(q, add(1, byte(0, mload(q)))) } {
                let l := byte(0, mload(q))
                let want := and(or(shl(248, or(0x60, l)), and(mload(q), shr(8, not(0)))), not(shr(shl(3, add(1, l)), not(0))))
                // keys before `want` passed over; a key equal to it taken
                for {} lt(o, last) { o := add(o, 64) } {
                    let w := calldataload(add(cbase, mload(o)))
                    let h := byte(0, w)
                    if lt(sub(h, 0x60), 0x18) { w := and(w, not(shr(shl(3, sub(h, 0x5f)), not(0)))) }
                    if iszero(lt(w, want)) {
                        if eq(w, want) {
                            mstore(at, add(base, mload(add(o, 32))))
                            o := add(o, 64)
                        }
                        break
                    }
                }
                at := add(at, 32)
            }
        }
    }

    /// keccak256 of the content of the text at `p` (of nothing for another item), hashed
    /// in scratch memory past the free pointer (no allocation).
    function textHash(bytes calldata d, uint256 p) internal pure returns (bytes32 h) {
        assembly ("memory-safe") {
            let base := d.offset
            // PorCbor.str(d, p, TEXT) inline: (0, 0) for another major
            let ib := byte(0, calldataload(add(base, p)))
            let len := and(ib, 31)
            let off := add(p, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(add(base, off)))
                off := add(off, width)
            }
            if iszero(eq(shr(5, ib), 3)) {
                off := 0
                len := 0
            }
            let m := mload(0x40)
            calldatacopy(m, add(base, off), len)
            h := keccak256(m, len)
        }
    }

    /// The offset after the key at `q` when its encoding is `enc` (`n` bytes, n <= 32,
    /// right-aligned), else 0 (0 for `q` 0): a fixed-key map read in its §2 order.
    function keyAt(bytes calldata d, uint256 q, uint256 enc, uint256 n) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            if q {
                if eq(shr(sub(256, shl(3, n)), calldataload(add(d.offset, q))), enc) { r := add(q, n) }
            }
        }
    }

    /// The offset after the text item at `q`, else 0 (0 for `q` 0).
    function textEnd(bytes calldata d, uint256 q) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            if q {
                let ib := byte(0, calldataload(add(d.offset, q)))
                if eq(shr(5, ib), 3) {
                    let arg := and(ib, 31)
                    r := add(q, 1)
                    if gt(arg, 23) {
                        let width := shl(sub(arg, 24), 1)
                        arg := shr(sub(256, shl(3, width)), calldataload(add(d.offset, r)))
                        r := add(r, width)
                    }
                    r := add(r, arg)
                }
            }
        }
    }

    /// The offset after the unsigned integer item at `q`, else 0 (0 for `q` 0).
    function uintEnd(bytes calldata d, uint256 q) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            if q {
                let ib := byte(0, calldataload(add(d.offset, q)))
                if lt(ib, 0x20) {
                    r := add(q, 1)
                    if gt(ib, 23) { r := add(r, shl(sub(ib, 24), 1)) }
                }
            }
        }
    }
}
