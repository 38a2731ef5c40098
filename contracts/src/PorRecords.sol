// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorRecords: the por record shapes (SPEC §4) over a checked por-cbor/1 document.
/// @notice Key lists are the records' field names in canonical order (SPEC §2 rule 2),
/// packed as a 1-byte length then the text; a record's map must hold exactly those keys
/// (pydantic's `extra="forbid"` with every field required). Value checks follow the
/// models' strict types: Id is text of 1..128 code points, Count and UnixTime
/// 0..2^63-1, Bps 0..10000, a Hash32 a 32-byte byte string.
library PorRecords {
    uint256 internal constant MAX_ID_LENGTH = 128;
    uint256 internal constant MAX_COUNT = 2 ** 63 - 1;

    /// Value offsets of the map at `pos` whose keys are exactly `keys`, in order.
    function fields(bytes calldata d, uint256 pos, bytes memory keys)
        internal
        pure
        returns (bool ok, uint256[] memory at)
    {
        (ok, at,) = fieldsTo(d, pos, keys, 0);
    }

    /// `fields`, and the offset just after the map (one walk: the last value's skip).
    /// A value whose bit is set in `valueMaps` must also be a step value map (`valueMap`,
    /// checked by the walk that skips it). Every packed key is shorter than 24 bytes, so its canonical head is the one byte
    /// 0x60 | length and key and head compare as one word.
    function fieldsTo(bytes calldata d, uint256 pos, bytes memory keys, uint256 valueMaps)
        internal
        pure
        returns (bool ok, uint256[] memory at, uint256 p)
    {
        bool isMap;
        uint256 count;
        (isMap, count, p) = PorCbor.container(d, pos, PorCbor.MAP);
        uint256 n;
        assembly ("memory-safe") {
            let k := add(keys, 32)
            let e := add(k, mload(keys))
            for {} lt(k, e) { n := add(n, 1) } { k := add(k, add(1, byte(0, mload(k)))) }
        }
        if (!isMap || count != n) return (false, at, p);
        at = new uint256[](n);
        uint256 k = 0;
        for (uint256 i = 0; i < n; i++) {
            uint256 v;
            (ok, v, k) = keyIs(d, p, keys, k);
            if (!ok) return (false, at, p);
            at[i] = v;
            if ((valueMaps >> i) & 1 == 0) {
                p = PorCbor.skip(d, v);
            } else {
                (ok, p) = valueMap(d, v);
                if (!ok) return (false, at, p);
            }
        }
        return (true, at, p);
    }

    /// `fields` of the top-level map of a document from the offsets of its items the
    /// reader's pass kept (`PorCborTop.checkTop`'s `top`, reused as `at`): no walk. Each
    /// key compared as `keyIs` does, in one assembly loop (no call and no bounds check a
    /// key: `top` holds 2 * count offsets). A map with more keys than `keys` reads past
    /// the packed list, but the read pointer only grows, so it ends past `keys`' end and
    /// the last check rejects it, as `keyIs` then `k != keys.length` did.
    function topFields(bytes calldata d, uint256[] memory top, bytes memory keys)
        internal
        pure
        returns (bool ok, uint256[] memory at)
    {
        (bool isMap, uint256 count,) = PorCbor.container(d, 0, PorCbor.MAP);
        if (!isMap || top.length != 2 * count) return (false, at);
        assembly ("memory-safe") {
            // slot i (from top + 32) takes the value offset of the key at slot 2i; a packed
            // key (length, bytes) is its encoding but for the head's 0x60 (`keyIs`). A
            // function: its own stack. (all matched, where the packed list was read to)
            function match(b, src, key, n) -> good, next {
                good := 1
                let dst := src
                for { let last := add(src, shl(6, n)) } lt(src, last) { src := add(src, 64) } {
                    let p := mload(src)
                    let w := mload(key)
                    let len := byte(0, w)
                    if shr(shl(3, sub(31, len)), xor(calldataload(add(b, p)), or(w, shl(248, 0x60)))) {
                        good := 0
                        break
                    }
                    mstore(dst, add(p, add(1, len)))
                    key := add(key, add(1, len))
                    dst := add(dst, 32)
                }
                next := key
            }
            let good, next := match(d.offset, add(top, 32), add(keys, 32), count)
            if and(good, eq(next, add(add(keys, 32), mload(keys)))) {
                ok := 1
                mstore(top, count)
                at := top
            }
        }
        return (ok, at);
    }

    /// The key at `p` (a checked document) is the packed key at `k` of `keys`: (ok, the
    /// offset of its value, the next packed key).
    function keyIs(bytes calldata d, uint256 p, bytes memory keys, uint256 k)
        internal
        pure
        returns (bool ok, uint256 value, uint256 next)
    {
        assembly ("memory-safe") {
            // the packed key (length, bytes) is its encoding (head 0x60 | length, bytes)
            // but for the head's 0x60: their first length + 1 bytes compared as one word
            let w := mload(add(add(keys, 32), k))
            let len := byte(0, w)
            ok := iszero(shr(shl(3, sub(31, len)), xor(calldataload(add(d.offset, p)), or(w, shl(248, 0x60)))))
            value := add(p, add(1, len))
            next := add(k, add(1, len))
        }
    }

    /// The text at `pos` equals `want`.
    function textIs(bytes calldata d, uint256 pos, bytes memory want) internal pure returns (bool) {
        return PorCbor.isText(d, pos, want);
    }

    /// An Id: text of 1..128 code points (UTF-8 already checked).
    function isId(bytes calldata d, uint256 pos) internal pure returns (bool ok, uint256 off, uint256 len) {
        (ok, off, len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!ok || len == 0) return (false, off, len);
        if (len <= MAX_ID_LENGTH) return (true, off, len);
        if (len > 4 * MAX_ID_LENGTH) return (false, off, len);
        // code points = bytes - continuations (10xxxxxx), 32 lanes a word: each lane's
        // continuation bit summed by one multiplication (at most 32 a word)
        uint256 cont = 0;
        assembly ("memory-safe") {
            let ones := div(not(0), 0xff)
            for { let i := 0 } lt(i, len) { i := add(i, 32) } {
                let w := calldataload(add(d.offset, add(off, i)))
                let c := and(and(w, not(shl(1, w))), mul(0x80, ones))
                if lt(sub(len, i), 32) { c := and(c, not(shr(shl(3, sub(len, i)), not(0)))) }
                cont := add(cont, shr(248, mul(shr(7, c), ones)))
            }
        }
        return (len - cont <= MAX_ID_LENGTH, off, len);
    }

    /// An unsigned integer in [lo, hi].
    function uintIn(bytes calldata d, uint256 pos, uint256 lo, uint256 hi)
        internal
        pure
        returns (bool ok, uint256 v)
    {
        (ok, v) = PorCbor.uintAt(d, pos);
        assembly ("memory-safe") {
            ok := and(ok, and(iszero(lt(v, lo)), iszero(gt(v, hi))))
        }
    }

    /// An array of Ids: (ok, count, first item). Ids of at most MAX_ID_LENGTH bytes (so
    /// of as many code points at most: every honest id) are read in one assembly loop,
    /// a text head and a non-zero length each; at the first longer one, `isId` reads the
    /// list from its start (the same answer: the items before it passed both ways).
    function idList(bytes calldata d, uint256 pos) internal pure returns (bool ok, uint256 n, uint256 first) {
        (ok, n, first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok) return (false, n, first);
        bool long;
        assembly ("memory-safe") {
            let p := add(d.offset, first)
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                let ib := byte(0, calldataload(p))
                let len := and(ib, 31)
                p := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(p))
                    p := add(p, width)
                }
                if or(iszero(eq(shr(5, ib), 3)), iszero(len)) {
                    ok := 0
                    break
                }
                if gt(len, MAX_ID_LENGTH) {
                    long := 1
                    break
                }
                p := add(p, len)
            }
        }
        if (!long) return (ok, n, first);
        uint256 p = first;
        for (uint256 i = 0; i < n; i++) {
            (bool idOk, uint256 off, uint256 len) = isId(d, p);
            if (!idOk) return (false, n, first);
            p = off + len;
        }
    }

    /// A step value map (SPEC §4.4 `{value}`): a map with no byte string anywhere in it;
    /// `next` is the offset after it when it is.
    function valueMap(bytes calldata d, uint256 pos) internal pure returns (bool ok, uint256 next) {
        (bool isMap,,) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!isMap) return (false, pos);
        assembly ("memory-safe") {
            ok := 1
            next := pos
            for { let left := 1 } left { left := sub(left, 1) } {
                let ib := byte(0, calldataload(add(d.offset, next)))
                let major := shr(5, ib)
                let arg := and(ib, 31)
                if eq(major, 2) {
                    ok := 0
                    break
                }
                next := add(next, 1)
                if gt(arg, 23) {
                    let width := shl(sub(arg, 24), 1)
                    arg := shr(sub(256, shl(3, width)), calldataload(add(d.offset, next)))
                    next := add(next, width)
                }
                if eq(major, 3) { next := add(next, arg) }
                if eq(major, 4) { left := add(left, arg) }
                if eq(major, 5) { left := add(left, shl(1, arg)) }
            }
        }
    }

    // --- por.ReasoningStep/1 and por.EvidenceItem/1 ------------------------------------

    /// ReasoningStep fields, canonical order.
    bytes internal constant STEP_KEYS =
        "\x06inputs\x06output\x06schema\x07step_id\x09step_type\x0bdescription\x0cevidence_ids\x0eprior_step_ids";
    uint256 internal constant STEP_INPUTS = 0;
    uint256 internal constant STEP_OUTPUT = 1;
    uint256 internal constant STEP_SCHEMA = 2;
    uint256 internal constant STEP_ID = 3;
    uint256 internal constant STEP_TYPE = 4;
    uint256 internal constant STEP_DESCRIPTION = 5;
    uint256 internal constant STEP_EVIDENCE = 6;
    uint256 internal constant STEP_PRIOR = 7;

    /// Most items a step record's arrays and maps hold together (SPEC §17.1).
    uint256 internal constant MAX_STEP_ITEMS = 1024;

    /// `leaf` is a valid por.ReasoningStep/1 (SPEC §4.4); the value offsets when it is.
    function reasoningStep(bytes calldata leaf) internal pure returns (bool ok, uint256[] memory at) {
        (bytes32 err, uint256 items, uint256[] memory top, bool hasBytes) = PorCborTop.checkTop(leaf);
        if (err != 0 || items > MAX_STEP_ITEMS) return (false, at);
        (ok, at) = topFields(leaf, top, STEP_KEYS);
        // inputs and output: step value maps (§4.4 `{value}`: no byte string in them). Every
        // other field must be text or a list of Ids, so a valid step holds no byte string
        // anywhere, and a leaf holding one anywhere is invalid either way: the same pass's
        // `hasBytes` decides.
        if (!ok || hasBytes) return (false, at);
        (bool inputs,,) = PorCbor.container(leaf, at[STEP_INPUTS], PorCbor.MAP);
        (bool output,,) = PorCbor.container(leaf, at[STEP_OUTPUT], PorCbor.MAP);
        (bool idOk,,) = isId(leaf, at[STEP_ID]);
        (bool described,,) = PorCbor.str(leaf, at[STEP_DESCRIPTION], PorCbor.TEXT);
        (bool evidence,,) = idList(leaf, at[STEP_EVIDENCE]);
        (bool prior,,) = idList(leaf, at[STEP_PRIOR]);
        ok = inputs && output && textIs(leaf, at[STEP_SCHEMA], "por.ReasoningStep/1") && idOk && described
            && stepType(leaf, at[STEP_TYPE]) && evidence && prior;
    }

    /// The step types encoded (head 0x60 | length, then the bytes), right-aligned.
    uint256 private constant T_EXTRACT = 0x6765787472616374;
    uint256 private constant T_CHECK = 0x65636865636b;
    uint256 private constant T_AGGREGATE = 0x69616767726567617465;
    uint256 private constant T_DEDUCE = 0x66646564756365;
    uint256 private constant T_MAP = 0x636d6170;

    /// The text at `pos` is a step type: its head and bytes as one word each (the
    /// canonical head of a text shorter than 24 bytes is 0x60 | length).
    function stepType(bytes calldata d, uint256 pos) private pure returns (bool ok) {
        assembly ("memory-safe") {
            let w := calldataload(add(d.offset, pos))
            ok := or(or(eq(shr(192, w), T_EXTRACT), eq(shr(208, w), T_CHECK)),
                or(or(eq(shr(176, w), T_AGGREGATE), eq(shr(200, w), T_DEDUCE)), eq(shr(224, w), T_MAP)))
        }
    }

    /// EvidenceItem fields, canonical order.
    bytes internal constant ITEM_KEYS =
        "\x06schema\x06source\x07content\x0bevidence_id\x0ccontent_type\x0econfidence_bps\x0erequirement_id\x0fprovenance_tier\x11retrieval_receipt";
    uint256 internal constant ITEM_EVIDENCE_ID = 3;
    uint256 internal constant ITEM_CONFIDENCE = 5;
    uint256 internal constant ITEM_REQUIREMENT = 6;
    uint256 internal constant ITEM_TIER = 7;
    /// Largest evidence body (SPEC §4.3).
    uint256 internal constant MAX_CONTENT = 4 * 1024 * 1024;

    /// `leaf` is a valid por.EvidenceItem/1 (SPEC §4.3); the value offsets when it is.
    function evidenceItem(bytes calldata leaf) internal pure returns (bool ok, uint256[] memory at) {
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(leaf);
        if (err != 0) return (false, at);
        (ok, at) = topFields(leaf, top, ITEM_KEYS);
        if (!ok) return (false, at);
        (bool content,, uint256 size) = PorCbor.str(leaf, at[2], PorCbor.BYTES);
        (bool eid,,) = isId(leaf, at[ITEM_EVIDENCE_ID]);
        (bool rid,,) = isId(leaf, at[ITEM_REQUIREMENT]);
        (bool bps,) = uintIn(leaf, at[ITEM_CONFIDENCE], 0, 10000);
        (bool tier,) = uintIn(leaf, at[ITEM_TIER], 0, 3);
        ok = textIs(leaf, at[0], "por.EvidenceItem/1") && content && size <= MAX_CONTENT && eid
            && rid && bps && tier && source(leaf, at[1]) && receipt(leaf, at[8])
            && (textIs(leaf, at[4], "application/json") || textIs(leaf, at[4], "text/html")
                || textIs(leaf, at[4], "text/plain") || textIs(leaf, at[4], "text/csv"));
    }

    function source(bytes calldata d, uint256 pos) private pure returns (bool) {
        (bool ok, uint256[] memory at) = fields(d, pos, "\x03uri\x08provider\x09source_id");
        if (!ok) return false;
        (bool uri,,) = PorCbor.str(d, at[0], PorCbor.TEXT);
        (bool provider,,) = PorCbor.str(d, at[1], PorCbor.TEXT);
        (bool id,,) = isId(d, at[2]);
        return uri && provider && id;
    }

    function receipt(bytes calldata d, uint256 pos) private pure returns (bool) {
        (bool ok, uint256[] memory at) =
            fields(d, pos, "\x06method\x0bstatus_code\x0cretrieved_at");
        if (!ok) return false;
        (bool status,) = uintIn(d, at[1], 100, 599);
        (bool time,) = uintIn(d, at[2], 0, MAX_COUNT);
        return status && time && (textIs(d, at[0], "GET") || textIs(d, at[0], "POST"));
    }

    // --- step ids (SPEC §4.4) -------------------------------------------------------------

    /// step_number: the number of `step_(?:[0-9]{4}|[1-9][0-9]{4,8})`, else 0 and false.
    function stepNumber(bytes calldata d, uint256 off, uint256 len) internal pure returns (bool, uint256) {
        if (len < 9 || len > 14 || bytes5(d[off:off + 5]) != "step_") return (false, 0);
        if (len > 9 && d[off + 5] == "0") return (false, 0);
        uint256 n = 0;
        for (uint256 i = off + 5; i < off + len; i++) {
            uint8 c = uint8(d[i]);
            if (c < 0x30 || c > 0x39) return (false, 0);
            n = n * 10 + (c - 0x30);
        }
        return (true, n);
    }

    /// step_id(n): "step_" and n with at least four digits.
    function stepId(uint256 n) internal pure returns (bytes memory out) {
        uint256 digits = 4;
        for (uint256 x = n / 10000; x > 0; x /= 10) digits++;
        out = new bytes(5 + digits);
        assembly ("memory-safe") {
            mstore(add(out, 32), "step_") // the rest of the word: zero, as `new` left it
            for { let p := add(add(out, 36), digits) } gt(p, add(out, 36)) { p := sub(p, 1) } {
                mstore8(p, add(48, mod(n, 10)))
                n := div(n, 10)
            }
        }
    }

    /// The text at `pos` is step_id(n).
    function isStepId(bytes calldata d, uint256 pos, uint256 n) internal pure returns (bool) {
        return PorCbor.isText(d, pos, stepId(n));
    }

    // --- id lists ---------------------------------------------------------------------

    /// Any id twice among `count` texts from `first` (R1): the hashes sorted, neighbours
    /// compared, O(k log k).
    function hasRepeat(bytes calldata leaf, uint256 first, uint256 count) internal pure returns (bool) {
        if (count < 2) return false;
        bytes32[] memory h = new bytes32[](count);
        uint256 p = first;
        for (uint256 i = 0; i < count; i++) {
            (, uint256 off, uint256 len) = PorCbor.str(leaf, p, PorCbor.TEXT);
            h[i] = keccak256(leaf[off:off + len]);
            p = off + len;
        }
        sort(h, 0, int256(count) - 1);
        for (uint256 i = 1; i < count; i++) {
            if (h[i] == h[i - 1]) return true;
        }
        return false;
    }

    /// Sorts a[lo..hi] in place (quicksort, recursing into the smaller side).
    function sort(bytes32[] memory a, int256 lo, int256 hi) internal pure {
        while (lo < hi) {
            bytes32 pivot = a[uint256(lo + (hi - lo) / 2)];
            int256 i = lo;
            int256 j = hi;
            while (i <= j) {
                while (a[uint256(i)] < pivot) i++;
                while (a[uint256(j)] > pivot) j--;
                if (i <= j) {
                    (a[uint256(i)], a[uint256(j)]) = (a[uint256(j)], a[uint256(i)]);
                    i++;
                    j--;
                }
            }
            if (j - lo < hi - i) {
                sort(a, lo, j);
                lo = i;
            } else {
                sort(a, i, hi);
                hi = j;
            }
        }
    }

    /// recompute_step's first checks: inputs.kind is text naming a computation of the
    /// step's type (step.unknown_kind), and inputs has exactly that computation's keys,
    /// requirement_id text (step.bad_inputs). `kind` is keccak256 of inputs.kind.
    function computation(bytes calldata leaf, uint256[] memory at)
        internal
        pure
        returns (bool known, bytes32 kind, bool inputsOk)
    {
        uint256 inputs = at[PorRecords.STEP_INPUTS];
        {
            uint256 k = PorCbor.get(leaf, inputs, "kind");
            if (k == 0) return (false, 0, false);
            (bool text, uint256 off, uint256 len) = PorCbor.str(leaf, k, PorCbor.TEXT);
            if (!text) return (false, 0, false);
            kind = keccak256(leaf[off:off + len]);
        }
        // the step type's text encoded (head 0x60 | length, then the bytes: `isText`'s
        // word), right-aligned, and its length with the head
        uint256 typeWord;
        uint256 typeLength;
        bool withRequirement = false;
        if (kind == PorIds.EXTRACT_CLAIMS) {
            (typeWord, typeLength) = (T_EXTRACT, 8);
        } else if (kind == PorIds.CHECK_REQUIREMENT) {
            (typeWord, typeLength, withRequirement) = (T_CHECK, 6, true);
        } else if (kind == PorIds.AGGREGATE) {
            (typeWord, typeLength, withRequirement) = (T_AGGREGATE, 10, true);
        } else if (kind == PorIds.CONTRADICTIONS) {
            (typeWord, typeLength) = (T_CHECK, 6);
        } else if (kind == PorIds.DEDUCE) {
            (typeWord, typeLength) = (T_DEDUCE, 7);
        } else if (kind == PorIds.MAP) {
            (typeWord, typeLength) = (T_MAP, 4);
        } else {
            return (false, kind, false);
        }
        if (!encodedIs(leaf, at[STEP_TYPE], typeWord, typeLength)) return (false, kind, false);
        return (true, kind, inputKeys(leaf, inputs, withRequirement));
    }

    /// The `length` bytes at `pos` are `word` (right-aligned): an encoded short text.
    function encodedIs(bytes calldata d, uint256 pos, uint256 word, uint256 length) private pure returns (bool yes) {
        assembly ("memory-safe") {
            yes := eq(shr(sub(256, shl(3, length)), calldataload(add(d.offset, pos))), word)
        }
    }

    /// The inputs map at `inputs` has exactly `kind` (and a text `requirement_id`).
    function inputKeys(bytes calldata leaf, uint256 inputs, bool withRequirement) private pure returns (bool) {
        (, uint256 count,) = PorCbor.container(leaf, inputs, PorCbor.MAP);
        if (!withRequirement) return count == 1;
        uint256 r = PorCbor.get(leaf, inputs, "requirement_id");
        if (r == 0 || count != 2) return false;
        (bool text,,) = PorCbor.str(leaf, r, PorCbor.TEXT);
        return text;
    }
}
