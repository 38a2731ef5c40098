// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorCoreCall: an executor's call to the core its constructor deployed, the call's
/// data written by hand (`PorJudgeExec.decide`, `PorDeduceExec.run`; ADR 0013 s36 deduce4
/// and dj5 addenda, s37 dj6).
library PorCoreCall {
    /// `staticcall` of `to` with data: `selector`, then the ABI encoding of
    /// `(bytes proof, uint256[] all)`, where `all` is `flat` (its length, then its words),
    /// then each of `tables` (its length, then its words). Written in free memory (the
    /// pointer not moved): the two ABI offsets, the proof by one `calldatacopy` (its last
    /// word zeroed first for the padding), each array by one `mcopy` (the ABI encoder
    /// stored them word by word). Returns the core's two words as (won, check id); the
    /// core's revert is passed on, a shorter return reverts.
    function call(
        address to,
        bytes4 selector,
        bytes calldata proof,
        uint256[] memory flat,
        uint256[][] memory tables
    ) internal view returns (bool won, bytes32 checkId) {
        assembly ("memory-safe") {
            let m := mload(0x40)
            let padded := and(add(proof.length, 31), not(31))
            mstore(m, selector)
            mstore(add(m, 0x04), 0x40)
            mstore(add(m, 0x24), add(0x60, padded))
            mstore(add(m, 0x44), proof.length)
            mstore(add(m, add(0x44, padded)), 0) // the proof's last word, zero padded
            calldatacopy(add(m, 0x64), proof.offset, proof.length)
            let at := add(add(m, 0x64), padded) // the array's length word
            let end := add(at, 0x20)
            let size := shl(5, add(mload(flat), 1))
            mcopy(end, flat, size)
            end := add(end, size)
            let last := add(add(tables, 32), shl(5, mload(tables)))
            for { let t := add(tables, 32) } lt(t, last) { t := add(t, 32) } {
                let table := mload(t)
                size := shl(5, add(mload(table), 1))
                mcopy(end, table, size)
                end := add(end, size)
            }
            mstore(at, shr(5, sub(end, add(at, 0x20))))
            if iszero(staticcall(gas(), to, m, sub(end, m), 0, 0x40)) {
                returndatacopy(m, 0, returndatasize())
                revert(m, returndatasize())
            }
            if lt(returndatasize(), 0x40) { revert(0, 0) }
            won := iszero(iszero(mload(0)))
            checkId := mload(0x20)
        }
    }
}
