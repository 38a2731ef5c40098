// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorCheckStep} from "./PorCheckStep.sol";
import {PorDecimal} from "./PorDecimal.sol";

/// @title PorCheckClaim: one claim of a cited extract step's output read and typed
/// (SPEC §12.5.2 read_extract) for the check chunk (`PorCheckStep.claimsOf`).
library PorCheckClaim {
    /// A claim's keys, in §2 order: its `f` slots 0..4.
    bytes internal constant CLAIM_KEYS = "\x03key\x04kind\x04path\x05value\x08claim_id";

    /// A claim map: kind text, a value of that kind, claim_id, key and path texts; `f` gets
    /// its CLAIM_KEYS values' positions (one walk); the offset after the map, else 0; a
    /// numeric value as `number` packs it (0 for another kind).
    function claim(bytes calldata d, uint256 p, uint256[] memory f)
        internal
        pure
        returns (bool ok, uint8 kind, uint256 end, uint256 num)
    {
        end = claimAt(d, p, f);
        // read in place: key, kind, path and claim_id are texts
        bool texts = end != 0;
        if (!texts) {
            // another key set (extra keys are allowed): walked
            (bool isMap,,) = PorCbor.container(d, p, PorCbor.MAP);
            if (!isMap) return (false, 0, 0, 0);
            (end,) = PorCheckKeys.find(d, p, CLAIM_KEYS, f);
            if (!PorCheckStep.isText(d, f[1]) || f[3] == 0) return (false, 0, end, 0);
        }
        uint256 kindAt = f[1];
        uint256 value = f[3];
        if (PorCheckState.isWord(d, kindAt, 0x676e756d65726963000000000000000000000000000000000000000000000000, 8)) {
            ((ok, num), kind) = (number(d, value), PorCheckStep.NUMERIC);
        } else if (PorCheckState.isWord(d, kindAt, 0x67626f6f6c65616e000000000000000000000000000000000000000000000000, 8)) {
            (ok, kind) = (PorCheckState.valueOk(d, value, false), PorCheckStep.BOOLEAN);
        } else if (PorCheckState.isWord(d, kindAt, 0x6974696d657374616d7000000000000000000000000000000000000000000000, 10)) {
            (ok,) = PorCheckState.countAt(d, value);
            kind = PorCheckStep.TIMESTAMP;
        } else if (PorCheckState.isWord(d, kindAt, 0x6474657874000000000000000000000000000000000000000000000000000000, 5)) {
            (ok,,) = PorCbor.str(d, value, PorCbor.TEXT);
            kind = PorCheckStep.TEXT_KIND;
        }
        ok = ok && (texts || (PorCheckStep.isText(d, f[4]) && PorCheckStep.isText(d, f[0]) && PorCheckStep.isText(d, f[2])));
    }

    /// A numeric claim's value at `value` is a canonical decimal text
    /// (`PorCheckState.valueOk(d, value, true)`), parsed by the same pass and packed for
    /// the groups' fold (`PorCheckStepGroups.fold`): magnitude (below 10^64 < 2^216) |
    /// scale << 216 | sign << 255.
    function number(bytes calldata d, uint256 value) private pure returns (bool ok, uint256 num) {
        (bool t, uint256 off, uint256 len) = PorCbor.str(d, value, PorCbor.TEXT);
        if (!t) return (false, 0);
        PorDecimal.Dec memory v;
        (ok, v) = PorDecimal.parse(d, off, len);
        num = v.lo | v.scale << 216 | (v.neg ? 1 << 255 : 0);
    }

    /// A claim of exactly CLAIM_KEYS (as a claim is written), its key, kind, path and
    /// claim_id texts: `find`'s positions in `f` and the offset after it, read in place
    /// in the keys' §2 order (each key one word compare, each text's end from its head:
    /// `PorCheckKeys.keyAt`/`textEnd` inline); else 0 (the caller walks it). A value that
    /// is not an unsigned integer, a text or a simple value is walked too (no kind
    /// accepts it: the walk's answer is the same failure).
    function claimAt(bytes calldata d, uint256 p, uint256[] memory f) private pure returns (uint256 r) {
        assembly ("memory-safe") {
            // the offset after the item at `q` (0: none): a text (`texts`) or also an
            // unsigned integer or a one-byte simple value; else 0
            function end(b, q, texts) -> e {
                if q {
                    let ib := byte(0, calldataload(add(b, q)))
                    switch lt(sub(ib, 0x60), 24)
                    case 1 { e := add(q, sub(ib, 0x5f)) } // a short text: its head tells
                    default {
                        let major := shr(5, ib)
                        let arg := and(ib, 31)
                        e := add(q, 1)
                        if gt(arg, 23) {
                            let width := shl(sub(arg, 24), 1)
                            arg := shr(sub(256, shl(3, width)), calldataload(add(b, e)))
                            e := add(e, width)
                        }
                        switch major
                        case 3 { e := add(e, arg) }
                        case 0 { if texts { e := 0 } }
                        case 7 { if or(texts, gt(ib, 0xf7)) { e := 0 } }
                        default { e := 0 }
                    }
                }
            }
            // the offset after the key at `q` whose encoding is `enc` (`n` bytes), else 0
            function key(b, q, enc, n) -> e {
                if q { if eq(shr(sub(256, shl(3, n)), calldataload(add(b, q))), enc) { e := add(q, n) } }
            }
            let b := d.offset
            if eq(byte(0, calldataload(add(b, p))), 0xa5) {
                let q := key(b, add(p, 1), 0x636b6579, 4)
                mstore(add(f, 0x20), q)
                q := key(b, end(b, q, 1), 0x646b696e64, 5)
                mstore(add(f, 0x40), q)
                q := key(b, end(b, q, 1), 0x6470617468, 5)
                mstore(add(f, 0x60), q)
                q := key(b, end(b, q, 1), 0x6576616c7565, 6)
                mstore(add(f, 0x80), q)
                q := key(b, end(b, q, 0), 0x68636c61696d5f6964, 9)
                mstore(add(f, 0xa0), q)
                r := end(b, q, 1)
            }
        }
    }
}
