// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCitationCheck} from "./PorCitationCheck.sol";

/// @title PorCitationExec: the CitationProof (SPEC §10.2.7) checked on chain, stateless.
/// @notice The router sends it a proof whose bytes passed the §2 reader and whose schema
/// no other executor names: a por.CitationProof/2, or anything else, whose schema fault
/// `PorCitationCheck` names (SPEC §14.8 "Routing").
contract PorCitationExec {
    /// The proof schema it decides (SPEC §14.8, the router's `KIND()`).
    bytes32 public constant KIND = keccak256("por.CitationProof/2");

    /// (won, check id, por_root) of `verify_citation_proof` for the proof bytes (SPEC §14.8).
    function check(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        return PorCitationCheck.checkChecked(proof);
    }
}
