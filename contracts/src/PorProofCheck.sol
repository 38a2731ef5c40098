// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCitationCheck} from "./PorCitationCheck.sol";
import {PorStepCheck} from "./PorStepCheck.sol";

/// @title PorProofCheck: stateless on-chain checking of por proofs (SPEC §14.8).
/// @notice Every function takes the exact bytes of a por document and returns what
/// `por check-proof` decides: `won` and the check id (keccak256 of its SPEC text), with
/// the proof's `por_root`, which the caller compares with a root it trusts (a signed
/// verdict's). Nothing is stored; a registry calls this contract or links its libraries.
/// One-step proofs are checked by the PorStepCheck this contract deploys (`stepCheck`).
contract PorProofCheck {
    bytes32 internal constant MALFORMED = keccak256("proof.malformed");

    /// A one-step proof of a step kind the chain does not re-execute (keccak256 of its
    /// inputs.kind), raised by `stepCheck`: it goes to the court path (SPEC §14.8).
    error CourtPath(bytes32 kind);

    /// The one-step checker (SPEC §14.8), created with this contract.
    PorStepCheck public immutable stepCheck = new PorStepCheck();

    /// por-cbor/1 (SPEC §2): (0, 0) for one canonical item, else (codec.* id, offset).
    function checkCbor(bytes calldata data) external pure returns (bytes32 checkId, uint256 offset) {
        return PorCbor.check(data);
    }

    /// A por.CitationProof/2 (SPEC §10.2.7): won for a citation fault shown.
    function checkCitationProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        return PorCitationCheck.check(proof);
    }

    /// A por.OneStepProof/1 (SPEC §10.5) of a step kind the chain re-executes (SPEC
    /// §14.8); another kind reverts `CourtPath(keccak256(kind))`.
    function checkOneStepProof(bytes calldata proof)
        external
        view
        returns (bool won, bytes32 checkId, bytes32 porRoot)
    {
        return stepCheck.checkOneStepProof(proof);
    }

    /// Any proof the registry settles by (SPEC §14.4): the §2 reader once, then the
    /// checker its `schema` names (a OneStepProof: `stepCheck`; anything else: the
    /// CitationProof checker, which names what else it is).
    function checkProof(bytes calldata proof) external view returns (bool won, bytes32 checkId, bytes32 porRoot) {
        (bytes32 codec,) = PorCbor.check(proof);
        if (codec != 0) return (false, MALFORMED, 0);
        uint256 at = PorCbor.get(proof, 0, "schema");
        if (at != 0 && PorCbor.isText(proof, at, "por.OneStepProof/1")) return stepCheck.checkChecked(proof);
        return PorCitationCheck.checkChecked(proof);
    }
}
