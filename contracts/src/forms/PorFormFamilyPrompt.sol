// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "../PorMerkle.sol";
import {IPorPromptFamily} from "./IPorPromptFamily.sol";
import {PorFormProofPrompt} from "./PorFormProofPrompt.sol";

/// @title PorFormFamilyPrompt: `F` COMMON (SPEC §5.6.3, tag 1) and REQUIREMENT (§5.6.4, tag 2)
/// of the por.PromptSpec/1 leaf, the PromptSpec's family contract of the FormProof on chain
/// (ADR 0017, s43 addendum `psfamily`), called by the envelope `PorFormProof` through
/// `IPorPromptFamily` for a proof of kind `prompt_spec` (its slot 1; one contract serves
/// tags 1 and 2).
/// @notice It decides `F`, not the PromptSpec's validity (ADR 0018; SPEC §10.2.8 states the
/// one disagreement with Python this leaves): `PorFormProofPrompt`.
contract PorFormFamilyPrompt is IPorPromptFamily {
    /// The family's form tags (SPEC §5.6).
    uint8 public constant TAG_COMMON = 1;
    uint8 public constant TAG_REQUIREMENT = 2;

    /// `F` of form index `j` of `leaf` (`IPorPromptFamily`).
    function formAt(bytes calldata leaf, uint256 j) external view returns (bool valid, bool defined, bytes memory f) {
        return PorFormProofPrompt.formAt(leaf, j);
    }

    /// `formAt` with LH(F) for `F` (`IPorPromptFamily`), hashed in place (`PorMerkle.leafHashMem`).
    function formHashAt(bytes calldata leaf, uint256 j) external view returns (bool valid, bool defined, bytes32 h) {
        bytes memory f;
        (valid, defined, f) = PorFormProofPrompt.formAt(leaf, j);
        if (defined) h = PorMerkle.leafHashMem(f);
    }

    /// (valid, r) of `leaf` (`IPorPromptFamily`).
    function requirements(bytes calldata leaf) external pure returns (bool valid, uint256 r) {
        (valid, r,) = PorFormProofPrompt.requirements(leaf);
    }
}
