// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorJudgeRules} from "./PorJudgeRules.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorJudgeVars: the final map step's evaluation variables (SPEC §4.4) read as
/// `variables_from` for the JudgeProof (`PorJudgeCheck.variables`).
library PorJudgeVars {
    uint8 private constant NULL = 0xf6;

    /// The entries of the evaluation variables at `vars` into `v`: each entry's key named
    /// by one switch (`nameAt`), a one-byte value (an int 0..23, false, true, null, undefined) stepped over without
    /// `PorCbor.skip`.
    function entries(bytes calldata d, uint256 vars, PorJudgeRules.Vars memory v) internal pure {
        (bool isMap, uint256 n, uint256 p) = PorCbor.container(d, vars, PorCbor.MAP);
        if (vars == 0 || !isMap) return;
        uint256 seenFlags = 0;
        bool summaryOk = false;
        for (uint256 i = 0; i < n; i++) {
            (uint8 name, uint256 value) = nameAt(d, p);
            (uint256 flag, bool ok) = variable(d, name, value, v);
            if (!ok) return;
            if (flag == 5) summaryOk = true;
            else if (flag != 0) seenFlags |= 1 << flag;
            uint256 next;
            assembly ("memory-safe") {
                let hb := byte(0, calldataload(add(d.offset, value)))
                if or(lt(hb, 0x18), eq(shr(2, hb), 0x3d)) { next := add(value, 1) }
            }
            p = next != 0 ? next : PorCbor.skip(d, value);
        }
        v.valid = summaryOk && seenFlags == 0x1e;
    }

    /// One entry (its key's name, `nameAt`; value at `value`): (1..4 a flag, 5
    /// source_summary, 0 other known, ok false for an unknown key or a bad value).
    function variable(bytes calldata d, uint8 name, uint256 value, PorJudgeRules.Vars memory v)
        private
        pure
        returns (uint256 flag, bool ok)
    {
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

    /// The evaluation variable (SPEC §4.4) named by the key of the map entry at `p` (the
    /// four flags (codes 0-3), event_observed 4, source_summary 5, numeric_value 6,
    /// timestamp 7; 8 another key) and its value's offset: the key read as
    /// `PorKeyIndex.entry` reads it, a key under 32 bytes as a short constant (its bytes,
    /// then its length; `PorKeyIndex.semantics`' form; the empty key 0, no name).
    function nameAt(bytes calldata d, uint256 p) private pure returns (uint8 name, uint256 value) {
        assembly ("memory-safe") {
            let len := and(byte(0, calldataload(add(d.offset, p))), 31)
            value := add(p, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(add(d.offset, value)))
                value := add(value, width)
            }
            name := 8
            if lt(len, 32) {
                switch or(shl(8, shr(shl(3, sub(32, len)), calldataload(add(d.offset, value)))), len)
                case 0x636f6e666c6963745f646574656374656411 { name := 0 } // conflict_detected
                case 0x696e73756666696369656e745f65766964656e636515 { name := 1 } // insufficient_evidence
                case 0x66616c6c6261636b5f757365640d { name := 2 } // fallback_used
                case 0x70726f76656e616e63655f6f6b0d { name := 3 } // provenance_ok
                case 0x6576656e745f6f627365727665640e { name := 4 } // event_observed
                case 0x736f757263655f73756d6d6172790e { name := 5 } // source_summary
                case 0x6e756d657269635f76616c75650d { name := 6 } // numeric_value
                case 0x74696d657374616d7009 { name := 7 } // timestamp
            }
            value := add(value, len)
        }
    }
}
