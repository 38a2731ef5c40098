// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckState} from "./PorCheckState.sol";

/// @title PorCheckWrite: canonical por-cbor/1 bytes (SPEC §2) written in memory.
/// @notice A writer is a buffer whose length is its capacity and a fill `n`; a write that
/// does not fit sets `n` past the capacity and every later write is dropped, so the
/// work is bounded by the committed record's size (the buffer is that size plus one:
/// a longer recomputation cannot equal it). Heads are shortest (§2 rule 1); items
/// copied from the proof are canonical already (the reader checked them).
library PorCheckWrite {
    struct W {
        bytes buf; // cap + 32 bytes: a word written at the end stays inside
        uint256 n;
        uint256 cap;
    }

    function create(uint256 cap) internal pure returns (W memory w) {
        w.buf = new bytes(cap + 32);
        w.cap = cap;
    }

    /// The first `len` (at most 32) bytes of `v` (a whole word stored at the fill: the
    /// bytes past it are written over by the next writes, the buffer has 32 to spare).
    function word(W memory w, bytes32 v, uint256 len) internal pure {
        assembly ("memory-safe") {
            // `fits` inline: a write past the capacity leaves the fill at cap + 1
            let n := mload(add(w, 0x20))
            let m := add(n, len)
            let cap := mload(add(w, 0x40))
            switch gt(m, cap)
            case 1 { mstore(add(w, 0x20), add(cap, 1)) }
            default {
                mstore(add(add(mload(w), 32), n), v)
                mstore(add(w, 0x20), m)
            }
        }
    }

    /// The bytes written equal `d[from:to]`.
    function equals(W memory w, bytes calldata d, uint256 from, uint256 to) internal pure returns (bool) {
        if (w.n != to - from) return false;
        bytes memory b = w.buf;
        bytes32 h;
        uint256 n = w.n;
        assembly ("memory-safe") {
            h := keccak256(add(b, 32), n)
        }
        return h == keccak256(d[from:to]);
    }

    function fits(W memory w, uint256 len) private pure returns (bool) {
        if (w.n + len > w.cap) {
            w.n = w.cap + 1;
            return false;
        }
        return true;
    }

    /// A head of major type `major` with argument `arg`, shortest form (one word: the
    /// initial byte, then the argument's `width` bytes).
    function head(W memory w, uint8 major, uint256 arg) internal pure {
        (bytes32 v, uint256 len) = headWord(major, arg);
        word(w, v, len);
    }

    /// The first `n` bytes of `key` (a key's encoding, or pieces ending with one), then a
    /// head of major type `major` with argument `arg`: one word (n + 9 <= 32).
    function keyHead(W memory w, bytes32 key, uint256 n, uint8 major, uint256 arg) internal pure {
        (bytes32 v, uint256 len) = headWord(major, arg);
        word(w, key | (v >> (n << 3)), n + len);
    }

    /// `head`'s bytes, left-aligned, and their number.
    function headWord(uint8 major, uint256 arg) private pure returns (bytes32 v, uint256 len) {
        uint256 width = arg < 24 ? 0 : arg < 256 ? 1 : arg < 65536 ? 2 : arg < 2 ** 32 ? 4 : 8;
        uint256 ib = uint256(major) << 5 | (width == 0 ? arg : width == 1 ? 24 : width == 2 ? 25 : width == 4 ? 26 : 27);
        assembly ("memory-safe") {
            v := or(shl(248, ib), mul(iszero(iszero(width)), shl(sub(248, shl(3, width)), arg)))
        }
        len = 1 + width;
    }

    /// `d[from:to]` as it is.
    function copy(W memory w, bytes calldata d, uint256 from, uint256 to) internal pure {
        assembly ("memory-safe") {
            let len := sub(to, from)
            let n := mload(add(w, 0x20))
            let m := add(n, len)
            let cap := mload(add(w, 0x40))
            switch gt(m, cap)
            case 1 { mstore(add(w, 0x20), add(cap, 1)) }
            default {
                calldatacopy(add(add(mload(w), 32), n), add(d.offset, from), len)
                mstore(add(w, 0x20), m)
            }
        }
    }

    /// The whole item at `p` of `d`.
    function item(W memory w, bytes calldata d, uint256 p) internal pure {
        uint256 end;
        assembly ("memory-safe") {
            // a small unsigned integer or a short text: its end from its head
            let ib := byte(0, calldataload(add(d.offset, p)))
            if lt(ib, 0x18) { end := add(p, 1) }
            if lt(sub(ib, 0x60), 0x18) { end := add(p, sub(ib, 0x5f)) }
        }
        copy(w, d, p, end != 0 ? end : PorCbor.skip(d, p));
    }

    /// Raw bytes `s`.
    function raw(W memory w, bytes memory s) internal pure {
        uint256 len = s.length;
        if (!fits(w, len)) return;
        bytes memory b = w.buf;
        uint256 at = w.n;
        assembly ("memory-safe") {
            mcopy(add(add(b, 32), at), add(s, 32), len)
        }
        w.n = at + len;
    }

    /// The text `s` (head and bytes).
    function text(W memory w, bytes memory s) internal pure {
        head(w, PorCbor.TEXT, s.length);
        raw(w, s);
    }

    function boolean(W memory w, bool v) internal pure {
        word(w, v ? bytes32(hex"f5") : bytes32(hex"f4"), 1);
    }

    /// n in base ten (SPEC §12.5.2 decimal(n)), raw (its digits as one word: n < 10^32).
    function decimal(W memory w, uint256 v) internal pure {
        uint256 digits = 1;
        for (uint256 x = v / 10; x > 0; x /= 10) digits++;
        bytes32 s;
        assembly ("memory-safe") {
            for { let i := digits } i { i := sub(i, 1) } {
                s := or(s, shl(shl(3, sub(32, i)), add(0x30, mod(v, 10))))
                v := div(v, 10)
            }
        }
        word(w, s, digits);
    }

    /// A claim reference `{"value", "claim_id", "evidence_id"}` (§2 order).
    function ref(W memory w, bytes calldata d, PorCheckState.Ref memory r) internal pure {
        if (r.raw != 0) return item(w, d, r.raw);
        word(w, 0xa36576616c756500000000000000000000000000000000000000000000000000, 7); // map(3), "value"
        item(w, d, r.value);
        word(w, 0x68636c61696d5f69640000000000000000000000000000000000000000000000, 9); // "claim_id"
        item(w, d, r.claimId);
        word(w, 0x6b65766964656e63655f69640000000000000000000000000000000000000000, 12); // "evidence_id"
        item(w, d, r.eid);
    }

    /// A group: numeric `{key, max, min, kind, claim_count}`, boolean `{key, kind, first,
    /// other?, claim_count}` (§2 order).
    function group(W memory w, bytes calldata d, PorCheckState.Group memory g) internal pure {
        // map(5 or 4), "key"
        word(w, bytes32(uint256(g.numeric || g.hasB ? 0xa5 : 0xa4) << 248) | bytes32(0x00636b6579000000000000000000000000000000000000000000000000000000), 5);
        item(w, d, g.key);
        if (g.numeric) {
            word(w, 0x636d617800000000000000000000000000000000000000000000000000000000, 4); // "max"
            ref(w, d, g.b);
            word(w, 0x636d696e00000000000000000000000000000000000000000000000000000000, 4); // "min"
            ref(w, d, g.a);
            word(w, 0x646b696e64676e756d6572696300000000000000000000000000000000000000, 13); // "kind": "numeric"
        } else {
            word(w, 0x646b696e6467626f6f6c65616e00000000000000000000000000000000000000, 13); // "kind": "boolean"
            word(w, 0x6566697273740000000000000000000000000000000000000000000000000000, 6); // "first"
            ref(w, d, g.a);
            if (g.hasB) {
                word(w, 0x656f746865720000000000000000000000000000000000000000000000000000, 6); // "other"
                ref(w, d, g.b);
            }
        }
        keyHead(w, 0x6b636c61696d5f636f756e740000000000000000000000000000000000000000, 12, PorCbor.UINT, g.count); // "claim_count"
    }
}
