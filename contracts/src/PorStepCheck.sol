// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";

/// @title PorStepCheck: one-step proofs (SPEC §10.5) re-executed on chain (SPEC §14.8).
/// @notice Stateless. Deployed by PorProofCheck (its own contract: the citation and the
/// one-step checkers together pass the 24 576-byte code limit); `checkOneStepProof` is
/// open to anyone, `checkChecked` only to the PorProofCheck that created it, which has
/// already run the §2 reader over the same bytes.
contract PorStepCheck {
    bytes32 internal constant MALFORMED = keccak256("proof.malformed");

    /// The PorProofCheck that deployed this contract.
    address public immutable creator = msg.sender;

    error NotCreator(address caller);

    /// A por.OneStepProof/1 (SPEC §10.2.3): (won, check id, por_root); reverts
    /// `CourtPath(keccak256(kind))` for a step kind the chain does not re-execute.
    function checkOneStepProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        (bytes32 codec,) = PorCbor.check(proof);
        if (codec != 0) return (false, MALFORMED, 0);
        return PorOneStepCheck.check(proof);
    }

    /// `checkOneStepProof` for bytes the creator has checked (SPEC §2) and found to be a
    /// map whose schema is por.OneStepProof/1.
    function checkChecked(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        if (msg.sender != creator) revert NotCreator(msg.sender);
        return PorOneStepCheck.check(proof);
    }
}
