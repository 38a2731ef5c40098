// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorCheckSpec: what a `check_requirement` chunk reads of the PromptSpec (SPEC
/// §14.8: market.allowed_sources, resolution_window, timestamp_slack_seconds, R's
/// source_targets, accepted_status_codes and min_provenance_tier,
/// prediction_semantics.predicate and metric), each field's type checked as §4.2 states it.
library PorCheckSpec {
    /// What the chunk reads of the PromptSpec (positions in the proof).
    struct Spec {
        uint256 allowed; // market.allowed_sources
        uint256 codes; // R's accepted_status_codes, 0 when absent
        uint256 minTier;
        uint256 start; // the window, widened by the slack
        uint256 end;
        uint256 skip; // the metric of a timestamp_threshold predicate, else 0
        bytes32[] tags; // R's targets' source_id text hashes (`targetsEnd`)
        uint256 rid; // the step's inputs.requirement_id (`requirementOf`), read once
    }

    /// The position of the step's inputs.requirement_id (text: `PorRecords.computation`).
    function requirementOf(bytes calldata d, uint256 sb, uint256[] memory at) internal pure returns (uint256) {
        return PorCheckState.key(d, sb + at[PorRecords.STEP_INPUTS], 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15);
    }

    bytes private constant MARKET = "\x06market";
    bytes private constant REQUIREMENTS = "\x11data_requirements";
    bytes private constant TAIL_KEYS = "\x14prediction_semantics\x17timestamp_slack_seconds";
    /// An entry's keys read up to source_targets (whose list is read in place or
    /// skipped), then those after it and `PorCheckKeys.ALL` (the entry walked to its end).
    bytes private constant ENTRY_HEAD = "\x0erequirement_id\x0esource_targets";
    bytes private constant ENTRY_TAIL = "\x13min_provenance_tier\x15accepted_status_codes\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";

    /// (0, spec) or 1 (a field read is malformed: one_step.invalid_record) or 2 (no
    /// requirement R: step.bad_inputs). The leaf's top map is walked once, in §2 order:
    /// to market (walked to its end for its keys), data_requirements (each entry walked
    /// once, to its end), then prediction_semantics and timestamp_slack_seconds; a read
    /// that fails is answered 1 (as `window` or `semantics` failing would be, before R).
    function readSpec(bytes calldata d, PorOneStepCheck.Parts memory parts, uint256[] memory at)
        internal
        pure
        returns (uint256, Spec memory spec)
    {
        uint256 base = parts.all[1].leaf;
        spec.rid = requirementOf(d, parts.all[0].leaf, at);
        // The leaf passed the §2 reader (the caller checked it).
        if (parts.all[1].leafLength == 0) return (1, spec);
        uint256[] memory f = new uint256[](5);
        (, uint256 left) = PorCheckKeys.find(d, base, MARKET, f);
        // market and data_requirements present: entries follow market
        if (f[0] == 0 || left == 0) return (1, spec);
        (bool ok, uint256 p) = window(d, f[0], spec, f, true);
        if (!ok) return (1, spec);
        (, left) = PorCheckKeys.findFrom(d, p, left, REQUIREMENTS, f);
        if (f[0] == 0) return (1, spec);
        uint256 r;
        (r, p) = requirements(d, f[0], spec, f, true);
        if (r == 1) return (1, spec);
        PorCheckKeys.findFrom(d, p, left, TAIL_KEYS, f);
        (bool s3, uint256 slack) = PorCheckState.countAt(d, f[1]);
        (spec.start, spec.end) = (spec.start > slack ? spec.start - slack : 0, spec.end + slack);
        if (!s3 || !semantics(d, f[0], spec, f)) return (1, spec);
        return (r, spec);
    }

    /// The PromptSpec's top-level keys `readSpecAt` reads, in §2 order (`PorCheckKeys.specTop`).
    bytes internal constant TOP_KEYS =
        "\x06market\x11data_requirements\x14prediction_semantics\x17timestamp_slack_seconds";

    /// `readSpec` from the values of TOP_KEYS (absolute offsets, 0: absent) that the §2
    /// reader's pass over the leaf kept (`PorCheckKeys.specTop`): the leaf's top map is
    /// not walked, market only to its last key read, data_requirements only to R's entry
    /// (the entries after it are not read). The same answers in the same order.
    function readSpecAt(bytes calldata d, PorOneStepCheck.Parts memory parts, uint256[] memory at, uint256[] memory top)
        internal
        pure
        returns (uint256, Spec memory spec)
    {
        spec.rid = requirementOf(d, parts.all[0].leaf, at);
        if (parts.all[1].leafLength == 0 || top[0] == 0 || top[1] == 0) return (1, spec);
        uint256[] memory f = new uint256[](5);
        (bool ok,) = window(d, top[0], spec, f, false);
        if (!ok) return (1, spec);
        (uint256 r,) = requirements(d, top[1], spec, f, false);
        if (r == 1) return (1, spec);
        (bool s3, uint256 slack) = PorCheckState.countAt(d, top[3]);
        (spec.start, spec.end) = (spec.start > slack ? spec.start - slack : 0, spec.end + slack);
        if (!s3 || !semantics(d, top[2], spec, f)) return (1, spec);
        return (r, spec);
    }

    /// data_requirements (at `reqs`): each entry's requirement_id an Id up to R's entry
    /// (the step's at `spec.rid`), read by `entry`: (0, or 1 (malformed), or 2 (no R); the offset after the array
    /// when not 1 and `toEnd`, else 0 once R is read).
    function requirements(bytes calldata d, uint256 reqs, Spec memory spec, uint256[] memory f, bool toEnd)
        private
        pure
        returns (uint256 r, uint256 p)
    {
        (bool isArray, uint256 n, uint256 first) = PorCbor.container(d, reqs, PorCbor.ARRAY);
        if (!isArray) return (1, 0);
        (r, p) = (2, first);
        for (uint256 i = 0; i < n; i++) {
            bool isR;
            (r, isR, p) = entry(d, p, r, spec, f);
            if (r == 1) return (1, 0);
            if (isR && !toEnd) return (0, 0);
        }
    }

    /// The entry at `p` while `r` is 2 (R not met yet: its requirement_id an Id; R's
    /// entry read by `readR`, `spec` set), or after R (walked only): (the new r, whether
    /// it is R, the offset after it). One walk: to source_targets, R's list read in
    /// place (its end from the read) or another's skipped, then the keys after it.
    /// `f` five words: the walk's two, then its end and entries left (`find`).
    function entry(bytes calldata d, uint256 p, uint256 r, Spec memory spec, uint256[] memory f)
        private
        pure
        returns (uint256, bool isR, uint256)
    {
        (bool isMap,,) = PorCbor.container(d, p, PorCbor.MAP);
        // not a map: no requirement_id (1 before R), else stepped over
        if (!isMap) return (r == 2 ? 1 : r, false, PorCbor.skip(d, p));
        (f[2], f[3]) = PorCheckKeys.find(d, p, ENTRY_HEAD, f);
        if (r == 2) {
            (bool idOk,,) = f[0] == 0 ? (false, 0, 0) : PorRecords.isId(d, f[0]);
            if (!idOk) return (1, false, 0);
            isR = PorText.sameText(d, f[0], spec.rid);
        }
        // the walk did not stop at source_targets' value: it is absent or the last
        // entry, and min_provenance_tier (after it) absent: R is malformed
        if (f[2] != 0 || f[3] == 0) {
            if (isR) return (1, true, 0);
            return (r, false, f[2] != 0 ? f[2] : PorCbor.skip(d, p));
        }
        if (!isR) return (r, false, tail(d, p, 0, f));
        return readR(d, p, spec, f);
    }

    /// R's entry at `p`, `entry`'s walk stopped at its source_targets (at `f[1]`, `f[3]`
    /// entries after it; `targetsEnd` uses `f[0..1]` only): the list read, then the keys
    /// after it; (0 or 1, true, the offset after the entry).
    function readR(bytes calldata d, uint256 p, Spec memory spec, uint256[] memory f)
        private
        pure
        returns (uint256, bool, uint256 next)
    {
        uint256 targets = f[1];
        uint256 q = targetsEnd(d, targets, spec, f);
        if (q == 0) return (1, true, 0);
        next = tail(d, p, q, f);
        // ENTRY_TAIL: min_provenance_tier 0, accepted_status_codes 1
        if (!requirement(d, spec, f[0], f[1])) return (1, true, 0);
        return (0, true, next);
    }

    /// The `f[3]` entries after source_targets (at `f[1]`) of the entry at `p`, from `q`
    /// (0: source_targets skipped to find it; ENTRY_TAIL's values into `f`): the offset
    /// after the entry.
    function tail(bytes calldata d, uint256 p, uint256 q, uint256[] memory f) private pure returns (uint256 next) {
        if (q == 0) q = PorCbor.skip(d, f[1]);
        (next,) = PorCheckKeys.findFrom(d, q, f[3], ENTRY_TAIL, f);
        if (next == 0) next = PorCbor.skip(d, p);
    }

    bytes private constant SEMANTICS_KEYS = "\x06metric\x09predicate";

    /// prediction_semantics at `ps`: predicate text, metric an Id (the skipped timestamp
    /// key of a timestamp_threshold predicate); `f` a buffer.
    function semantics(bytes calldata d, uint256 ps, Spec memory spec, uint256[] memory f) private pure returns (bool) {
        PorCheckKeys.find(d, ps, SEMANTICS_KEYS, f);
        (uint256 metric, uint256 predicate) = (f[0], f[1]);
        (bool p1,,) = predicate == 0 ? (false, 0, 0) : PorCbor.str(d, predicate, PorCbor.TEXT);
        (bool p2,,) = metric == 0 ? (false, 0, 0) : PorRecords.isId(d, metric);
        if (p1 && PorCheckState.isWord(d, predicate, 0x7374696d657374616d705f7468726573686f6c64000000000000000000000000, 20)) spec.skip = metric;
        return p1 && p2;
    }

    /// market's keys read, then `PorCheckKeys.ALL`.
    bytes private constant MARKET_KEYS = "\x0fallowed_sources\x11resolution_window\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
    /// market's keys read (`readSpecAt`: its end not needed).
    bytes private constant MARKET_READ = "\x0fallowed_sources\x11resolution_window";
    bytes private constant WINDOW_KEYS = "\x03end\x05start";

    /// market (at `market`).allowed_sources (Ids), the window (`readSpec` widens it by
    /// timestamp_slack_seconds); `end` the offset after market when `toEnd` (walked to its
    /// end), else 0 (walked to its last key read); `f` a buffer.
    function window(bytes calldata d, uint256 market, Spec memory spec, uint256[] memory f, bool toEnd)
        private
        pure
        returns (bool, uint256 end)
    {
        if (toEnd) end = PorCheckKeys.findAll(d, market, MARKET_KEYS, f);
        else PorCheckKeys.find(d, market, MARKET_READ, f);
        uint256 w;
        (spec.allowed, w) = (f[0], f[1]);
        (bool ok,,) = spec.allowed == 0 ? (false, 0, 0) : PorRecords.idList(d, spec.allowed);
        if (!ok || w == 0) return (false, end);
        PorCheckKeys.find(d, w, WINDOW_KEYS, f);
        bool s1;
        bool s2;
        (s1, spec.start) = PorCheckState.countAt(d, f[1]);
        (s2, spec.end) = PorCheckState.countAt(d, f[0]);
        return (s1 && s2, end);
    }

    /// A target's key read, then `PorCheckKeys.ALL`.
    bytes private constant TARGET_KEYS = "\x09source_id\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";

    /// R's source_targets list at `targets`: maps with an Id source_id (`f` a buffer),
    /// their source_ids' text hashes kept in `spec.tags` (the one walk of the list);
    /// the offset after it, else 0.
    function targetsEnd(bytes calldata d, uint256 targets, Spec memory spec, uint256[] memory f)
        private
        pure
        returns (uint256)
    {
        (bool ok, uint256 n, uint256 p) = PorCbor.container(d, targets, PorCbor.ARRAY);
        if (!ok) return 0;
        bytes32[] memory h = new bytes32[](n);
        for (uint256 i = 0; ok && i < n; i++) {
            (uint256 sid, uint256 next) = target(d, p);
            if (next == 0) (next, sid) = (PorCheckKeys.findAll(d, p, TARGET_KEYS, f), f[0]);
            (ok,,) = sid == 0 ? (false, 0, 0) : PorRecords.isId(d, sid);
            (h[i], p) = (PorCheckKeys.textHash(d, sid), next);
        }
        spec.tags = h;
        return ok ? p : 0;
    }

    /// `findAll(d, p, TARGET_KEYS, f)`'s (source_id's value or 0, the offset after the
    /// map) for a map at `p` of fewer than 24 entries whose keys are short texts and whose
    /// values are texts (as targets are written), read by their heads in one loop;
    /// else (0, 0) (the caller walks it).
    function target(bytes calldata d, uint256 p) private pure returns (uint256 sid, uint256 end) {
        assembly ("memory-safe") {
            let b := d.offset
            let n := sub(byte(0, calldataload(add(b, p))), 0xa0)
            if lt(n, 24) {
                let q := add(p, 1)
                for {} n { n := sub(n, 1) } {
                    let w := calldataload(add(b, q))
                    let h := byte(0, w)
                    if iszero(lt(sub(h, 0x60), 24)) { break } // not a short text key
                    let v := add(q, sub(h, 0x5f))
                    if eq(shr(176, w), 0x69736f757263655f6964) { sid := v } // "source_id"
                    let vb := byte(0, calldataload(add(b, v)))
                    if iszero(eq(shr(5, vb), 3)) { break } // not a text value
                    let arg := and(vb, 31)
                    q := add(v, 1)
                    if gt(arg, 23) {
                        let width := shl(sub(arg, 24), 1)
                        arg := shr(sub(256, shl(3, width)), calldataload(add(b, q)))
                        q := add(q, width)
                    }
                    q := add(q, arg)
                }
                if iszero(n) { end := q }
            }
            if iszero(end) { sid := 0 }
        }
    }

    /// R's entry, its source_targets read by `targetsEnd`: its min_provenance_tier (at
    /// `tier`) 0..3 and accepted_status_codes (at `codes`: absent, or 100..599 each).
    function requirement(bytes calldata d, Spec memory spec, uint256 tier, uint256 codes)
        private
        pure
        returns (bool ok)
    {
        spec.codes = codes;
        (ok, spec.minTier) = tier == 0 ? (false, 0) : PorRecords.uintIn(d, tier, 0, 3);
        if (!ok || codes == 0) return ok;
        uint256 n;
        uint256 p;
        (ok, n, p) = PorCbor.container(d, codes, PorCbor.ARRAY);
        for (uint256 i = 0; ok && i < n; i++) {
            (ok,) = PorRecords.uintIn(d, p, 100, 599);
            p = PorCbor.skip(d, p);
        }
    }
}
