// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

/// @title PorFormProofDecimal: the one writer of `D(d)` (SPEC §5.6.1, §3.2) of the FormProof's
/// record families (ADR 0017, s42 addendum `fpunify`: it replaces the four assembly copies of
/// fpextract, fpcontra, fpchunk2 and fpagg2 and the byte loops of `PorFormProofDeduce.decimal`,
/// which now calls it). One assembly pass: the text's head read as `PorCbor.str` reads it,
/// its digits checked 32 bytes at a time, no bounds checks (the text lies inside a checked
/// leaf; calldata past its end reads as zeros), nothing allocated.
library PorFormProofDecimal {
    /// `D(d)` of the item at `pos` (0: absent) written at `w` (0: no form so far): a text
    /// holding a canonical decimal `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?` of 1..64 characters,
    /// not `-0`; the word `sign << 255 | scale << 232 | len`, then the digits of `m` (the whole
    /// part unless it is `0` with a fraction, then the fraction without the leading zeros the
    /// dropped whole part leaves; `0` for zero), zero-padded. The next write position, 0 when
    /// no form (another item, or not such a decimal).
    function decimal(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        if (w == 0 || pos == 0) return 0;
        assembly ("memory-safe") {
            // The first byte in calldata [p, end) that is not an ASCII digit, or `end`: per
            // word, a flag (bit 7) on each byte whose high nibble is not 3 or whose low nibble
            // is above 9, the bytes past `end` cleared, then the count of leading zero bytes.
            function nonDigit(p, end) -> at {
                at := end
                for {} lt(p, end) { p := add(p, 32) } {
                    let x := calldataload(p)
                    let high := xor(and(x, 0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0),
                        0x3030303030303030303030303030303030303030303030303030303030303030)
                    let sevens := 0x7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f
                    let flags := or(add(and(high, sevens), sevens), high)
                    let low := and(x, 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f)
                    flags := or(flags, shl(3, add(low, 0x0606060606060606060606060606060606060606060606060606060606060606)))
                    flags := and(flags, 0x8080808080808080808080808080808080808080808080808080808080808080)
                    let k := sub(end, p)
                    if lt(k, 32) { flags := and(flags, not(shr(shl(3, k), not(0)))) }
                    if flags {
                        let n := 0
                        if iszero(shr(128, flags)) {
                            n := 16
                            flags := shl(128, flags)
                        }
                        if iszero(shr(192, flags)) {
                            n := add(n, 8)
                            flags := shl(64, flags)
                        }
                        if iszero(shr(224, flags)) {
                            n := add(n, 4)
                            flags := shl(32, flags)
                        }
                        if iszero(shr(240, flags)) {
                            n := add(n, 2)
                            flags := shl(16, flags)
                        }
                        if iszero(shr(248, flags)) { n := add(n, 1) }
                        at := add(p, n)
                        break
                    }
                }
            }
            // the item's head, as `PorCbor.head` reads it: a text (major 3) of 1..64 bytes
            let hp := add(d.offset, pos)
            let ib := byte(0, calldataload(hp))
            let len := and(ib, 31)
            let b := add(hp, 1)
            if gt(len, 23) {
                let width := shl(sub(len, 24), 1)
                len := shr(sub(256, shl(3, width)), calldataload(b))
                b := add(b, width)
            }
            if and(eq(shr(5, ib), 3), and(gt(len, 0), lt(len, 65))) {
                let e := add(b, len)
                let neg := eq(byte(0, calldataload(b)), 0x2d) // "-"
                let ws := add(b, neg)
                let zero := eq(byte(0, calldataload(ws)), 0x30)
                // the whole part: "0", or a digit 1-9 and digits
                let i := nonDigit(ws, e)
                let bad := or(eq(i, ws), and(zero, gt(sub(i, ws), 1)))
                // the fraction: ".", digits, the last not "0"
                let fs := e
                if lt(i, e) {
                    fs := add(i, 1)
                    bad := or(bad, iszero(eq(byte(0, calldataload(i)), 0x2e)))
                    bad := or(bad, or(iszero(eq(nonDigit(fs, e), e)),
                        or(eq(fs, e), eq(byte(0, calldataload(sub(e, 1))), 0x30))))
                }
                bad := or(bad, and(neg, and(zero, eq(fs, e)))) // not "-0"
                if iszero(bad) {
                    // the whole part's digits (none when it is "0" before a fraction), then
                    // the fraction's, from its first non-zero digit in that case
                    let wl := sub(e, ws)
                    let fz := e
                    if lt(fs, e) {
                        wl := sub(sub(fs, 1), ws)
                        fz := fs
                        if zero {
                            wl := 0
                            for {} eq(byte(0, calldataload(fz)), 0x30) {} { fz := add(fz, 1) }
                        }
                    }
                    let n := add(wl, sub(e, fz))
                    mstore(w, or(or(shl(255, neg), shl(232, sub(e, fs))), n))
                    let q := add(w, 32)
                    calldatacopy(q, ws, wl)
                    calldatacopy(add(q, wl), fz, sub(e, fz))
                    mstore(add(q, n), 0)
                    r := add(q, and(add(n, 31), not(31)))
                }
            }
        }
    }
}
