// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorCborTop: the §2 reader's one pass, with where the top-level items start.
/// @notice A record's fields are read from the offsets the reader's pass kept, without
/// walking the record again (ADR 0013, s33 addendum).
library PorCborTop {
    /// `PorCbor.check`, the items its arrays and maps hold together (SPEC §17.1: an
    /// array's elements, a map's keys and values, counted by the same pass), and for an
    /// accepted document whose top-level item is a map,
    /// where that map's items start (`top[i]`: item i, keys at even i, values at odd i;
    /// `top` empty when it holds more than `PorCbor.TOP_ITEMS`, or for any other item)
    /// and whether it holds a byte string anywhere (`hasBytes`), kept by the same pass: a
    /// record's fields are read without walking it again.
    function checkTop(bytes calldata data)
        internal
        pure
        returns (bytes32 err, uint256 items, uint256[] memory top, bool hasBytes)
    {
        (uint256 code, uint256 at) = PorCbor.scan(data);
        if (code != 0) return (PorCbor.idOf(code), at, top, false);
        uint256 slot = PorCbor.TOP_SLOT;
        uint256 cap = PorCbor.TOP_ITEMS;
        assembly ("memory-safe") {
            let free := mload(0x40)
            items := mload(add(free, sub(slot, 0x20))) // PorCbor's ITEMS_SLOT, just before
            let n := shr(5, mload(add(free, slot))) // kept in bytes
            if gt(n, cap) { n := 0 }
            hasBytes := mload(0)
            top := free // below the slots read: the copy does not overlap them
            mcopy(add(top, 0x20), add(free, add(slot, 0x20)), shl(5, n))
            mstore(top, n)
            mstore(0x40, add(top, shl(5, add(n, 1))))
        }
    }
}
