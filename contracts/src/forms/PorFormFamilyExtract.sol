// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofExtract} from "./PorFormProofExtract.sol";

/// @title PorFormFamilyExtract: the FormProof's EXTRACT family (SPEC §5.6.5, tag 3) as its own
/// contract (ADR 0017, s42 addendum `fpextract`): `F` EXTRACT of an `extract_claims` step leaf.
/// @notice `form(leaf)` -> (valid, defined, F) as `PorFormProofExtract.form`: `valid` is
/// `PorRecords.reasoningStep`'s, `defined` false when `F` is undefined (`form.none`), a valid
/// step of another kind reverts `PorFormProofDeduce.OtherFamily(keccak256(inputs.kind))`.
contract PorFormFamilyExtract is IPorFormFamily {
    /// `F` EXTRACT of a step leaf (see the notice).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofExtract.form(leaf);
    }
}
