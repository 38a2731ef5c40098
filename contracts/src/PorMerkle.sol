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

    /// LH(f) of bytes in memory, with no copy: the zero byte written just before f's bytes,
    /// over the low byte of its length word, which is restored after.
    function leafHashMem(bytes memory f) internal view returns (bytes32 h) {
        assembly ("memory-safe") {
            let n := mload(f)
            mstore8(add(f, 31), 0)
            if iszero(staticcall(gas(), 0x02, add(f, 31), add(n, 1), 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
            mstore(f, n)
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
    /// border = popcount(index >> inner) (the transparency-dev/merkle decomposition):
    /// the first `inner` siblings sit left or right by the index bits, the rest left.
    function rootFromPath(bytes32 h, uint256 index, uint256 size, bytes32[] calldata path)
        internal
        view
        returns (bytes32 root)
    {
        if (index >= size) revert MerkleIndexRange(index, size);
        uint256 inner = bitLength(index ^ (size - 1));
        uint256 length = inner + popCount(index >> inner);
        if (path.length != length) revert MerkleProofLength(length, path.length);
        assembly ("memory-safe") {
            // Memory p: 0x01 || left || right, the NH input. At level j the running hash
            // sits right if bit j of `bits` is 1 (sibling left), else left. Below `inner`
            // the bits are the index's; from `inner` up they are 1 (border: sibling left).
            // Each hash is written straight to where the next level needs it.
            let p := mload(0x40)
            mstore8(p, 0x01)
            let left := add(p, 1)
            let right := add(p, 33)
            let bits := or(index, shl(inner, not(0)))
            let side := shl(5, and(bits, 1))
            mstore(add(left, side), h)
            let at := path.offset
            for { let end := add(at, shl(5, length)) } lt(at, end) { at := add(at, 0x20) } {
                mstore(sub(right, side), calldataload(at))
                bits := shr(1, bits)
                side := shl(5, and(bits, 1))
                if iszero(staticcall(gas(), 0x02, p, 65, add(left, side), 0x20)) { revert(0, 0) }
            }
            root := mload(add(left, side))
        }
    }

    /// The number of bits of x (0 for 0): a binary search, not a loop per bit.
    function bitLength(uint256 x) internal pure returns (uint256 n) {
        assembly {
            if shr(128, x) { x := shr(128, x) n := 128 }
            if shr(64, x) { x := shr(64, x) n := add(n, 64) }
            if shr(32, x) { x := shr(32, x) n := add(n, 32) }
            if shr(16, x) { x := shr(16, x) n := add(n, 16) }
            if shr(8, x) { x := shr(8, x) n := add(n, 8) }
            if shr(4, x) { x := shr(4, x) n := add(n, 4) }
            if shr(2, x) { x := shr(2, x) n := add(n, 2) }
            if shr(1, x) { x := shr(1, x) n := add(n, 1) }
            n := add(n, x)
        }
    }

    /// The number of set bits of x: one step per set bit (x & (x - 1) clears the lowest).
    function popCount(uint256 x) internal pure returns (uint256 n) {
        assembly {
            for {} x {} {
                x := and(x, sub(x, 1))
                n := add(n, 1)
            }
        }
    }
}
