// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorFormProofCheck} from "./PorFormProofCheck.sol";
import {PorFormProofDeduce} from "./PorFormProofDeduce.sol";
import {PorFormProofMap} from "./PorFormProofMap.sol";
import {PorFormProofVerdict} from "./PorFormProofVerdict.sol";

/// @title PorFormProof: the FormProof (SPEC §10.2.8, §10.4.3) on chain for three record
/// families, the DEDUCE and MAP steps and the verdict (ADR 0017, s41 spike: measured, not routed; not in deploy.json).
contract PorFormProof {
    /// `F` DEDUCE of a step leaf (`PorFormProofDeduce.form`): (valid, defined, F).
    function deduceForm(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory form) {
        return PorFormProofDeduce.form(leaf);
    }

    /// `F` MAP of a step leaf (`PorFormProofMap.form`): (valid, defined, F).
    function mapForm(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory form) {
        return PorFormProofMap.form(leaf);
    }

    /// `F` VERDICT of a verdict leaf (`PorFormProofVerdict.form`): (valid, defined, F).
    function verdictForm(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory form) {
        return PorFormProofVerdict.form(leaf);
    }

    /// `verify_form_proof` (SPEC §10.4.3) of a por.FormProof/1 file on a step
    /// (`PorFormProofCheck.check`): (won, keccak256 of the check id).
    function check(bytes calldata proof) external view returns (bool won, bytes32 id) {
        return PorFormProofCheck.check(proof);
    }
}
