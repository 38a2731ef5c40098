// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";

/// @title PorFormsDecimal: the decimal `D` of chain forms (SPEC §5.6 section 1), read and
/// compared in call data (ADR 0017 stage 4; s40 `fold`: the executors' copies as one).
/// @notice `readD` checks a decimal word and its digits at a form-relative offset (a fault
/// reverts `PorForms.ProofForm()`, selector 0xddd09231, as every forms reader does);
/// the other entries read a `D` it checked: at a call data position `p` (`dAt`, `decAt`),
/// as a `PorDecimal.Dec` (`readDec`), its end (`dEnd`), §3.2's exact order (`cmpDecimal`).
library PorFormsDecimal {
    /// `D(d)`: sign, scale, digit count, calldata position of the digits, offset after it.
    /// Checks draft §1's decimal word: len 1..64, scale 0..62, no other bits, digits
    /// `0`-`9` and zero padding, no leading `0` unless len = 1, no trailing `0` when
    /// scale > 0, no `-0`, and at most 64 characters for the canonical text.
    function readD(bytes calldata f, uint256 o)
        internal
        pure
        returns (bool neg, uint256 scale, uint256 len, uint256 p, uint256 next)
    {
        assembly {
            // bytes 0x30..0x39 in the first `k` (1..32) bytes of `w`, zeros after
            function digits(w, k) -> ok {
                let m := not(shr(shl(3, k), not(0)))
                let hi := 0xf0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0
                let lo := 0x0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f
                let sixes := 0x0606060606060606060606060606060606060606060606060606060606060606
                let tens := 0x1010101010101010101010101010101010101010101010101010101010101010
                let threes := 0x3030303030303030303030303030303030303030303030303030303030303030
                ok := and(
                    and(eq(and(w, and(hi, m)), and(threes, m)), iszero(and(and(add(and(w, lo), sixes), tens), m))),
                    iszero(and(w, not(m)))
                )
            }
            let flen := f.length
            let head := 0
            if iszero(gt(add(o, 32), flen)) { head := calldataload(add(f.offset, o)) }
            neg := shr(255, head)
            scale := and(shr(232, head), 0x7fffff)
            len := and(head, 0xffffffff)
            let words := add(1, gt(len, 32))
            next := add(o, add(32, shl(5, words)))
            // the canonical text's length: sign + len, or sign + max(len, scale + 1) + 1
            let chars := len
            if scale {
                chars := add(scale, 1)
                if gt(len, scale) { chars := len }
                chars := add(chars, 1)
            }
            chars := add(chars, neg)
            let bad := or(or(gt(next, flen), iszero(len)), or(gt(len, 64), gt(scale, 62)))
            bad := or(bad, or(gt(chars, 64), and(head, 0x000000ffffffffffffffffffffffffffffffffffffffffffffffff00000000)))
            if bad {
                mstore(0, 0xddd09231) // ProofForm()
                revert(28, 4)
            }
            p := add(f.offset, add(o, 32))
            let w0 := calldataload(p)
            let k0 := len
            if gt(k0, 32) { k0 := 32 }
            bad := iszero(digits(w0, k0))
            if gt(len, 32) { bad := or(bad, iszero(digits(calldataload(add(p, 32)), sub(len, 32)))) }
            let first := byte(0, w0)
            let last := byte(0, calldataload(add(p, sub(len, 1))))
            // a leading 0 only as the whole number "0"; no trailing 0 in a fraction; no -0
            if and(eq(first, 0x30), gt(len, 1)) { bad := 1 }
            if and(eq(last, 0x30), gt(scale, 0)) { bad := 1 }
            if and(neg, and(eq(first, 0x30), eq(len, 1))) { bad := 1 }
            if bad {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
        }
    }

    /// The integer of the 1..64 ASCII digits at calldata position `p` (checked by `readD`:
    /// zero bytes after them), 32 digits a word at once (SWAR: pairs, quads, ... of lanes).
    function magnitude(uint256 p, uint256 len) internal pure returns (uint256 m) {
        assembly {
            // the k (1..32) leading digit bytes of w as an integer
            function digits(w, k) -> v {
                let threes := 0x3030303030303030303030303030303030303030303030303030303030303030
                // right-aligned, '0' bytes above
                w := or(shr(shl(3, sub(32, k)), w), shl(shl(3, k), threes))
                let d := sub(w, threes)
                let m8 := 0x00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff
                d := add(mul(and(shr(8, d), m8), 10), and(d, m8))
                let m16 := 0x0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff0000ffff
                d := add(mul(and(shr(16, d), m16), 100), and(d, m16))
                let m32 := 0x00000000ffffffff00000000ffffffff00000000ffffffff00000000ffffffff
                d := add(mul(and(shr(32, d), m32), 10000), and(d, m32))
                let m64 := 0x0000000000000000ffffffffffffffff0000000000000000ffffffffffffffff
                d := add(mul(and(shr(64, d), m64), 100000000), and(d, m64))
                v := add(mul(shr(128, d), 10000000000000000), and(d, 0xffffffffffffffffffffffffffffffff))
            }
            switch gt(len, 32)
            case 0 { m := digits(calldataload(p), len) }
            default {
                let rest := sub(len, 32)
                m := add(mul(digits(calldataload(p), 32), exp(10, rest)), digits(calldataload(add(p, 32)), rest))
            }
        }
    }

    /// `readD` at `o` as a `PorDecimal.Dec`, and the offset after it.
    function readDec(bytes calldata f, uint256 o) internal pure returns (PorDecimal.Dec memory d, uint256 next) {
        (bool neg, uint256 scale, uint256 len, uint256 p, uint256 n) = readD(f, o);
        return (PorDecimal.Dec(neg, 0, magnitude(p, len), scale), n);
    }

    /// The end of the `D` at call data position `p` of a form ending at `end` (`readD`).
    function dEnd(uint256 p, uint256 end) internal pure returns (uint256) {
        bytes calldata f;
        assembly {
            if gt(p, end) {
                mstore(0, 0xddd09231) // ProofForm()
                revert(28, 4)
            }
            f.offset := p
            f.length := sub(end, p)
        }
        (,,,, uint256 next) = readD(f, 0);
        return p + next;
    }

    /// The checked `D` at call data position `p`: sign, scale, digit count, digits' position.
    function dAt(uint256 p) internal pure returns (bool neg, uint256 scale, uint256 len, uint256 digits) {
        uint256 head;
        assembly {
            head := calldataload(p)
        }
        return (head >> 255 == 1, (head >> 232) & 0x7fffff, head & 0xffffffff, p + 32);
    }

    /// The checked `D` at call data position `p` as a `PorDecimal.Dec`.
    function decAt(uint256 p) internal pure returns (PorDecimal.Dec memory) {
        (bool neg, uint256 scale, uint256 len, uint256 digits) = dAt(p);
        return PorDecimal.Dec(neg, 0, magnitude(digits, len), scale);
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
}
