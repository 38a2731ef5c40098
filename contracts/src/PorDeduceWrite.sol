// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDeduceRead} from "./PorDeduceRead.sol";

/// @title PorDeduceWrite: `PorDeduceStep.output`'s encoding helpers: each writes at `w`
/// (memory the caller owns, from the free memory pointer) and returns the offset after.
library PorDeduceWrite {
    /// The first `n` bytes of `word`.
    function put(uint256 w, bytes32 word, uint256 n) internal pure returns (uint256) {
        assembly ("memory-safe") {
            mstore(w, word)
            w := add(w, n) // memory offsets: no overflow to check
        }
        return w;
    }

    /// The encoded item at `pos` of `d` (`PorDeduceRead.item`'s bytes).
    function item(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        return span(d, w, pos, PorDeduceRead.itemEnd(d, pos));
    }

    /// The bytes of `d` from `pos` to `end`.
    function span(bytes calldata d, uint256 w, uint256 pos, uint256 end) internal pure returns (uint256) {
        assembly ("memory-safe") {
            calldatacopy(w, add(d.offset, pos), sub(end, pos))
            w := add(w, sub(end, pos)) // end >= pos: a skip's answer, or the caller's
        }
        return w;
    }

    /// The bytes of `b`.
    function bytesAt(uint256 w, bytes memory b) internal pure returns (uint256) {
        assembly ("memory-safe") {
            mcopy(w, add(b, 32), mload(b))
            w := add(w, mload(b))
        }
        return w;
    }

    /// A CBOR head (`PorDeduceRead.head`'s bytes: SPEC §2, shortest form).
    function head(uint256 w, uint8 major, uint256 n) internal pure returns (uint256) {
        if (n < 24) return put(w, bytes32(uint256(major) << 253 | n << 248), 1);
        uint256 k = n <= 0xff ? 0 : n <= 0xffff ? 1 : n <= 0xffffffff ? 2 : 3; // 1, 2, 4, 8 bytes
        uint256 len = 1 << k;
        w = put(w, bytes32((uint256(major) << 253 | (24 + k) << 248) | n << (248 - 8 * len)), 1 + len);
        return w;
    }
}
