// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

// contracts/src/forms/IPorPromptFamily.sol
interface IPorPromptFamily {
    /// F (SPEC §5.6.3, §5.6.4) of form index `j` of a PromptSpec leaf: COMMON at 0, the
    /// REQUIREMENT of `data_requirements[j - 1]` at `j >= 1`. valid = the reads `F` and the
    /// index rule need succeed (the leaf is one por-cbor/1 map whose `data_requirements` is
    /// an array), not the PromptSpec's validity (ADR 0018); defined = F is defined; `j` past
    /// the requirements answers (true, false, empty). Never reverts on any leaf bytes.
    function formAt(bytes calldata leaf, uint256 j) external view returns (bool valid, bool defined, bytes memory f);

    /// `formAt` with `F`'s leaf hash LH(F) = SHA-256(0x00 || F) (SPEC §3) for `F` (0 when
    /// not defined): what the envelope compares with the committed form leaf, with no copy
    /// of `F` returned (ADR 0017, s44 `envgas`).
    function formHashAt(bytes calldata leaf, uint256 j) external view returns (bool valid, bool defined, bytes32 h);

    /// (valid, r): `valid` as `formAt`'s, `r` the count of `data_requirements` (the index
    /// rule: a PromptSpec's forms are 0..r, SPEC §5.4).
    function requirements(bytes calldata leaf) external pure returns (bool valid, uint256 r);
}
