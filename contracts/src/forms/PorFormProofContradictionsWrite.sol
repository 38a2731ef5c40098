// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";

/// @title PorFormProofContradictionsWrite: a shared writer of the FormProof's families (ADR 0017,
/// s42 addendum `fpcontra`): `D(d)` in assembly, its digits checked 32 bytes at a time, the same answer as
/// `PorFormProofDeduce.decimal` (whose checked byte reads cost ~20 000 gas a 64-character
/// decimal; the contradictions step at the caps writes 32 of them).
/// @notice Like `PorFormProofDeduce`'s writers: takes and returns the write position, 0 once a
/// rule failed (no form), allocates nothing.
library PorFormProofContradictionsWrite {
    /// `D(d)` of the text at `pos` (0: absent) (SPEC §5.6.1, §3.2): a canonical decimal
    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?` of 1..64 characters, not `-0`; the word
    /// `sign << 255 | scale << 232 | len`, then the digits of `m` (the whole part unless it is
    /// `0` with a fraction, then the fraction without the leading zeros the dropped whole part
    /// leaves; `0` for zero), zero-padded.
    function decimal(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool ok, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!ok || len == 0 || len > 64) return 0;
        uint256 b;
        assembly ("memory-safe") {
            b := add(d.offset, off)
        }
        (bool bad, uint256 neg, uint256 ws, uint256 fs) = canonical(b, b + len);
        return bad ? 0 : digits(w, neg, ws, fs, b + len);
    }

    /// The text at calldata [b, e) (1..64 bytes) is not a canonical decimal: (bad, its sign,
    /// where its whole part starts, where its fraction starts: `e` when it has none). The
    /// digits are found 32 bytes at a time (`nonDigit`).
    function canonical(uint256 b, uint256 e) private pure returns (bool bad, uint256 neg, uint256 ws, uint256 fs) {
        assembly ("memory-safe") {
            // The first byte in calldata [p, e) that is not an ASCII digit, or e: per word, a
            // flag (bit 7) on each byte whose high nibble is not 3 or whose low nibble is above
            // 9, the bytes past e cleared, then the count of leading zero bytes.
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
            neg := eq(byte(0, calldataload(b)), 0x2d) // "-"
            ws := add(b, neg)
            let zero := eq(byte(0, calldataload(ws)), 0x30)
            // the whole part: "0", or a digit 1-9 and digits
            let i := nonDigit(ws, e)
            bad := or(eq(i, ws), and(zero, gt(sub(i, ws), 1)))
            // the fraction: ".", digits, the last not "0"
            fs := e
            if lt(i, e) {
                fs := add(i, 1)
                bad := or(bad, iszero(eq(byte(0, calldataload(i)), 0x2e)))
                bad := or(bad, or(iszero(eq(nonDigit(fs, e), e)), or(eq(fs, e), eq(byte(0, calldataload(sub(e, 1))), 0x30))))
            }
            bad := or(bad, and(neg, and(zero, eq(fs, e)))) // not "-0"
        }
    }

    /// The decimal word at `w`, then the digits of `m`: the whole part from `ws` (unless it is
    /// "0" with a fraction), then the fraction from `fs` to `e` (without its leading zeros when
    /// the whole part was dropped), zero-padded: the write position after them.
    function digits(uint256 w, uint256 neg, uint256 ws, uint256 fs, uint256 e) private pure returns (uint256 r) {
        assembly ("memory-safe") {
            let wl := sub(e, ws)
            let fz := e
            if lt(fs, e) {
                wl := sub(sub(fs, 1), ws)
                fz := fs
                if eq(byte(0, calldataload(ws)), 0x30) {
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
