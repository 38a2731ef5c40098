// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofVerdict} from "./PorFormProofVerdict.sol";

/// @title PorFormFamilyVerdict: `F` VERDICT (SPEC §5.6.12, tag 9) of the por.DeterministicVerdict/1 leaf,
/// one family contract of the FormProof on chain (ADR 0017, s42 addendum `fpsplit`),
/// called by the envelope `PorFormProof` through `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofVerdict.form`: (valid, defined, F).
contract PorFormFamilyVerdict is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 9;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofVerdict.form(leaf);
    }
}
