// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorJudgeRules} from "./PorJudgeRules.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorJudgeVars: the final map step's evaluation variables (SPEC §4.4) read as
/// `variables_from` for the JudgeProof (`PorJudgeCheck.variables`).
library PorJudgeVars {
    uint8 private constant NULL = 0xf6;

    /// The entries of the evaluation variables at `vars` into `v`.
    function entries(bytes calldata d, uint256 vars, PorJudgeRules.Vars memory v) internal pure {
        (bool isMap, uint256 n, uint256 p) = PorCbor.container(d, vars, PorCbor.MAP);
        if (vars == 0 || !isMap) return;
        uint256 seenFlags = 0;
        bool summaryOk = false;
        for (uint256 i = 0; i < n; i++) {
            (uint256 w, uint256 value) = PorKeyIndex.entry(d, p);
            (uint256 flag, bool ok) = variable(d, w, value, v);
            if (!ok) return;
            if (flag == 5) summaryOk = true;
            else if (flag != 0) seenFlags |= 1 << flag;
            p = PorCbor.skip(d, value);
        }
        v.valid = summaryOk && seenFlags == 0x1e;
    }

    /// One entry (key word `w`, value at `value`): (1..4 a flag, 5 source_summary, 0 other
    /// known, ok false for an unknown key or a bad value).
    function variable(bytes calldata d, uint256 w, uint256 value, PorJudgeRules.Vars memory v)
        private
        pure
        returns (uint256 flag, bool ok)
    {
        uint8 name = nameOf(w);
        if (name == 8) return (0, false);
        if (uint8(d[value]) == NULL) return (0, name == 4 || name >= 6); // optional: null is absent
        bool b;
        if (name < 5) {
            (ok, b) = PorCbor.boolAt(d, value);
            if (name == 0) v.conflict = b;
            else if (name == 1) v.insufficient = b;
            else if (name == 2) v.fallbackUsed = b;
            else if (name == 3) v.provenanceOk = b;
            else v.observed = b ? 2 : 1;
            return (name == 4 ? 0 : name + 1, ok);
        }
        if (name == 5) {
            uint256 first;
            (ok, v.summaryCount, first) = PorRecords.idList(d, value);
            // the list `citations` read (the same first id): its answer
            bool repeats = first == v.summaryFirst ? v.summaryRepeats : PorRecords.hasRepeat(d, first, v.summaryCount);
            return (5, ok && !repeats);
        }
        if (name == 6) {
            (bool text, uint256 off, uint256 len) = PorCbor.str(d, value, PorCbor.TEXT);
            v.numericValue = value;
            return (0, text && PorDecimal.isCanonical(d, off, len));
        }
        v.hasTimestamp = true;
        (ok, v.timestamp) = PorRecords.uintIn(d, value, 0, PorJudgeRules.MAX_TIME);
        return (0, ok);
    }

    /// The evaluation variable (SPEC §4.4) whose key word is `w` (`PorKeyIndex.entry`'s;
    /// `PorJudgeRules.pick` of these names): the four flags (codes 0-3), event_observed
    /// 4, source_summary 5, numeric_value 6, timestamp 7; 8 another key.
    function nameOf(uint256 w) private pure returns (uint8) {
        if (w == uint256(bytes32("conflict_detected")) | 17) return 0;
        if (w == uint256(bytes32("insufficient_evidence")) | 21) return 1;
        if (w == uint256(bytes32("fallback_used")) | 13) return 2;
        if (w == uint256(bytes32("provenance_ok")) | 13) return 3;
        if (w == uint256(bytes32("event_observed")) | 14) return 4;
        if (w == uint256(bytes32("source_summary")) | 14) return 5;
        if (w == uint256(bytes32("numeric_value")) | 13) return 6;
        return w == uint256(bytes32("timestamp")) | 9 ? 7 : 8;
    }
}
