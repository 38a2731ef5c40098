// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "../PorMerkle.sol";

/// @title PorForms: reading chain forms in calldata and proving their inclusion (ADR 0017,
/// `docs/spec-forms-draft.md` §1 and §3). Every forms executor uses it.
/// @notice A form `f` is a `bytes calldata` of 32-byte words (word 0 its tag). Offsets `o`
/// are byte offsets into `f` (multiples of 32); each reader returns what it read and the
/// offset after it. Every read is bounds-checked: a word past the form's end, a length past
/// it, non-zero padding, a digit byte outside `0`-`9`, a decimal word breaking §1's rules,
/// a presence, boolean or enum word out of range, an integer word at or above 2^64 revert
/// `ProofForm()`: the proof is invalid (`proof.form`, draft §4; the caller that catches
/// the executor's revert answers `PROOF_FORM`). Nothing reads zeros past an end.
/// Inclusion: each form's leaf is `LH(F) = SHA-256(0x00 || F)` in the forms tree of size
/// `n` (RFC 9162 paths), the component leaf `forms_root || uint64_be(n)` at index 6 of
/// the 7-leaf component tree whose root is `por_root`.
library PorForms {
    /// A carried form does not parse as the layout being read (draft §4 `proof.form`).
    error ProofForm();
    /// Form `form` (position in the proof's list) gives another forms root than form 0.
    error FormsInclusion(uint256 form);
    /// The forms component does not reach the `por_root` the proof is checked against.
    error FormsPorRoot();

    /// The check id of an invalid forms proof: the caller maps `ProofForm()` to it.
    bytes32 internal constant PROOF_FORM = keccak256("proof.form");

    /// Tags (draft §1.1).
    uint256 internal constant COMMON = 1;
    uint256 internal constant REQUIREMENT = 2;
    uint256 internal constant EXTRACT = 3;
    uint256 internal constant CHUNK = 4;
    uint256 internal constant AGGREGATE = 5;
    uint256 internal constant CONTRADICTIONS = 6;
    uint256 internal constant DEDUCE = 7;
    uint256 internal constant MAP = 8;
    uint256 internal constant VERDICT = 9;

    /// The `forms` component's index among the seven (draft §3).
    uint256 internal constant COMPONENT_INDEX = 6;
    uint256 internal constant COMPONENTS = 7;

    /// Claim value kinds (`V_k`, draft §1.1).
    uint256 internal constant BOOLEAN = 0;
    uint256 internal constant NUMERIC = 1;
    uint256 internal constant TIMESTAMP = 2;
    uint256 internal constant TEXT = 3;

    // ---------------------------------------------------------------- words

    /// Revert `ProofForm()`.
    function fault() internal pure {
        revert ProofForm();
    }

    /// The form's tag after checking its shape: at least one word, a whole number of words.
    function tagOf(bytes calldata f) internal pure returns (uint256 t) {
        uint256 len = f.length;
        if (len == 0 || len & 31 != 0) revert ProofForm();
        assembly {
            t := calldataload(f.offset)
        }
    }

    /// `tagOf(f)` must be `tag`; returns the offset after the tag (32).
    function open(bytes calldata f, uint256 tag) internal pure returns (uint256) {
        if (tagOf(f) != tag) revert ProofForm();
        return 32;
    }

    /// Word `i` of `f` (word 0 is the tag).
    function word(bytes calldata f, uint256 i) internal pure returns (uint256 v) {
        return at(f, i << 5);
    }

    /// The word at byte offset `o` of `f`.
    function at(bytes calldata f, uint256 o) internal pure returns (uint256 v) {
        assembly {
            if gt(add(o, 32), f.length) {
                mstore(0, 0xddd09231) // ProofForm()
                revert(28, 4)
            }
            v := calldataload(add(f.offset, o))
        }
    }

    /// The calldata position of `f[o : o + size]`, which must lie inside `f` (for loops that
    /// read a checked span with `calldataload` directly).
    function span(bytes calldata f, uint256 o, uint256 size) internal pure returns (uint256 p) {
        assembly {
            let len := f.length
            if or(gt(size, len), gt(add(o, size), len)) {
                mstore(0, 0xddd09231) // ProofForm()
                revert(28, 4)
            }
            p := add(f.offset, o)
        }
    }

    /// `o` must be the form's end: no bytes after the last word the layout reads.
    function end(bytes calldata f, uint256 o) internal pure {
        if (o != f.length) revert ProofForm();
    }

    /// `W(n)`: an integer 0 <= n < 2^64.
    function readW(bytes calldata f, uint256 o) internal pure returns (uint256 v, uint256 next) {
        assembly {
            next := add(o, 32)
            if gt(next, f.length) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
            v := calldataload(add(f.offset, o))
            if shr(64, v) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
        }
    }

    /// `H(t)` or `B32(h)`: any word.
    function readH(bytes calldata f, uint256 o) internal pure returns (bytes32 h, uint256 next) {
        return (bytes32(at(f, o)), o + 32);
    }

    /// `B(b)`: 0 or 1.
    function readB(bytes calldata f, uint256 o) internal pure returns (bool b, uint256 next) {
        uint256 v;
        (v, next) = readE(f, o, 2);
        b = v == 1;
    }

    /// `E(x)`: a code below `count` (the set's size).
    function readE(bytes calldata f, uint256 o, uint256 count) internal pure returns (uint256 code, uint256 next) {
        assembly {
            next := add(o, 32)
            if gt(next, f.length) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
            code := calldataload(add(f.offset, o))
            if iszero(lt(code, count)) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
        }
    }

    /// The presence word of `P[X]`: false (absent) or true (`X` follows at `next`).
    function readP(bytes calldata f, uint256 o) internal pure returns (bool present, uint256 next) {
        return readB(f, o);
    }

    /// `Z(n)`: `W(n)`, 0 for absent.
    function readZ(bytes calldata f, uint256 o) internal pure returns (uint256 v, uint256 next) {
        return readW(f, o);
    }

    /// `O(n)`: `W(0) W(0)` absent, `W(1) W(n)` present with n <= `max` (`max` 1: an
    /// optional boolean, `type(uint64).max`: an optional integer).
    function readO(bytes calldata f, uint256 o, uint256 max) internal pure returns (bool present, uint256 v, uint256 next) {
        uint256 p = at(f, o);
        v = at(f, o + 32);
        if (p > 1 || v > max || (p == 0 && v != 0)) revert ProofForm();
        return (p == 1, v, o + 64);
    }

    /// `L[X]`'s count word: each element takes at least one word, so a count larger than
    /// the words left is a fault here (the elements are read by the caller).
    function readL(bytes calldata f, uint256 o) internal pure returns (uint256 count, uint256 next) {
        assembly {
            let len := f.length
            next := add(o, 32)
            if gt(next, len) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
            count := calldataload(add(f.offset, o))
            if gt(count, shr(5, sub(len, next))) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
        }
    }

    /// `T(t)`: (calldata position of its bytes, byte length, offset after it). The bytes
    /// lie inside `f` and the last word's padding is zero.
    function readT(bytes calldata f, uint256 o) internal pure returns (uint256 p, uint256 len, uint256 next) {
        assembly {
            let flen := f.length
            p := add(o, 32)
            if gt(p, flen) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
            len := calldataload(add(f.offset, o))
            let size := and(add(len, 31), not(31))
            next := add(p, size)
            // the last word's bytes after the text (shl by the text's bytes in it) are zero
            if or(or(gt(len, flen), gt(next, flen)), and(iszero(iszero(and(len, 31))), iszero(iszero(
                shl(shl(3, and(len, 31)), calldataload(add(f.offset, sub(next, 32)))))))) {
                mstore(0, 0xddd09231)
                revert(28, 4)
            }
            p := add(f.offset, p)
        }
    }

    /// The offset after the `T` at `o` (checked as `readT`).
    function skipT(bytes calldata f, uint256 o) internal pure returns (uint256 next) {
        (,, next) = readT(f, o);
    }

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

    /// `V_kind(v)`, checked: the offset after it (boolean `B`, numeric `D`, timestamp
    /// `W`, text `T`; another kind is a fault).
    function skipV(bytes calldata f, uint256 o, uint256 kind) internal pure returns (uint256 next) {
        if (kind == NUMERIC) {
            (,,,, next) = readD(f, o);
        } else if (kind == TEXT) {
            (,, next) = readT(f, o);
        } else if (kind == BOOLEAN) {
            (, next) = readB(f, o);
        } else if (kind == TIMESTAMP) {
            (, next) = readW(f, o);
        } else {
            revert ProofForm();
        }
    }

    // ------------------------------------------------------------ inclusion

    /// The forms root every form's path gives: `LH(forms[i])` at `index[i]` of a tree of
    /// `size` leaves with `paths[i]` (RFC 9162). Reverts `FormsInclusion(i)` when a path
    /// gives another root than form 0's; PorMerkle's errors for a bad index or path length.
    function formsRoot(
        bytes[] calldata forms,
        uint256[] calldata index,
        uint256 size,
        bytes32[][] calldata paths
    ) internal view returns (bytes32 root) {
        uint256 n = forms.length;
        if (n == 0 || index.length != n || paths.length != n) revert ProofForm();
        for (uint256 i; i < n; ++i) {
            bytes32 r = PorMerkle.rootFromPath(PorMerkle.leafHash(forms[i]), index[i], size, paths[i]);
            if (i == 0) root = r;
            else if (r != root) revert FormsInclusion(i);
        }
    }

    /// `por_root` from the forms component: `LH(root || uint64_be(size))` at index 6 of 7
    /// with `path` (2 hashes, draft §3).
    function porRoot(bytes32 root, uint256 size, bytes32[] calldata path) internal view returns (bytes32) {
        if (size >> 64 != 0) revert ProofForm();
        return PorMerkle.rootFromPath(
            PorMerkle.componentLeafHash(root, uint64(size)), COMPONENT_INDEX, COMPONENTS, path
        );
    }

    /// Every form is in the forms tree of `size` leaves whose component reaches `root`
    /// (`formsRoot` then `porRoot`); reverts `FormsPorRoot()` when it does not.
    function include(
        bytes32 root,
        uint256 size,
        bytes32[] calldata componentPath,
        bytes[] calldata forms,
        uint256[] calldata index,
        bytes32[][] calldata paths
    ) internal view {
        if (porRoot(formsRoot(forms, index, size, paths), size, componentPath) != root) revert FormsPorRoot();
    }

    /// A forms proof's inclusion part, as one ABI tuple (few stack slots): `por_root`, the
    /// forms tree's size, each carried form's index and path, the component path.
    struct Inclusion {
        bytes32 porRoot;
        uint256 size;
        uint256[] index;
        bytes32[][] paths;
        bytes32[] componentPath;
    }

    /// `include` on an `Inclusion`.
    function included(bytes[] calldata forms, Inclusion calldata inc) internal view {
        bytes32 root = formsRoot(forms, inc.index, inc.size, inc.paths);
        if (porRoot(root, inc.size, inc.componentPath) != inc.porRoot) revert FormsPorRoot();
    }

    /// The forms-tree index of the form of reasoning leaf `leaf` (draft §3: `1 + r + leaf`),
    /// where `r` is the PromptSpec's requirement count.
    function stepIndex(uint256 r, uint256 leaf) internal pure returns (uint256) {
        return 1 + r + leaf;
    }

    /// `H(step_id(n))`: SHA-256 of `"step_"` and `n` in decimal, four digits at least
    /// (SPEC §12.5's step ids); every forms executor checks a step's id at its leaf by it.
    function stepIdHash(uint256 n) internal view returns (bytes32 h) {
        uint256 digits = 4;
        for (uint256 x = n / 10000; x != 0; x /= 10) ++digits;
        assembly {
            let m := mload(0x40)
            mstore(m, "step_")
            let v := n
            for { let i := digits } gt(i, 0) { i := sub(i, 1) } {
                mstore8(add(m, add(4, i)), add(48, mod(v, 10)))
                v := div(v, 10)
            }
            if iszero(staticcall(gas(), 0x02, m, add(5, digits), 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
        }
    }
}
