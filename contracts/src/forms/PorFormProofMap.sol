// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";

/// @title PorFormProofMap: `F` MAP (SPEC §5.6.11) of a `por.ReasoningStep/1` leaf, built from
/// its por-cbor/1 bytes with `PorFormProofDeduce`'s readers and writers (ADR 0017, s41
/// addendum `fpmap`: the FormProof on chain, second family).
/// @notice `form(leaf)` answers (valid, defined, F) as `PorFormProofDeduce.form` does; a valid
/// step of another kind reverts `PorFormProofDeduce.OtherFamily(kind)`. `F` MAP is undefined
/// when `output.evaluation_variables` is absent or not a map, or one of its four flags or
/// `source_summary` is absent, or a value has the wrong type (`P[D]`'s decimal not canonical,
/// `P[W]`'s timestamp not an integer 0..2^64-1, a summary item not a text).
library PorFormProofMap {
    uint256 internal constant TAG = 8;

    /// Key words (`PorKeyIndex`'s: the key's bytes left-aligned, its length in the low byte).
    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_VARIABLES = uint256(bytes32("evaluation_variables")) | 20;
    uint256 private constant K_EVENT = uint256(bytes32("event_observed")) | 14;
    uint256 private constant K_VALUE = uint256(bytes32("numeric_value")) | 13;
    uint256 private constant K_TIMESTAMP = uint256(bytes32("timestamp")) | 9;
    uint256 private constant K_CONFLICT = uint256(bytes32("conflict_detected")) | 17;
    uint256 private constant K_INSUFFICIENT = uint256(bytes32("insufficient_evidence")) | 21;
    uint256 private constant K_FALLBACK = uint256(bytes32("fallback_used")) | 13;
    uint256 private constant K_PROVENANCE = uint256(bytes32("provenance_ok")) | 13;
    uint256 private constant K_SUMMARY = uint256(bytes32("source_summary")) | 14;

    /// `F` MAP of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.MAP) revert D.OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// `F` MAP of a valid map step (`at`: `PorRecords.reasoningStep`'s offsets): (defined, F).
    /// Words: W(8) H(step_id) Ri L[H](priors) L[H](evidence) P[B](event) P[D](value)
    /// P[W](timestamp) B(conflict) B(insufficient) B(fallback) B(provenance) L[H](summary)
    /// R(v, the eight) R(output, {evaluation_variables}) T(description).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        uint256[] memory names = new uint256[](1);
        names[0] = K_KIND;
        (uint256 ri,) = D.rest(leaf, at[PorRecords.STEP_INPUTS], names);
        names[0] = K_VARIABLES;
        (uint256 ro, uint256[] memory o) = D.rest(leaf, at[PorRecords.STEP_OUTPUT], names);
        if (o[0] == 0) return (false, f);
        (bool isMap,,) = PorCbor.container(leaf, o[0], PorCbor.MAP);
        if (!isMap) return (false, f);
        (uint256 rv, uint256[] memory v) = D.rest(leaf, o[0], variableNames());
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = D.word(base + 32, TAG);
        w = D.hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = D.word(w, ri);
        w = D.texts(leaf, w, at[PorRecords.STEP_PRIOR], false);
        w = D.texts(leaf, w, at[PorRecords.STEP_EVIDENCE], false);
        w = v[0] == 0 ? D.word(w, 0) : D.flag(leaf, D.word(w, 1), v[0]);
        w = v[1] == 0 ? D.word(w, 0) : D.decimal(leaf, D.word(w, 1), v[1]);
        w = v[2] == 0 ? D.word(w, 0) : D.integer(leaf, D.word(w, 1), v[2]);
        for (uint256 i = 3; i < 7; i++) {
            w = D.flag(leaf, w, v[i]);
        }
        w = D.texts(leaf, w, v[7], false);
        w = D.word(w, rv);
        w = D.word(w, ro);
        w = D.text(leaf, w, at[PorRecords.STEP_DESCRIPTION]);
        return D.close(base, w);
    }

    /// The variables the layout names, in form order (SPEC §4.4's list, `VARIABLES`).
    function variableNames() private pure returns (uint256[] memory n) {
        n = new uint256[](8);
        (n[0], n[1], n[2], n[3]) = (K_EVENT, K_VALUE, K_TIMESTAMP, K_CONFLICT);
        (n[4], n[5], n[6], n[7]) = (K_INSUFFICIENT, K_FALLBACK, K_PROVENANCE, K_SUMMARY);
    }
}
