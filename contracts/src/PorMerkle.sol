// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// Structural RFC 9162 failures; names follow por's `merkle.*` check ids (SPEC §3.6).
/// merkle.index_range: the leaf index is not below the tree size (size 0 included).
error MerkleIndexRange(uint256 index, uint256 size);
/// merkle.proof_length: the path does not have the length (index, size) imply.
error MerkleProofLength(uint256 expected, uint256 actual);

/// @title PorMerkle: RFC 9162 §2.1 hashing and inclusion roots with the SHA-256 precompile.
/// @notice LH(d) = SHA-256(0x00 || d), NH(l, r) = SHA-256(0x01 || l || r) (SPEC §3.6).
/// A root is computed here and compared by the caller, as in por.merkle.
library PorMerkle {
    /// LH(leaf): the leaf bytes are hashed here, never taken as a hash from the caller.
    function leafHash(bytes calldata leaf) internal view returns (bytes32 h) {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, 0x00)
            calldatacopy(add(p, 1), leaf.offset, leaf.length)
            if iszero(staticcall(gas(), 0x02, p, add(leaf.length, 1), 0x00, 0x20)) {
                revert(0, 0)
            }
            h := mload(0x00)
        }
    }

    /// LH(root || uint64_be(size)): the 40-byte component leaf of SPEC §5.4.
    function componentLeafHash(bytes32 root, uint64 size) internal view returns (bytes32 h) {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, 0x00)
            mstore(add(p, 1), root)
            mstore(add(p, 33), shl(192, size))
            if iszero(staticcall(gas(), 0x02, p, 41, 0x00, 0x20)) {
                revert(0, 0)
            }
            h := mload(0x00)
        }
    }

    /// NH(left, right).
    function nodeHash(bytes32 left, bytes32 right) internal view returns (bytes32 h) {
        assembly ("memory-safe") {
            let p := mload(0x40)
            mstore8(p, 0x01)
            mstore(add(p, 1), left)
            mstore(add(p, 33), right)
            if iszero(staticcall(gas(), 0x02, p, 65, 0x00, 0x20)) {
                revert(0, 0)
            }
            h := mload(0x00)
        }
    }

    /// The root that `path` (RFC 9162 §2.1.3.1 PATH(index, D[size]), leaf end first)
    /// gives for the leaf hash `h` (§2.1.3.2). The path length must be exactly
    /// inner + border, where inner = bitlen(index xor (size - 1)) and
    /// border = popcount(index >> inner) (the transparency-dev/merkle decomposition).
    function rootFromPath(bytes32 h, uint256 index, uint256 size, bytes32[] calldata path)
        internal
        view
        returns (bytes32)
    {
        if (index >= size) revert MerkleIndexRange(index, size);
        uint256 inner;
        for (uint256 x = index ^ (size - 1); x != 0; x >>= 1) {
            ++inner;
        }
        uint256 length = inner;
        for (uint256 x = index >> inner; x != 0; x >>= 1) {
            length += x & 1;
        }
        if (path.length != length) revert MerkleProofLength(length, path.length);
        unchecked {
            for (uint256 i; i < inner; ++i) {
                h = (index >> i) & 1 == 0 ? nodeHash(h, path[i]) : nodeHash(path[i], h);
            }
            for (uint256 i = inner; i < length; ++i) {
                h = nodeHash(path[i], h);
            }
        }
        return h;
    }
}
