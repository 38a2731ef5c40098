// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorJudgeNames} from "./PorJudgeNames.sol";
import {PorJudgeRules} from "./PorJudgeRules.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorJudgeVerdict: the JudgeProof's committed verdict record (SPEC §4.5), read in
/// `PorJudgeExec` (not in `PorJudgeCore`, whose code is near the EIP-170 limit; ADR 0013
/// s38 judge8 addendum).
/// @notice `words` checks that the verdict leaf is a valid por.DeterministicVerdict/1 and
/// answers the few values the judge's decision compares (`Committed`), handed to the core
/// after the parts' words (`PorJudgeCheck.decideFlat`).
library PorJudgeVerdict {
    /// What the core reads of a valid committed verdict, `WORDS` words in this order.
    struct Committed {
        uint256 evidenceCount; // evidence_count
        uint256 confidence; // confidence_bps
        uint256 time; // resolution_time; ABSENT when the key is absent
        uint256 outcome; // YES 1, NO 2, INVALID 3
        uint256 rule; // the rule id's code (PorJudgeRules.R_*)
        uint256 market; // the market_id text item's offset in the proof
    }

    uint256 internal constant WORDS = 6;
    /// `Committed.time` of a verdict without resolution_time: no window end equals it
    /// (an end is at most PorJudgeRules.MAX_TIME).
    uint256 internal constant ABSENT = type(uint256).max;

    /// DeterministicVerdict fields, canonical order (`resolution_time` optional: VERDICT_KEYS
    /// without it is the same list less its ninth key).
    bytes internal constant VERDICT_KEYS =
        "\x06schema\x07outcome\x09market_id\x0devidence_root\x0econfidence_bps\x0eevidence_count\x0ereasoning_root\x0freasoning_count\x0fresolution_time\x10prompt_spec_hash\x12resolution_rule_id";
    /// Where `\x0fresolution_time` sits in VERDICT_KEYS.
    uint256 private constant TIME_KEY = 100;
    uint256 private constant V_OUTCOME = 1;
    uint256 private constant V_MARKET = 2;
    uint256 private constant V_CONFIDENCE = 4;
    uint256 private constant V_EVIDENCE_COUNT = 5;

    /// The verdict leaf `d[leaf:leaf + length]` is a valid por.DeterministicVerdict/1 (SPEC
    /// §4.5): (true, its `Committed` words written at memory `to`), else false.
    function words(bytes calldata d, uint256 leaf, uint256 length, uint256 to) internal pure returns (bool ok) {
        uint256[] memory at;
        (ok, at) = record(d, leaf, length);
        if (!ok) return false;
        Committed memory c;
        assembly ("memory-safe") {
            c := to
        }
        (, c.evidenceCount) = PorCbor.uintAt(d, at[V_EVIDENCE_COUNT]);
        (, c.confidence) = PorCbor.uintAt(d, at[V_CONFIDENCE]);
        c.time = ABSENT;
        if (at[8] != 0) (, c.time) = PorCbor.uintAt(d, at[8]);
        c.outcome = outcomeCode(d, at[V_OUTCOME]);
        c.rule = PorJudgeNames.ruleCode(d, at[10]);
        c.market = at[V_MARKET];
        return c.outcome != 0 && c.rule != 5;
    }

    /// The verdict leaf's value offsets (absolute) when its keys are VERDICT_KEYS (with or
    /// without resolution_time, whose 0 is kept when absent) and its values' types hold.
    function record(bytes calldata d, uint256 leafAt, uint256 length)
        private
        pure
        returns (bool ok, uint256[] memory at)
    {
        bytes calldata leaf = d[leafAt:leafAt + length];
        // the §2 pass keeps the top-level items' offsets (`PorCbor.check`'s answer): a
        // verdict is a map of 11 entries (VERDICT_KEYS) or 10 (without resolution_time),
        // its keys read from those offsets (`PorRecords.topFields`, no walk)
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(leaf);
        if (err != 0 || (top.length != 22 && top.length != 20)) return (false, at);
        bytes memory keys = VERDICT_KEYS;
        if (top.length == 20) {
            assembly ("memory-safe") {
                let from := add(add(keys, 32), TIME_KEY)
                mcopy(from, add(from, 16), sub(mload(keys), add(TIME_KEY, 16)))
                mstore(keys, sub(mload(keys), 16))
            }
        }
        (ok, at) = PorRecords.topFields(leaf, top, keys);
        if (!ok) return (false, at);
        if (at.length == 10) {
            uint256[] memory short = at;
            at = new uint256[](11);
            for (uint256 i = 0; i < 10; i++) at[i < 8 ? i : i + 1] = short[i];
        }
        assembly ("memory-safe") {
            // rebased (absolute in `d`; offsets in calldata: no overflow), resolution_time's
            // 0 (absent) kept; `at` is 11 words here
            for { let q := add(at, 32) } lt(q, add(at, 0x180)) { q := add(q, 32) } {
                mstore(q, add(mload(q), leafAt))
            }
            let t := add(at, 0x120) // at[8]
            if eq(mload(t), leafAt) { mstore(t, 0) }
        }
        ok = types(d, at);
    }

    function types(bytes calldata d, uint256[] memory at) private pure returns (bool ok) {
        (ok,,) = PorRecords.isId(d, at[V_MARKET]);
        (bool c,) = PorRecords.uintIn(d, at[V_CONFIDENCE], 0, 10_000);
        (bool e,) = PorRecords.uintIn(d, at[V_EVIDENCE_COUNT], 0, PorRecords.MAX_COUNT);
        (bool r,) = PorRecords.uintIn(d, at[7], 0, PorRecords.MAX_COUNT);
        bool t = true;
        if (at[8] != 0) (t,) = PorRecords.uintIn(d, at[8], 0, PorJudgeRules.MAX_TIME);
        (bool h1,) = PorCbor.hashAt(d, at[3]);
        (bool h2,) = PorCbor.hashAt(d, at[6]);
        (bool h3,) = PorCbor.hashAt(d, at[9]);
        ok = ok && c && e && r && t && h1 && h2 && h3 && PorJudgeRules.textIs(d, at[0], PorJudgeRules.T_VERDICT_SCHEMA);
    }

    /// YES 1, NO 2, INVALID 3; 0 for another item.
    function outcomeCode(bytes calldata d, uint256 pos) private pure returns (uint8) {
        return (PorJudgeRules.pick(d, pos, "\x03YES\x02NO\x07INVALID") + 1) % 4;
    }
}
