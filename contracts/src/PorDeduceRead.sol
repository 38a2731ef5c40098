// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorDeduceSpec as S} from "./PorDeduceSpec.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorKeyIndex as I} from "./PorKeyIndex.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorDeduceRead: what `PorDeduceStep` reads and writes, item by item: the cited
/// steps' output shapes (as `por.auditor.step_io` reads them) and canonical CBOR
/// heads and items (SPEC §2); the offsets `PorDeduceExec` hands to `PorDeduceCore`.
library PorDeduceRead {
    uint256 internal constant STEP_FIELDS = 8;
    /// Slots per prior step in `flatten`: leaf offset, known computation (0: none), offsets.
    uint256 internal constant PRIOR = 2 + STEP_FIELDS;

    /// The PromptSpec leaf (`part`) passes the §2 reader (`PorCborTop.checkTop`, one pass;
    /// else ok false), and where its `data_requirements` and `prediction_semantics` values
    /// are (offsets of `d`, 0 when absent): read from the top-level offsets that pass kept,
    /// or by a walk of the map when it holds more than `PorCbor.TOP_ITEMS` items.
    function specTop(bytes calldata d, PorInclusion.Part memory part)
        internal
        pure
        returns (bool ok, uint256 r, uint256 p)
    {
        uint256 base = part.leaf;
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(d[base:base + part.leafLength]);
        if (err != 0) return (false, 0, 0);
        if (top.length == 0) {
            uint256 left;
            (r, left) = S.next(d, base, 0, 0, S.REQUIREMENTS);
            (p,) = S.next(d, base, r, left, S.SEMANTICS);
            return (true, r, p);
        }
        // each key's head byte read first: only a 17- or 20-byte text (head 0x71, 0x74; §2
        // keys are texts in the shortest head) can be `data_requirements` or
        // `prediction_semantics`, and only those have their word (`PorKeyIndex.entry`'s)
        // compared; the offsets rebased (offsets in calldata: no overflow or index to
        // check; `top` holds key, value pairs)
        uint256 rw = S.REQUIREMENTS;
        uint256 pw = S.SEMANTICS;
        assembly ("memory-safe") {
            let b := add(d.offset, base)
            let slot := add(top, 32)
            for { let end := add(slot, shl(5, mload(top))) } lt(slot, end) { slot := add(slot, 64) } {
                let k := add(b, mload(slot))
                let hb := byte(0, calldataload(k))
                if eq(hb, 0x71) {
                    if eq(or(and(calldataload(add(k, 1)), not(shr(136, not(0)))), 17), rw) {
                        r := add(base, mload(add(slot, 32)))
                    }
                }
                if eq(hb, 0x74) {
                    if eq(or(and(calldataload(add(k, 1)), not(shr(160, not(0)))), 20), pw) {
                        p := add(base, mload(add(slot, 32)))
                    }
                }
            }
        }
        return (true, r, p);
    }

    /// `PorOneStepCheck.checkKind(d, want)` with the PromptSpec leaf's §2 check by `specTop`,
    /// then (when nothing decided: `id` 0) `flatten`'s offsets.
    function prepare(bytes calldata d, bytes32 want)
        internal
        view
        returns (bool won, bytes32 id, bytes32 porRoot, uint256[] memory flat, uint256[][] memory tables)
    {
        PorOneStepCheck.Parts memory parts;
        uint256[][] memory records;
        uint256[] memory at;
        bytes32 kind;
        (won, id, porRoot, parts, records, at, kind) = PorOneStepCheck.checkUpTo(d);
        if (id != 0) return (won, id, porRoot, flat, tables);
        if (kind != want) revert PorOneStepCheck.CourtPath(kind);
        bool isCbor;
        (isCbor, flat, tables) = flatten(d, parts, records, at);
        if (!isCbor) return (true, PorIds.INVALID_RECORD, porRoot, flat, tables);
    }

    /// The offsets `run` reads, packed: the step leaf's offset, the PromptSpec's
    /// `data_requirements` and `prediction_semantics` values (`specTop`'s `r`, `p`; `isCbor`
    /// false, nothing else set, when the leaf fails the §2 reader), the number of prior
    /// steps, the step's value offsets, then each prior step's leaf offset, its known
    /// computation (`PorRecords.computation`'s kind, 0 when unknown or its output has not
    /// the shape `shaped` reads) and value offsets (a deduce step carries no item); and per
    /// prior step the table `shaped` reads its output into (read once, here).
    function flatten(bytes calldata d, PorOneStepCheck.Parts memory parts, uint256[][] memory records, uint256[] memory at)
        internal
        pure
        returns (bool isCbor, uint256[] memory flat, uint256[][] memory tables)
    {
        uint256 np = parts.priorCount;
        flat = new uint256[](4 + STEP_FIELDS + np * PRIOR);
        tables = new uint256[][](np);
        (isCbor, flat[1], flat[2]) = specTop(d, parts.all[1]);
        if (!isCbor) return (false, flat, tables);
        (flat[0], flat[3]) = (parts.all[0].leaf, np);
        put(flat, 4, at);
        // part and slot indices (below the part count): unchecked
        unchecked {
            uint256 first = 2 + parts.evidenceCount;
            for (uint256 i = 0; i < np; i++) {
                tables[i] = prior(d, parts.all[first + i], records[first + i], flat, 4 + STEP_FIELDS + i * PRIOR);
            }
        }
    }

    /// Prior step `part` (value offsets `rec`) into `flat` from `o`; its table.
    function prior(bytes calldata d, PorInclusion.Part memory part, uint256[] memory rec, uint256[] memory flat, uint256 o)
        private
        pure
        returns (uint256[] memory table)
    {
        // offsets in calldata and slot indices `flatten` sized: unchecked (the slice's
        // bounds are still checked)
        unchecked {
            flat[o] = part.leaf;
            bytes32 kind = priorKind(d, part.leaf, rec);
            bool ok;
            if (kind != 0) (ok, table) = shaped(d, part.leaf + rec[PorRecords.STEP_OUTPUT], kind);
            flat[o + 1] = ok ? uint256(kind) : 0;
            put(flat, o + 2, rec);
        }
    }

    /// The prior step at `leaf` (value offsets `rec`) computes an aggregate or a
    /// contradictions step (`PorRecords.computation`'s kind and known, for the two kinds
    /// `shaped` reads; any other kind, or a step_type not the kind's, has no table): that
    /// kind, else 0. `computation`'s inputs-keys check is not made: `prior` never read it.
    function priorKind(bytes calldata d, uint256 leaf, uint256[] memory rec) private pure returns (bytes32 kind) {
        uint256 k = S.get(d, leaf + rec[PorRecords.STEP_INPUTS], uint256(bytes32("kind")) | 4);
        if (k == 0) return 0;
        kind = S.textHash(d, k);
        uint256 t = leaf + rec[PorRecords.STEP_TYPE];
        uint256 w;
        assembly ("memory-safe") {
            w := calldataload(add(d.offset, t))
        }
        // the step type's encoded text (head and bytes), as `computation` compares it
        if (kind == PorIds.AGGREGATE && w >> 176 == T_AGGREGATE) return kind;
        if (kind == PorIds.CONTRADICTIONS && w >> 208 == T_CHECK) return kind;
        return 0;
    }

    /// "aggregate" and "check" encoded (`PorRecords`' step type words).
    uint256 private constant T_AGGREGATE = 0x69616767726567617465;
    uint256 private constant T_CHECK = 0x65636865636b;

    /// A step record's `STEP_FIELDS` value offsets (`PorRecords.topFields` gives exactly
    /// that many for a record that parsed) into `flat` from `o`: one copy, no index checks
    /// (`flatten` sized `flat` for them).
    function put(uint256[] memory flat, uint256 o, uint256[] memory rec) private pure {
        assembly ("memory-safe") {
            mcopy(add(flat, shl(5, add(o, 1))), add(rec, 32), shl(5, STEP_FIELDS))
        }
    }

    /// Slots per field map in an aggregate's table (`shaped`): the map's offset, the
    /// keccak256 of its key, kind and status texts, then the offsets of its status, value
    /// (0 absent), evidence_ids and fallback_used.
    uint256 internal constant FIELD = 8;
    uint256 internal constant F_MAP = 0;
    uint256 internal constant F_KEY = 1;
    uint256 internal constant F_KIND = 2;
    uint256 internal constant F_STATUS = 3;
    uint256 internal constant F_STATUS_AT = 4;
    uint256 internal constant F_VALUE = 5;
    uint256 internal constant F_IDS = 6;
    uint256 internal constant F_FALLBACK = 7;
    /// An aggregate's table: covered (1 true), provenance_ok, the field count, then rows.
    uint256 internal constant ROWS = 3;

    /// The output at `o` of a prior step computing `kind` has the shape step_io reads (an
    /// aggregate's covered and provenance_ok bool and fields a list of field maps; a
    /// contradictions step's conflicts a list of maps with text kind and key), and its
    /// table: an aggregate's (`ROWS`, `FIELD`), a contradictions step's conflicts as
    /// (keccak256 of kind, of key) pairs. (Read in `flatten`, so in `PorDeduceExec`, for
    /// code size; the core reads the tables, not the outputs again.)
    function shaped(bytes calldata d, uint256 o, bytes32 kind) internal pure returns (bool, uint256[] memory t) {
        if (kind == PorIds.AGGREGATE) return aggregateTable(d, o);
        if (kind != PorIds.CONTRADICTIONS) return (false, t);
        (bool ok, uint256 m, uint256 q) = list(d, S.get(d, o, uint256(bytes32("conflicts")) | 9));
        t = new uint256[](2 * m);
        for (uint256 j = 0; ok && j < m; j++) {
            (bool isMap,,) = PorCbor.container(d, q, PorCbor.MAP);
            (uint256 key, uint256 left) = S.next(d, q, 0, 0, uint256(bytes32("key")) | 3);
            (uint256 k,) = S.next(d, q, key, left, uint256(bytes32("kind")) | 4);
            (t[2 * j], t[2 * j + 1]) = (textHash(d, k), textHash(d, key));
            ok = isMap && t[2 * j] != 0 && t[2 * j + 1] != 0;
            q = PorCbor.skip(d, q);
        }
        return (ok, t);
    }

    /// An aggregate's output at `o`: covered and provenance_ok bool, fields a list of
    /// field maps (`fieldRow`); its table. One walk of the output: the fields list is read
    /// row by row where it stands, and the keys after it are reached from its end (not by
    /// skipping it first, `PorDeduceSpec.aggregateOutput`).
    function aggregateTable(bytes calldata d, uint256 o) private pure returns (bool, uint256[] memory t) {
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, o, PorCbor.MAP);
        if (!isMap) return (false, t);
        uint256 cov;
        uint256 prov;
        bool rows;
        for (; count > 0; count--) {
            (uint256 w, uint256 v) = I.entry(d, p);
            if (w == FIELDS_KEY) {
                (rows, p, t) = fieldRows(d, v);
                if (!rows) return (false, t);
                continue;
            }
            if (w == COVERED_KEY) cov = v;
            if (w == PROVENANCE_KEY) {
                // the last key read: §2 order puts every later key after it, and `fields`
                // and `covered` (shorter keys) before it
                prov = v;
                break;
            }
            p = itemEnd(d, v);
        }
        if (!rows) return (false, t); // fields absent
        bool isCov;
        bool isProv;
        (isCov, t[0]) = bit(d, cov);
        (isProv, t[1]) = bit(d, prov);
        return (isCov && isProv, t);
    }

    /// The key words of an aggregate output's keys `aggregateTable` reads.
    uint256 private constant FIELDS_KEY = uint256(bytes32("fields")) | 6;
    uint256 private constant COVERED_KEY = uint256(bytes32("covered")) | 7;
    uint256 private constant PROVENANCE_KEY = uint256(bytes32("provenance_ok")) | 13;

    /// The fields list at `f` (a list of field maps, `fieldRow`): (ok, the offset after
    /// it, the table with its rows and count).
    function fieldRows(bytes calldata d, uint256 f) private pure returns (bool, uint256 p, uint256[] memory t) {
        (bool isList, uint256 n, uint256 first) = list(d, f);
        if (!isList) return (false, 0, t);
        t = new uint256[](ROWS + n * FIELD);
        t[2] = n;
        p = first;
        for (uint256 j = 0; j < n; j++) {
            bool ok;
            (ok, p) = fieldRow(d, p, t, ROWS + j * FIELD);
            if (!ok) return (false, p, t);
        }
        return (true, p, t);
    }

    /// The bool at `pos` (0: absent, not ok) as 1 true, 0 false.
    function bit(bytes calldata d, uint256 pos) private pure returns (bool ok, uint256 v) {
        bool b;
        (ok, b) = boolOf(d, pos);
        v = b ? 1 : 0;
    }

    /// An array at `pos` (0: absent, not ok): (ok, count, first).
    function list(bytes calldata d, uint256 pos) private pure returns (bool isArray, uint256 n, uint256 p) {
        (isArray, n, p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        isArray = isArray && pos != 0;
    }

    /// The field map at `p` (key, kind, status text; fallback_used bool; evidence_ids
    /// texts), read from one walk of it (`fieldEntries`) into row `b` of `t`: (ok, the
    /// offset after the map).
    function fieldRow(bytes calldata d, uint256 p, uint256[] memory t, uint256 b) private pure returns (bool, uint256) {
        (bool isMap,,) = PorCbor.container(d, p, PorCbor.MAP);
        if (!isMap) return (false, p);
        uint256[7] memory e = fieldEntries(d, p);
        (uint256 key, uint256 kind, uint256 status) = (textHash(d, e[0]), textHash(d, e[1]), textHash(d, e[3]));
        assembly ("memory-safe") {
            // row b (`fieldRows` sized `t` for it: no index checks)
            let row := add(t, shl(5, add(b, 1)))
            mstore(row, p) // F_MAP
            mstore(add(row, 0x20), key) // F_KEY
            mstore(add(row, 0x40), kind) // F_KIND
            mstore(add(row, 0x60), status) // F_STATUS
            mstore(add(row, 0x80), mload(add(e, 0x60))) // F_STATUS_AT
            mstore(add(row, 0xa0), mload(add(e, 0x40))) // F_VALUE
            mstore(add(row, 0xc0), mload(add(e, 0x80))) // F_IDS
            mstore(add(row, 0xe0), mload(add(e, 0xa0))) // F_FALLBACK
        }
        (bool fb,) = boolOf(d, e[5]);
        bool ok = key != 0 && kind != 0 && status != 0 && fb && textList(d, e[4]);
        return (ok, e[6]);
    }

    /// The value offsets of key, kind, value, status, evidence_ids and fallback_used in
    /// the map at `p` of a checked document (0: absent; `p` a map: `fieldRow` checks it),
    /// then the offset after the map: one walk, each key's word (`PorKeyIndex.entry`)
    /// switched on, each value skipped by `PorCbor.skip`.
    function fieldEntries(bytes calldata d, uint256 p) private pure returns (uint256[7] memory at) {
        uint256 n;
        assembly ("memory-safe") {
            // the map's head (its major type is `fieldRow`'s check)
            n := and(byte(0, calldataload(add(d.offset, p))), 31)
            p := add(p, 1)
            if gt(n, 23) {
                let width := shl(sub(n, 24), 1)
                n := shr(sub(256, shl(3, width)), calldataload(add(d.offset, p)))
                p := add(p, width)
            }
        }
        for (; n != 0;) {
            unchecked {
                n--;
            }
            uint256 v;
            assembly ("memory-safe") {
                // the entry's key word and value offset (`PorKeyIndex.entry`, inline: no call)
                let len := and(byte(0, calldataload(add(d.offset, p))), 31)
                v := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, v)))
                    v := add(v, width)
                }
                let w := 0
                if lt(len, 32) { w := or(and(calldataload(add(d.offset, v)), not(shr(shl(3, len), not(0)))), len) }
                v := add(v, len)
                switch w
                case 0x6b65790000000000000000000000000000000000000000000000000000000003 { mstore(at, v) }
                case 0x6b696e6400000000000000000000000000000000000000000000000000000004 { mstore(add(at, 0x20), v) }
                case 0x76616c7565000000000000000000000000000000000000000000000000000005 { mstore(add(at, 0x40), v) }
                case 0x7374617475730000000000000000000000000000000000000000000000000006 { mstore(add(at, 0x60), v) }
                case 0x65766964656e63655f696473000000000000000000000000000000000000000c { mstore(add(at, 0x80), v) }
                case 0x66616c6c6261636b5f757365640000000000000000000000000000000000000d { mstore(add(at, 0xa0), v) }
                // the value's end without a call when it is a short text (its head and
                // bytes) or a one-byte item (an int 0..23, false, true, null, undefined):
                // `PorCbor.skip`'s answer; else 0, and `skip` below
                let hb := byte(0, calldataload(add(d.offset, v)))
                p := 0
                if lt(sub(hb, 0x60), 24) { p := add(v, sub(hb, 0x5f)) }
                if or(lt(hb, 24), lt(sub(hb, 0xf4), 4)) { p := add(v, 1) }
            }
            if (p == 0) p = PorCbor.skip(d, v); // a value's end is past it: never 0
        }
        at[6] = p;
    }

    /// The offset after the item at `v` (`PorCbor.skip`'s answer): a short text's (head
    /// 0x60-0x77: head and bytes) or a one-byte item's (an int 0..23, false, true, null,
    /// undefined) without the call, any other item by `PorCbor.skip`.
    function itemEnd(bytes calldata d, uint256 v) internal pure returns (uint256 p) {
        assembly ("memory-safe") {
            let hb := byte(0, calldataload(add(d.offset, v)))
            if lt(sub(hb, 0x60), 24) { p := add(v, sub(hb, 0x5f)) }
            if or(lt(hb, 24), lt(sub(hb, 0xf4), 4)) { p := add(v, 1) }
        }
        if (p == 0) p = PorCbor.skip(d, v); // an item's end is past it: never 0
    }

    /// keccak256 of the text at `pos`, 0 when absent (`pos` 0) or not a text.
    function textHash(bytes calldata d, uint256 pos) internal pure returns (uint256) {
        return pos == 0 ? 0 : uint256(S.textHash(d, pos));
    }

    function boolItem(bool v) internal pure returns (bytes1) {
        return v ? bytes1(0xf5) : bytes1(0xf4);
    }

    /// The encoded item at `pos`.
    function item(bytes calldata d, uint256 pos) internal pure returns (bytes memory) {
        return d[pos:itemEnd(d, pos)];
    }

    function textOf(bytes calldata d, uint256 pos) internal pure returns (bytes memory) {
        (, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        return d[off:off + len];
    }

    /// The item at `pos` is the bytes `want`, one whole item (the recomputed evidence list or
    /// output): the `want.length` bytes from `pos` are `want` (hashed in free memory, the
    /// free memory pointer not moved: no copy kept). An item's encoding ends where its
    /// bytes say, so bytes equal to a whole item are that item, and its end need not be
    /// found by a skip first.
    function sameBytes(bytes calldata d, uint256 pos, bytes memory want) internal pure returns (bool same) {
        uint256 n = want.length;
        if (pos + n > d.length) return false;
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, add(d.offset, pos), n)
            same := eq(keccak256(m, n), keccak256(add(want, 32), n))
        }
    }

    /// The offset after `p` when the bytes of `d` from `p` are the item at `at` (its
    /// length from `at`, hashed in free memory without moving the pointer), else 0.
    function sameAt(bytes calldata d, uint256 p, uint256 at) internal pure returns (uint256) {
        uint256 len = itemEnd(d, at) - at;
        if (p + len > d.length) return 0;
        bool same;
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, add(d.offset, p), len)
            calldatacopy(add(m, len), add(d.offset, at), len)
            same := eq(keccak256(m, len), keccak256(add(m, len), len))
        }
        return same ? p + len : 0;
    }

    function isText(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,,) = PorCbor.str(d, pos, PorCbor.TEXT);
    }

    function isTrue(bytes calldata d, uint256 pos) internal pure returns (bool) {
        return pos != 0 && uint8(d[pos]) == 0xf5;
    }

    function boolOf(bytes calldata d, uint256 pos) internal pure returns (bool ok, bool v) {
        if (pos == 0) return (false, false);
        return PorCbor.boolAt(d, pos);
    }

    /// The item at `pos` (0: absent, not ok) is an array of texts: one loop over the items'
    /// heads (`PorCbor.str`'s major type test, then `PorCbor.skip`'s step over a text).
    function textList(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (pos == 0 || !isArray) return false;
        assembly ("memory-safe") {
            let b := d.offset
            ok := 1
            for {} n { n := sub(n, 1) } {
                let ib := byte(0, calldataload(add(b, p)))
                if iszero(eq(shr(5, ib), 3)) {
                    ok := 0
                    break
                }
                let len := and(ib, 31)
                p := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, p)))
                    p := add(p, width)
                }
                p := add(p, len)
            }
        }
    }

    function contains(bytes32[] memory a, uint256 n, bytes32 h) internal pure returns (bool) {
        for (uint256 i = 0; i < n; i++) {
            if (a[i] == h) return true;
        }
        return false;
    }
}
