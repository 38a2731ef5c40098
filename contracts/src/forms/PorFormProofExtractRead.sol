// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofDecimal as DEC} from "./PorFormProofDecimal.sol";

/// @title PorFormProofExtractRead: the readers and writers `F` EXTRACT (SPEC §5.6.5) adds to
/// `PorFormProofDeduce`'s (ADR 0017, s42 addendum `fpextract`): a map's named values found
/// without a rest word (`find`: DEDUCE's rest-word walk without the copy), the claims
/// list `L[H(key) E(kind) H(claim_id) V_kind(value)]`, `W` of an integer in a §4 range (the
/// blank-source flag is `PorCheckAdmit.blank`'s, shared with the CBOR check). Every writer takes and returns the write position (0: no form)
/// and allocates nothing.
library PorFormProofExtractRead {
    /// Not a claim kind.
    uint256 private constant NONE = type(uint256).max;

    /// The item at `pos` (never 0: the caller checks presence) is a map: (it is, its entry
    /// count, the offset after it); each name's value offset written to `at` (0: absent;
    /// `at` as long as `names`). The map's keys are texts (a valid step's value maps,
    /// §4.4). One assembly loop as `PorFormProofDeduce.walk`'s, nothing copied.
    function find(bytes calldata d, uint256 pos, uint256[] memory names, uint256[] memory at)
        internal
        pure
        returns (bool isMap, uint256 count, uint256 end)
    {
        uint256 to;
        assembly ("memory-safe") {
            to := add(at, 32)
        }
        return findTo(d, pos, names, to);
    }

    /// `find` with the value offsets written to the words from memory position `to` on (as
    /// many as `names`).
    function findTo(bytes calldata d, uint256 pos, uint256[] memory names, uint256 to)
        private
        pure
        returns (bool isMap, uint256 count, uint256 end)
    {
        uint256 p;
        (isMap, count, p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!isMap) return (false, 0, 0);
        assembly ("memory-safe") {
            let b := d.offset
            let first := add(names, 32)
            let last := add(first, shl(5, mload(names)))
            // `to` as an array's first word: the slot of name i is at `at + 32 (i + 1)`
            let at := sub(to, 32)
            for { let q := to } lt(q, add(to, shl(5, mload(names)))) { q := add(q, 32) } {
                mstore(q, 0)
            }
            for { let n := count } n { n := sub(n, 1) } {
                let len := and(byte(0, calldataload(add(b, p))), 31)
                let v := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, v)))
                    v := add(v, width)
                }
                let key := 0
                if lt(len, 32) { key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len) }
                v := add(v, len)
                // the value's end (`PorCbor.skip`)
                let q := add(b, v)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(q))
                    let a := and(hb, 31)
                    q := add(q, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(q))
                        q := add(q, width)
                    }
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    q := add(q, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                for { let slot := first } lt(slot, last) { slot := add(slot, 32) } {
                    if eq(mload(slot), key) {
                        mstore(add(at, sub(slot, names)), v)
                        break
                    }
                }
                p := sub(q, b)
            }
        }
        end = p;
    }

    /// The output map at `pos` (a valid step's: a map of text keys): each name's value
    /// offset into `at` (0: absent); when the name at `claimsAt` holds an array, its claims'
    /// `claimNames` value offsets, four slots a claim (`slots`), read in the same walk (the
    /// claims are walked once: their end is the last claim's end). `ok` false when a claim is
    /// not a map (no form).
    function output(bytes calldata d, uint256 pos, uint256[] memory names, uint256[] memory at,
        uint256 claimsAt, uint256[] memory claimNames)
        internal
        pure
        returns (bool ok, uint256[] memory slots)
    {
        (, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        for (; n > 0; n--) {
            (uint256 key, uint256 v) = entry(d, p);
            uint256 i = 0;
            while (i < names.length && names[i] != key) i++;
            if (i < names.length) at[i] = v;
            if (i == claimsAt) {
                bool isArray;
                (isArray, ok, slots, p) = claimSlots(d, v, claimNames);
                if (!ok) return (false, slots);
                if (isArray) continue;
            }
            p = PorCbor.skip(d, v);
        }
        return (true, slots);
    }

    /// The claims at `pos`, when an array: (it is, each claim a map, their four slots each,
    /// the offset after them).
    function claimSlots(bytes calldata d, uint256 pos, uint256[] memory claimNames)
        private
        pure
        returns (bool isArray, bool ok, uint256[] memory slots, uint256 end)
    {
        uint256 count;
        (isArray, count, end) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return (false, true, slots, 0);
        slots = new uint256[](4 * count);
        uint256 to;
        assembly ("memory-safe") {
            to := add(slots, 32)
        }
        for (uint256 k = 0; k < count; k++) {
            bool isMap;
            (isMap,, end) = findTo(d, end, claimNames, to + 128 * k);
            if (!isMap) return (true, false, slots, 0);
        }
        ok = true;
    }

    /// The entry at `p` of a map of text keys: its key's word (`PorKeyIndex`'s: the bytes
    /// left-aligned, the length in the low byte; 0 for a key of 32 bytes or more) and its
    /// value's offset.
    function entry(bytes calldata d, uint256 p) private pure returns (uint256 key, uint256 v) {
        assembly ("memory-safe") {
            let b := d.offset
            let len := and(byte(0, calldataload(add(b, p))), 31)
            v := add(p, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(add(b, v)))
                v := add(v, width)
            }
            if lt(len, 32) { key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len) }
            v := add(v, len)
        }
    }

    /// `L[H(key) E(kind) H(claim_id) V_kind(value)]` of the claims array at `pos` (0:
    /// absent), each claim's key, kind, claim_id and value offsets four `slots` (`output`'s;
    /// a claim's extra keys ignored: EXTRACT is not injective).
    function claims(bytes calldata d, uint256 w, uint256 pos, uint256[] memory slots)
        internal
        view
        returns (uint256)
    {
        if (w == 0 || pos == 0) return 0;
        (bool isArray,,) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return 0;
        uint256 n = slots.length;
        w = D.word(w, n / 4);
        for (uint256 i = 0; i < n; i += 4) {
            w = D.hashed(d, w, slots[i]);
            uint256 k = kindCode(d, slots[i + 1]);
            w = k == NONE ? 0 : D.word(w, k);
            w = D.hashed(d, w, slots[i + 2]);
            w = value(d, w, k, slots[i + 3]);
            if (w == 0) return 0;
        }
        return w;
    }

    /// `E(kind)` of the text at `pos` (0: absent): boolean 0, numeric 1, timestamp 2, text 3
    /// (SPEC §5.6.2), else NONE. Each name's encoding (head 0x60 | length, then the bytes)
    /// read as one right-aligned word and compared.
    function kindCode(bytes calldata d, uint256 pos) private pure returns (uint256) {
        if (pos == 0) return NONE;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return NONE;
        uint256 x;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
        if (x == 0x67626f6f6c65616e) return 0; // boolean
        if (x == 0x676e756d65726963) return 1; // numeric
        if (x == 0x6974696d657374616d70) return 2; // timestamp
        if (x == 0x6474657874) return 3; // text
        return NONE;
    }

    /// `V_kind(value)` of the value at `pos`: `B`, `D` (`PorFormProofExtractWrite.decimal`),
    /// `W` (0..2^64-1) or `H`.
    function value(bytes calldata d, uint256 w, uint256 k, uint256 pos) private view returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        if (k == 0) return D.flag(d, w, pos);
        if (k == 1) return DEC.decimal(d, w, pos);
        if (k == 2) return D.integer(d, w, pos);
        return D.hashed(d, w, pos);
    }

    /// `W(n)` of the unsigned integer at `pos` (0: absent) when `lo <= n <= hi` (a range §4
    /// fixes, SPEC §5.6.1 "Ranges"), else no form.
    function ranged(bytes calldata d, uint256 w, uint256 pos, uint256 lo, uint256 hi) internal pure returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool ok, uint256 v) = PorRecords.uintIn(d, pos, lo, hi);
        return ok ? D.word(w, v) : 0;
    }
}
