// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys as K} from "./PorCheckKeys.sol";
import {PorContradictionsDecimal} from "./PorContradictionsDecimal.sol";

/// @title PorContradictionsMaps: the fixed-key maps of a cited check chunk's state read in
/// place (SPEC §12.5.3, `read_state`'s `_group`, `_ref` and source entries).
/// @notice Offsets are absolute in a proof `d` whose leaves passed the §2 reader: a map's
/// head is canonical and its keys unique and sorted by their encodings (§2 rule 2), so a
/// map whose keys are exactly a fixed set holds them in one order, and reading its
/// entries in that order, each key compared with its encoding, is Python's
/// `sorted(raw) == keys`. Every reader here gives 0 for a malformed map and passes 0 on
/// (a reader called at 0 gives 0, as `PorCheckKeys.keyAt` and `textEnd`), so a chain of
/// them fails at the first difference.
library PorContradictionsMaps {
    // Encodings of the keys and words read (§2: head 0x60 | length, then the bytes).
    uint256 private constant VALUE = 0x6576616c7565;
    uint256 private constant CLAIM_ID = 0x68636c61696d5f6964;
    uint256 private constant EVIDENCE_ID = 0x6b65766964656e63655f6964;
    /// (`source` compares 0xa3 and STEP_ID as one literal word.)
    uint256 private constant STEP_ID = 0x67737465705f6964;
    uint256 private constant SOURCE_ID = 0x69736f757263655f6964;
    uint256 private constant KEY = 0x636b6579;
    uint256 private constant MAX = 0x636d6178;
    uint256 private constant MIN = 0x636d696e;
    uint256 private constant KIND = 0x646b696e64;
    uint256 private constant FIRST = 0x656669727374;
    uint256 private constant OTHER = 0x656f74686572;
    uint256 private constant CLAIM_COUNT = 0x6b636c61696d5f636f756e74;
    uint256 private constant NUMERIC = 0x676e756d65726963;
    uint256 private constant BOOLEAN = 0x67626f6f6c65616e;

    /// A group's fields as `read_state` keeps them: `key` its key's text item, `lo`/`hi`
    /// its references (numeric min/max, boolean first/other, `hi` 0 without other),
    /// `count` its claim_count at `countAt`, `end` the offset after it (0: malformed).
    struct Fields {
        uint256 end;
        uint256 key;
        uint256 keyEnd;
        uint256 lo;
        uint256 hi;
        uint256 countAt;
        bool numeric;
    }

    /// A group (`_group`) at `p`: numeric {key, max, min, kind "numeric", claim_count} or
    /// boolean {key, kind "boolean", first[, other], claim_count}, exactly those keys, the
    /// key a text, the references of the group's kind (`ref`), a boolean `other` of the
    /// other value, claim_count an unsigned integer (its range checked by the caller at
    /// `countAt`). `f.end` 0 when malformed.
    function group(bytes calldata d, uint256 p) internal pure returns (Fields memory f) {
        unchecked {
            uint8 ib = uint8(d[p]);
            if (ib != 0xa4 && ib != 0xa5) return f;
            f.key = K.keyAt(d, p + 1, KEY, 4);
            f.keyEnd = K.textEnd(d, f.key);
            uint256 q = K.keyAt(d, f.keyEnd, MAX, 4);
            if (q != 0) {
                if (ib != 0xa5) return f;
                f.numeric = true;
                f.hi = q;
                f.lo = K.keyAt(d, ref(d, q, true), MIN, 4);
                q = K.keyAt(d, K.keyAt(d, ref(d, f.lo, true), KIND, 5), NUMERIC, 8);
            } else {
                f.lo = K.keyAt(d, K.keyAt(d, K.keyAt(d, f.keyEnd, KIND, 5), BOOLEAN, 8), FIRST, 6);
                q = ref(d, f.lo, false);
                if (ib == 0xa5) {
                    f.hi = K.keyAt(d, q, OTHER, 6);
                    q = ref(d, f.hi, false);
                    // `other` of the other value (both bools here when q != 0)
                    if (q != 0 && d[f.hi + 7] == d[f.lo + 7]) q = 0;
                }
            }
            f.countAt = K.keyAt(d, q, CLAIM_COUNT, 12);
            if (f.countAt == 0 || d[f.countAt] >= 0x20) return f;
            f.end = PorCbor.skip(d, f.countAt);
        }
    }

    /// A claim reference (`_ref`) at `p`: exactly {value, claim_id, evidence_id}, the ids
    /// texts, the value a canonical decimal text (`numeric`) or a bool: the offset after
    /// it, else 0. Its value is at `p + 7` (after the head and "value"): the head and
    /// "value" one word compare, the ids' keys and texts read in one assembly block.
    function ref(bytes calldata d, uint256 p, bool numeric) internal pure returns (uint256 q) {
        unchecked {
            if (p == 0) return 0;
            uint256 w;
            assembly ("memory-safe") {
                w := calldataload(add(d.offset, p))
            }
            if (w >> 200 != (0xa3 << 48 | VALUE)) return 0; // 0xa3, "\x65value"
            if (numeric) {
                (q,) = PorContradictionsDecimal.end(d, p + 7);
            } else if ((w >> 192) & 0xfe == 0xf4) {
                q = p + 8; // a bool
            }
            assembly ("memory-safe") {
                // the key `enc` (`n` bytes, `sh` = 256 - 8n) at `r`, then a text: the
                // offset after the text, else 0 (0 for `r` 0): `K.textEnd(K.keyAt(..))`
                function keyText(bs, r, enc, sh, n) -> e {
                    if r {
                        if eq(shr(sh, calldataload(add(bs, r))), enc) {
                            r := add(r, n)
                            let ib := byte(0, calldataload(add(bs, r)))
                            if eq(shr(5, ib), 3) {
                                let arg := and(ib, 31)
                                e := add(r, 1)
                                if gt(arg, 23) {
                                    let width := shl(sub(arg, 24), 1)
                                    arg := shr(sub(256, shl(3, width)), calldataload(add(bs, e)))
                                    e := add(e, width)
                                }
                                e := add(e, arg)
                            }
                        }
                    }
                }
                q := keyText(d.offset, keyText(d.offset, q, CLAIM_ID, 184, 9), EVIDENCE_ID, 160, 12)
            }
        }
    }

    /// A source entry at `p`: exactly {step_id, source_id, evidence_id}, texts: (the
    /// offset after it, its source_id's text item), else end 0. In one assembly block:
    /// the head and `step_id` one word, then each text's end and the next key.
    function source(bytes calldata d, uint256 p) internal pure returns (uint256 end, uint256 src) {
        assembly ("memory-safe") {
            // the offset after the text item at `r`, else 0 (0 for `r` 0): `K.textEnd`
            function text(bs, r) -> e {
                if r {
                    let ib := byte(0, calldataload(add(bs, r)))
                    if eq(shr(5, ib), 3) {
                        let arg := and(ib, 31)
                        e := add(r, 1)
                        if gt(arg, 23) {
                            let width := shl(sub(arg, 24), 1)
                            arg := shr(sub(256, shl(3, width)), calldataload(add(bs, e)))
                            e := add(e, width)
                        }
                        e := add(e, arg)
                    }
                }
            }
            // `K.keyAt`: the offset after the key `enc` (`n` bytes) at `r`, else 0
            function key(bs, r, enc, n) -> e {
                if r {
                    if eq(shr(sub(256, shl(3, n)), calldataload(add(bs, r))), enc) { e := add(r, n) }
                }
            }
            let b := d.offset
            // 0xa3, "\x67step_id"
            if eq(shr(184, calldataload(add(b, p))), 0xa367737465705f6964) {
                src := key(b, text(b, add(p, 9)), SOURCE_ID, 10)
                end := text(b, key(b, text(b, src), EVIDENCE_ID, 12))
            }
        }
    }

    /// `PorCbor.container`'s answer for the item at `pos`, a head of a count below 24 (an
    /// array of `major` 4, a map of 5) read in place.
    function container(bytes calldata d, uint256 pos, uint8 major)
        internal
        pure
        returns (bool ok, uint256 count, uint256 first)
    {
        unchecked {
            uint256 n;
            assembly ("memory-safe") {
                n := sub(byte(0, calldataload(add(d.offset, pos))), shl(5, major)) // wraps below
            }
            if (n < 24) return (true, n, pos + 1);
            return PorCbor.container(d, pos, major);
        }
    }
}
