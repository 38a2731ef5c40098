// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofAggregate} from "./PorFormProofAggregate.sol";

/// @title PorFormFamilyAggregate: `F` AGGREGATE (SPEC §5.6.8, tag 5) of a por.ReasoningStep/1 leaf (kind aggregate),
/// one family contract of the FormProof on chain (ADR 0017, s42 addenda `fpsplit`, `fpagg2`),
/// called by the envelope `PorFormProof` through `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofAggregate.form`: (valid, defined, F).
contract PorFormFamilyAggregate is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 5;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofAggregate.form(leaf);
    }
}
