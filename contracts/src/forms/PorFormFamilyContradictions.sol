// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofContradictions} from "./PorFormProofContradictions.sol";

/// @title PorFormFamilyContradictions: `F` CONTRADICTIONS (SPEC §5.6.9, tag 6) of a
/// por.ReasoningStep/1 leaf (kind contradictions), one family contract of the FormProof on
/// chain (ADR 0017, s42 addendum `fpcontra`), called by the envelope through `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofContradictions.form`: (valid, defined, F); a valid step
/// of another kind reverts `OtherFamily(bytes32 kind)`.
contract PorFormFamilyContradictions is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 6;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofContradictions.form(leaf);
    }
}
