// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";

/// @title PorJudgeNames: names the JudgeProof's judge reads, each told by one switch on a
/// short constant (a text's bytes, then its length; ADR 0013 s37 dj6 cut 5's form): the
/// rule ids (`ruleCode`, for `PorJudgeRules.rule` and `PorJudgeVerdict`) and
/// confidence_policy's factors (`factors`, for `PorJudgeRules.policies`).
library PorJudgeNames {
    /// The code of the rule id at `pos` (SPEC §4.5, in RuleId's order: R_VALIDITY 0 ..
    /// R_INVALID_FALLBACK 4), 5 for any other item (`pick` of the five names): a text
    /// under 24 bytes as a short constant (its bytes, then its length; the empty text 0,
    /// no case) switched on.
    function ruleCode(bytes calldata d, uint256 pos) internal pure returns (uint8 r) {
        assembly ("memory-safe") {
            r := 5
            let ib := byte(0, calldataload(add(d.offset, pos)))
            let len := sub(ib, 0x60)
            if lt(len, 24) {
                switch or(shl(8, shr(shl(3, sub(32, len)), calldataload(add(d.offset, add(pos, 1))))), len)
                case 0x525f56414c49444954590a { r := 0 } // R_VALIDITY
                case 0x525f434f4e464c4943540a { r := 1 } // R_CONFLICT
                case 0x525f42494e4152595f4445434953494f4e11 { r := 2 } // R_BINARY_DECISION
                case 0x525f434f4e464944454e43450c { r := 3 } // R_CONFIDENCE
                case 0x525f494e56414c49445f46414c4c4241434b12 { r := 4 } // R_INVALID_FALLBACK
            }
        }
    }

    /// The value offsets of confidence_policy's five factors in the map at `pos` (0:
    /// absent, or `pos` not a map), in `Spec.policy`'s order: `PorKeyIndex.index` then
    /// `find` of each (§2 keys are unique), from one walk, each key's word (`entry`)
    /// switched on as a short constant (as `PorKeyIndex.semantics`).
    function factors(bytes calldata d, uint256 pos) internal pure returns (uint256[5] memory at) {
        (bool isMap, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!isMap) return at;
        while (n != 0) {
            (uint256 w, uint256 v) = PorKeyIndex.entry(d, p);
            assembly ("memory-safe") {
                n := sub(n, 1) // not 0: no underflow
                // the key's bytes then its length (a long key's word 0 gives 0, no case)
                let len := and(w, 0xff)
                switch or(shr(shl(3, sub(31, len)), w), len)
                case 0x64656661756c745f636f6e666964656e63655f62707316 { mstore(at, v) } // default_confidence_bps
                case 0x6d696e5f636f6e666964656e63655f666f725f7965736e6f5f6270731c { mstore(add(at, 0x20), v) } // min_confidence_for_yesno_bps
                case 0x636f6e666c6963745f666163746f725f62707313 { mstore(add(at, 0x40), v) } // conflict_factor_bps
                case 0x66616c6c6261636b5f666163746f725f62707313 { mstore(add(at, 0x60), v) } // fallback_factor_bps
                case 0x696e76616c69645f636f6e666964656e63655f62707316 { mstore(add(at, 0x80), v) } // invalid_confidence_bps
            }
            p = PorCbor.skip(d, v);
        }
    }
}
