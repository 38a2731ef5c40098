// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCheckAdmit} from "../PorCheckAdmit.sol";
import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofExtractRead as X} from "./PorFormProofExtractRead.sol";

/// @title PorFormProofExtract: `F` EXTRACT (SPEC §5.6.5, tag 3) of a `por.ReasoningStep/1`
/// leaf whose `inputs.kind` is `extract_claims`, built from its por-cbor/1 bytes with
/// `PorFormProofDeduce`'s writers (ADR 0017, s42 addendum `fpextract`).
/// @notice `form(leaf)` answers (valid, defined, F) as `PorFormProofDeduce.form` does (the
/// same validity and identity prologue); a valid step of another kind reverts
/// `PorFormProofDeduce.OtherFamily(kind)`. `F` EXTRACT is not injective (§5.6.5: what the
/// chunk, the aggregate and the judge read; no rest word) and is undefined when
/// `output.card` is absent, not a map, or has other keys than exactly its five; a card value
/// is not an integer in its range (`provenance_tier` 0..3, `status_code` 100..599,
/// `retrieved_at` 0..2^63-1, `confidence_bps` 0..10000) or `source_id` not a text;
/// `output.evidence_id` or `requirement_id` absent or not a text; `output.claims` absent
/// or not an array, a claim not a map, its `key`/`claim_id` not texts, its `kind` not one
/// of the four, its `value` not of its kind (`V_kind`: `D`, `B`, `W`, `H`).
/// Words: W(3) H(step_id) H(card.source_id) W(card.provenance_tier) H(evidence_id)
/// T(evidence_id) L[H(key) E(kind) H(claim_id) V_kind(value)](claims) H(requirement_id)
/// W(card.status_code) W(card.retrieved_at) W(card.confidence_bps) B(blank source).
/// Two phases as DEDUCE's: the reads that allocate (one walk of the output: its named
/// values' offsets and each claim's four, `PorFormProofExtractRead.output`; the card's
/// five), then the build from the free memory pointer, which allocates nothing.
library PorFormProofExtract {
    uint256 internal constant TAG = 3;

    /// Key words (`PorKeyIndex`'s: the key's bytes left-aligned, its length in the low byte).
    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_CARD = uint256(bytes32("card")) | 4;
    uint256 private constant K_CLAIMS = uint256(bytes32("claims")) | 6;
    uint256 private constant K_EVIDENCE = uint256(bytes32("evidence_id")) | 11;
    uint256 private constant K_REQUIREMENT = uint256(bytes32("requirement_id")) | 14;
    uint256 private constant K_SOURCE = uint256(bytes32("source_id")) | 9;
    uint256 private constant K_STATUS = uint256(bytes32("status_code")) | 11;
    uint256 private constant K_RETRIEVED = uint256(bytes32("retrieved_at")) | 12;
    uint256 private constant K_CONFIDENCE = uint256(bytes32("confidence_bps")) | 14;
    uint256 private constant K_TIER = uint256(bytes32("provenance_tier")) | 15;
    uint256 private constant K_KEY = uint256(bytes32("key")) | 3;
    uint256 private constant K_CLAIM_ID = uint256(bytes32("claim_id")) | 8;
    uint256 private constant K_VALUE = uint256(bytes32("value")) | 5;

    /// The output's keys the layout reads, in `outputNames` order.
    uint256 private constant O_CARD = 0;
    uint256 private constant O_CLAIMS = 1;
    uint256 private constant O_EVIDENCE = 2;
    uint256 private constant O_REQUIREMENT = 3;
    /// The card's five keys, in `cardNames` order.
    uint256 private constant C_SOURCE = 0;
    uint256 private constant C_STATUS = 1;
    uint256 private constant C_RETRIEVED = 2;
    uint256 private constant C_CONFIDENCE = 3;
    uint256 private constant C_TIER = 4;

    uint256 private constant TIME_MAX = (1 << 63) - 1;
    uint256 private constant BPS_MAX = 10_000;

    /// `F` EXTRACT of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.EXTRACT_CLAIMS) revert D.OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// `F` EXTRACT of a valid extract step (`at`: `PorRecords.reasoningStep`'s offsets):
    /// (defined, F).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        uint256[] memory o = new uint256[](4);
        (bool ok, uint256[] memory slots) = X.output(leaf, at[PorRecords.STEP_OUTPUT], outputNames(), o, O_CLAIMS,
            claimNames());
        if (!ok || o[O_CARD] == 0) return (false, f);
        uint256[] memory c = new uint256[](5);
        (bool isMap, uint256 n,) = X.find(leaf, o[O_CARD], cardNames(), c);
        // exactly its five keys: five entries, each one of the five (a map's keys are distinct)
        if (!isMap || n != 5 || c[0] == 0 || c[1] == 0 || c[2] == 0 || c[3] == 0 || c[4] == 0) return (false, f);
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = D.word(base + 32, TAG);
        w = D.hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = D.hashed(leaf, w, c[C_SOURCE]);
        w = X.ranged(leaf, w, c[C_TIER], 0, 3);
        w = D.hashed(leaf, w, o[O_EVIDENCE]);
        w = D.text(leaf, w, o[O_EVIDENCE]);
        w = X.claims(leaf, w, o[O_CLAIMS], slots);
        w = D.hashed(leaf, w, o[O_REQUIREMENT]);
        w = X.ranged(leaf, w, c[C_STATUS], 100, 599);
        w = X.ranged(leaf, w, c[C_RETRIEVED], 0, TIME_MAX);
        w = X.ranged(leaf, w, c[C_CONFIDENCE], 0, BPS_MAX);
        // the blank-source flag: source_id is a text here (its H written above, else w is 0)
        if (w != 0) w = D.word(w, PorCheckAdmit.blank(leaf, c[C_SOURCE]) ? 1 : 0);
        return D.close(base, w);
    }

    function outputNames() private pure returns (uint256[] memory n) {
        n = new uint256[](4);
        (n[O_CARD], n[O_CLAIMS], n[O_EVIDENCE], n[O_REQUIREMENT]) = (K_CARD, K_CLAIMS, K_EVIDENCE, K_REQUIREMENT);
    }

    function cardNames() private pure returns (uint256[] memory n) {
        n = new uint256[](5);
        (n[C_SOURCE], n[C_STATUS], n[C_RETRIEVED]) = (K_SOURCE, K_STATUS, K_RETRIEVED);
        (n[C_CONFIDENCE], n[C_TIER]) = (K_CONFIDENCE, K_TIER);
    }

    /// A claim's keys the layout reads, in `PorFormProofExtractRead.claims`' slot order.
    function claimNames() private pure returns (uint256[] memory n) {
        n = new uint256[](4);
        (n[0], n[1], n[2], n[3]) = (K_KEY, K_KIND, K_CLAIM_ID, K_VALUE);
    }
}
