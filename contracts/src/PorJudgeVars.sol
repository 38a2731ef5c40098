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
        // the word as a short constant: the key's bytes, then its length (`PorKeyIndex.semantics`'
        // form; a long key's word 0 gives 0, no name)
        assembly ("memory-safe") {
            let len := and(w, 0xff)
            w := or(shr(shl(3, sub(31, len)), w), len)
        }
        if (w == 0x636f6e666c6963745f646574656374656411) return 0; // conflict_detected
        if (w == 0x696e73756666696369656e745f65766964656e636515) return 1; // insufficient_evidence
        if (w == 0x66616c6c6261636b5f757365640d) return 2; // fallback_used
        if (w == 0x70726f76656e616e63655f6f6b0d) return 3; // provenance_ok
        if (w == 0x6576656e745f6f627365727665640e) return 4; // event_observed
        if (w == 0x736f757263655f73756d6d6172790e) return 5; // source_summary
        if (w == 0x6e756d657269635f76616c75650d) return 6; // numeric_value
        return w == 0x74696d657374616d7009 ? 7 : 8; // timestamp
    }
}
