// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";

/// @title PorFormProofExtractWrite: writers shared by the FormProof families, added beside
/// `PorFormProofDeduce`'s (whose names and signatures stay; ADR 0017, s42 addendum
/// `fpextract`). Each takes and returns the write position (0: no form) and allocates
/// nothing.
library PorFormProofExtractWrite {
    /// `D(d)` of the text at `pos` (0: absent), SPEC §5.6.1 and §3.2: the same answer and
    /// words as `PorFormProofDeduce.decimal` (a canonical decimal
    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?` of 1..64 characters, not `-0`; the word
    /// `sign << 255 | scale << 232 | len`, then the digits of `m`, leading zeros dropped,
    /// zero-padded), checked and written in one assembly pass (about a tenth of its gas on a
    /// 64-character decimal).
    function decimal(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        if (w == 0 || pos == 0) return 0;
        (bool ok, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!ok || len == 0 || len > 64) return 0;
        assembly ("memory-safe") {
            // the byte at index `i` of the text
            function at(b, i) -> c {
                c := byte(0, calldataload(add(b, i)))
            }
            // the first index from `i` on (below `e`) that is not an ASCII digit, else `e`
            function digits(b, i, e) -> j {
                j := i
                for {} lt(j, e) { j := add(j, 1) } {
                    if gt(sub(at(b, j), 0x30), 9) { break }
                }
            }
            // (canonical, its sign, where its fraction starts: `e` when none) of the
            // text [b, b + e); its whole part starts after the sign
            function canonical(b, e) -> good, neg, fs {
                neg := eq(at(b, 0), 0x2d) // "-"
                fs := e
                let bad := eq(neg, e)
                let i := neg
                if iszero(bad) {
                    switch eq(at(b, i), 0x30)
                    case 1 { i := add(i, 1) } // "0": alone
                    default {
                        i := digits(b, i, e)
                        bad := eq(i, neg)
                    }
                }
                if and(iszero(bad), lt(i, e)) {
                    bad := iszero(eq(at(b, i), 0x2e)) // "."
                    fs := add(i, 1)
                    i := digits(b, fs, e)
                    bad := or(bad, or(iszero(eq(i, e)), or(eq(i, fs), eq(at(b, sub(e, 1)), 0x30))))
                }
                good := iszero(or(bad, and(neg, and(eq(at(b, neg), 0x30), eq(fs, e))))) // not "-0"
            }
            // the decimal word and the digits at `to`; the position after them
            function write(b, e, to, neg, fs) -> next {
                let ws := neg
                let fz := fs
                let wl := sub(sub(fs, lt(fs, e)), ws) // the whole part's length
                if and(eq(at(b, ws), 0x30), lt(fs, e)) {
                    // "0.f": the whole part dropped, then the fraction's leading zeros
                    wl := 0
                    for {} eq(at(b, fz), 0x30) { fz := add(fz, 1) } {}
                }
                let n := add(wl, sub(e, fz))
                mstore(to, or(or(shl(255, neg), shl(232, sub(e, fs))), n))
                let q := add(to, 32)
                calldatacopy(q, add(b, ws), wl)
                calldatacopy(add(q, wl), add(b, fz), sub(e, fz))
                mstore(add(q, n), 0)
                next := add(q, and(add(n, 31), not(31)))
            }
            let b := add(d.offset, off)
            let good, neg, fs := canonical(b, len)
            if good { r := write(b, len, w, neg, fs) }
        }
    }
}
