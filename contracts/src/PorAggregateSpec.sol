// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateEntries as E} from "./PorAggregateEntries.sol";
import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorCbor} from "./PorCbor.sol";
import {PorAggregateNumber} from "./PorAggregateNumber.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorAggregateSpec: the PromptSpec fields an `aggregate` step reads (SPEC §4.2,
/// §12.5.4, §14.8; split from `PorAggregateRead`), read and validated on chain as
/// `por.auditor.steps.recompute_step` reads them (false: `one_step.invalid_record`).
/// @notice Each requirement map is walked once: its keys in §2 order put requirement_id
/// before source_targets, expected_fields and selection_policy, so R's are read in the
/// same walk (each of source_targets and expected_fields by its own check, which gives its
/// end), the other requirements' values skipped.
library PorAggregateSpec {
    /// The PromptSpec's keys read, as their encodings' values (head first), in §2 order
    /// (`keys`; `PorAggregateEntries.seek`).
    uint256 private constant CONFLICT_POLICY = 0x6f636f6e666c6963745f706f6c696379; // "conflict_policy"
    uint256 private constant DATA_REQUIREMENTS = 0x71646174615f726571756972656d656e7473; // "data_requirements"
    uint256 private constant PREDICTION_SEMANTICS = 0x7470726564696374696f6e5f73656d616e74696373; // "prediction_semantics"

    /// A requirement's keys as key words (`PorCborKeys.wordAt`: bytes left-aligned, length
    /// in the low byte).
    uint256 private constant REQUIREMENT_ID = uint256(bytes32("requirement_id")) | 14;
    uint256 private constant SOURCE_TARGETS = uint256(bytes32("source_targets")) | 14;
    uint256 private constant EXPECTED_FIELDS = uint256(bytes32("expected_fields")) | 15;
    uint256 private constant SELECTION_POLICY = uint256(bytes32("selection_policy")) | 16;
    uint256 private constant SOURCE_ID = uint256(bytes32("source_id")) | 9;
    /// selection_policy's keys as their encodings' values (head first), in §2 order (`policy`).
    uint256 private constant P_QUORUM = 0x6671756f72756d; // "quorum"
    uint256 private constant P_STRATEGY = 0x687374726174656779; // "strategy"
    uint256 private constant P_MIN_SOURCES = 0x6b6d696e5f736f7572636573; // "min_sources"
    uint256 private constant P_TIE_BREAKER = 0x6b7469655f627265616b6572; // "tie_breaker"
    uint256 private constant KEY = uint256(bytes32("key")) | 3;
    uint256 private constant KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant METRIC = uint256(bytes32("metric")) | 6;
    uint256 private constant SOURCES_REQUIRED = uint256(bytes32("sources_required")) | 16;
    uint256 private constant NUMERIC_TOLERANCE = uint256(bytes32("numeric_tolerance")) | 17;

    /// The PromptSpec leaf at `leaf` (its bytes passed the §2 reader: the caller runs
    /// `PorCborTop.checkTop` on them; `top`: where its top-level items start), read for
    /// requirement `rid` (the step's inputs.requirement_id text item): ok false when a field
    /// read is malformed; found false when no requirement has the id (`step.bad_inputs`).
    function spec(bytes calldata d, uint256 leaf, uint256[] memory top, uint256 rid)
        internal
        pure
        returns (bool ok, bool found, R.Spec memory s)
    {
        uint256[6] memory v = keys(d, leaf, top); // conflict_policy, data_requirements, prediction_semantics
        if (!semantics(d, v[0], v[2], s)) return (false, false, s);
        (ok, found) = requirements(d, v[1], rid, s);
    }

    /// The value offsets of conflict_policy, data_requirements and prediction_semantics in
    /// the PromptSpec's top-level map at `leaf` (0: absent; all 0 for another item), as
    /// `PorCborKeys.pickTop` reads them: from `top` when the §2 pass kept where its items
    /// start (keys at even indexes, offsets from `leaf`; no value skipped), else by one
    /// walk. Either way each key is compared with the next key sought only (§2: keys in
    /// strictly ascending order of their encodings; `PorAggregateEntries.seek`).
    function keys(bytes calldata d, uint256 leaf, uint256[] memory top) private pure returns (uint256[6] memory v) {
        uint256[6] memory want = [CONFLICT_POLICY, DATA_REQUIREMENTS, PREDICTION_SEMANTICS, 0, 0, 0];
        if (top.length == 0) {
            (bool isMap, uint256 n, uint256 p) = PorCbor.container(d, leaf, PorCbor.MAP);
            if (isMap) (v,,) = E.seek(d, p, n, want, 3);
            return v;
        }
        assembly ("memory-safe") {
            let j := 0
            let w := mload(want)
            for { let i := 0 } and(lt(i, mload(top)), lt(j, 3)) { i := add(i, 2) } {
                let k := calldataload(add(d.offset, add(leaf, mload(add(top, shl(5, add(i, 1)))))))
                let len := sub(shr(248, k), 0x60)
                if lt(len, 24) { k := shr(sub(248, shl(3, len)), k) }
                for {} and(lt(j, 3), gt(k, w)) {} {
                    j := add(j, 1)
                    w := mload(add(want, shl(5, j)))
                }
                if and(lt(j, 3), eq(k, w)) { mstore(add(v, shl(5, j)), add(leaf, mload(add(top, shl(5, add(i, 2)))))) }
            }
        }
    }

    /// data_requirements at `dr`: 1..8 maps, requirement ids Ids and unique; R's read.
    function requirements(bytes calldata d, uint256 dr, uint256 rid, R.Spec memory s)
        private
        pure
        returns (bool ok, bool found)
    {
        (bool isArray, uint256 n, uint256 r) = dr == 0 ? (false, 0, 0) : PorCbor.container(d, dr, PorCbor.ARRAY);
        if (!isArray || n == 0 || n > R.MAX_REQUIREMENTS) return (false, false);
        bytes32[] memory ids = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            bool mine;
            (ok, mine, ids[i], r) = requirement(d, r, found ? 0 : rid, s);
            if (!ok) return (false, false);
            found = found || mine;
        }
        ok = !R.repeats(ids);
    }

    /// The requirement map at `r`, walked once: (its requirement_id an Id, and when it is
    /// `rid` (0: R already read), R's selection_policy, source_targets and expected_fields
    /// well formed; whether it is R; keccak256 of its id; the offset after the map).
    function requirement(bytes calldata d, uint256 r, uint256 rid, R.Spec memory s)
        private
        pure
        returns (bool ok, bool mine, bytes32 idHash, uint256 p)
    {
        uint256 n;
        (ok, n, p) = PorCbor.container(d, r, PorCbor.MAP);
        if (!ok) return (false, false, 0, 0);
        uint256 seen; // R's selection_policy, source_targets, expected_fields (bits 0-2), the id (3)
        for (; n > 0; n--) {
            (uint256 w, uint256 v) = entry(d, p);
            p = 0; // the offset after the value when its check gave it
            if (w == REQUIREMENT_ID) {
                (ok, idHash) = idOf(d, v);
                mine = ok && rid != 0 && PorText.sameText(d, v, rid);
                seen |= 8;
            } else if (mine) {
                uint256 bit;
                (ok, p, bit) = ofR(d, w, v, s);
                seen |= bit;
            }
            if (!ok) return (false, false, 0, 0);
            if (p == 0) p = PorCbor.skip(d, v);
        }
        ok = seen == (mine ? 15 : 8);
    }

    /// The requirement_id at `v` an Id: (ok, keccak256 of its bytes).
    function idOf(bytes calldata d, uint256 v) private pure returns (bool ok, bytes32 h) {
        (bool idOk, uint256 off, uint256 len) = PorRecords.isId(d, v);
        return idOk ? (true, R.hashOf(d, off, len)) : (false, bytes32(0));
    }

    /// R's value `v` of the key whose word is `w`: (well formed, the offset after it when
    /// known (else 0), its bit of `requirement`'s `seen`).
    function ofR(bytes calldata d, uint256 w, uint256 v, R.Spec memory s)
        private
        pure
        returns (bool ok, uint256 next, uint256 bit)
    {
        if (w == SELECTION_POLICY) return (policy(d, v, s), 0, 1);
        if (w == SOURCE_TARGETS) {
            (ok, next) = targets(d, v, s);
            return (ok, next, 2);
        }
        if (w == EXPECTED_FIELDS) {
            (ok, next) = fields(d, v, s);
            return (ok, next, 4);
        }
        return (true, 0, 0);
    }

    /// The key at `p` (a text, §2) and where its value starts: (its key word when under 24
    /// bytes, else 0; the value's offset).
    function entry(bytes calldata d, uint256 p) private pure returns (uint256 w, uint256 v) {
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(d.offset, p)))
            let len := and(ib, 31)
            if lt(len, 24) {
                w := or(and(calldataload(add(d.offset, add(p, 1))), not(shr(shl(3, len), not(0)))), len)
                v := add(add(p, 1), len)
            }
        }
        if (v == 0) v = PorCbor.skip(d, p);
    }

    /// conflict_policy.numeric_tolerance (`cp`: the policy), prediction_semantics.metric
    /// and sources_required (`ps`: the semantics; one walk).
    function semantics(bytes calldata d, uint256 cp, uint256 ps, R.Spec memory s) private pure returns (bool) {
        uint256 tolerance;
        if (cp != 0) (tolerance,,) = E.find(d, cp, NUMERIC_TOLERANCE, E.NONE);
        bool ok;
        (ok, s.tolerance) = PorAggregateNumber.text(d, tolerance);
        if (!ok || s.tolerance & 1 != 0 || ps == 0) return false; // a canonical decimal >= 0
        (uint256 metric, uint256 required,) = E.find(d, ps, METRIC, SOURCES_REQUIRED);
        (bool idOk, uint256 off, uint256 len) = metric == 0 ? (false, 0, 0) : PorRecords.isId(d, metric);
        if (!idOk) return false;
        s.metric = R.keyWord(d, off, len);
        if (required != 0) {
            (bool inRange,) = PorRecords.uintIn(d, required, 1, 64);
            if (!inRange) return false;
            s.votes = true;
        }
        return true;
    }

    /// R's selection_policy (at `at`): strategy, min_sources, quorum, tie_breaker.
    function policy(bytes calldata d, uint256 at, R.Spec memory s) private pure returns (bool) {
        // quorum, strategy, min_sources, tie_breaker (§2 order; 0s for a non-map): one walk
        uint256[6] memory sel;
        (bool isMap, uint256 n, uint256 p) = PorCbor.container(d, at, PorCbor.MAP);
        if (isMap) (sel,,) = E.seek(d, p, n, [P_QUORUM, P_STRATEGY, P_MIN_SOURCES, P_TIE_BREAKER, 0, 0], 4);
        s.strategyPos = sel[1];
        if (s.strategyPos == 0) return false;
        if (PorCbor.isText(d, s.strategyPos, "single_best")) {
            s.strategy = R.SINGLE_BEST;
        } else if (PorCbor.isText(d, s.strategyPos, "multi_source_quorum")) {
            s.strategy = R.QUORUM;
        } else if (PorCbor.isText(d, s.strategyPos, "fallback_chain")) {
            s.strategy = R.FALLBACK_CHAIN;
        } else {
            return false;
        }
        at = sel[2];
        bool ok;
        (ok, s.minSources) = at == 0 ? (false, 0) : PorRecords.uintIn(d, at, 1, 64);
        if (!ok) return false;
        at = sel[0];
        (ok, s.quorum) = at == 0 ? (false, 0) : PorRecords.uintIn(d, at, 1, 64);
        if (!ok || (s.strategy == R.QUORUM && s.quorum > s.minSources)) return false;
        at = sel[3];
        s.highest = at != 0 && PorCbor.isText(d, at, "highest_provenance");
        return at != 0 && (s.highest || PorCbor.isText(d, at, "source_order"));
    }

    /// source_targets: 1..10 maps, each source_id an Id, none twice: (ok, the offset after
    /// the array).
    function targets(bytes calldata d, uint256 pos, R.Spec memory s) private pure returns (bool, uint256) {
        (bool isArray, uint256 n, uint256 t) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray || n == 0 || n > R.MAX_TARGETS) return (false, 0);
        bytes32[] memory ids = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            uint256 id;
            (id,, t) = E.find(d, t, SOURCE_ID, E.NONE); // 0 for a non-map
            (bool idOk, uint256 off, uint256 len) = id == 0 ? (false, 0, 0) : PorRecords.isId(d, id);
            if (!idOk) return (false, 0);
            ids[i] = s.targets[i] = R.hashOf(d, off, len);
        }
        s.nTargets = n;
        return (!R.repeats(ids), t);
    }

    /// expected_fields: 0..8 maps, each key an Id and kind one of four, keys unique; none
    /// declared: the fallback fields of §12.1 (`result`, `value`, `price`, `timestamp`):
    /// (ok, the offset after the array).
    function fields(bytes calldata d, uint256 pos, R.Spec memory s) private pure returns (bool, uint256) {
        (bool isArray, uint256 n, uint256 f) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray || n > R.MAX_FIELDS) return (false, 0);
        if (n == 0) {
            s.nFields = 4;
            (s.keyWord[0], s.kind[0]) = (bytes32("result") | bytes32(uint256(6)), R.BOOLEAN);
            (s.keyWord[1], s.kind[1]) = (bytes32("value") | bytes32(uint256(5)), R.NUMERIC);
            (s.keyWord[2], s.kind[2]) = (bytes32("price") | bytes32(uint256(5)), R.NUMERIC);
            (s.keyWord[3], s.kind[3]) = (bytes32("timestamp") | bytes32(uint256(9)), R.TIMESTAMP);
            return (true, f);
        }
        bytes32[] memory keys = new bytes32[](n);
        for (uint256 i = 0; i < n; i++) {
            bool ok;
            (ok, f) = fieldSpec(d, f, s, i);
            if (!ok) return (false, 0);
            keys[i] = s.keyWord[i];
        }
        s.nFields = n;
        return (!R.repeats(keys), f);
    }

    /// The FieldSpec at `f` (field i): key an Id, kind one of four; the offset after it.
    function fieldSpec(bytes calldata d, uint256 f, R.Spec memory s, uint256 i) private pure returns (bool, uint256) {
        (uint256 key, uint256 kindAt, uint256 next) = E.find(d, f, KEY, KIND); // 0s for a non-map
        (bool ok, uint256 off, uint256 len) = key == 0 ? (false, 0, 0) : PorRecords.isId(d, key);
        if (!ok) return (false, 0);
        (s.keyPos[i], s.keyWord[i]) = (key, R.keyWord(d, off, len));
        (ok, s.kind[i]) = R.kindOf(d, kindAt);
        return (ok, next);
    }
}
