// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "../PorMerkle.sol";
import {PorFormsDecimal} from "./PorFormsDecimal.sol";

/// @title PorForms: reading chain forms in calldata and proving their inclusion (ADR 0017,
/// `docs/spec-forms-draft.md` §1 and §3). Every forms executor uses it.
/// @notice A form `f` is a `bytes calldata` of 32-byte words (word 0 its tag). Offsets `o`
/// are byte offsets into `f` (multiples of 32); each reader returns what it read and the
/// offset after it. Every read is bounds-checked: a word past the form's end, a length past
/// it, non-zero padding, a digit byte outside `0`-`9`, a decimal word breaking §1's rules,
/// a presence, boolean or enum word out of range, an integer word at or above 2^64 revert
/// `ProofForm()`: the proof is invalid (`proof.form`, draft §4; the caller that catches
/// the executor's revert answers `PROOF_FORM`). Nothing reads zeros past an end.
/// The same reads at absolute call data positions `p` (a form ending at `end`:
/// `wordAt`, `intAt`, `codeAt`, `countAt`, `optAt`, `tEnd`, `vEnd`), and unchecked ones
/// over words a reader has checked (`load`, `tSize`, `vSize`, `claimValue`, `sameT`,
/// `hashT`, `keccakT`), are here too: the one reader of the four executors (ADR 0017,
/// s39 decision 4; s40 `fold`). The decimal `D` is `PorFormsDecimal`'s, COMMON's shared
/// parts `PorFormsCommon`'s.
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

    /// The largest value of §12.5's integer fields (a count, a timestamp claim): 2^63 - 1.
    uint256 internal constant MAX_UINT63 = (1 << 63) - 1;

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
    /// lie inside `f` and the last word's padding is zero: `tEnd`'s checks on an offset,
    /// in its own assembly (a call to `tEnd` here costs the aggregate 1.5 % more gas; the
    /// reader tests hold both to the same cases).
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

    /// The offset after the `L[T]` at `o` (its count and each text checked).
    function skipTexts(bytes calldata f, uint256 o) internal pure returns (uint256) {
        uint256 n;
        (n, o) = readL(f, o);
        for (uint256 i; i < n; ++i) o = skipT(f, o);
        return o;
    }

    /// `V_kind(v)`, checked: the offset after it (boolean `B`, numeric `D`, timestamp
    /// `W`, text `T`; another kind is a fault).
    function skipV(bytes calldata f, uint256 o, uint256 kind) internal pure returns (uint256 next) {
        if (kind == NUMERIC) {
            (,,,, next) = PorFormsDecimal.readD(f, o);
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

    // ------------------------------------------------------------ positions

    /// The call data position of `f` (what the readers below take: a form's words at
    /// absolute positions `p`, `end` the position after its last byte).
    function pos(bytes calldata f) internal pure returns (uint256 p) {
        assembly {
            p := f.offset
        }
    }

    /// The word at call data position `p`, unchecked: for words a reader has checked.
    function load(uint256 p) internal pure returns (uint256 v) {
        assembly {
            v := calldataload(p)
        }
    }

    /// The word at `p`, which must end at or before `end`.
    function wordAt(uint256 p, uint256 end) internal pure returns (uint256 v) {
        if (p + 32 > end) revert ProofForm();
        assembly {
            v := calldataload(p)
        }
    }

    /// A `W` word at `p`: an integer below 2^64.
    function intAt(uint256 p, uint256 end) internal pure returns (uint256 v) {
        v = wordAt(p, end);
        if (v >> 64 != 0) revert ProofForm();
    }

    /// A word at `p` that must be at most `max` (a boolean: 1; an enum: its last code).
    function codeAt(uint256 p, uint256 end, uint256 max) internal pure returns (uint256 v) {
        v = wordAt(p, end);
        if (v > max) revert ProofForm();
    }

    /// A count of `stride`-word elements at `p` whose elements fit before `end`.
    function countAt(uint256 p, uint256 end, uint256 stride) internal pure returns (uint256 n) {
        n = wordAt(p, end);
        if (n > (end - p) / 32 / (stride == 0 ? 1 : stride)) revert ProofForm();
    }

    /// `O(n)` at `p`: (present, value); absent must be `W(0) W(0)`.
    function optAt(uint256 p, uint256 end) internal pure returns (bool present, uint256 v) {
        present = codeAt(p, end, 1) == 1;
        v = intAt(p + 32, end);
        if (!present && v != 0) revert ProofForm();
    }

    /// The end of the `T` at `p`: its length word and bytes before `end`, the last word's
    /// padding zero (`readT`'s checks at a call data position).
    function tEnd(uint256 p, uint256 end) internal pure returns (uint256 q) {
        assembly {
            let bad := gt(add(p, 32), end)
            if iszero(bad) {
                let len := calldataload(p)
                bad := gt(len, sub(end, p))
                if iszero(bad) {
                    q := add(add(p, 32), and(add(len, 31), not(31)))
                    bad := gt(q, end)
                    // the last word's bytes after the text (shl by the text's bytes in it) are zero
                    let tail := and(len, 31)
                    if and(iszero(bad), gt(tail, 0)) { bad := gt(shl(shl(3, tail), calldataload(sub(q, 32))), 0) }
                }
            }
            if bad {
                mstore(0, 0xddd09231) // ProofForm()
                revert(28, 4)
            }
        }
    }

    /// The end of the value `V_kind` at `p`, checked (as `skipV`).
    function vEnd(uint256 kind, uint256 p, uint256 end) internal pure returns (uint256) {
        if (kind == BOOLEAN) {
            codeAt(p, end, 1);
            return p + 32;
        }
        if (kind == NUMERIC) return PorFormsDecimal.dEnd(p, end);
        if (kind == TIMESTAMP) {
            wordAt(p, end);
            return p + 32;
        }
        return tEnd(p, end);
    }

    /// The size of the checked `T` at `p`: its length word and its padded bytes.
    function tSize(uint256 p) internal pure returns (uint256 size) {
        assembly {
            size := add(32, and(add(calldataload(p), 31), not(31)))
        }
    }

    /// The size of the checked value `V_kind` at `p`.
    function vSize(uint256 kind, uint256 p) internal pure returns (uint256 size) {
        assembly {
            switch kind
            case 1 { size := add(32, and(add(and(calldataload(p), 0xffffffff), 31), not(31))) } // NUMERIC
            case 3 { size := add(32, and(add(calldataload(p), 31), not(31))) } // TEXT
            default { size := 32 }
        }
    }

    /// The position of the value `V` of the checked claim at `q` (`H(key) E(kind)
    /// T(claim_id) V`).
    function claimValue(uint256 q) internal pure returns (uint256 v) {
        assembly {
            v := add(add(q, 96), and(add(calldataload(add(q, 64)), 31), not(31)))
        }
    }

    /// Whether the checked `T`s at `p` and `q` are the same text (word by word, the
    /// length word first).
    function sameT(uint256 p, uint256 q) internal pure returns (bool same) {
        assembly {
            let size := add(32, and(add(calldataload(p), 31), not(31)))
            same := 1
            for { let i := 0 } lt(i, size) { i := add(i, 32) } {
                if iszero(eq(calldataload(add(p, i)), calldataload(add(q, i)))) {
                    same := 0
                    break
                }
            }
        }
    }

    /// SHA-256 of the checked `T` at `p`'s bytes (`H` of the text).
    function hashT(uint256 p) internal view returns (bytes32 h) {
        assembly {
            let m := mload(0x40)
            let len := calldataload(p)
            calldatacopy(m, add(p, 32), len)
            if iszero(staticcall(gas(), 0x02, m, len, 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
        }
    }

    /// keccak256 of the checked `T` at `p`, length word and padded bytes: equal texts,
    /// equal hashes (a key for comparing texts).
    function keccakT(uint256 p) internal pure returns (bytes32 h) {
        assembly {
            let size := add(32, and(add(calldataload(p), 31), not(31)))
            let m := mload(0x40)
            calldatacopy(m, p, size)
            h := keccak256(m, size)
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

    /// A reasoning step's form (draft §3): its index among the step indexes `1 + r` ..
    /// `size - 2` of a forms tree of `size` leaves whose COMMON lists `r` requirements, its
    /// tag a step's (`EXTRACT` .. `MAP`); returns the tag, else reverts `ProofForm()`.
    function stepTag(bytes calldata f, uint256 index, uint256 r, uint256 size) internal pure returns (uint256 tag) {
        tag = tagOf(f);
        if (index < 1 + r || index + 2 > size || tag < EXTRACT || tag > MAP) revert ProofForm();
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
