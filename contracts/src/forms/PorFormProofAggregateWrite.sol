// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormProofAggregateWrite: a writer of `D(d)` in one assembly pass, beside
/// `PorFormProofDeduce`'s (ADR 0017, s42 addendum `fpagg2`: a gas lever of the AGGREGATE
/// family, whose fields and votes hold up to ~90 decimals of 64 characters).
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
}
