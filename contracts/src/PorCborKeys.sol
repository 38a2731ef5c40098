// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";

/// @title PorCborKeys: map keys of a checked document (SPEC §2) compared as one word.
/// @notice A key of fewer than 32 bytes is one word: its bytes left-aligned, its length in
/// the low byte (free: a shorter key leaves it zero). `pick` reads several keys of one map
/// in one walk where `PorCbor.get` walks the map once per key (SPEC §14.8, ADR 0013).
library PorCborKeys {
    /// `PorCbor.get(d, m, key)` of each key of `keys` (texts of at most 31 bytes, each
    /// after its length byte), in one walk of the map at `m` of a checked document: the
    /// value offsets in the order of `keys` (0: absent; all 0 when `m` is not a map).
    function pick(bytes calldata d, uint256 m, bytes memory keys) internal pure returns (uint256[] memory at) {
        at = new uint256[](keyCount(keys));
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, m, PorCbor.MAP);
        if (isMap) walk(d, p, count, keys, at);
    }

    /// `pick` over the `count` entries from `p` on (the rest of a map), stopping as soon
    /// as every key of `keys` is found (`at`: their value offsets, 0 for one not found):
    /// (the offset of the last key's value, not skipped, and the entries after it), or
    /// (the end, 0) when a key is absent.
    function walk(bytes calldata d, uint256 p, uint256 count, bytes memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256, uint256)
    {
        uint256[] memory word = keyWords(keys);
        uint256 missing = word.length;
        for (; count > 0; count--) {
            (uint256 v, bool found) = entry(d, p, word, at);
            if (found && --missing == 0) return (v, count - 1);
            p = PorCbor.skip(d, v);
        }
        return (p, 0);
    }

    /// The entry whose key is at `p`: (its value's offset, whether its key is one of
    /// `word` not yet found: kept in `at`).
    function entry(bytes calldata d, uint256 p, uint256[] memory word, uint256[] memory at)
        private
        pure
        returns (uint256 v, bool found)
    {
        (bool text, uint256 off, uint256 len) = PorCbor.str(d, p, PorCbor.TEXT);
        v = text ? off + len : PorCbor.skip(d, p);
        found = text && len < 32 && keep(at, word, wordAt(d, off, len), v);
    }

    /// The key word `w` (`keyWords`) names the value at `v`: kept in `at` at the first
    /// key it matches that is not yet found (true), else false.
    function keep(uint256[] memory at, uint256[] memory word, uint256 w, uint256 v) private pure returns (bool) {
        for (uint256 i = 0; i < at.length; i++) {
            if (at[i] == 0 && word[i] == w) {
                at[i] = v;
                return true;
            }
        }
        return false;
    }

    /// The number of keys in `keys` (each after its length byte).
    function keyCount(bytes memory keys) internal pure returns (uint256 n) {
        for (uint256 k = 0; k < keys.length; k += 1 + uint8(keys[k])) n++;
    }

    /// The text d[off:off+len] (len < 32) as a key word (`keyWords`).
    function wordAt(bytes calldata d, uint256 off, uint256 len) internal pure returns (uint256 w) {
        assembly ("memory-safe") {
            w := or(and(calldataload(add(d.offset, off)), not(shr(mul(8, len), not(0)))), len)
        }
    }

    /// Each key of `keys` as one word: its bytes left-aligned, its length in the low byte.
    function keyWords(bytes memory keys) private pure returns (uint256[] memory word) {
        uint256 n = keyCount(keys);
        word = new uint256[](n);
        uint256 q = 0;
        for (uint256 i = 0; i < n; i++) {
            uint256 len = uint8(keys[q]);
            uint256 w;
            assembly ("memory-safe") {
                w := mload(add(add(keys, 33), q))
            }
            word[i] = (w & ~(type(uint256).max >> (8 * len))) | len;
            q += 1 + len;
        }
    }
}
