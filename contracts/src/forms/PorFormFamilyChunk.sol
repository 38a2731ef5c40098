// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {IPorFormFamily} from "./IPorFormFamily.sol";
import {PorFormProofChunk} from "./PorFormProofChunk.sol";

/// @title PorFormFamilyChunk: `F` CHUNK (SPEC §5.6.7, tag 4) of a por.ReasoningStep/1 leaf
/// (kind check_requirement), one family contract of the FormProof on chain (ADR 0017, s42
/// addenda `fpsplit`, `fpchunk2`), called by the envelope `PorFormProof` through
/// `IPorFormFamily`.
/// @notice `form(leaf)` is `PorFormProofChunk.form`: (valid, defined, F).
contract PorFormFamilyChunk is IPorFormFamily {
    /// The family's form tag (SPEC §5.6).
    uint8 public constant TAG = 4;

    /// `F` of `leaf` (`IPorFormFamily`).
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofChunk.form(leaf);
    }
}
