// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorCheckSpec: what a `check_requirement` chunk reads of the PromptSpec (SPEC
/// §14.8: market.allowed_sources, resolution_window, timestamp_slack_seconds, R's
/// source_targets, accepted_status_codes and min_provenance_tier,
/// prediction_semantics.predicate and metric), each field's type checked as §4.2 states it.
library PorCheckSpec {
    /// What the chunk reads of the PromptSpec (positions in the proof).
    struct Spec {
        uint256 allowed; // market.allowed_sources
        uint256 targets; // R's source_targets
        uint256 codes; // R's accepted_status_codes, 0 when absent
        uint256 minTier;
        uint256 start; // the window, widened by the slack
        uint256 end;
        uint256 skip; // the metric of a timestamp_threshold predicate, else 0
    }

    /// The position of the step's inputs.requirement_id (text: `PorRecords.computation`).
    function requirementOf(bytes calldata d, uint256 sb, uint256[] memory at) internal pure returns (uint256) {
        return PorCheckState.key(d, sb + at[PorRecords.STEP_INPUTS], 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15);
    }

    bytes private constant SPEC_KEYS = "\x06market\x11data_requirements\x14prediction_semantics\x17timestamp_slack_seconds";
    bytes private constant REQ_ID = "\x0erequirement_id";

    /// (0, spec) or 1 (a field read is malformed: one_step.invalid_record) or 2 (no
    /// requirement R: step.bad_inputs). Each map is walked once for the keys read of it
    /// (`PorCheckKeys.find`).
    function readSpec(bytes calldata d, PorOneStepCheck.Parts memory parts, uint256[] memory at)
        internal
        pure
        returns (uint256, Spec memory spec)
    {
        uint256 base = parts.all[1].leaf;
        uint256 rid = requirementOf(d, parts.all[0].leaf, at);
        // The leaf passed the §2 reader (the caller checked it).
        if (parts.all[1].leafLength == 0) return (1, spec);
        uint256[] memory f = new uint256[](4);
        PorCheckKeys.find(d, base, SPEC_KEYS, f);
        (uint256 reqs, uint256 ps) = (f[1], f[2]);
        if (!window(d, f[0], f[3], spec, f)) return (1, spec);
        if (!semantics(d, ps, spec, f)) return (1, spec);
        return (requirements(d, reqs, rid, spec, f), spec);
    }

    /// data_requirements (at `reqs`): each entry's requirement_id an Id up to R's entry,
    /// read by `requirement`: 0, or 1 (malformed), or 2 (no R).
    function requirements(bytes calldata d, uint256 reqs, uint256 rid, Spec memory spec, uint256[] memory f)
        private
        pure
        returns (uint256)
    {
        (bool isArray, uint256 n, uint256 p) = reqs == 0 ? (false, 0, 0) : PorCbor.container(d, reqs, PorCbor.ARRAY);
        if (!isArray) return 1;
        for (uint256 i = 0; i < n; i++) {
            PorCheckKeys.find(d, p, REQ_ID, f);
            (bool idOk,,) = f[0] == 0 ? (false, 0, 0) : PorRecords.isId(d, f[0]);
            if (!idOk) return 1;
            if (PorCheckKeys.sameText(d, f[0], rid)) return requirement(d, p, spec, f) ? 0 : 1;
            p = PorCbor.skip(d, p);
        }
        return 2;
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

    bytes private constant MARKET_KEYS = "\x0fallowed_sources\x11resolution_window";
    bytes private constant WINDOW_KEYS = "\x03end\x05start";

    /// market (at `market`).allowed_sources (Ids), the window widened by
    /// timestamp_slack_seconds (at `slackAt`); `f` a buffer.
    function window(bytes calldata d, uint256 market, uint256 slackAt, Spec memory spec, uint256[] memory f)
        private
        pure
        returns (bool)
    {
        PorCheckKeys.find(d, market, MARKET_KEYS, f);
        uint256 w;
        (spec.allowed, w) = (f[0], f[1]);
        (bool ok,,) = spec.allowed == 0 ? (false, 0, 0) : PorRecords.idList(d, spec.allowed);
        if (!ok || w == 0) return false;
        PorCheckKeys.find(d, w, WINDOW_KEYS, f);
        (bool s1, uint256 start) = PorCheckState.countAt(d, f[1]);
        (bool s2, uint256 end) = PorCheckState.countAt(d, f[0]);
        (bool s3, uint256 slack) = PorCheckState.countAt(d, slackAt);
        (spec.start, spec.end) = (start > slack ? start - slack : 0, end + slack);
        return s1 && s2 && s3;
    }

    bytes private constant REQ_KEYS = "\x0esource_targets\x13min_provenance_tier\x15accepted_status_codes";

    /// R's (at `r`) source_targets (maps with an Id source_id), min_provenance_tier 0..3
    /// and accepted_status_codes (absent, or 100..599 each); `f` a buffer.
    function requirement(bytes calldata d, uint256 r, Spec memory spec, uint256[] memory f) private pure returns (bool) {
        PorCheckKeys.find(d, r, REQ_KEYS, f);
        (spec.targets, spec.codes) = (f[0], f[2]);
        uint256 tier = f[1];
        (bool ok, uint256 n, uint256 p) = spec.targets == 0 ? (false, 0, 0) : PorCbor.container(d, spec.targets, PorCbor.ARRAY);
        for (uint256 i = 0; ok && i < n; i++) {
            uint256 sid = PorCheckState.key(d, p, 0x69736f757263655f696400000000000000000000000000000000000000000000, 10);
            (ok,,) = sid == 0 ? (false, 0, 0) : PorRecords.isId(d, sid);
            p = PorCbor.skip(d, p);
        }
        bool tierOk;
        (tierOk, spec.minTier) = tier == 0 ? (false, 0) : PorRecords.uintIn(d, tier, 0, 3);
        if (!ok || !tierOk) return false;
        if (spec.codes == 0) return true;
        (ok, n, p) = PorCbor.container(d, spec.codes, PorCbor.ARRAY);
        for (uint256 i = 0; ok && i < n; i++) {
            (ok,) = PorRecords.uintIn(d, p, 100, 599);
            p = PorCbor.skip(d, p);
        }
        return ok;
    }
}
