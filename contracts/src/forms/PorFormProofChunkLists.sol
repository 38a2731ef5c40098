// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofDecimal as DEC} from "./PorFormProofDecimal.sol";

/// @title PorFormProofChunkLists: the lists of `F` CHUNK (SPEC §5.6.7): `L(source)`,
/// `L(item)`, `L(group)` of a `check_requirement` step's output, and the writers they need
/// (an enumerated text's code, an optional integer), with `PorFormProofDeduce`'s writers and
/// rest-word walk (ADR 0017, s42 addendum `fpchunk2`).
/// @notice Every writer takes and returns the write position (0 once a rule failed: no
/// form), as `PorFormProofDeduce`'s do. A list entry is an open map: one walk (`open`, s44
/// `chunkgas`) finds its named values' offsets (into a slot array allocated before the
/// form, `Ctx`), its rest word (the other entries copied to scratch at the write position
/// and hashed there; the entry's words then written over them) and its end, where the next
/// entry starts.
library PorFormProofChunkLists {
    uint256 internal constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 internal constant K_STEP_ID = uint256(bytes32("step_id")) | 7;
    uint256 internal constant K_EVIDENCE_ID = uint256(bytes32("evidence_id")) | 11;
    uint256 internal constant K_SOURCE_ID = uint256(bytes32("source_id")) | 9;
    uint256 internal constant K_ADMITTED = uint256(bytes32("admitted")) | 8;
    uint256 internal constant K_REASONS = uint256(bytes32("reasons")) | 7;
    uint256 internal constant K_OBSERVED_AT = uint256(bytes32("observed_at")) | 11;
    uint256 internal constant K_OBSERVED_FROM = uint256(bytes32("observed_from")) | 13;
    uint256 internal constant K_GATE_REASON = uint256(bytes32("gate_reason")) | 11;
    uint256 internal constant K_KEY = uint256(bytes32("key")) | 3;
    uint256 internal constant K_CLAIM_COUNT = uint256(bytes32("claim_count")) | 11;
    uint256 internal constant K_MIN = uint256(bytes32("min")) | 3;
    uint256 internal constant K_MAX = uint256(bytes32("max")) | 3;
    uint256 internal constant K_FIRST = uint256(bytes32("first")) | 5;
    uint256 internal constant K_OTHER = uint256(bytes32("other")) | 5;
    uint256 internal constant K_CLAIM_ID = uint256(bytes32("claim_id")) | 8;
    uint256 internal constant K_VALUE = uint256(bytes32("value")) | 5;

    /// The enumerations `code` reads (SPEC §5.6.2's tables).
    uint256 internal constant REASON = 0;
    uint256 internal constant OBSERVED_FROM = 1;
    uint256 internal constant KIND = 2;
    uint256 internal constant NONE = type(uint256).max;

    /// A name no key matches (a key's word has its length, below 32, in the low byte).
    uint256 private constant NO_KEY = type(uint256).max;

    /// The names of each entry's named keys, in the canonical order of keys (SPEC §2: shorter
    /// first, then bytewise; `walk` relies on it), and a slot array of each's length.
    /// A group is read with `groupNames` (a numeric group's `min`, `max`, then a boolean
    /// group's `first`, `other`), and read again with its kind's names (the other kind's two
    /// names `NO_KEY`, so that their entries are rest entries) only when it holds a key of
    /// the other kind.
    struct Ctx {
        uint256[] sourceNames;
        uint256[] itemNames;
        uint256[] groupNames;
        uint256[] numericNames;
        uint256[] booleanNames;
        uint256[] refNames;
        uint256[] source;
        uint256[] item;
        uint256[] group;
        uint256[] ref;
    }

    /// The names and slots, allocated before the form is written (a slot array is not
    /// cleared: `walk` clears it before it is read).
    function ctx() internal pure returns (Ctx memory c) {
        c.sourceNames = seven(K_STEP_ID, K_SOURCE_ID, K_EVIDENCE_ID, 0, 0, 0, 0, 3);
        c.itemNames = seven(K_REASONS, K_ADMITTED, K_SOURCE_ID, K_EVIDENCE_ID, K_GATE_REASON, K_OBSERVED_AT,
            K_OBSERVED_FROM, 7);
        c.groupNames = seven(K_KEY, K_MAX, K_MIN, K_KIND, K_FIRST, K_OTHER, K_CLAIM_COUNT, 7);
        c.numericNames = seven(K_KEY, K_MAX, K_MIN, K_KIND, NO_KEY, NO_KEY, K_CLAIM_COUNT, 7);
        c.booleanNames = seven(K_KEY, NO_KEY, NO_KEY, K_KIND, K_FIRST, K_OTHER, K_CLAIM_COUNT, 7);
        c.refNames = seven(K_VALUE, K_CLAIM_ID, K_EVIDENCE_ID, 0, 0, 0, 0, 3);
        c.source = seven(0, 0, 0, 0, 0, 0, 0, 3);
        c.item = seven(0, 0, 0, 0, 0, 0, 0, 7);
        c.group = seven(0, 0, 0, 0, 0, 0, 0, 7);
        c.ref = seven(0, 0, 0, 0, 0, 0, 0, 3);
    }

    /// An array of the first `n` of seven words, allocated.
    function seven(uint256 a, uint256 b, uint256 x, uint256 y, uint256 e, uint256 f, uint256 g, uint256 n)
        internal
        pure
        returns (uint256[] memory m)
    {
        assembly ("memory-safe") {
            m := mload(0x40)
            mstore(m, n)
            mstore(add(m, 0x20), a)
            mstore(add(m, 0x40), b)
            mstore(add(m, 0x60), x)
            mstore(add(m, 0x80), y)
            mstore(add(m, 0xa0), e)
            mstore(add(m, 0xc0), f)
            mstore(add(m, 0xe0), g)
            mstore(0x40, add(m, shl(5, add(n, 1))))
        }
    }

    /// The map at `pos` (0: absent): (is a map, its rest word `R(m, names)`, the offset just
    /// past it); each named key's value offset into `into` (0: absent). One walk: the other
    /// entries' bytes copied to scratch memory from `s` on (0: no form, nothing read), after
    /// room for their map head, and hashed by `PorFormProofDeduce.digest` (the rest word 0
    /// when every key is named). A list entry's scratch is the write position: past the
    /// words written so far, the entry's words then written over it.
    function open(bytes calldata d, uint256 pos, uint256[] memory names, uint256[] memory into, uint256 s)
        internal
        view
        returns (bool, uint256 r, uint256 end)
    {
        if (s == 0 || pos == 0) return (false, 0, 0);
        (uint256 w, uint256 kept) = walk(d, pos, names, into, s + 9);
        (kept, end) = (kept >> 128, uint128(kept));
        if (kept != 0) r = D.digest(s + 9, w, kept);
        return (end != 0, r, end);
    }

    /// The map at `p`: (the write position after its other entries' bytes, copied to `w`
    /// on; their count << 128 | the offset after its last entry, 0 when `p` holds no map); each
    /// named key's value offset into `into` (0: absent). `PorFormProofDeduce.walk`'s loop
    /// (a key's word as `PorKeyIndex` makes it, 0 for a key of 32 bytes or more, which no
    /// name has, compared with each name), with `PorCbor.skip`'s step over a short text.
    function walk(bytes calldata d, uint256 p, uint256[] memory names, uint256[] memory into, uint256 w)
        private
        pure
        returns (uint256, uint256 kept)
    {
        assembly ("memory-safe") {
            let b := d.offset
            let n := byte(0, calldataload(add(b, p)))
            {
                let isMap := eq(shr(5, n), 5)
                n := and(n, 31)
                p := add(p, 1)
                if gt(n, 23) {
                    let width := shl(sub(n, 24), 1)
                    n := shr(sub(256, shl(3, width)), calldataload(add(b, p)))
                    p := add(p, width)
                }
                if iszero(isMap) {
                    n := 0
                    p := 0
                }
            }
            let last := add(add(names, 32), shl(5, mload(names)))
            let cur := add(names, 32)
            for { let s := add(into, 32) } lt(s, add(into, sub(last, names))) { s := add(s, 32) } { mstore(s, 0) }
            for {} n { n := sub(n, 1) } {
                let v := add(p, 1)
                let key := 0
                {
                    let len := and(byte(0, calldataload(add(b, p))), 31)
                    switch gt(len, 23)
                    case 0 { key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len) }
                    default {
                        let width := shl(sub(len, 24), 1)
                        len := shr(sub(256, shl(3, width)), calldataload(add(b, v)))
                        v := add(v, width)
                        if lt(len, 32) {
                            key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len)
                        }
                    }
                    v := add(v, len)
                }
                let q := add(b, v)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(q))
                    if lt(sub(hb, 0x60), 24) {
                        q := add(q, sub(hb, 0x5f))
                        units := sub(units, 1)
                        continue
                    }
                    let a := and(hb, 31)
                    q := add(q, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(q))
                        q := add(q, width)
                    }
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    q := add(q, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                q := sub(q, b)
                // from the name after the last one found: the names are in the canonical
                // order of keys (SPEC §2), which a valid record's keys follow, so a named
                // key is at or after it (one compare each when every name is present)
                let slot := cur
                for {} lt(slot, last) { slot := add(slot, 32) } {
                    if eq(mload(slot), key) { break }
                }
                switch lt(slot, last)
                case 1 {
                    mstore(add(into, sub(slot, names)), v)
                    cur := add(slot, 32)
                }
                default {
                    calldatacopy(w, add(b, p), sub(q, p))
                    w := add(w, sub(q, p))
                    kept := add(kept, shl(128, 1))
                }
                p := q
            }
        }
        return (w, kept | p);
    }

    /// The array at `pos` (0: absent): (is an array, count, first item).
    /// `PorCbor.container(d, pos, ARRAY)` in one assembly block (a count of 24.. in the next
    /// 1, 2, 4 or 8 bytes; width 0 below 24: a shift past 255).
    function list(bytes calldata d, uint256 w, uint256 pos) private pure returns (bool ok, uint256 n, uint256 p) {
        assembly ("memory-safe") {
            if and(gt(w, 0), gt(pos, 0)) {
                let ib := byte(0, calldataload(add(d.offset, pos)))
                ok := eq(shr(5, ib), 4)
                n := and(ib, 31)
                let width := shl(sub(n, 24), 1)
                p := add(pos, 1)
                if width { n := shr(sub(256, shl(3, width)), calldataload(add(d.offset, p))) }
                p := add(p, width)
            }
        }
    }

    /// `W(n)` of an unsigned integer at `pos` (0: absent, no form): `PorFormProofDeduce.integer`
    /// in one assembly block (its head as `PorCbor.head` reads it, major 0).
    function integer(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            let p := add(d.offset, pos)
            let ib := shr(248, calldataload(p))
            if and(and(gt(w, 0), gt(pos, 0)), lt(ib, 0x20)) {
                let a := ib
                if gt(a, 23) { a := shr(sub(256, shl(3, shl(sub(a, 24), 1))), calldataload(add(p, 1))) }
                mstore(w, a)
                r := add(w, 32)
            }
        }
    }

    /// `W(v)` at `w` (0: no form): `PorFormProofDeduce.word` without the checked add.
    function word(uint256 w, uint256 v) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            if w {
                mstore(w, v)
                r := add(w, 32)
            }
        }
    }

    /// `B(b)` of the item at `pos` (0: absent, no form): `PorFormProofDeduce.flag` in one
    /// assembly block (CBOR false 0xf4 / true 0xf5 only).
    function flag(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        assembly ("memory-safe") {
            let b := sub(shr(248, calldataload(add(d.offset, pos))), 0xf4)
            if and(and(gt(w, 0), gt(pos, 0)), lt(b, 2)) {
                mstore(w, b)
                r := add(w, 32)
            }
        }
    }

    /// `H(t)` of the text at `pos` (0: absent, no form): `PorFormProofDeduce.hashed` in one
    /// assembly block (its head as `PorCbor.head` reads it, major 3), the bytes copied to `w`
    /// and their SHA-256 written over them.
    function hashed(bytes calldata d, uint256 w, uint256 pos) internal view returns (uint256 r) {
        assembly ("memory-safe") {
            let p := add(d.offset, pos)
            let ib := shr(248, calldataload(p))
            if and(and(gt(w, 0), gt(pos, 0)), eq(shr(5, ib), 3)) {
                // a length of 24.. in the next 1, 2, 4 or 8 bytes (width 0 below 24: a
                // shift past 255)
                let len := and(ib, 31)
                let width := shl(sub(len, 24), 1)
                p := add(p, 1)
                if width { len := shr(sub(256, shl(3, width)), calldataload(p)) }
                p := add(p, width)
                calldatacopy(w, p, len)
                if iszero(staticcall(gas(), 0x02, w, len, w, 0x20)) { revert(0, 0) }
                r := add(w, 32)
            }
        }
    }

    /// `O(m, key)` of the value at `pos`: `W(1) W(n)`, or `W(0) W(0)` when absent.
    function optional(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        return pos == 0 ? word(word(w, 0), 0) : integer(d, word(w, 1), pos);
    }

    /// `E(x)` of the text at `pos` in the enumeration `table`.
    function code(bytes calldata d, uint256 w, uint256 pos, uint256 table) internal pure returns (uint256) {
        if (w == 0) return 0;
        uint256 c = enumOf(d, pos, table);
        return c == NONE ? 0 : word(w, c);
    }

    /// The code of the text at `pos` (0: absent) in `table`, NONE when it is not one of its
    /// names. Every name is shorter than 24 bytes: its encoding (head 0x60 | length, then
    /// the bytes) read as one right-aligned word and compared.
    function enumOf(bytes calldata d, uint256 pos, uint256 table) internal pure returns (uint256) {
        if (pos == 0) return NONE;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return NONE;
        uint256 x;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
        if (table == REASON) {
            if (x == 0x7573616e6974792e616c6c6f7765645f736f75726365) return 1; // sanity.allowed_source
            if (x == 0x7473616e6974792e736f757263655f746172676574) return 2; // sanity.source_target
            if (x == 0x7273616e6974792e74696d655f77696e646f77) return 3; // sanity.time_window
            if (x == 0x7173616e6974792e70726f76656e616e6365) return 4; // sanity.provenance
            if (x == 0x7173616e6974792e636f6e666964656e6365) return 5; // sanity.confidence
            if (x == 0x7273616e6974792e687474705f737461747573) return 6; // sanity.http_status
            if (x == 0x6f676174652e6167656e745f6e616d65) return 7; // gate.agent_name
        } else if (table == OBSERVED_FROM) {
            if (x == 0x65636c61696d) return 0; // claim
            if (x == 0x6772656365697074) return 1; // receipt
        } else {
            if (x == 0x67626f6f6c65616e) return 0; // boolean
            if (x == 0x676e756d65726963) return 1; // numeric
            if (x == 0x6974696d657374616d70) return 2; // timestamp
            if (x == 0x6474657874) return 3; // text
        }
        return NONE;
    }

    /// `L(source)`: each `H(step_id) H(evidence_id) H(source_id) R(s, the three)`.
    function sources(bytes calldata d, uint256 w, uint256 pos, Ctx memory c) internal view returns (uint256) {
        (bool ok, uint256 n, uint256 p) = list(d, w, pos);
        if (!ok) return 0;
        w = word(w, n);
        for (; n != 0 && w != 0; n--) {
            (w, p) = source(d, w, p, c);
        }
        return w;
    }

    /// Each entry writer answers (the write position, the offset after the entry).
    function source(bytes calldata d, uint256 w, uint256 p, Ctx memory c) private view returns (uint256, uint256) {
        (bool isMap, uint256 r, uint256 end) = open(d, p, c.sourceNames, c.source, w);
        if (!isMap) return (0, 0);
        return (word(sourceWords(d, w, c.source), r), end);
    }

    function sourceWords(bytes calldata d, uint256 w, uint256[] memory s) private view returns (uint256) {
        return hashed(d, hashed(d, hashed(d, w, s[0]), s[2]), s[1]);
    }

    /// `L(item)`: each `H(evidence_id) H(source_id) B(admitted) L[E(REASON)](reasons)
    /// W(observed_at) E(OBSERVED_FROM, observed_from) P[H](gate_reason) R(i, the seven)`.
    function items(bytes calldata d, uint256 w, uint256 pos, Ctx memory c) internal view returns (uint256) {
        (bool ok, uint256 n, uint256 p) = list(d, w, pos);
        if (!ok) return 0;
        w = word(w, n);
        for (; n != 0 && w != 0; n--) {
            (w, p) = item(d, w, p, c);
        }
        return w;
    }

    function item(bytes calldata d, uint256 w, uint256 p, Ctx memory c) private view returns (uint256, uint256) {
        (bool isMap, uint256 r, uint256 end) = open(d, p, c.itemNames, c.item, w);
        if (!isMap) return (0, 0);
        return (word(itemWords(d, w, c.item), r), end);
    }

    function itemWords(bytes calldata d, uint256 w, uint256[] memory s) private view returns (uint256) {
        w = hashed(d, w, s[3]);
        w = hashed(d, w, s[2]);
        w = flag(d, w, s[1]);
        w = reasons(d, w, s[0]);
        w = integer(d, w, s[5]);
        w = code(d, w, s[6], OBSERVED_FROM);
        return s[4] == 0 ? word(w, 0) : hashed(d, word(w, 1), s[4]);
    }

    /// `L[E(REASON)]` of the array at `pos`.
    function reasons(bytes calldata d, uint256 w, uint256 pos) private pure returns (uint256) {
        (bool ok, uint256 n, uint256 p) = list(d, w, pos);
        if (!ok) return 0;
        w = word(w, n);
        for (; n != 0 && w != 0; n--) {
            w = code(d, w, p, REASON);
            p = PorCbor.skip(d, p);
        }
        return w;
    }

    /// `L(group)`: each `E(KIND, kind) H(key) W(claim_count)`, then a numeric group's
    /// `ref(min) ref(max) R(g, kind key claim_count min max)`, a boolean group's
    /// `ref(first) P[ref](other) R(g, kind key claim_count first other)`; a group of
    /// another kind has no form.
    function groups(bytes calldata d, uint256 w, uint256 pos, Ctx memory c) internal view returns (uint256) {
        (bool ok, uint256 n, uint256 p) = list(d, w, pos);
        if (!ok) return 0;
        w = word(w, n);
        for (; n != 0 && w != 0; n--) {
            (w, p) = group(d, w, p, c);
        }
        return w;
    }

    /// One walk with `groupNames`; a second, with the kind's names, only when the group
    /// holds a key of the other kind (a rest entry of this one).
    function group(bytes calldata d, uint256 w, uint256 p, Ctx memory c) private view returns (uint256, uint256) {
        (bool isMap, uint256 r, uint256 end) = open(d, p, c.groupNames, c.group, w);
        if (!isMap) return (0, 0);
        uint256[] memory g = c.group;
        uint256 kind = enumOf(d, g[3], KIND);
        if (kind == 1) {
            if (g[4] != 0 || g[5] != 0) (, r,) = open(d, p, c.numericNames, g, w);
        } else if (kind == 0) {
            if (g[1] != 0 || g[2] != 0) (, r,) = open(d, p, c.booleanNames, g, w);
            (g[2], g[1]) = (g[4], g[5]);
        } else {
            return (0, 0);
        }
        return (word(groupWords(d, w, kind, c), r), end);
    }

    /// A group's words but its rest word (`kind`: 1 numeric, 0 boolean).
    function groupWords(bytes calldata d, uint256 w, uint256 kind, Ctx memory c) private view returns (uint256) {
        uint256[] memory g = c.group;
        w = word(w, kind);
        w = hashed(d, w, g[0]);
        w = integer(d, w, g[6]);
        w = ref(d, w, g[2], kind == 1, c);
        if (kind == 1) return ref(d, w, g[1], true, c);
        return g[1] == 0 ? word(w, 0) : ref(d, word(w, 1), g[1], false, c);
    }

    /// `H(claim_id) H(evidence_id) V(kind, value) R(r, the three)` (`V`: `D` numeric, `B`
    /// boolean).
    function ref(bytes calldata d, uint256 w, uint256 pos, bool numeric, Ctx memory c)
        private
        view
        returns (uint256)
    {
        (bool isMap, uint256 r,) = open(d, pos, c.refNames, c.ref, w);
        if (!isMap) return 0;
        uint256[] memory s = c.ref;
        w = hashed(d, hashed(d, w, s[1]), s[2]);
        w = numeric ? DEC.decimal(d, w, s[0]) : flag(d, w, s[0]);
        return word(w, r);
    }
}
