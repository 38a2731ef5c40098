// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorAggregateEntries: a claim's entries found in one walk (SPEC §12.5.4; split
/// from `PorAggregateRead`, which checks them), and `find`: two keys of any map and its end.
library PorAggregateEntries {
    /// `find`'s key words (`PorCborKeys.wordAt`: bytes left-aligned, length in the low
    /// byte) of the inputs' keys the aggregate reads; `NONE` matches no key.
    uint256 internal constant REQUIREMENT_ID = uint256(bytes32("requirement_id")) | 14;
    uint256 internal constant KIND = uint256(bytes32("kind")) | 4;
    uint256 internal constant NONE = type(uint256).max;

    /// The value offsets of kind, key, value, claim_id and path in the map at `p` (at[0..4];
    /// 0: absent), the offset after the map (at[5]), which of the five values are texts
    /// (bit i of at[6]), the key's and the kind's words when they are texts (at[7], at[8];
    /// 0 otherwise; `PorAggregateRead.keyWord`'s: under 32 bytes its bytes left-aligned and
    /// its length in the low byte, else keccak256 of its bytes with the low byte 0xff).
    /// A claim of exactly the five keys, in their §2 order (key, kind, path, value,
    /// claim_id), four of them texts, is read in one straight pass (each key one compare);
    /// any other map by one assembly loop over the entries, each key (a text, §2) compared
    /// as its key word (`PorCborKeys.wordAt`), each value skipped.
    function entries(bytes calldata d, uint256 p) internal pure returns (bool isMap, uint256[9] memory at) {
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
            // the text at q (head byte vb, major 3): (its word, the offset after it)
            function word(b, q, vb) -> w, r {
                let tl, to := arg(b, q, and(vb, 31))
                switch lt(tl, 32)
                case 1 { w := or(and(calldataload(add(b, to)), not(shr(shl(3, tl), not(0)))), tl) }
                default {
                    let m := mload(0x40)
                    calldatacopy(m, add(b, to), tl)
                    w := or(keccak256(m, tl), 0xff)
                }
                r := add(to, tl)
            }
            // the offset after the item at q (PorCbor.skip)
            function skip(b, q) -> r {
                r := q
                for { let left := 1 } left { left := sub(left, 1) } {
                    let vb := byte(0, calldataload(add(b, r)))
                    let major := shr(5, vb)
                    let a := 0
                    a, r := arg(b, r, and(vb, 31))
                    if or(eq(major, 2), eq(major, 3)) { r := add(r, a) }
                    if eq(major, 4) { left := add(left, a) }
                    if eq(major, 5) { left := add(left, shl(1, a)) }
                }
            }
            // the text at q, its offset kept in slot `slot` of `at`: the offset after it
            // (0: not a text)
            function text(b, q, out, slot) -> r {
                mstore(add(out, shl(5, slot)), q)
                let vb := byte(0, calldataload(add(b, q)))
                if eq(shr(5, vb), 3) {
                    let tl, to := arg(b, q, and(vb, 31))
                    r := add(to, tl)
                }
            }
            let ib := byte(0, calldataload(add(base, p)))
            isMap := eq(shr(5, ib), 5)
            // the straight pass: a5, then "key" text, "kind" text, "path" text, "value"
            // item, "claim_id" text
            let r := 0
            if eq(ib, 0xa5) {
                r := add(p, 1)
                if iszero(eq(shr(224, calldataload(add(base, r))), 0x636b6579)) { r := 0 }
            }
            if r {
                r := add(r, 4)
                mstore(add(at, 0x20), r)
                let vb := byte(0, calldataload(add(base, r)))
                switch eq(shr(5, vb), 3)
                case 1 {
                    let w := 0
                    w, r := word(base, r, vb)
                    mstore(add(at, 0xe0), w)
                }
                default { r := 0 }
            }
            if r {
                if iszero(eq(shr(216, calldataload(add(base, r))), 0x646b696e64)) { r := 0 }
            }
            if r {
                r := add(r, 5)
                mstore(at, r)
                let vb := byte(0, calldataload(add(base, r)))
                switch eq(shr(5, vb), 3)
                case 1 {
                    let w := 0
                    w, r := word(base, r, vb)
                    mstore(add(at, 0x100), w)
                }
                default { r := 0 }
            }
            if r {
                if iszero(eq(shr(216, calldataload(add(base, r))), 0x6470617468)) { r := 0 }
            }
            if r { r := text(base, add(r, 5), at, 4) }
            if r {
                if iszero(eq(shr(208, calldataload(add(base, r))), 0x6576616c7565)) { r := 0 }
            }
            let valueText := 0
            if r {
                r := add(r, 6)
                mstore(add(at, 0x40), r)
                valueText := eq(shr(5, byte(0, calldataload(add(base, r)))), 3)
                r := skip(base, r)
                if iszero(eq(shr(184, calldataload(add(base, r))), 0x68636c61696d5f6964)) { r := 0 }
            }
            if r { r := text(base, add(r, 9), at, 3) }
            switch r
            case 0 {
                // any other map: the loop over its entries
                for { let i := 0 } lt(i, 9) { i := add(i, 1) } { mstore(add(at, shl(5, i)), 0) }
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
                            if lt(slot, 2) {
                                // the kind's (slot 0) or the key's (slot 1) word
                                let w, e := word(base, p, vb)
                                mstore(add(at, add(0xe0, shl(5, iszero(slot)))), w)
                            }
                        }
                    }
                    p := skip(base, p)
                }
                mstore(add(at, 0xa0), p)
            }
            default {
                mstore(add(at, 0xa0), r)
                mstore(add(at, 0xc0), or(0x1b, shl(2, valueText)))
            }
        }
    }

    /// The value offsets of the keys whose key words (`PorCborKeys.wordAt`) are `w1` and
    /// `w2` in the map at `m` of a checked document (0: absent, or `m` not a map; `NONE`
    /// matches no key) and the offset after the map (`m` for another item): one assembly
    /// walk, values skipped as `PorCbor.skip` does.
    function find(bytes calldata d, uint256 m, uint256 w1, uint256 w2)
        internal
        pure
        returns (uint256 v1, uint256 v2, uint256 end)
    {
        assembly ("memory-safe") {
            let b := d.offset
            // the head at q: (its argument, the offset after it)
            function arg(base, q) -> a, r {
                a := and(byte(0, calldataload(add(base, q))), 31)
                r := add(q, 1)
                if gt(a, 23) {
                    let width := shl(sub(a, 24), 1)
                    a := shr(sub(256, shl(3, width)), calldataload(add(base, r)))
                    r := add(r, width)
                }
            }
            end := m
            if eq(shr(5, byte(0, calldataload(add(b, m)))), 5) {
                let n := 0
                n, end := arg(b, m)
                for {} n { n := sub(n, 1) } {
                    // the key (a text, §2) as its key word (0 from 32 bytes on); a key of
                    // under 24 bytes from the word holding its head
                    let kw := calldataload(add(b, end))
                    let len := sub(shr(248, kw), 0x60)
                    let w := 0
                    switch lt(len, 24)
                    case 1 {
                        w := or(and(shl(8, kw), not(shr(shl(3, len), not(0)))), len)
                        end := add(end, add(len, 1))
                    }
                    default {
                        let off := 0
                        len, off := arg(b, end)
                        if lt(len, 32) { w := or(and(calldataload(add(b, off)), not(shr(shl(3, len), not(0)))), len) }
                        end := add(off, len)
                    }
                    if eq(w, w1) { v1 := end }
                    if eq(w, w2) { v2 := end }
                    // the value skipped (its heads read in line; a short text at once)
                    for { let left := 1 } left { left := sub(left, 1) } {
                        let vb := byte(0, calldataload(add(b, end)))
                        if lt(sub(vb, 0x60), 24) {
                            end := add(end, sub(vb, 0x5f))
                            continue
                        }
                        let a := and(vb, 31)
                        end := add(end, 1)
                        if gt(a, 23) {
                            let width := shl(sub(a, 24), 1)
                            a := shr(sub(256, shl(3, width)), calldataload(add(b, end)))
                            end := add(end, width)
                        }
                        let major := shr(6, vb)
                        end := add(end, mul(eq(major, 1), a))
                        left := add(left, mul(eq(major, 2), shl(shr(5, and(vb, 0x20)), a)))
                    }
                }
            }
        }
    }

    /// A step's inputs.requirement_id (`find(d, inputs, REQUIREMENT_ID, NONE)`'s value
    /// offset; 0: absent): read in place when the inputs are a map of 2-23 entries whose
    /// first key is "kind" with a short text value and whose second key is
    /// "requirement_id" (the §2 order of an aggregate's or a check step's inputs), else found.
    function requirementId(bytes calldata d, uint256 inputs) internal pure returns (uint256 v) {
        assembly ("memory-safe") {
            let b := d.offset
            let w := calldataload(add(b, inputs))
            let hb := shr(248, w)
            let vb := byte(6, w) // the first value's head (after a map head and "kind")
            if and(
                and(gt(hb, 0xa1), lt(hb, 0xb8)),
                and(eq(and(shr(208, w), 0xffffffffff), 0x646b696e64), lt(sub(vb, 0x60), 24))
            ) {
                let q := add(add(inputs, 7), sub(vb, 0x60)) // the second key
                if eq(shr(136, calldataload(add(b, q))), 0x6e726571756972656d656e745f6964) { v := add(q, 15) }
            }
        }
        if (v == 0) (v,,) = find(d, inputs, REQUIREMENT_ID, NONE);
    }

    /// The extract card at `p` of a checked document read in one straight pass
    /// (`step_io.read_card`): a map of exactly source_id, status_code, retrieved_at,
    /// confidence_bps and provenance_tier (their §2 order), source_id a text, the others
    /// integers in 100..599, 0..2^63-1, 0..10000 and 0..3. (ok, source_id's value offset,
    /// the tier, the offset after the card); past the first difference the answer is
    /// false whatever else is read.
    function card(bytes calldata d, uint256 p)
        internal
        pure
        returns (bool ok, uint256 src, uint256 tier, uint256 next)
    {
        assembly ("memory-safe") {
            let b := d.offset
            // the head at q: (its head byte, its argument, the offset after it)
            function hd(base, q) -> hb, a, r {
                hb := byte(0, calldataload(add(base, q)))
                a := and(hb, 31)
                r := add(q, 1)
                if gt(a, 23) {
                    let width := shl(sub(a, 24), 1)
                    a := shr(sub(256, shl(3, width)), calldataload(add(base, r)))
                    r := add(r, width)
                }
            }
            // a5, then "source_id" (its head and 9 bytes)
            ok := and(
                eq(byte(0, calldataload(add(b, p))), 0xa5),
                eq(shr(176, calldataload(add(b, add(p, 1)))), 0x69736f757263655f6964)
            )
            src := add(p, 11)
            let hb, a, r := hd(b, src)
            ok := and(ok, eq(shr(5, hb), 3)) // a text: its bytes skipped
            r := add(r, a)
            // "status_code" (12 bytes), an integer in 100..599
            ok := and(ok, eq(shr(160, calldataload(add(b, r))), 0x6b7374617475735f636f6465))
            hb, a, r := hd(b, add(r, 12))
            ok := and(ok, and(lt(hb, 0x20), and(iszero(lt(a, 100)), iszero(gt(a, 599)))))
            // "retrieved_at" (13 bytes), an integer in 0..2^63-1
            ok := and(ok, eq(shr(152, calldataload(add(b, r))), 0x6c7265747269657665645f6174))
            hb, a, r := hd(b, add(r, 13))
            ok := and(ok, and(lt(hb, 0x20), iszero(gt(a, 0x7fffffffffffffff))))
            // "confidence_bps" (15 bytes), an integer in 0..10000
            ok := and(ok, eq(shr(136, calldataload(add(b, r))), 0x6e636f6e666964656e63655f627073))
            hb, a, r := hd(b, add(r, 15))
            ok := and(ok, and(lt(hb, 0x20), iszero(gt(a, 10000))))
            // "provenance_tier" (16 bytes), an integer in 0..3
            ok := and(ok, eq(shr(128, calldataload(add(b, r))), 0x6f70726f76656e616e63655f74696572))
            hb, tier, next := hd(b, add(r, 16))
            ok := and(ok, and(lt(hb, 0x20), lt(tier, 4)))
        }
    }

    /// `PorCborKeys.walk` with the keys sought given as their encodings' values (`want[0..n)`,
    /// n <= 6: a text's head, then its bytes, as one number; each under 24 bytes) in
    /// strictly ascending order. A checked document's map keys are texts in strictly
    /// ascending order of these values (SPEC §2, `PorCborScan`), so each entry's key is
    /// compared with the next key sought only: equal, found; above it, that key is absent
    /// (0) and the next one is compared; a key of 24 bytes or more is above every key
    /// sought. Stops once every key sought is passed: `at` their value offsets (0: absent),
    /// and (the offset of the last one's value, not skipped, and the entries after it) when
    /// that one was found, else (0, 0). Values are skipped as `PorCbor.skip` does.
    function seek(bytes calldata d, uint256 p, uint256 count, uint256[6] memory want, uint256 n)
        internal
        pure
        returns (uint256[6] memory at, uint256 end, uint256 left)
    {
        assembly ("memory-safe") {
            let b := d.offset
            let j := 0
            let w := mload(want)
            for {} and(iszero(iszero(count)), lt(j, n)) { count := sub(count, 1) } {
                let k := calldataload(add(b, p))
                let len := sub(shr(248, k), 0x60)
                // a short text key: its encoding's value (a longer one's first word: above)
                if lt(len, 24) { k := shr(sub(248, shl(3, len)), k) }
                // every key sought below this one is absent
                for {} and(lt(j, n), gt(k, w)) {} {
                    j := add(j, 1)
                    w := mload(add(want, shl(5, j)))
                }
                if eq(j, n) { break }
                p := add(p, add(len, 1)) // the value (k <= w: a short text key)
                if eq(k, w) {
                    mstore(add(at, shl(5, j)), p)
                    j := add(j, 1)
                    if eq(j, n) {
                        end := p
                        left := sub(count, 1)
                        break
                    }
                    w := mload(add(want, shl(5, j)))
                }
                // the value skipped (PorCbor.skip)
                let r := add(b, p)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(r))
                    if lt(sub(hb, 0x60), 24) {
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
                    // 0x421100: per major, bit 0 a string, bits 1-2 the units a count opens
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    r := add(r, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                p := sub(r, b)
            }
        }
    }
}
