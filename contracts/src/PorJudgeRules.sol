// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys} from "./PorCborKeys.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorDeduceSpec} from "./PorDeduceSpec.sol";
import {PorJudgeNames} from "./PorJudgeNames.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorJudgeRules: the judge (SPEC §7.2-§7.4) on the PromptSpec fields it reads.
/// @notice `readSpec` reads, from a PromptSpec leaf that passed the §2 reader, only the
/// fields the judge reads (SPEC §14.8, JudgeProof): each with its §4.2 type and range,
/// else the leaf is a committed invalid record. `judge` maps (spec, the final map step's
/// evaluation variables, the cited items' cards) to (outcome, confidence, rule) exactly as
/// `por.judge.deterministic_mapping.judge_core`. Offsets are absolute in the proof `d`.
library PorJudgeRules {
    /// Outcome codes (SPEC §8): YES 1, NO 2, INVALID 3.
    uint8 internal constant YES = 1;
    uint8 internal constant NO = 2;
    uint8 internal constant INVALID = 3;
    /// Rule codes: the stage order of SPEC §7.2.
    uint8 internal constant R_VALIDITY = 0;
    uint8 internal constant R_CONFLICT = 1;
    uint8 internal constant R_BINARY_DECISION = 2;
    uint8 internal constant R_CONFIDENCE = 3;
    uint8 internal constant R_INVALID_FALLBACK = 4;
    uint256 internal constant MAX_TIME = 2 ** 63 - 1;
    uint256 private constant BPS = 10_000;

    // Predicates (SPEC §12.4.1), in Predicate's order.
    uint8 private constant P_EVENT = 0;
    uint8 private constant P_THRESHOLD = 1;
    uint8 private constant P_RANGE = 2;
    uint8 private constant P_FIELDS = 3;
    uint8 private constant P_TEXT = 4;
    uint8 private constant P_TIME = 5;

    /// What the judge reads of a PromptSpec.
    struct Spec {
        uint256 marketId; // the market_id text item
        uint256 start;
        uint256 end;
        uint256 slack;
        bool locked; // output_schema_ref, strict_mode and the rule ids pass the lock (§7.2)
        uint8 predicate;
        uint8 comparison; // index in ">", ">=", "<", "<=", "=="; 5 absent
        uint256 threshold; // the decimal text items (0 when absent)
        uint256 lower;
        uint256 upper;
        bool lowerInclusive; // absent: true
        bool upperInclusive; // absent: false
        bool eventWhenAbsent; // absent_means_no, or a precondition with otherwise "NO"
        bool sourcesRequired;
        bool onConflictContinue;
        uint256[5] policy; // default, min for YES/NO, conflict, fallback, invalid (bps)
        uint256 requirements; // the data_requirements array
        uint256 requirementCount;
        uint256[] ids; // per requirement: its requirement_id text item
        uint256[] tiers; // per requirement: its min_provenance_tier (absent 0)
    }

    /// The final step's evaluation variables (valid as `variables_from`, or `valid` false).
    struct Vars {
        bool valid;
        bool conflict;
        bool insufficient;
        bool fallbackUsed;
        bool provenanceOk;
        uint256 summaryCount;
        uint8 observed; // 0 absent, 1 false, 2 true
        uint256 numericValue; // text item, 0 when absent
        bool hasTimestamp;
        uint256 timestamp;
        uint256 summaryFirst; // the source summary `citations` read: its first id's offset
        bool summaryRepeats; // and whether it repeats an id (`PorRecords.hasRepeat`)
    }

    /// A cited item's card (SPEC §12.5.2): its requirement_id text item, tier, confidence.
    struct Card {
        uint256 requirement;
        uint256 tier;
        uint256 confidence;
    }

    /// Every key and text the JudgeProof check compares, as its key word (its bytes
    /// left-aligned, its length in the low byte: `PorDeduceSpec.get`'s): `field(d, pos, K_*)`,
    /// `textIs(d, pos, T_*)`. (Words, not offsets in a packed constant: no copy per read.)
    uint256 internal constant K_RULES = uint256(bytes32("rules")) | 5;
    uint256 internal constant K_RULE_ID = uint256(bytes32("rule_id")) | 7;
    uint256 internal constant K_OTHERWISE = uint256(bytes32("otherwise")) | 9;
    uint256 internal constant K_ON_CONFLICT = uint256(bytes32("on_conflict")) | 11;
    uint256 internal constant K_REQUIREMENT_ID = uint256(bytes32("requirement_id")) | 14;
    uint256 internal constant K_EVIDENCE_ID = uint256(bytes32("evidence_id")) | 11;
    uint256 internal constant K_SOURCE_SUMMARY = uint256(bytes32("source_summary")) | 14;
    uint256 internal constant K_EVALUATION_VARIABLES = uint256(bytes32("evaluation_variables")) | 20;
    uint256 internal constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 internal constant K_CARD = uint256(bytes32("card")) | 4;
    uint256 internal constant T_VERDICT = uint256(bytes32("verdict")) | 7;
    uint256 internal constant T_JUDGE_PROOF = uint256(bytes32("por.JudgeProof/1")) | 16;
    uint256 internal constant T_MAP = uint256(bytes32("map")) | 3;
    uint256 internal constant T_EXTRACT = uint256(bytes32("extract")) | 7;
    uint256 internal constant T_EXTRACT_CLAIMS = uint256(bytes32("extract_claims")) | 14;
    uint256 internal constant T_CONTINUE = uint256(bytes32("continue")) | 8;
    uint256 internal constant T_INVALID = uint256(bytes32("invalid")) | 7;
    uint256 internal constant T_NO = uint256(bytes32("NO")) | 2;
    uint256 internal constant T_INVALID_UPPER = uint256(bytes32("INVALID")) | 7;
    uint256 internal constant T_VERDICT_SCHEMA = uint256(bytes32("por.DeterministicVerdict/1")) | 26;
    uint256 internal constant T_EMPTY = 0;

    /// `PorCbor.get(d, pos, key)` for the key whose key word is `k` (`K_*`;
    /// `PorDeduceSpec.get`).
    function field(bytes calldata d, uint256 pos, uint256 k) internal pure returns (uint256) {
        return get(d, pos, k);
    }

    /// `PorCbor.isText(d, pos, text)` for the text whose key word is `k` (`T_*`), compared
    /// as one word: the item's head (0x60 | n, or 0x78 n from 24 bytes on) and its n bytes
    /// against that encoding of the text (n at most 30; every text here is).
    function textIs(bytes calldata d, uint256 pos, uint256 k) internal pure returns (bool yes) {
        assembly ("memory-safe") {
            let n := and(k, 0xff)
            // the length byte shifts out: n <= 30
            let want := or(shl(248, or(0x60, n)), shr(8, k))
            if gt(n, 23) { want := or(or(shl(248, 0x78), shl(240, n)), shr(16, k)) }
            let mask := not(shr(shl(3, add(n, add(1, gt(n, 23)))), not(0)))
            yes := eq(and(calldataload(add(d.offset, pos)), mask), and(want, mask))
        }
    }

    /// `PorDeduceSpec.get`: the value of the key word `w` in the map at `pos` (0 when absent).
    function get(bytes calldata d, uint256 pos, uint256 w) private pure returns (uint256) {
        return PorDeduceSpec.get(d, pos, w);
    }

    // --- reading the PromptSpec -------------------------------------------------------

    /// The fields the judge reads from the PromptSpec map at `pos` (ok false: one of them
    /// breaks its §4.2 type or range); `at` its top-level items' offsets from `pos`
    /// (`PorCborTop.checkTop`; empty: the map is walked).
    function readSpec(bytes calldata d, uint256 pos, uint256[] memory at) internal pure returns (bool ok, Spec memory s) {
        uint256[] memory top = at.length == 0 ? PorCborKeys.pick(d, pos, TOP_KEYS) : topFields(d, pos, at);
        bool rulesOk;
        uint256 window;
        (s.marketId, window, rulesOk, s.locked) = market(d, top);
        (ok,,) = PorRecords.isId(d, s.marketId);
        bool t1;
        bool t2;
        // resolution_window's end, then its start (§2 key order: one walk)
        (uint256 e, uint256 left) = PorDeduceSpec.next(d, window, 0, 0, uint256(bytes32("end")) | 3);
        (uint256 st,) = PorDeduceSpec.next(d, window, e, left, uint256(bytes32("start")) | 5);
        (t1, s.start) = PorRecords.uintIn(d, st, 0, MAX_TIME);
        (t2, s.end) = PorRecords.uintIn(d, e, 0, MAX_TIME);
        ok = ok && t1 && t2 && s.start <= s.end;
        (t1, s.slack) = optionalUint(d, top[7], PorRecords.MAX_COUNT, 0);
        ok = ok && t1 && rulesOk && semantics(d, top[6], s)
            && policies(d, top, s);
        (t1, s.requirementCount, s.requirements) =
            PorCbor.container(d, top[5], PorCbor.ARRAY);
        ok = ok && t1 && requirementsOk(d, s);
    }

    /// The PromptSpec's top-level fields the judge reads, read in one walk
    /// (`PorCborKeys.pick`; 0 when absent): market, strict_mode, conflict_policy,
    /// output_schema_ref, confidence_policy, data_requirements, prediction_semantics,
    /// timestamp_slack_seconds.
    bytes private constant TOP_KEYS =
        "\x06market\x0bstrict_mode\x0fconflict_policy\x11output_schema_ref\x11confidence_policy\x11data_requirements\x14prediction_semantics\x17timestamp_slack_seconds";
    /// `PorCborKeys.pick(d, pos, TOP_KEYS)` from the offsets `at` of the map's items (keys
    /// at even places, from `pos`): each text key under 24 bytes as its key word, switched
    /// on TOP_KEYS' words (in TOP_KEYS' order), no value skipped.
    function topFields(bytes calldata d, uint256 pos, uint256[] memory at) private pure returns (uint256[] memory top) {
        top = new uint256[](8);
        assembly ("memory-safe") {
            let n := mload(at)
            for { let i := 0 } lt(i, n) { i := add(i, 2) } {
                let p := add(pos, mload(add(at, shl(5, add(i, 1)))))
                let ib := byte(0, calldataload(add(d.offset, p)))
                let len := and(ib, 31)
                if and(eq(shr(5, ib), 3), lt(len, 24)) {
                    let v := add(pos, mload(add(at, shl(5, add(i, 2)))))
                    // the key as a short constant: its bytes, then its length (0 for the empty key)
                    switch or(shl(8, shr(shl(3, sub(32, len)), calldataload(add(d.offset, add(p, 1))))), len)
                    case 0x6d61726b657406 { mstore(add(top, 0x20), v) }
                    case 0x7374726963745f6d6f64650b { mstore(add(top, 0x40), v) }
                    case 0x636f6e666c6963745f706f6c6963790f { mstore(add(top, 0x60), v) }
                    case 0x6f75747075745f736368656d615f72656611 { mstore(add(top, 0x80), v) }
                    case 0x636f6e666964656e63655f706f6c69637911 { mstore(add(top, 0xa0), v) }
                    case 0x646174615f726571756972656d656e747311 { mstore(add(top, 0xc0), v) }
                    case 0x70726564696374696f6e5f73656d616e7469637314 { mstore(add(top, 0xe0), v) }
                    case 0x74696d657374616d705f736c61636b5f7365636f6e647317 { mstore(add(top, 0x100), v) }
                }
            }
        }
    }

    /// market (`top[0]`): market_id, resolution_window (0 absent) and the `lock`, in one walk
    /// in §2 key order: the rules list walked once (`rules`), the walk resumed at its end
    /// when it is resolution_rules' only entry (else resolution_rules is skipped).
    function market(bytes calldata d, uint256[] memory top)
        private
        pure
        returns (uint256 id, uint256 window, bool rulesOk, bool locked)
    {
        uint256 left;
        (id, left) = PorDeduceSpec.next(d, top[0], 0, 0, uint256(bytes32("market_id")) | 9);
        (uint256 rulesMap, uint256 rest) =
            PorDeduceSpec.next(d, top[0], id, left, uint256(bytes32("resolution_rules")) | 16);
        uint256 end;
        (rulesOk, locked, end) = lock(d, top, rulesMap);
        window = windowAt(d, top[0], id, left, rulesMap, rest, end);
    }

    /// resolution_window in the market `m`: after market_id (`id`, `left` entries after) without
    /// resolution_rules, else in the `rest` entries after `rulesMap`, ending at `end` (0: skip).
    function windowAt(bytes calldata d, uint256 m, uint256 id, uint256 left, uint256 rulesMap, uint256 rest, uint256 end)
        private
        pure
        returns (uint256 window)
    {
        uint256 w = uint256(bytes32("resolution_window")) | 17;
        if (rulesMap != 0) return seek(d, end != 0 ? end : PorCbor.skip(d, rulesMap), rest, w);
        (window,) = PorDeduceSpec.next(d, m, id, left, w);
    }

    /// The value of the key word `w` among the `count` map entries from `p` (0: absent).
    function seek(bytes calldata d, uint256 p, uint256 count, uint256 w) private pure returns (uint256) {
        for (; count > 0; count--) {
            (uint256 k, uint256 v) = PorKeyIndex.entry(d, p);
            if (k == w) return v;
            p = PorCbor.skip(d, v);
        }
        return 0;
    }

    /// (types ok, the lock holds, `rulesMap`'s end when `rules` walked to it, else 0): output_schema_ref
    /// text, strict_mode bool, rule_ids Ids; the lock: the verdict schema, true, ids in stage order.
    function lock(bytes calldata d, uint256[] memory top, uint256 rulesMap)
        private
        pure
        returns (bool ok, bool locked, uint256 end)
    {
        uint256 ref = top[3];
        (ok,,) = PorCbor.str(d, ref, PorCbor.TEXT);
        locked = textIs(d, ref, T_VERDICT_SCHEMA);
        uint256 rulesAt = field(d, rulesMap, K_RULES);
        (bool isBool, bool strict) = PorCbor.boolAt(d, top[1]);
        ok = ok && ref != 0 && isBool;
        locked = locked && strict;
        (isBool, ok, end) = rules(d, rulesAt, ok);
        locked = locked && isBool;
        // `rules` ends where the map ends when the list is its only entry ("\x65rules")
        (bool isMap, uint256 count, uint256 first) = PorCbor.container(d, rulesMap, PorCbor.MAP);
        if (!ok || !isMap || count != 1 || rulesAt != first + 6) end = 0;
    }

    /// The rules array at `pos`: (ids canonical and in stage order, rule_ids Ids, its end when ok).
    function rules(bytes calldata d, uint256 pos, bool ok) private pure returns (bool inOrder, bool, uint256) {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        ok = ok && isArray && n >= 1;
        inOrder = true;
        uint8 latest = 0;
        for (uint256 i = 0; ok && i < n; i++) {
            uint8 stage;
            (ok, stage, p) = rule(d, p);
            if (stage == 5 || stage < latest) inOrder = false;
            else latest = stage;
        }
        return (inOrder, ok, p);
    }

    /// The rule at `p` walked once (`PorKeyIndex.indexTo`): (rule_id an Id, its stage, the rule's end).
    function rule(bytes calldata d, uint256 p) private pure returns (bool ok, uint8 stage, uint256 end) {
        uint256[] memory ix;
        (ix, end) = PorKeyIndex.indexTo(d, p);
        uint256 id = PorKeyIndex.find(ix, K_RULE_ID);
        uint8 r = PorJudgeNames.ruleCode(d, id);
        // a canonical rule id is an Id (a text of 10-18 bytes): `isId` only for another
        ok = r != 5;
        if (!ok) (ok,,) = PorRecords.isId(d, id);
        stage = r == 4 ? 3 : r;
    }

    /// prediction_semantics: the predicate, comparison, threshold, range ends and
    /// inclusivity, absent_means_no, sources_required, each precondition's otherwise.
    function semantics(bytes calldata d, uint256 pos, Spec memory s) private pure returns (bool ok) {
        uint256[14] memory at = PorKeyIndex.semantics(d, pos); // one walk, each field read from it
        uint256 p = at[PorKeyIndex.S_PREDICATE];
        s.predicate = pick(d, p, "\x0eevent_observed\x11numeric_threshold\x0dnumeric_range\x10field_comparison\x0btext_equals\x13timestamp_threshold");
        if (p == 0 || s.predicate == 6) return false;
        uint256 c = at[PorKeyIndex.S_COMPARISON];
        s.comparison = c == 0 ? 5 : pick(d, c, "\x01>\x02>=\x01<\x02<=\x02==");
        ok = s.comparison != 5 || c == 0;
        (s.threshold, s.lower, s.upper) = (at[PorKeyIndex.S_THRESHOLD], at[PorKeyIndex.S_LOWER], at[PorKeyIndex.S_UPPER]);
        ok = ok && decimalOrAbsent(d, s.threshold) && decimalOrAbsent(d, s.lower) && decimalOrAbsent(d, s.upper);
        bool b;
        (b, s.lowerInclusive) = optionalBool(d, at[PorKeyIndex.S_LOWER_INCLUSIVE], true);
        ok = ok && b;
        (b, s.upperInclusive) = optionalBool(d, at[PorKeyIndex.S_UPPER_INCLUSIVE], false);
        ok = ok && b;
        (b, s.eventWhenAbsent) = optionalBool(d, at[PorKeyIndex.S_ABSENT_MEANS_NO], false);
        ok = ok && b;
        uint256 k = at[PorKeyIndex.S_SOURCES_REQUIRED];
        s.sourcesRequired = k != 0;
        if (k != 0) (b,) = PorRecords.uintIn(d, k, 1, 64);
        ok = ok && b;
        uint256 pre = at[PorKeyIndex.S_PRECONDITIONS];
        return pre == 0 ? ok : preconditions(d, pre, s, ok);
    }

    /// Each precondition's `otherwise` (absent, "NO" or "INVALID"; "NO" decides by the event).
    function preconditions(bytes calldata d, uint256 pre, Spec memory s, bool ok) private pure returns (bool) {
        (bool isArray, uint256 n, uint256 q) = PorCbor.container(d, pre, PorCbor.ARRAY);
        ok = ok && isArray;
        for (uint256 i = 0; ok && i < n; i++) {
            uint256 o = field(d, q, K_OTHERWISE);
            if (o != 0) {
                ok = textIs(d, o, T_NO) || textIs(d, o, T_INVALID_UPPER);
                if (textIs(d, o, T_NO)) s.eventWhenAbsent = true;
            }
            q = PorCbor.skip(d, q);
        }
        return ok;
    }

    /// conflict_policy.on_conflict and confidence_policy's five factors (absent: the
    /// schema defaults, SPEC §4.2).
    function policies(bytes calldata d, uint256[] memory top, Spec memory s) private pure returns (bool ok) {
        uint256 on = field(d, top[2], K_ON_CONFLICT);
        s.onConflictContinue = textIs(d, on, T_CONTINUE);
        ok = on == 0 || s.onConflictContinue || textIs(d, on, T_INVALID);
        uint256[5] memory at = PorJudgeNames.factors(d, top[4]);
        bool b;
        (b, s.policy[0]) = optionalUint(d, at[0], BPS, 7000);
        ok = ok && b;
        (b, s.policy[1]) = optionalUint(d, at[1], BPS, 5500);
        ok = ok && b;
        (b, s.policy[2]) = optionalUint(d, at[2], BPS, 8000);
        ok = ok && b;
        (b, s.policy[3]) = optionalUint(d, at[3], BPS, 9000);
        ok = ok && b;
        (b, s.policy[4]) = optionalUint(d, at[4], BPS, 0);
        ok = ok && b;
    }

    /// Each data requirement's requirement_id an Id and min_provenance_tier 0..3 (absent 0).
    /// (Each kept in `s`, read once: `tierOf` looks them up per card.)
    function requirementsOk(bytes calldata d, Spec memory s) private pure returns (bool ok) {
        uint256 n = s.requirementCount;
        ok = n >= 1;
        (s.ids, s.tiers) = (new uint256[](n), new uint256[](n));
        uint256 p = s.requirements;
        for (uint256 i = 0; ok && i < n; i++) {
            // one walk of the requirement: both fields and the offset after it
            (uint256[] memory ix, uint256 end) = PorKeyIndex.indexTo(d, p);
            s.ids[i] = PorKeyIndex.find(ix, uint256(bytes32("requirement_id")) | 14);
            (ok,,) = PorRecords.isId(d, s.ids[i]);
            bool t;
            (t, s.tiers[i]) = optionalUint(d, PorKeyIndex.find(ix, uint256(bytes32("min_provenance_tier")) | 19), 3, 0);
            ok = ok && t;
            p = end;
        }
    }

    /// The index in the packed texts `names` (each under 32 bytes, none empty) of the text
    /// at `pos` (their count if none): the text as one key word (`PorKeyIndex.entry`'s:
    /// its bytes left-aligned, its length in the low byte; 0, which no name has, for
    /// another type or a text of 32 bytes or more) compared with each name's.
    function pick(bytes calldata d, uint256 pos, bytes memory names) internal pure returns (uint8 i) {
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(d.offset, pos)))
            let len := and(ib, 31)
            let at := add(pos, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, at)))
                at := add(at, width)
            }
            let w := 0
            if and(eq(shr(5, ib), 3), lt(len, 32)) {
                w := or(and(calldataload(add(d.offset, at)), not(shr(shl(3, len), not(0)))), len)
            }
            let k := add(names, 32)
            for { let e := add(k, mload(names)) } lt(k, e) { i := add(i, 1) } {
                let n := byte(0, mload(k))
                if eq(w, or(and(mload(add(k, 1)), not(shr(shl(3, n), not(0)))), n)) { break }
                k := add(k, add(n, 1))
            }
        }
    }

    function decimalOrAbsent(bytes calldata d, uint256 pos) private pure returns (bool) {
        if (pos == 0) return true;
        (bool ok, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        return ok && PorDecimal.isCanonical(d, off, len);
    }

    function optionalBool(bytes calldata d, uint256 pos, bool absent) private pure returns (bool ok, bool v) {
        if (pos == 0) return (true, absent);
        return PorCbor.boolAt(d, pos);
    }

    function optionalUint(bytes calldata d, uint256 pos, uint256 hi, uint256 absent)
        private
        pure
        returns (bool ok, uint256 v)
    {
        if (pos == 0) return (true, absent);
        return PorRecords.uintIn(d, pos, 0, hi);
    }

    // --- the judge --------------------------------------------------------------------

    /// (outcome, confidence_bps, rule) of SPEC §7.2-§7.4 for a trace of the final map step
    /// alone whose evaluation variables are `v`, and the cited items' `cards`.
    function judge(bytes calldata d, Spec memory s, Vars memory v, Card[] memory cards)
        internal
        pure
        returns (uint8, uint256, uint8)
    {
        uint256 invalidBps = s.policy[4] < s.policy[1] ? s.policy[4] : s.policy[1];
        if (!s.locked || !v.valid || !valid(d, s, v, cards)) return (INVALID, invalidBps, R_VALIDITY);
        if (v.conflict && !s.onConflictContinue) return (INVALID, invalidBps, R_CONFLICT);
        uint8 outcome = decide(d, s, v);
        if (outcome == 0) return (INVALID, invalidBps, R_INVALID_FALLBACK);
        uint256 c = s.policy[0];
        for (uint256 i = 0; i < cards.length; i++) {
            if (cards[i].confidence < c) c = cards[i].confidence;
        }
        if (v.conflict) c = (c * s.policy[2] + 5000) / BPS;
        if (v.fallbackUsed) c = (c * s.policy[3] + 5000) / BPS;
        if (c > BPS) c = BPS;
        if (c < s.policy[1]) return (INVALID, invalidBps, R_CONFIDENCE);
        return (outcome, c, R_BINARY_DECISION);
    }

    /// Stage 1 (R_VALIDITY) after the lock; the cards are the cited items (proof.citations).
    function valid(bytes calldata d, Spec memory s, Vars memory v, Card[] memory cards) private pure returns (bool) {
        if (v.insufficient || !v.provenanceOk || v.summaryCount == 0) return false;
        for (uint256 i = 0; i < cards.length; i++) {
            (bool known, uint256 want) = tierOf(d, s, cards[i].requirement);
            if (!known || cards[i].tier < want) return false;
        }
        if (v.hasTimestamp) {
            uint256 from = s.start > s.slack ? s.start - s.slack : 0;
            if (v.timestamp < from || v.timestamp > s.end + s.slack) return false;
        }
        return !(numeric(s) && v.numericValue == 0 && !eventDecides(s, v));
    }

    /// min_provenance_tier of the requirement whose id is the text at `req`.
    function tierOf(bytes calldata d, Spec memory s, uint256 req) private pure returns (bool, uint256) {
        for (uint256 i = 0; i < s.requirementCount; i++) {
            if (PorText.sameText(d, s.ids[i], req)) return (true, s.tiers[i]);
        }
        return (false, 0);
    }

    function numeric(Spec memory s) private pure returns (bool) {
        return s.predicate == P_THRESHOLD || s.predicate == P_RANGE || s.predicate == P_FIELDS
            || s.predicate == P_TIME;
    }

    /// `event_decides` (por.predicates.decision).
    function eventDecides(Spec memory s, Vars memory v) private pure returns (bool) {
        return s.sourcesRequired || (s.eventWhenAbsent && v.numericValue == 0 && v.observed == 1);
    }

    /// Stage 3: YES, NO or 0 (undetermined).
    function decide(bytes calldata d, Spec memory s, Vars memory v) private pure returns (uint8) {
        bool byEvent = eventDecides(s, v);
        if (v.numericValue != 0 && numeric(s) && !byEvent) return holds(d, s, v.numericValue) ? YES : NO;
        if (v.observed != 0 && (!numeric(s) || byEvent)) return v.observed == 2 ? YES : NO;
        return 0;
    }

    /// `holds` (por.predicates.rules) for a numeric predicate, exactly (`PorDecimal.cmp`).
    function holds(bytes calldata d, Spec memory s, uint256 value) private pure returns (bool) {
        PorDecimal.Dec memory v = dec(d, value);
        if (s.predicate == P_RANGE) {
            int256 lo = PorDecimal.cmp(v, dec(d, s.lower));
            int256 hi = PorDecimal.cmp(v, dec(d, s.upper));
            return (s.lowerInclusive ? lo >= 0 : lo > 0) && (s.upperInclusive ? hi <= 0 : hi < 0);
        }
        int256 order = PorDecimal.cmp(v, s.predicate == P_FIELDS ? PorDecimal.zero() : dec(d, s.threshold));
        uint8 c = s.comparison;
        return c == 0 ? order > 0 : c == 1 ? order >= 0 : c == 2 ? order < 0 : c == 3 ? order <= 0 : c == 4 && order == 0;
    }

    /// The canonical decimal text item at `pos` as a value (SPEC §3.2; zero when it is
    /// not one, which `readSpec` and the variables' reader have already refused).
    function dec(bytes calldata d, uint256 pos) private pure returns (PorDecimal.Dec memory v) {
        (, v) = PorDecimal.parseText(d, pos);
    }
}
