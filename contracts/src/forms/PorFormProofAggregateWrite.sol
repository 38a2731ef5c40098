// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormProofAggregateWrite: a writer of `D(d)` in one assembly pass and a reader
/// of a map whose keys are all named, beside `PorFormProofDeduce`'s (ADR 0017, s42 addendum
/// `fpagg2`: gas levers of the AGGREGATE family, whose fields and votes hold up to ~90
/// decimals of 64 characters and ~100 small open maps).
/// @notice `decimal(d, w, pos)` writes what `PorFormProofDeduce.decimal` writes and fails
/// where it fails (the differential of `tests/chain/test_forms_formproof_agg.py` holds both
/// to Python's `D`), about a tenth of its gas on a 64-character decimal: the characters
/// are read from one calldata word each, without bounds checks (the text lies inside a
/// checked leaf).
library PorFormProofAggregateWrite {
    /// `D(d)` of the item at `pos` (0: absent; a text, else no form) at `w` (SPEC §5.6.1,
    /// §3.2): a canonical decimal `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?` of at most 64
    /// characters, not `-0`; the word `sign << 255 | scale << 232 | len`, then the digits
    /// of `m` (leading zeros dropped, `0` for zero) zero-padded. The next write position,
    /// 0 when no form.
    function decimal(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        if (w == 0 || pos == 0) return 0;
        assembly ("memory-safe") {
            // the character at calldata offset `q`
            function at(q) -> c {
                c := byte(0, calldataload(q))
            }
            function isDigit(c) -> y {
                y := lt(sub(c, 0x30), 10)
            }
            let b := d.offset
            let ib := at(add(b, pos))
            let len := and(ib, 31)
            let i := add(add(b, pos), 1)
            if eq(len, 24) {
                len := at(i)
                i := add(i, 1)
            }
            let e := add(i, len)
            // a text (major 3) of 1..64 bytes (a longer head is more than 64 bytes)
            let ok := and(eq(shr(5, ib), 3), and(gt(len, 0), lt(len, 65)))
            ok := and(ok, lt(and(ib, 31), 25))
            let negative := 0
            let ws := 0
            let fs := e
            if ok {
                negative := eq(at(i), 0x2d) // "-"
                i := add(i, negative)
                ws := i
                switch lt(i, e)
                case 0 { ok := 0 }
                default {
                    switch eq(at(i), 0x30)
                    case 1 { i := add(i, 1) }
                    default {
                        for {} and(lt(i, e), isDigit(at(i))) {} { i := add(i, 1) }
                        if eq(i, ws) { ok := 0 }
                    }
                }
            }
            if and(ok, lt(i, e)) {
                switch eq(at(i), 0x2e) // "."
                case 0 { ok := 0 }
                default {
                    i := add(i, 1)
                    fs := i
                    for {} and(lt(i, e), isDigit(at(i))) {} { i := add(i, 1) }
                    if or(or(iszero(eq(i, e)), eq(i, fs)), eq(at(sub(e, 1)), 0x30)) { ok := 0 }
                }
            }
            // not "-0"
            if and(ok, and(negative, and(eq(at(ws), 0x30), eq(fs, e)))) { ok := 0 }
            if ok {
                let fz := fs
                let wl := sub(e, ws)
                if lt(fs, e) { wl := sub(sub(fs, 1), ws) }
                if and(eq(at(ws), 0x30), lt(fs, e)) {
                    wl := 0
                    for {} eq(at(fz), 0x30) {} { fz := add(fz, 1) }
                }
                let n := add(wl, sub(e, fz))
                mstore(w, or(or(shl(255, negative), shl(232, sub(e, fs))), n))
                let q := add(w, 32)
                calldatacopy(q, ws, wl)
                calldatacopy(add(q, wl), fz, sub(e, fz))
                mstore(add(q, n), 0)
                r := add(q, and(add(n, 31), not(31)))
            }
        }
    }

    /// The `n` entries of a map from `p` when every key is one of `names` (the common case:
    /// its rest word is 0): (true, the map's end), each named key's value offset in `out`
    /// (0: absent); (false, 0) at the first other key, `out` then partly written (the caller
    /// takes `PorFormProofDeduce.rest`'s answer). A key's word and a value's end as
    /// `PorFormProofDeduce.rest`'s walk makes them.
    function named(bytes calldata d, uint256 p, uint256 n, uint256[] memory names, uint256[] memory out)
        internal
        pure
        returns (bool all, uint256 end)
    {
        assembly ("memory-safe") {
            let b := d.offset
            let first := add(names, 32)
            let last := add(first, shl(5, mload(names)))
            for { let s := 0 } lt(s, mload(out)) { s := add(s, 1) } { mstore(add(add(out, 32), shl(5, s)), 0) }
            all := 1
            for {} n { n := sub(n, 1) } {
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
                let slot := first
                for {} lt(slot, last) { slot := add(slot, 32) } {
                    if eq(mload(slot), key) { break }
                }
                if iszero(lt(slot, last)) {
                    all := 0
                    break
                }
                mstore(add(out, sub(slot, names)), v)
                // the value's end
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
                p := sub(q, b)
            }
            if all { end := p }
        }
    }
}
