// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCitationCheck} from "./PorCitationCheck.sol";

/// @title PorProofCheck: stateless on-chain checking of por proofs (SPEC §14.8).
/// @notice Every function takes the exact bytes of a por document and returns what
/// `por check-proof` decides: `won` and the check id (keccak256 of its SPEC text), with
/// the proof's `por_root`, which the caller compares with a root it trusts (a signed
/// verdict's). Nothing is stored; a registry calls this contract or links its libraries.
contract PorProofCheck {
    /// por-cbor/1 (SPEC §2): (0, 0) for one canonical item, else (codec.* id, offset).
    function checkCbor(bytes calldata data) external pure returns (bytes32 checkId, uint256 offset) {
        return PorCbor.check(data);
    }

    /// A por.CitationProof/1 (SPEC §10.2.7): won for a citation fault shown.
    function checkCitationProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        return PorCitationCheck.check(proof);
    }
}
