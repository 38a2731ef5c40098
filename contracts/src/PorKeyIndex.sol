// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorKeyIndex: one walk of a map of a checked document (SPEC §2) answers every
/// field read of it (SPEC §14.8, ADR 0013 s35 addendum).
/// @notice `PorDeduceSpec.get` walks a map from its start for each key it reads, skipping
/// every value before the key (every value when the key is absent). `index` walks the map
/// once and keeps each entry's key word and value offset in memory; `find` answers
/// `PorDeduceSpec.get` from them, comparing words only. The key word is `get`'s: a key
/// of fewer than 32 bytes is its bytes left-aligned with its length in the low byte; a
/// longer key has word 0, which no key looked up has (a key looked up has a length).
/// The §2 pass has refused a map with duplicate keys, so the first entry with the word is
/// the one `get` finds.
library PorKeyIndex {
    /// The entries of the map at `pos` of a checked document as [word, value offset] pairs
    /// in map order (empty when the item at `pos` is not a map). Keys' heads read as
    /// `PorDeduceSpec.seek` reads them; values skipped as `PorCbor.skip` does.
    function index(bytes calldata d, uint256 pos) internal pure returns (uint256[] memory ix) {
        (ix,) = indexTo(d, pos);
    }

    /// `index`, and the offset just after the item at `pos` (`PorCbor.skip(d, pos)`): a
    /// loop over a list of maps walks each map once, not again to step over it.
    function indexTo(bytes calldata d, uint256 pos) internal pure returns (uint256[] memory ix, uint256 end) {
        assembly ("memory-safe") {
            let b := d.offset
            ix := 0x60 // the empty array
            let ib := byte(0, calldataload(add(b, pos)))
            if eq(shr(5, ib), 5) {
                // the map's head (PorCbor.container)
                let count := and(ib, 31)
                let p := add(pos, 1)
                if gt(count, 23) {
                    let width := shl(sub(count, 24), 1)
                    count := shr(sub(256, shl(3, width)), calldataload(add(b, p)))
                    p := add(p, width)
                }
                ix := mload(0x40)
                mstore(ix, shl(1, count))
                let slot := add(ix, 32)
                mstore(0x40, add(slot, shl(6, count)))
                for {} count { count := sub(count, 1) } {
                    let len := and(byte(0, calldataload(add(b, p))), 31)
                    let at := add(p, 1)
                    if gt(len, 23) {
                        let width := shl(sub(len, 24), 1)
                        len := shr(sub(256, shl(3, width)), calldataload(add(b, at)))
                        at := add(at, width)
                    }
                    let w := 0
                    if lt(len, 32) { w := or(and(calldataload(add(b, at)), not(shr(shl(3, len), not(0)))), len) }
                    at := add(at, len)
                    mstore(slot, w)
                    mstore(add(slot, 32), at)
                    slot := add(slot, 64)
                    // the value (PorCbor.skip, inline: no call per entry)
                    p := add(b, at)
                    for { let units := 1 } 1 {} {
                        let hb := shr(248, calldataload(p))
                        if lt(sub(hb, 0x60), 24) {
                            p := add(p, sub(hb, 0x5f))
                            units := sub(units, 1)
                            if units { continue }
                            break
                        }
                        let a := and(hb, 31)
                        p := add(p, 1)
                        if gt(a, 23) {
                            let width := shl(sub(a, 24), 1)
                            a := shr(sub(256, shl(3, width)), calldataload(p))
                            p := add(p, width)
                        }
                        let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                        p := add(p, mul(and(f, 1), a))
                        units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                        if iszero(units) { break }
                    }
                    p := sub(p, b)
                }
                end := p
            }
        }
        if (end == 0) end = PorCbor.skip(d, pos); // not a map (a map's end is past its head)
    }

    /// `three` over the whole map at `pos` of a checked document (0s when `pos` is not a
    /// map): each of the three keys looked up (non-zero, distinct).
    function three(bytes calldata d, uint256 pos, uint256 k0, uint256 k1, uint256 k2)
        internal
        pure
        returns (uint256, uint256, uint256)
    {
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!isMap) return (0, 0, 0);
        return three(d, p, count, 3, k0, k1, k2);
    }

    /// The value offsets of the keys whose key words are `k0`, `k1`, `k2` (non-zero,
    /// distinct) among the `count` map entries from `p` of a checked document (0:
    /// absent): `PorDeduceSpec.get` of each, from one walk that stops once `left` of them
    /// are found (3, or fewer when the caller found the others before `p`; keys read as
    /// `indexTo` reads them, values skipped as `PorCbor.skip` does; the last one's value
    /// not skipped).
    function three(bytes calldata d, uint256 p, uint256 count, uint256 left, uint256 k0, uint256 k1, uint256 k2)
        internal
        pure
        returns (uint256 v0, uint256 v1, uint256 v2)
    {
        assembly ("memory-safe") {
            let b := d.offset
            for {} and(gt(count, 0), gt(left, 0)) { count := sub(count, 1) } {
                let len := and(byte(0, calldataload(add(b, p))), 31)
                let at := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, at)))
                    at := add(at, width)
                }
                let w := 0
                if lt(len, 32) { w := or(and(calldataload(add(b, at)), not(shr(shl(3, len), not(0)))), len) }
                at := add(at, len)
                if eq(w, k0) {
                    v0 := at
                    left := sub(left, 1)
                }
                if eq(w, k1) {
                    v1 := at
                    left := sub(left, 1)
                }
                if eq(w, k2) {
                    v2 := at
                    left := sub(left, 1)
                }
                if iszero(left) { break } // the last value found: not skipped
                // the value (PorCbor.skip)
                p := add(b, at)
                for { let units := 1 } 1 {} {
                    let hb := shr(248, calldataload(p))
                    if lt(sub(hb, 0x60), 24) {
                        // a short text (most often a key): its head and bytes
                        p := add(p, sub(hb, 0x5f))
                        units := sub(units, 1)
                        if units { continue }
                        break
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
                    if iszero(units) { break }
                }
                p := sub(p, b)
            }
        }
    }

    /// Slots of `semantics`' answer: the prediction_semantics keys deduce and the judge read.
    uint256 internal constant S_METRIC = 0;
    uint256 internal constant S_PREDICATE = 1;
    uint256 internal constant S_THRESHOLD = 2;
    uint256 internal constant S_COMPARISON = 3;
    uint256 internal constant S_LOWER = 4;
    uint256 internal constant S_UPPER = 5;
    uint256 internal constant S_LOWER_INCLUSIVE = 6;
    uint256 internal constant S_UPPER_INCLUSIVE = 7;
    uint256 internal constant S_EXPECTED_TEXT = 8;
    uint256 internal constant S_ABSENT_MEANS_NO = 9;
    uint256 internal constant S_SOURCES_REQUIRED = 10;
    uint256 internal constant S_TERMS = 11;
    uint256 internal constant S_PRECONDITIONS = 12;
    uint256 internal constant S_OTHER_METRIC = 13;

    /// The value offsets of the prediction_semantics map at `pos` of a checked document
    /// (SPEC §4.2), each key at its `S_*` slot (0: absent, or `pos` not a map): `index`
    /// then `find` of each key (§2 keys are unique: the one match is the first), from one
    /// walk, each key's word (`entry`) switched on, each value skipped by `PorCbor.skip`.
    function semantics(bytes calldata d, uint256 pos) internal pure returns (uint256[14] memory at) {
        uint256 n;
        uint256 p;
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(d.offset, pos)))
            if eq(shr(5, ib), 5) {
                // the map's head (`index`'s)
                n := and(ib, 31)
                p := add(pos, 1)
                if gt(n, 23) {
                    let width := shl(sub(n, 24), 1)
                    n := shr(sub(256, shl(3, width)), calldataload(add(d.offset, p)))
                    p := add(p, width)
                }
            }
        }
        while (n != 0) {
            (uint256 w, uint256 v) = entry(d, p);
            assembly ("memory-safe") {
                n := sub(n, 1) // not 0: no underflow
                // the word as a short constant: the key's bytes then its length (one per key;
                // a long key's word 0 gives 0, no case)
                let len := and(w, 0xff)
                switch or(shr(shl(3, sub(31, len)), w), len)
                case 0x6d657472696306 { mstore(add(at, 0x0), v) } // metric
                case 0x70726564696361746509 { mstore(add(at, 0x20), v) } // predicate
                case 0x7468726573686f6c6409 { mstore(add(at, 0x40), v) } // threshold
                case 0x636f6d70617269736f6e0a { mstore(add(at, 0x60), v) } // comparison
                case 0x6c6f77657205 { mstore(add(at, 0x80), v) } // lower
                case 0x757070657205 { mstore(add(at, 0xa0), v) } // upper
                case 0x6c6f7765725f696e636c75736976650f { mstore(add(at, 0xc0), v) } // lower_inclusive
                case 0x75707065725f696e636c75736976650f { mstore(add(at, 0xe0), v) } // upper_inclusive
                case 0x65787065637465645f746578740d { mstore(add(at, 0x100), v) } // expected_text
                case 0x616273656e745f6d65616e735f6e6f0f { mstore(add(at, 0x120), v) } // absent_means_no
                case 0x736f75726365735f726571756972656410 { mstore(add(at, 0x140), v) } // sources_required
                case 0x7465726d7305 { mstore(add(at, 0x160), v) } // terms
                case 0x707265636f6e646974696f6e730d { mstore(add(at, 0x180), v) } // preconditions
                case 0x6f746865725f6d65747269630c { mstore(add(at, 0x1a0), v) } // other_metric
            }
            p = PorCbor.skip(d, v);
        }
    }

    /// The key word of the map entry at `p` (`index`'s) and its value's offset.
    function entry(bytes calldata d, uint256 p) internal pure returns (uint256 w, uint256 at) {
        assembly ("memory-safe") {
            let len := and(byte(0, calldataload(add(d.offset, p))), 31)
            at := add(p, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, at)))
                at := add(at, width)
            }
            if lt(len, 32) { w := or(and(calldataload(add(d.offset, at)), not(shr(shl(3, len), not(0)))), len) }
            at := add(at, len)
        }
    }

    /// The value offset of the key whose key word is `key` (non-zero) in the map indexed
    /// by `ix` (`index`), 0 when absent: `PorDeduceSpec.get(d, pos, key)`.
    function find(uint256[] memory ix, uint256 key) internal pure returns (uint256 v) {
        assembly ("memory-safe") {
            let slot := add(ix, 32)
            for { let end := add(slot, shl(5, mload(ix))) } lt(slot, end) { slot := add(slot, 64) } {
                if eq(mload(slot), key) {
                    v := mload(add(slot, 32))
                    break
                }
            }
        }
    }
}
