// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofDeduce} from "./PorFormProofDeduce.sol";

/// @title PorFormFamilyDeduce: `F` DEDUCE (SPEC §5.6.10, tag 7) of a por.ReasoningStep/1 leaf (kind deduce),
/// one family contract of the FormProof on chain (ADR 0017, s42 addendum `fpsplit`),
/// called by the envelope `PorFormProof` through `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofDeduce.form`: (valid, defined, F).
contract PorFormFamilyDeduce is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 7;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofDeduce.form(leaf);
    }
}
