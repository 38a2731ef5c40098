// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

// contracts/src/forms/IPorFormFamily.sol
interface IPorFormFamily {
    /// F (SPEC §5.6) of one record of this family, from its committed CBOR leaf bytes:
    /// valid = the record is a valid record of its kind (Python: ReasoningStep.from_cbor /
    /// DeterministicVerdict ...), defined = F is defined (Python: step_form(...) is not None),
    /// f = F's bytes when defined (else empty). Never reverts on any leaf bytes, except
    /// OtherFamily(bytes32) for a valid record of another family.
    function form(bytes calldata leaf) external view returns (bool valid, bool defined, bytes memory f);
}
