// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";

/// @title PorCheckFormRead: the check-chunk executor's reads of chain forms by absolute
/// call data offset (`p`, with the form's end `end`) over the shared `PorForms` readers
/// (draft SPEC §5.6 section 1; ADR 0017 stage 4, s39).
/// @notice Every read is bounds-checked and reverts `PorForms.ProofForm()` (`proof.form`,
/// ADR 0017 decision 5) on a word, count or length past the end, a presence, boolean or
/// enum word out of range, an integer word at or above 2^64, non-zero padding, a decimal
/// breaking section 1's rules. `D` is `PorForms.readD` on the form's slice (an
/// absolute-offset entry in `PorForms` would save the slice); `T` is checked here (see
/// `tEnd`); what this adds: absolute offsets (the executor's loops keep
/// call data positions), §3.2's exact order on two `D`s, texts compared and hashed in
/// place, and `H(step_id(n))`.
library PorCheckFormRead {
    uint256 internal constant MAX63 = (1 << 63) - 1;

    /// The word at `p`.
    function w(uint256 p, uint256 end) internal pure returns (uint256 v) {
        if (p + 32 > end) revert F.ProofForm();
        assembly { v := calldataload(p) }
    }

    /// A `W` word: an integer below 2^64.
    function int64w(uint256 p, uint256 end) internal pure returns (uint256 v) {
        v = w(p, end);
        if (v >> 64 != 0) revert F.ProofForm();
    }

    /// A word that must be at most `max` (a boolean: 1; an enum: its last code).
    function code(uint256 p, uint256 end, uint256 max) internal pure returns (uint256 v) {
        v = w(p, end);
        if (v > max) revert F.ProofForm();
    }

    /// A count of `stride`-word elements at `p` whose elements fit before `end`.
    function count(uint256 p, uint256 end, uint256 stride) internal pure returns (uint256 n) {
        n = w(p, end);
        if (n > (end - p) / 32 / (stride == 0 ? 1 : stride)) revert F.ProofForm();
    }

    /// `O(n)` / `P[W]`-like pair at `p`: (present, value); absent must be `W(0) W(0)`.
    function opt(uint256 p, uint256 end) internal pure returns (bool present, uint256 v) {
        present = code(p, end, 1) == 1;
        v = int64w(p + 32, end);
        if (!present && v != 0) revert F.ProofForm();
    }

    /// The form `[p, end)` as a call data slice (for `PorForms`' readers).
    function slice(uint256 p, uint256 end) internal pure returns (bytes calldata f) {
        if (p > end) revert F.ProofForm();
        assembly {
            f.offset := p
            f.length := sub(end, p)
        }
    }

    /// The end of the `T` at absolute calldata position `p`: bounds and zero padding, in
    /// one assembly block; the same checks as `PorForms.readT` on a form-relative offset
    /// (whose even-length padding bug, found here, was fixed at s39's integration). Goes
    /// into `PorForms` with the other absolute-offset readers (ADR 0017, s39 decision 4).
    function tEnd(uint256 p, uint256 end) internal pure returns (uint256 q) {
        bool bad;
        assembly {
            bad := gt(add(p, 32), end)
            if iszero(bad) {
                let len := calldataload(p)
                bad := gt(len, sub(end, p))
                if iszero(bad) {
                    q := add(add(p, 32), and(add(len, 31), not(31)))
                    bad := gt(q, end)
                    let tail := and(len, 31)
                    if and(iszero(bad), gt(tail, 0)) { bad := gt(shl(shl(3, tail), calldataload(sub(q, 32))), 0) }
                }
            }
        }
        if (bad) revert F.ProofForm();
    }

    /// The end of the `D` at `p` (`PorForms.readD`: the decimal word and digits).
    function dEnd(uint256 p, uint256 end) internal pure returns (uint256) {
        (,,,, uint256 next) = F.readD(slice(p, end), 0);
        return p + next;
    }

    /// The end of the value `V_kind` at `p` (kind codes: 0 boolean, 1 numeric, 2
    /// timestamp, 3 text).
    function vEnd(uint256 kind, uint256 p, uint256 end) internal pure returns (uint256) {
        if (kind == 0) {
            code(p, end, 1);
            return p + 32;
        }
        if (kind == 1) return dEnd(p, end);
        if (kind == 2) {
            w(p, end);
            return p + 32;
        }
        return tEnd(p, end);
    }

    /// -1, 0, 1 as the decimal at `a` is below, equal to, above the one at `b` (both
    /// checked by `dEnd`): §3.2's exact order on the words (the signs, zero, then the
    /// exponent `len - scale`, then the canonical digits word by word).
    function cmpDecimal(uint256 a, uint256 b) internal pure returns (int256 r) {
        assembly {
            // (signum, exponent, digit words) of the decimal at p
            function dec(p) -> s, e, d0, d1 {
                let head := calldataload(p)
                d0 := calldataload(add(p, 32))
                let len := and(head, 0xffffffff)
                if gt(len, 32) { d1 := calldataload(add(p, 64)) }
                if iszero(and(eq(len, 1), eq(shr(248, d0), 0x30))) {
                    s := 1
                    if shr(255, head) { s := not(0) }
                    e := sub(len, and(shr(232, head), 0x7fffff))
                }
            }
            let sa, ea, a0, a1 := dec(a)
            let sb, eb, b0, b1 := dec(b)
            switch eq(sa, sb)
            case 0 {
                r := 1
                if slt(sa, sb) { r := not(0) }
            }
            default {
                if sa {
                    let m := 0
                    switch eq(ea, eb)
                    case 0 {
                        m := 1
                        if slt(ea, eb) { m := not(0) }
                    }
                    default {
                        switch eq(a0, b0)
                        case 0 {
                            m := 1
                            if lt(a0, b0) { m := not(0) }
                        }
                        default {
                            if iszero(eq(a1, b1)) {
                                m := 1
                                if lt(a1, b1) { m := not(0) }
                            }
                        }
                    }
                    r := m
                    if slt(sa, 0) { r := sub(0, m) }
                }
            }
        }
    }

    /// SHA-256 of the `T`'s bytes at `p` (`H` of the text; its bounds already checked).
    function hashT(uint256 p) internal view returns (bytes32 h) {
        assembly {
            let m := mload(0x40)
            let len := calldataload(p)
            calldatacopy(m, add(p, 32), len)
            if iszero(staticcall(gas(), 0x02, m, len, 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
        }
    }

    /// Whether the `T`s at `a` and `b` are the same text.
    function sameT(uint256 a, uint256 b) internal pure returns (bool same) {
        assembly {
            let len := calldataload(a)
            if eq(len, calldataload(b)) {
                let m := mload(0x40)
                let size := add(32, and(add(len, 31), not(31)))
                calldatacopy(m, a, size)
                calldatacopy(add(m, size), b, size)
                same := eq(keccak256(m, size), keccak256(add(m, size), size))
            }
        }
    }
}
