// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorJudgeVerdict} from "../PorJudgeVerdict.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";

/// @title PorFormProofVerdict: `F` VERDICT (SPEC §5.6.12) of a `por.DeterministicVerdict/1`
/// leaf, built from its por-cbor/1 bytes (ADR 0017, s41 addendum `fpmap`: the FormProof on
/// chain, third family).
/// @notice `form(leaf)` answers (valid, defined, F). Validity is `PorJudgeVerdict.words`'s
/// (the JudgeProof's reader of the committed verdict, SPEC §4.5: the eleven keys or ten
/// without `resolution_time`, their types and ranges, `outcome` one of three and
/// `resolution_rule_id` one of the five rule ids: §4.5 fixes both sets). On a valid verdict
/// `F` is always defined: §4.5's ranges are §5.6.12's (`confidence_bps` 0..10000, counts and
/// time 0..2^63-1) and its rule ids the five codes. Twelve words: W(9) H(market_id)
/// E(outcome: YES 0, NO 1, INVALID 2) W(confidence_bps) E(rule: 1..5) O(resolution_time)
/// B32(prompt_spec_hash) B32(evidence_root) W(evidence_count) B32(reasoning_root)
/// W(reasoning_count).
library PorFormProofVerdict {
    uint256 internal constant TAG = 9;

    /// `F` VERDICT of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        PorJudgeVerdict.Committed memory c;
        uint256 to;
        assembly ("memory-safe") {
            to := c
        }
        if (!PorJudgeVerdict.words(leaf, 0, leaf.length, to)) return (false, false, f);
        // the reads that allocate (the keys' texts) before the build, which writes past the
        // free memory pointer
        uint256 psh = hash(leaf, "prompt_spec_hash");
        uint256 er = hash(leaf, "evidence_root");
        uint256 rr = hash(leaf, "reasoning_root");
        (, uint256 n) = PorCbor.uintAt(leaf, PorCbor.get(leaf, 0, "reasoning_count"));
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = D.word(base + 32, TAG);
        w = D.hashed(leaf, w, c.market);
        w = D.word(w, c.outcome - 1); // PorJudgeVerdict: YES 1, NO 2, INVALID 3
        w = D.word(w, c.confidence);
        w = D.word(w, c.rule + 1); // PorJudgeNames.ruleCode: R_VALIDITY 0 .. R_INVALID_FALLBACK 4
        w = c.time == PorJudgeVerdict.ABSENT ? D.word(D.word(w, 0), 0) : D.word(D.word(w, 1), c.time);
        w = D.word(w, psh);
        w = D.word(w, er);
        w = D.word(w, c.evidenceCount);
        w = D.word(w, rr);
        w = D.word(w, n);
        (defined, f) = D.close(base, w);
        valid = true;
    }

    /// The 32-byte byte string under `key` of the valid verdict `leaf`.
    function hash(bytes calldata leaf, bytes memory key) private pure returns (uint256) {
        (, bytes32 h) = PorCbor.hashAt(leaf, PorCbor.get(leaf, 0, key));
        return uint256(h);
    }
}
