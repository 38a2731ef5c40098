// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";

/// @title PorFormProofPromptRead: the readers and writers of the PromptSpec's forms COMMON and
/// REQUIREMENT (SPEC §5.6.3, §5.6.4) on chain (ADR 0017, s43 addendum `psfamily`).
/// @notice Nothing here allocates memory: a key is one word (`K`: its por-cbor encoding,
/// head and bytes, right-aligned, its length in the top byte), an enumerated text is compared
/// as its encoding read in one word. Every writer takes and returns the write position, 0
/// once a rule failed (no form, `form.none`), as `PorFormProofDeduce`'s writers do; a value
/// position 0 is an absent key (the top-level map is at 0, no value is).
library PorFormProofPromptRead {
    uint256 private constant NONE = type(uint256).max;
    uint256 private constant LOW240 = (uint256(1) << 240) - 1;
    /// §4's ranges (SPEC §5.6.1): time 0..2^63-1, bps 0..10000.
    uint256 internal constant TIME_MAX = 2 ** 63 - 1;
    uint256 internal constant BPS_MAX = 10000;

    /// The value position of key `key` (see the notice) in the map at `pos`; 0 when `pos` is 0,
    /// the item there is not a map, or the key is absent.
    function find(bytes calldata d, uint256 pos, uint256 key) internal pure returns (uint256) {
        return pos == 0 ? 0 : lookup(d, pos, key);
    }

    /// `find` in the top-level map (at 0).
    function top(bytes calldata d, uint256 key) internal pure returns (uint256) {
        return lookup(d, 0, key);
    }

    /// The value position of `key` in the map at `pos`, 0 when absent or not a map.
    function lookup(bytes calldata d, uint256 pos, uint256 key) private pure returns (uint256) {
        (bool ok, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!ok) return 0;
        uint256 len = key >> 248;
        uint256 want = key & LOW240;
        for (uint256 i = 0; i < n; i++) {
            uint256 got;
            assembly ("memory-safe") {
                got := shr(sub(256, shl(3, len)), calldataload(add(d.offset, p)))
            }
            if (got == want) return PorCbor.skip(d, p);
            p = PorCbor.skip(d, PorCbor.skip(d, p));
        }
        return 0;
    }

    /// The value positions of `keys` (`K` words, see the notice; in encoded order, the order
    /// of a por-cbor/1 map's keys, SPEC §2: the packed words ascending) in the map at `pos`
    /// written to `at` (0: absent), in one walk of the map, merged with the keys; all 0 when `pos` is 0 (and not `top`) or the
    /// item is not a map. Writes `at`'s items only: allocates nothing. `end`: the offset just
    /// after the map, when it is one (the walk's last skip: a caller moving past the map
    /// walks it no second time); else meaningless.
    function into(bytes calldata d, uint256 pos, bool top, uint256[] memory keys, uint256[] memory at)
        internal
        pure
        returns (uint256 end)
    {
        uint256 k = keys.length;
        assembly ("memory-safe") {
            let ka := add(keys, 32)
            let aa := add(at, 32)
            for { let j := 0 } lt(j, k) { j := add(j, 1) } { mstore(add(aa, shl(5, j)), 0) }
            if or(pos, top) {
                // the map's head
                let b := d.offset
                let q := add(b, pos)
                let ib := byte(0, calldataload(q))
                let n := and(ib, 31)
                q := add(q, 1)
                if gt(n, 23) {
                    let width := shl(sub(n, 24), 1)
                    n := shr(sub(256, shl(3, width)), calldataload(q))
                    q := add(q, width)
                }
                if iszero(eq(shr(5, ib), 5)) { n := 0 }
                let j := 0
                for {} n { n := sub(n, 1) } {
                    let hb := byte(0, calldataload(q))
                    let len := 0
                    if and(gt(hb, 0x5f), lt(hb, 0x78)) { len := sub(hb, 0x5f) }
                    if eq(hb, 0x78) { len := add(2, byte(1, calldataload(q))) }
                    let v := 0
                    switch and(gt(len, 0), lt(len, 31))
                    case 0 { v := skipAt(q) }
                    default {
                        v := add(q, len)
                        let cur := or(shl(248, len), shr(sub(256, shl(3, len)), calldataload(q)))
                        // keys and the map's entries both in encoded order: a merge
                        for {} and(lt(j, k), lt(mload(add(ka, shl(5, j))), cur)) {} { j := add(j, 1) }
                        if lt(j, k) {
                            if eq(mload(add(ka, shl(5, j))), cur) {
                                mstore(add(aa, shl(5, j)), sub(v, b))
                                j := add(j, 1)
                            }
                        }
                    }
                    q := skipAt(v)
                }
                end := sub(q, b)
            }
            // PorCbor.skip over calldata positions (absolute)
            function skipAt(start) -> next {
                next := start
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(next))
                    if lt(sub(hb, 0x60), 24) {
                        next := add(next, sub(hb, 0x5f))
                        units := sub(units, 1)
                        continue
                    }
                    let a := and(hb, 31)
                    next := add(next, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(next))
                        next := add(next, width)
                    }
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    next := add(next, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
            }
        }
    }

    /// `into` for the top-level map from the offsets the §2 reader's pass kept
    /// (`PorCborTop.checkTop`'s `top`: keys at even i, values at odd i): no walk.
    function kept(bytes calldata d, uint256[] memory top, uint256[] memory keys, uint256[] memory at)
        internal
        pure
    {
        uint256 k = keys.length;
        uint256 n = top.length;
        assembly ("memory-safe") {
            let ka := add(keys, 32)
            let aa := add(at, 32)
            for { let j := 0 } lt(j, k) { j := add(j, 1) } { mstore(add(aa, shl(5, j)), 0) }
            let j := 0
            for { let i := 0 } lt(i, n) { i := add(i, 2) } {
                let q := add(d.offset, mload(add(top, shl(5, add(i, 1)))))
                let hb := byte(0, calldataload(q))
                let len := 0
                if and(gt(hb, 0x5f), lt(hb, 0x78)) { len := sub(hb, 0x5f) }
                if eq(hb, 0x78) { len := add(2, byte(1, calldataload(q))) }
                if and(gt(len, 0), lt(len, 31)) {
                    let cur := or(shl(248, len), shr(sub(256, shl(3, len)), calldataload(q)))
                    for {} and(lt(j, k), lt(mload(add(ka, shl(5, j))), cur)) {} { j := add(j, 1) }
                    if lt(j, k) {
                        if eq(mload(add(ka, shl(5, j))), cur) {
                            mstore(add(aa, shl(5, j)), mload(add(top, shl(5, add(i, 2)))))
                            j := add(j, 1)
                        }
                    }
                }
            }
        }
    }

    /// The item at `pos` (not 0) is a map.
    function isMap(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,,) = PorCbor.container(d, pos, PorCbor.MAP);
    }

    /// `ranged`: `W(n)` of the unsigned integer at `pos` in `low..high`; `dflt` when `pos` is 0
    /// (a §4 default), `NONE` as `dflt` for a required key.
    function ranged(bytes calldata d, uint256 w, uint256 pos, uint256 low, uint256 high, uint256 dflt)
        internal
        pure
        returns (uint256)
    {
        if (w == 0) return 0;
        if (pos == 0) return dflt == NONE ? 0 : D.word(w, dflt);
        (bool ok, uint256 v) = PorCbor.uintAt(d, pos);
        if (!ok || v < low || v > high) return 0;
        return D.word(w, v);
    }

    /// `ranged` of a required key.
    function required(bytes calldata d, uint256 w, uint256 pos, uint256 low, uint256 high)
        internal
        pure
        returns (uint256)
    {
        return ranged(d, w, pos, low, high, NONE);
    }

    /// `Z`: an optional integer of `1..high`, `W(0)` when absent.
    function optional(bytes calldata d, uint256 w, uint256 pos, uint256 high) internal pure returns (uint256) {
        return ranged(d, w, pos, 1, high, 0);
    }

    /// `B(b)` of the boolean at `pos`, `dflt` (0 or 1) when absent.
    function flagOr(bytes calldata d, uint256 w, uint256 pos, uint256 dflt) internal pure returns (uint256) {
        return pos == 0 ? D.word(w, dflt) : D.flag(d, w, pos);
    }

    /// `D(d)` of `numeric_tolerance`: a canonical decimal >= 0 (§4.2).
    function tolerance(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256 r) {
        r = D.decimal(d, w, pos);
        if (r == 0) return 0;
        uint256 x;
        assembly ("memory-safe") {
            x := mload(w)
        }
        if (x >> 255 != 0) return 0;
    }

    /// The encoding of the short text (< 24 bytes) at `pos`, right-aligned in one word; 0 for
    /// another item or an absent key.
    function encoded(bytes calldata d, uint256 pos) internal pure returns (uint256 x) {
        if (pos == 0) return 0;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return 0;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
    }

    // enumerations (SPEC §5.6.2): `E(x)`, a code of the text at `pos`

    uint8 internal constant STRATEGY = 0;
    uint8 internal constant TIE_BREAKER = 1;
    uint8 internal constant ON_CONFLICT = 2;
    uint8 internal constant PREDICATE = 3;
    uint8 internal constant COMPARISON = 4;
    uint8 internal constant TERM_OP = 5;
    uint8 internal constant OTHERWISE = 6;
    uint8 internal constant KIND = 7;
    uint8 internal constant RULE = 8;

    /// `E(x)` of enumeration `e` at `pos`; when absent, code `dflt` (`NONE`: required).
    function code(bytes calldata d, uint256 w, uint256 pos, uint8 e, uint256 dflt) internal pure returns (uint256) {
        if (w == 0) return 0;
        if (pos == 0) return dflt == NONE ? 0 : D.word(w, dflt);
        uint256 c = codeOf(encoded(d, pos), e);
        return c == NONE ? 0 : D.word(w, c);
    }

    /// `E(x)` of a required enumeration `e` at `pos`.
    function enumAt(bytes calldata d, uint256 w, uint256 pos, uint8 e) internal pure returns (uint256) {
        return code(d, w, pos, e, NONE);
    }

    /// The rule code (`RULE`, 0 for an unknown rule id) of the text at `pos`: a text else no form.
    function ruleCode(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        (bool ok,,) = pos == 0 ? (false, 0, 0) : PorCbor.str(d, pos, PorCbor.TEXT);
        if (w == 0 || !ok) return 0;
        uint256 c = codeOf(encoded(d, pos), RULE);
        return D.word(w, c == NONE ? 0 : c);
    }

    // solhint-disable-next-line code-complexity
    function codeOf(uint256 x, uint8 e) private pure returns (uint256) {
        if (x == 0) return NONE;
        if (e == STRATEGY) {
            if (x == 0x6b73696e676c655f62657374) return 0; // single_best
            if (x == 0x00736d756c74695f736f757263655f71756f72756d) return 1; // multi_source_quorum
            if (x == 0x6e66616c6c6261636b5f636861696e) return 2; // fallback_chain
        } else if (e == TIE_BREAKER) {
            if (x == 0x6c736f757263655f6f72646572) return 0; // source_order
            if (x == 0x72686967686573745f70726f76656e616e6365) return 1; // highest_provenance
        } else if (e == ON_CONFLICT) {
            if (x == 0x67696e76616c6964) return 0; // invalid
            if (x == 0x68636f6e74696e7565) return 1; // continue
        } else if (e == PREDICATE) {
            if (x == 0x6e6576656e745f6f62736572766564) return 0; // event_observed
            if (x == 0x716e756d657269635f7468726573686f6c64) return 1; // numeric_threshold
            if (x == 0x6d6e756d657269635f72616e6765) return 2; // numeric_range
            if (x == 0x706669656c645f636f6d70617269736f6e) return 3; // field_comparison
            if (x == 0x6b746578745f657175616c73) return 4; // text_equals
            if (x == 0x007374696d657374616d705f7468726573686f6c64) return 5; // timestamp_threshold
        } else if (e == COMPARISON) {
            if (x == 0x613e) return 0; // >
            if (x == 0x623e3d) return 1; // >=
            if (x == 0x613c) return 2; // <
            if (x == 0x623c3d) return 3; // <=
            if (x == 0x623d3d) return 4; // ==
        } else if (e == TERM_OP) {
            if (x == 0x612b) return 0; // +
            if (x == 0x612d) return 1; // -
        } else if (e == OTHERWISE) {
            if (x == 0x67494e56414c4944) return 0; // INVALID
            if (x == 0x624e4f) return 1; // NO
        } else if (e == KIND) {
            if (x == 0x67626f6f6c65616e) return 0; // boolean
            if (x == 0x676e756d65726963) return 1; // numeric
            if (x == 0x6974696d657374616d70) return 2; // timestamp
            if (x == 0x6474657874) return 3; // text
        } else {
            if (x == 0x6a525f56414c4944495459) return 1; // R_VALIDITY
            if (x == 0x6a525f434f4e464c494354) return 2; // R_CONFLICT
            if (x == 0x71525f42494e4152595f4445434953494f4e) return 3; // R_BINARY_DECISION
            if (x == 0x6c525f434f4e464944454e4345) return 4; // R_CONFIDENCE
            if (x == 0x72525f494e56414c49445f46414c4c4241434b) return 5; // R_INVALID_FALLBACK
        }
        return NONE;
    }
}
