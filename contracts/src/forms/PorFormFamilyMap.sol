// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofMap} from "./PorFormProofMap.sol";

/// @title PorFormFamilyMap: `F` MAP (SPEC §5.6.11, tag 8) of a por.ReasoningStep/1 leaf (kind map),
/// one family contract of the FormProof on chain (ADR 0017, s42 addendum `fpsplit`),
/// called by the envelope `PorFormProof` through `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofMap.form`: (valid, defined, F).
contract PorFormFamilyMap is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 8;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofMap.form(leaf);
    }
}
