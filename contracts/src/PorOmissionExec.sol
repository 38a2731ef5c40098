// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorOmissionCheck} from "./PorOmissionCheck.sol";

/// @title PorOmissionExec: the OmissionProof (SPEC §10.2.4) checked on chain, stateless.
/// @notice The router sends it a por.OmissionProof/2 whose bytes passed the §2 reader.
contract PorOmissionExec {
    /// The proof schema it decides (SPEC §14.8, the router's `KIND()`).
    bytes32 public constant KIND = keccak256("por.OmissionProof/2");

    /// (won, check id, por_root) of `verify_omission_proof` for the proof bytes (SPEC §14.8).
    function check(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorOmissionCheck.check(proof);
    }
}
