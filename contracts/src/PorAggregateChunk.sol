// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateEntries as E} from "./PorAggregateEntries.sol";
import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys as K} from "./PorCborKeys.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorAggregateChunk: the running state of the check chunk an `aggregate` step
/// cites, read and validated on chain as `por.auditor.chunk_state.read_state` reads it
/// (SPEC §12.5.3, §12.5.4); false: the step cannot be executed (`one_step.unexecutable`).
library PorAggregateChunk {
    // --- the cited check chunk's running state (SPEC §12.5.3, `chunk_state.read_state`) ---

    /// A source entry (step_id, source_id, evidence_id: texts), a claim reference (value,
    /// claim_id, evidence_id: texts but the value), a numeric and a boolean group: exactly
    /// these keys.
    /// (`PorCborKeys.exact`: each key's head and bytes as one word, its length in the low byte)
    uint256 private constant STEP_ID = 0x67737465705f6964000000000000000000000000000000000000000000000008;
    uint256 private constant SOURCE_ID = 0x69736f757263655f69640000000000000000000000000000000000000000000a;
    uint256 private constant EVIDENCE_ID = 0x6b65766964656e63655f6964000000000000000000000000000000000000000c;
    uint256 private constant VALUE = 0x6576616c75650000000000000000000000000000000000000000000000000006;
    uint256 private constant KEY = 0x636b657900000000000000000000000000000000000000000000000000000004;
    uint256 private constant MAX = 0x636d617800000000000000000000000000000000000000000000000000000004;
    uint256 private constant MIN = 0x636d696e00000000000000000000000000000000000000000000000000000004;
    uint256 private constant KIND = 0x646b696e64000000000000000000000000000000000000000000000000000005;
    uint256 private constant FIRST = 0x6566697273740000000000000000000000000000000000000000000000000006;
    uint256 private constant OTHER = 0x656f746865720000000000000000000000000000000000000000000000000006;
    uint256 private constant CLAIM_COUNT = 0x6b636c61696d5f636f756e74000000000000000000000000000000000000000c;
    uint256 private constant CLAIM_ID = 0x68636c61696d5f69640000000000000000000000000000000000000000000009;
    bytes internal constant NUMERIC_KEYS = "\x03key\x03max\x03min\x04kind\x0bclaim_count";
    bytes internal constant BOOLEAN_KEYS = "\x03key\x04kind\x05first\x0bclaim_count";
    bytes internal constant BOOLEAN_OTHER_KEYS = "\x03key\x04kind\x05first\x05other\x0bclaim_count";

    /// The output keys the chunk's state is read from, in §2 order, in three runs of one
    /// walk (`PorAggregateEntries.seek`: each key's encoding's value, head first): up to
    /// `groups`, up to `sources` (each of the two walked once, by its own check, which
    /// gives its end), then the rest.
    uint256 private constant O_CHUNK = 0x656368756e6b; // "chunk"
    uint256 private constant O_GROUPS = 0x6667726f757073; // "groups"
    uint256 private constant O_COVERED = 0x67636f7665726564; // "covered"
    uint256 private constant O_SOURCES = 0x67736f7572636573; // "sources"
    uint256 private constant O_LAST_LEAF = 0x696c6173745f6c656166; // "last_leaf"
    uint256 private constant O_ITEM_COUNT = 0x6a6974656d5f636f756e74; // "item_count"
    uint256 private constant O_CLAIM_COUNT = 0x6b636c61696d5f636f756e74; // "claim_count"
    uint256 private constant O_PROVENANCE_OK = 0x6d70726f76656e616e63655f6f6b; // "provenance_ok"
    uint256 private constant O_ADMITTED_COUNT = 0x6e61646d69747465645f636f756e74; // "admitted_count"
    uint256 private constant O_REQUIREMENT_ID = 0x6e726571756972656d656e745f6964; // "requirement_id"

    /// The check chunk at leaf offset `base` (value offsets `at`) is R's (`rid`), its state
    /// is well formed, and its `sources` name exactly the cited items `its`, in order.
    function state(bytes calldata d, uint256 base, uint256[] memory at, uint256 rid, R.Item[] memory its)
        internal
        pure
        returns (bool ok, R.Chunk memory c)
    {
        (bool isMap, uint256 left, uint256 p) = PorCbor.container(d, base + at[PorRecords.STEP_OUTPUT], PorCbor.MAP);
        if (!isMap) return (false, c);
        // o: the values of chunk, groups, covered, sources, then the tail's (0: absent)
        uint256[] memory o = new uint256[](10);
        uint256[6] memory run;
        (run, p, left) = E.seek(d, p, left, [O_CHUNK, O_GROUPS, 0, 0, 0, 0], 2);
        (o[0], o[1]) = (run[0], run[1]);
        if (o[0] == 0 || o[1] == 0) return (false, c);
        (ok, p) = groups(d, o[1]);
        if (!ok) return (false, c);
        (run, p, left) = E.seek(d, p, left, [O_COVERED, O_SOURCES, 0, 0, 0, 0], 2);
        (o[2], o[3]) = (run[0], run[1]);
        if (o[2] == 0 || o[3] == 0) return (false, c);
        (ok, p) = sources(d, o[3], its);
        if (!ok) return (false, c);
        (run,,) = E.seek(
            d, p, left, [O_LAST_LEAF, O_ITEM_COUNT, O_CLAIM_COUNT, O_PROVENANCE_OK, O_ADMITTED_COUNT, O_REQUIREMENT_ID], 6
        );
        for (uint256 i = 0; i < 6; i++) o[4 + i] = run[i];
        if (!ofRequirement(d, base + at[PorRecords.STEP_INPUTS], o[9], rid) || !counts(d, o, c)) return (false, c);
        c.sources = o[3];
        return (true, c);
    }

    /// inputs.requirement_id and output.requirement_id (at `orid`) are texts, R's id.
    function ofRequirement(bytes calldata d, uint256 inputs, uint256 orid, uint256 rid) private pure returns (bool) {
        uint256 own = E.requirementId(d, inputs);
        return R.isText(d, own) && PorText.sameText(d, own, rid) && R.isText(d, orid)
            && PorText.sameText(d, orid, rid);
    }

    /// chunk, the counts, covered and provenance_ok consistent, last_leaf when present
    /// (`o`: the output's values, `OUT_KEYS` order).
    function counts(bytes calldata d, uint256[] memory o, R.Chunk memory c) private pure returns (bool) {
        c.itemCount = o[5];
        uint256 admitted = o[8];
        c.covered = o[2];
        c.provenanceOk = o[7];
        if (!count(d, o[0], 0) || !count(d, o[6], 0)
                || !count(d, c.itemCount, 0) || !count(d, admitted, 0) || !isBool(d, c.covered)
                || !isBool(d, c.provenanceOk)) {
            return false;
        }
        bool covered = uint8(d[c.covered]) == 0xf5;
        if (covered != (uint8(d[admitted]) != 0) || (covered && uint8(d[c.provenanceOk]) != 0xf5)) return false;
        c.lastLeaf = o[4];
        return c.lastLeaf == 0 || count(d, c.lastLeaf, 0);
    }

    /// An integer in min..2^63-1 at `pos` (0: absent).
    function count(bytes calldata d, uint256 pos, uint256 min) private pure returns (bool ok) {
        if (pos == 0) return false;
        assembly ("memory-safe") {
            // `PorRecords.uintIn(d, pos, min, MAX_COUNT)`: its head (`PorCbor.head`) read here
            let q := add(d.offset, pos)
            let hb := byte(0, calldataload(q))
            let a := and(hb, 31)
            if gt(a, 23) {
                let width := shl(sub(a, 24), 1)
                a := shr(sub(256, shl(3, width)), calldataload(add(q, 1)))
            }
            ok := and(lt(hb, 0x20), and(iszero(lt(a, min)), iszero(gt(a, 0x7fffffffffffffff))))
        }
    }

    function isBool(bytes calldata d, uint256 pos) private pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,) = PorCbor.boolAt(d, pos);
    }

    /// The sources: entries of three texts, no source_id twice, and (named == cited) the
    /// k-th names the k-th cited item's evidence_id, source_id and extract step; the offset
    /// after the array.
    function sources(bytes calldata d, uint256 pos, R.Item[] memory its) private pure returns (bool, uint256) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray || n != its.length) return (false, 0);
        bytes32[] memory ids = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            (bool ok, uint256[5] memory e, uint256 next) = K.exact(d, p, [STEP_ID, SOURCE_ID, EVIDENCE_ID, 0, 0], 3, 7);
            if (!ok || !names(d, e, its[i])) return (false, 0);
            ids[i] = its[i].srcHash;
            p = next;
        }
        return (!R.repeats(ids), p);
    }

    /// The source entry's values `e` name the cited item `it`: its extract step, source_id
    /// and evidence_id.
    function names(bytes calldata d, uint256[5] memory e, R.Item memory it) private pure returns (bool) {
        return PorText.sameText(d, e[0], it.stepId) && PorText.sameText(d, e[1], it.src) && PorText.sameText(d, e[2], it.eid);
    }

    /// The groups: each well formed (`chunk_state._group`), no (kind, key) twice; the offset
    /// after the array.
    function groups(bytes calldata d, uint256 pos) private pure returns (bool, uint256) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return (false, 0);
        bytes32[] memory named = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            bool ok;
            (ok, named[i], p) = group(d, p);
            if (!ok) return (false, 0);
        }
        return (!R.repeats(named), p);
    }

    /// One group: (well formed, keccak256 of its kind's and key's hashes, the offset after
    /// it: the end of the key walk that matched). Its keys are exactly NUMERIC_KEYS (kind
    /// `numeric`), BOOLEAN_OTHER_KEYS or BOOLEAN_KEYS (kind `boolean`), key and kind texts,
    /// claim_count at least 1 (`PorCborKeys.exact`).
    function group(bytes calldata d, uint256 g) private pure returns (bool, bytes32, uint256) {
        (bool ok, uint256[5] memory e, uint256 next) = K.exact(d, g, [KEY, MAX, MIN, KIND, CLAIM_COUNT], 5, 9);
        if (ok && PorCbor.isText(d, e[3], "numeric")) {
            ok = count(d, e[4], 1) && ref(d, e[1], R.NUMERIC) && ref(d, e[2], R.NUMERIC);
            return (ok, named(d, 1, e[0]), next);
        }
        bool other = true;
        (ok, e, next) = K.exact(d, g, [KEY, KIND, FIRST, OTHER, CLAIM_COUNT], 5, 3);
        if (!ok) (ok, e, other) = (true, e, false);
        if (!other) (ok, e, next) = K.exact(d, g, [KEY, KIND, FIRST, CLAIM_COUNT, 0], 4, 3);
        if (!ok || !PorCbor.isText(d, e[1], "boolean") || !count(d, e[other ? 4 : 3], 1) || !ref(d, e[2], R.BOOLEAN)) {
            return (false, 0, 0);
        }
        if (!other) return (true, named(d, 0, e[0]), next);
        // other: a reference whose value is not first's.
        return (ref(d, e[3], R.BOOLEAN) && d[refValue(d, e[3])] != d[refValue(d, e[2])], named(d, 0, e[0]), next);
    }

    /// A group's (kind, key) as one hash: its kind (`numeric`: 1, `boolean`: 0; the only
    /// two texts `group` accepts) and its key's hash, hashed in scratch space.
    function named(bytes calldata d, uint256 numeric, uint256 key) private pure returns (bytes32 h) {
        bytes32 k = R.textHash(d, key);
        assembly ("memory-safe") {
            mstore(0, numeric)
            mstore(32, k)
            h := keccak256(0, 64)
        }
    }

    /// A claim reference at `pos`: exactly value, claim_id, evidence_id, texts and a value
    /// of the group's kind.
    function ref(bytes calldata d, uint256 pos, uint256 kind) private pure returns (bool) {
        (bool ok, uint256[5] memory at,) = K.exact(d, pos, [VALUE, CLAIM_ID, EVIDENCE_ID, 0, 0], 3, 6);
        return ok && R.value(d, at[0], kind);
    }

    /// The value offset of the claim reference at `pos` (its first key, `value`).
    function refValue(bytes calldata, uint256 pos) private pure returns (uint256) {
        return pos + 7; // map head (1) + "value" text (6)
    }
}
