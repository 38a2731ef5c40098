// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorDeduceRead as R} from "./PorDeduceRead.sol";
import {PorDeduceSpec as S} from "./PorDeduceSpec.sol";
import {PorDeduceWrite as W} from "./PorDeduceWrite.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorDeduceStep: the `deduce` step re-executed on chain (SPEC §12.4.1, §12.5.6,
/// §14.8), as `por.auditor.deduce` computes it.
/// @notice The step cites the r aggregates (requirement order) then the contradictions
/// step; the aggregates' and conflicts' shapes are read as `step_io` reads them (any
/// fault: step.citation_mismatch / step.bad_prior_output off chain, won
/// one_step.unexecutable). The recomputed `output` is encoded canonically in memory (its
/// keys are a fixed set, so their §2 order is static) and compared with the committed
/// bytes; `evidence_ids` must be the recomputed `source_summary` (else unexecutable).
library PorDeduceStep {
    bytes32 internal constant KIND = PorIds.DEDUCE;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant MATCH = PorIds.MATCH;
    bytes32 internal constant MISMATCH = PorIds.MISMATCH;
    bytes32 private constant SELECTED = keccak256("selected");
    bytes32 private constant MISSING = keccak256("missing");

    /// A cited aggregate: its output's table (`PorDeduceRead.shaped`), its evidence ids
    /// (hashes and item offsets) and which of them the step read.
    struct Agg {
        uint256[] table;
        bool covered;
        bool provenanceOk;
        bytes32[] ids;
        uint256[] idPos;
        bool[] read;
    }

    /// What deduce found (por.auditor.deduce.Deduced).
    struct Out {
        bool bad; // a read of a cited step failed: unexecutable
        bool insufficient;
        uint8 eventCode; // 0 none, 1 false, 2 true
        bool hasNumeric;
        bytes numeric;
        bool hasStamp;
        uint256 stamp;
        bool conflict;
        bool fellBack;
        bytes status; // metric_status, an encoded text item
    }

    struct Ctx {
        S.Sem s;
        Agg[] aggs;
        bytes32[] cKinds;
        bytes32[] cKeys;
        uint256[] owner; // per needed field: requirement index + 1, 0 when absent
        uint256[] raw; // per needed field: its row in the owner's table, 0 when absent or wrong_kind
        bytes32[] status; // per needed field: status hash
    }

    /// The re-execution on `PorDeduceRead.flatten`'s offsets and tables, the PromptSpec leaf
    /// a §2 document: (won, check id).
    function run(bytes calldata d, uint256[] memory flat, uint256[][] memory tables) internal pure returns (bool, bytes32) {
        (bool ok, S.Sem memory s) = S.read(d, flat[1], flat[2]);
        if (!ok) return (true, INVALID_RECORD);
        Ctx memory c;
        c.s = s;
        if (!priors(d, flat, tables, c)) return (true, UNEXECUTABLE);
        return compareStep(d, flat, c);
    }

    /// The committed step (its leaf at `flat[0]`, its value offsets from `flat[4]`) against
    /// the recomputed one.
    function compareStep(bytes calldata d, uint256[] memory flat, Ctx memory c) private pure returns (bool, bytes32) {
        Out memory out = deduce(d, c);
        uint256 base = flat[0];
        uint256 list = base + flat[4 + PorRecords.STEP_EVIDENCE];
        uint256 end = summaryAt(d, list, c);
        if (out.bad || end == 0) return (true, UNEXECUTABLE);
        // insufficient_evidence decided once, for the description and the output
        out.insufficient = insufficient(c, out);
        bool same = description(d, base + flat[4 + PorRecords.STEP_DESCRIPTION], c, !out.insufficient)
            && R.sameBytes(d, base + flat[4 + PorRecords.STEP_OUTPUT], output(d, c, out, list, end));
        return same ? (false, MATCH) : (true, MISMATCH);
    }

    // --- the cited steps ----------------------------------------------------------------

    /// r aggregates, one per requirement in order, then one contradictions step, each of
    /// the shape step_io reads.
    function priors(bytes calldata d, uint256[] memory flat, uint256[][] memory tables, Ctx memory c)
        private
        pure
        returns (bool)
    {
        uint256 r = c.s.reqIdPos.length;
        if (flat[3] != r + 1) return false;
        c.aggs = new Agg[](r);
        for (uint256 i = 0; i < r; i++) {
            uint256 o = 4 + R.STEP_FIELDS + i * R.PRIOR;
            if (flat[o + 1] != uint256(PorIds.AGGREGATE)) return false;
            if (!aggregate(d, flat, o, c, i)) return false;
            Agg memory a = c.aggs[i];
            (a.table, a.covered, a.provenanceOk) = (tables[i], tables[i][0] == 1, tables[i][1] == 1);
        }
        if (flat[4 + R.STEP_FIELDS + r * R.PRIOR + 1] != uint256(PorIds.CONTRADICTIONS)) return false;
        uint256[] memory t = tables[r];
        uint256 n = t.length / 2;
        (c.cKinds, c.cKeys) = (new bytes32[](n), new bytes32[](n));
        for (uint256 i = 0; i < n; i++) (c.cKinds[i], c.cKeys[i]) = (bytes32(t[2 * i]), bytes32(t[2 * i + 1]));
        return true;
    }

    /// Prior step i, an aggregate (its leaf at `flat[o]`, its value offsets from
    /// `flat[o + 2]`): its requirement_id is requirement i's; its evidence ids.
    function aggregate(bytes calldata d, uint256[] memory flat, uint256 o, Ctx memory c, uint256 i)
        private
        pure
        returns (bool)
    {
        uint256 base = flat[o];
        uint256 rid = S.get(d, base + flat[o + 2 + PorRecords.STEP_INPUTS], uint256(bytes32("requirement_id")) | 14);
        // the item at `rid` is requirement i's id item, byte for byte (`sameAt`: no copies;
        // `rid` 0 reads the proof's head, a map's, never a text's)
        if (R.sameAt(d, rid, c.s.reqIdPos[i]) == 0) return false;
        Agg memory a = c.aggs[i];
        (, uint256 n, uint256 q) = PorCbor.container(d, base + flat[o + 2 + PorRecords.STEP_EVIDENCE], PorCbor.ARRAY);
        a.ids = new bytes32[](n);
        a.idPos = new uint256[](n);
        a.read = new bool[](n);
        for (uint256 j = 0; j < n; j++) {
            (a.idPos[j], a.ids[j]) = (q, S.textHash(d, q));
            q = R.itemEnd(d, q);
        }
        return true;
    }

    // --- deduce (por.auditor.deduce.deduce) ----------------------------------------------

    function deduce(bytes calldata d, Ctx memory c) private pure returns (Out memory out) {
        S.Sem memory s = c.s;
        uint256 n = s.keys.length;
        (c.owner, c.raw, c.status) = (new uint256[](n), new uint256[](n), new bytes32[](n));
        for (uint256 i = 0; i < n; i++) find(c, i);
        out.status = statusItem(d, c, 0);
        bool uncovered = false;
        for (uint256 i = 0; i < c.aggs.length; i++) uncovered = uncovered || !c.aggs[i].covered;
        // 2. preconditions
        for (uint256 i = 1; i < n; i++) {
            if (s.roles[i] != 4) continue;
            if (c.status[i] != SELECTED) {
                out.insufficient = true;
                return out;
            }
            read(d, c, out, i);
            uint256 v = col(c, i, R.F_VALUE);
            if (!R.isText(d, v)) {
                out.bad = true;
                return out;
            }
            if (keccak256(R.item(d, v)) != keccak256(R.item(d, s.equalsPos[i]))) {
                out.status = "\x72precondition_unmet";
                if (s.otherwiseNo[i] && !uncovered) out.eventCode = 1;
                else out.insufficient = true;
                return out;
            }
        }
        uint256 owner = c.owner[0];
        if (owner != 0 && s.k == 0 && !s.chain[owner - 1] && inConflicts(c, s.kinds[0], s.keys[0])) {
            out.conflict = true;
        }
        if (c.raw[0] == 0) {
            out.insufficient = true;
            return out;
        }
        if (s.k != 0) return votes(d, c, out);
        if (c.status[0] == MISSING && s.absentMeansNo && c.aggs[owner - 1].covered) {
            out.eventCode = 1;
            Agg memory a = c.aggs[owner - 1];
            for (uint256 j = 0; j < a.ids.length; j++) mark(a, a.ids[j], out);
            return out;
        }
        for (uint256 i = 0; i < n; i++) {
            if (c.status[i] != SELECTED) {
                out.insufficient = true;
                return out;
            }
        }
        return computed(d, c, out);
    }

    /// Rule 5: every read field selected; the value, the terms, the timestamp, the event.
    function computed(bytes calldata d, Ctx memory c, Out memory out) private pure returns (Out memory) {
        S.Sem memory s = c.s;
        uint256 v = col(c, 0, R.F_VALUE);
        (bool ok, PorDecimal.Dec memory x) = typed(d, s.kinds[0], v);
        if (!ok) {
            out.bad = true;
            return out;
        }
        read(d, c, out, 0);
        for (uint256 i = 1; i < s.keys.length; i++) {
            uint8 role = s.roles[i];
            if (role == 4) continue;
            PorDecimal.Dec memory y;
            (ok, y) = S.parseAt(d, col(c, i, R.F_VALUE));
            if (!ok) {
                out.bad = true;
                return out;
            }
            read(d, c, out, i);
            x = role == 1 ? PorDecimal.add(x, y) : PorDecimal.sub(x, y);
        }
        stamp(d, c, out);
        if (out.bad) return out;
        uint8 pr = s.predicate;
        if (pr == S.EVENT) {
            out.eventCode = uint8(d[v]) == 0xf5 ? 2 : 1;
        } else if (pr == S.TEXT_EQUALS) {
            out.eventCode = keccak256(R.item(d, v)) == keccak256(R.item(d, s.expectedPos)) ? 2 : 1;
        } else {
            (out.hasNumeric, out.numeric) = PorDecimal.toText(x);
            if (!out.hasNumeric) {
                (out.insufficient, out.status) = (true, "\x72value_out_of_range");
                return out;
            }
            out.eventCode = holds(s, x) ? 2 : 1;
        }
        return out;
    }

    /// Rule 3: k of n sources.
    function votes(bytes calldata d, Ctx memory c, Out memory out) private pure returns (Out memory) {
        S.Sem memory s = c.s;
        uint256 list = S.get(d, col(c, 0, R.F_MAP), uint256(bytes32("votes")) | 5);
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, list, PorCbor.ARRAY);
        if (list == 0 || !isArray) {
            out.bad = true;
            return out;
        }
        uint256 yes = 0;
        uint256[] memory evidence = new uint256[](n); // each vote's evidence_id, for `markVotes`
        for (uint256 i = 0; i < n; i++) {
            (bool ok, bool h) = (false, false);
            (ok, h, evidence[i], p) = vote(d, s, p);
            if (!ok) {
                out.bad = true;
                return out;
            }
            if (h) yes++;
        }
        uint256 targets = s.targets[c.owner[0] - 1];
        if (s.k <= targets && yes >= s.k) out.eventCode = 2;
        else if (s.k <= targets && n - yes > targets - s.k) out.eventCode = 1;
        else (out.insufficient, out.status) = (true, "\x6fvotes_undecided");
        if (out.eventCode != 0) markVotes(d, c, out, evidence);
        return out;
    }

    /// The decided votes are read: their evidence and the field's fallback (no conflict).
    /// (`evidence`: each vote's evidence_id offset, as `vote` found it.)
    function markVotes(bytes calldata d, Ctx memory c, Out memory out, uint256[] memory evidence) private pure {
        Agg memory a = c.aggs[c.owner[0] - 1];
        for (uint256 i = 0; i < evidence.length; i++) mark(a, S.textHash(d, evidence[i]), out);
        out.fellBack = out.fellBack || R.isTrue(d, col(c, 0, R.F_FALLBACK));
    }

    /// One vote: a map with a text evidence_id and a value of the metric's kind; whether
    /// the predicate holds for it, the evidence_id's offset and the offset after the vote
    /// (one walk of it, `PorKeyIndex.indexTo`: not a map, or a map without evidence_id,
    /// indexes no evidence_id).
    function vote(bytes calldata d, S.Sem memory s, uint256 p)
        private
        pure
        returns (bool ok, bool h, uint256 e, uint256 end)
    {
        uint256[] memory ix;
        (ix, end) = PorKeyIndex.indexTo(d, p);
        e = PorKeyIndex.find(ix, uint256(bytes32("evidence_id")) | 11);
        if (!R.isText(d, e)) return (false, false, e, end);
        uint256 v = PorKeyIndex.find(ix, uint256(bytes32("value")) | 5);
        PorDecimal.Dec memory x;
        (ok, x) = typed(d, s.kinds[0], v);
        if (!ok) return (false, false, e, end);
        if (s.predicate == S.EVENT) h = uint8(d[v]) == 0xf5;
        else if (s.predicate == S.TEXT_EQUALS) h = keccak256(R.item(d, v)) == keccak256(R.item(d, s.expectedPos));
        else h = holds(s, x);
    }

    /// The metric requirement's first selected timestamp field that is not the metric.
    function stamp(bytes calldata d, Ctx memory c, Out memory out) private pure {
        Agg memory a = c.aggs[c.owner[0] - 1];
        uint256[] memory t = a.table;
        bytes32 skipKey = c.s.predicate == S.TIME ? c.s.keys[0] : bytes32(0);
        for (uint256 b = R.ROWS; b < t.length; b += R.FIELD) {
            if (bytes32(t[b + R.F_KIND]) == S.TIMESTAMP && bytes32(t[b + R.F_STATUS]) == SELECTED
                    && (skipKey == 0 || bytes32(t[b + R.F_KEY]) != skipKey)) {
                uint256 v = t[b + R.F_VALUE];
                if (v == 0) return;
                (uint8 major, uint256 time,) = PorCbor.head(d, v);
                if (major == PorCbor.NINT || (major == PorCbor.UINT && time > PorRecords.MAX_COUNT)) {
                    out.bad = true;
                } else if (major == PorCbor.UINT) {
                    (out.hasStamp, out.stamp) = (true, time);
                    markList(d, a, t[b + R.F_IDS], out);
                    out.fellBack = out.fellBack || R.isTrue(d, t[b + R.F_FALLBACK]);
                }
                return;
            }
        }
    }

    /// The predicate on a combined numeric value or timestamp.
    function holds(S.Sem memory s, PorDecimal.Dec memory x) private pure returns (bool) {
        if (s.predicate == S.RANGE) {
            int256 lo = PorDecimal.cmp(x, s.lower);
            int256 hi = PorDecimal.cmp(x, s.upper);
            return (s.lowerInclusive ? lo >= 0 : lo > 0) && (s.upperInclusive ? hi <= 0 : hi < 0);
        }
        return S.compare(x, s.comparison, s.predicate == S.FIELD ? PorDecimal.zero() : s.threshold);
    }

    /// A value of `kind` at `v` (step_io's `_typed`): numeric parsed, timestamp as a decimal.
    function typed(bytes calldata d, bytes32 kind, uint256 v) private pure returns (bool ok, PorDecimal.Dec memory x) {
        if (v == 0) return (false, x);
        if (kind == S.NUMERIC) return S.parseAt(d, v);
        if (kind == S.BOOLEAN) {
            (ok,) = PorCbor.boolAt(d, v);
            return (ok, x);
        }
        if (kind == S.TEXT) return (R.isText(d, v), x);
        (uint8 major, uint256 t,) = PorCbor.head(d, v);
        return (major == PorCbor.UINT && t <= PorRecords.MAX_COUNT, PorDecimal.Dec(false, 0, t, 0));
    }

    /// Needed field i found as the first field with its key (SPEC §12.4.1).
    function find(Ctx memory c, uint256 i) private pure {
        bytes32 key = c.s.keys[i];
        for (uint256 r = 0; r < c.aggs.length; r++) {
            uint256[] memory t = c.aggs[r].table;
            for (uint256 b = R.ROWS; b < t.length; b += R.FIELD) {
                if (bytes32(t[b + R.F_KEY]) == key) {
                    c.owner[i] = r + 1;
                    if (bytes32(t[b + R.F_KIND]) != c.s.kinds[i]) {
                        c.status[i] = keccak256("wrong_kind");
                    } else {
                        c.raw[i] = b;
                        c.status[i] = bytes32(t[b + R.F_STATUS]);
                    }
                    return;
                }
            }
        }
        c.status[i] = keccak256("absent");
    }

    /// Column `k` of needed field i's row (found with its kind: `c.raw[i]` non-zero).
    function col(Ctx memory c, uint256 i, uint256 k) private pure returns (uint256) {
        return c.aggs[c.owner[i] - 1].table[c.raw[i] + k];
    }

    /// metric_status as found: the field's status item, `wrong_kind` or `absent`.
    function statusItem(bytes calldata d, Ctx memory c, uint256 i) private pure returns (bytes memory) {
        if (c.raw[i] != 0) return R.item(d, col(c, i, R.F_STATUS_AT));
        return c.owner[i] != 0 ? bytes("\x6awrong_kind") : bytes("\x66absent");
    }

    /// `read` of deduce.py: the field's evidence, its fallback, its conflict.
    function read(bytes calldata d, Ctx memory c, Out memory out, uint256 i) private pure {
        uint256 owner = c.owner[i] - 1;
        markList(d, c.aggs[owner], col(c, i, R.F_IDS), out);
        out.fellBack = out.fellBack || R.isTrue(d, col(c, i, R.F_FALLBACK));
        if (!c.s.chain[owner] && inConflicts(c, c.s.kinds[i], c.s.keys[i])) out.conflict = true;
    }

    function inConflicts(Ctx memory c, bytes32 kind, bytes32 key) private pure returns (bool) {
        for (uint256 i = 0; i < c.cKinds.length; i++) {
            if (c.cKinds[i] == kind && c.cKeys[i] == key) return true;
        }
        return false;
    }

    function markList(bytes calldata d, Agg memory a, uint256 list, Out memory out) private pure {
        (, uint256 n, uint256 p) = PorCbor.container(d, list, PorCbor.ARRAY);
        for (uint256 j = 0; j < n; j++) {
            mark(a, S.textHash(d, p), out);
            p = R.itemEnd(d, p);
        }
    }

    /// The last place of id `h` among the aggregate's evidence ids is read; none: the
    /// selection names evidence its step does not cite (step.bad_prior_output).
    function mark(Agg memory a, bytes32 h, Out memory out) private pure {
        for (uint256 j = a.ids.length; j > 0; j--) {
            if (a.ids[j - 1] == h) {
                a.read[j - 1] = true;
                return;
            }
        }
        out.bad = true;
    }

    // --- the recomputed step -----------------------------------------------------------

    /// The committed evidence_ids at `list` compared, as it is produced, with
    /// source_summary (the read ids in requirement order, bundle order within one, each
    /// once, as an encoded array): the offset just after the committed list when its bytes
    /// are exactly the recomputed array's (its head the shortest of major type 4 and the
    /// count, then each id's encoded item byte for byte), else 0.
    function summaryAt(bytes calldata d, uint256 list, Ctx memory c) private pure returns (uint256 p) {
        (bool isArray, uint256 n, uint256 q) = PorCbor.container(d, list, PorCbor.ARRAY);
        uint256 shortest = n < 24 ? 1 : n <= 0xff ? 2 : n <= 0xffff ? 3 : n <= 0xffffffff ? 5 : 9;
        if (!isArray || q - list != shortest || q > d.length) return 0;
        uint256 total = 0;
        for (uint256 r = 0; r < c.aggs.length; r++) total += c.aggs[r].ids.length;
        bytes32[] memory seen = new bytes32[](total);
        uint256 count = 0;
        p = q;
        for (uint256 r = 0; r < c.aggs.length; r++) {
            Agg memory a = c.aggs[r];
            for (uint256 j = 0; j < a.ids.length; j++) {
                if (!a.read[j] || R.contains(seen, count, a.ids[j])) continue;
                seen[count++] = a.ids[j];
                if (count > n) return 0;
                p = R.sameAt(d, p, a.idPos[j]);
                if (p == 0) return 0;
            }
        }
        if (count != n) return 0;
    }

    function description(bytes calldata d, uint256 pos, Ctx memory c, bool decided) private pure returns (bool) {
        bytes memory text = abi.encodePacked(
            "deduce ", R.textOf(d, c.s.predicatePos), " on ", R.textOf(d, c.s.metricPos), ": ",
            decided ? "variables computed" : "insufficient evidence"
        );
        return PorCbor.isText(d, pos, text);
    }

    function insufficient(Ctx memory c, Out memory out) private pure returns (bool) {
        for (uint256 i = 0; i < c.aggs.length; i++) {
            if (!c.aggs[i].covered) return true;
        }
        return out.insufficient || out.eventCode == 0;
    }

    /// The recomputed output, canonical (SPEC §2: shorter keys first, then bytewise),
    /// written piece by piece from the free memory pointer into one `bytes` (nothing is
    /// allocated until it is done; no piece copies what is written before it).
    function output(bytes calldata d, Ctx memory c, Out memory out, uint256 list, uint256 end)
        private
        pure
        returns (bytes memory o)
    {
        bool decided = !out.insufficient; // `insufficient`'s answer (`compareStep`)
        bool withNumeric = decided && out.hasNumeric;
        bool withStamp = decided && out.hasStamp;
        uint256 w;
        assembly ("memory-safe") {
            o := mload(0x40)
            w := add(o, 32)
        }
        // the map's head (at most 12 entries: one byte), then its entries
        w = W.put(w, bytes32(uint256(0xa9 + (decided ? 1 : 0) + (withNumeric ? 1 : 0) + (withStamp ? 1 : 0)) << 248), 1);
        w = W.item(d, W.put(w, "\x66metric", 7), c.s.metricPos);
        w = W.item(d, W.put(w, "\x69predicate", 10), c.s.predicatePos);
        if (withStamp) w = W.head(W.put(w, "\x69timestamp", 10), 0, out.stamp);
        w = W.put(W.put(w, "\x6dfallback_used", 14), R.boolItem(out.fellBack), 1);
        w = W.bytesAt(W.put(w, "\x6dmetric_status", 14), out.status);
        if (withNumeric) w = W.bytesAt(W.head(W.put(w, "\x6dnumeric_value", 14), 3, out.numeric.length), out.numeric);
        bool prov = true;
        for (uint256 i = 0; i < c.aggs.length; i++) prov = prov && c.aggs[i].provenanceOk;
        w = W.put(W.put(w, "\x6dprovenance_ok", 14), R.boolItem(prov), 1);
        if (decided) w = W.put(W.put(w, "\x6eevent_observed", 15), R.boolItem(out.eventCode == 2), 1);
        w = W.span(d, W.put(w, "\x6esource_summary", 15), list, end); // the committed list, equal to it
        w = W.put(W.put(w, "\x71conflict_detected", 18), R.boolItem(out.conflict), 1);
        w = W.put(W.put(w, "\x75insufficient_evidence", 22), R.boolItem(!decided), 1);
        uint256 nu = 0;
        for (uint256 i = 0; i < c.aggs.length; i++) {
            if (!c.aggs[i].covered) nu++;
        }
        w = W.head(W.put(w, "\x76uncovered_requirements", 23), 4, nu);
        for (uint256 i = 0; i < c.aggs.length; i++) {
            if (!c.aggs[i].covered) w = W.item(d, w, c.s.reqIdPos[i]);
        }
        assembly ("memory-safe") {
            mstore(o, sub(w, add(o, 32)))
            mstore(0x40, and(add(w, 31), not(31)))
        }
    }
}
