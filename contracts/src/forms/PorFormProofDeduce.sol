// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDecimal} from "./PorFormProofDecimal.sol";

/// @title PorFormProofDeduce: `F` DEDUCE (SPEC §5.6.10) of a `por.ReasoningStep/1` leaf, built
/// from its por-cbor/1 bytes in memory word by word (ADR 0017 s41 spike, FormProof on chain).
/// @notice `form(leaf)` answers (valid, defined, F): `valid` false when the leaf is not a valid
/// step record (`PorRecords.reasoningStep`: SPEC §4.4 and the §2 reader; a FormProof on it is won
/// `one_step.invalid_record`); `defined` false when `F` is undefined (`form.none`: an unknown
/// `inputs.kind` or a `step_type` not its kind's, a required output key absent, a value of the
/// wrong type, an enum text outside its set, a non-canonical decimal). A valid step of another
/// of the five recomputed kinds or an extract step reverts `OtherFamily(kind)`: this spike reads
/// the DEDUCE family only.
/// Two phases: the reads that allocate (the record's offsets, the rest words of `inputs` and
/// `output`, hashed in scratch memory), then the build, which allocates nothing: it writes the
/// form from the free memory pointer on (a text hashed by `H` is copied where the next word
/// goes, the digest written over it) and moves the pointer past it at the end. Every writer
/// takes and returns the write position, 0 once a rule failed (no form).
library PorFormProofDeduce {
    /// The leaf is a valid step of kind `kind` (keccak256 of `inputs.kind`) other than deduce.
    error OtherFamily(bytes32 kind);

    uint256 internal constant TAG = 7;

    /// Key words (`PorKeyIndex`'s: the key's bytes left-aligned, its length in the low byte).
    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_PREDICATE = uint256(bytes32("predicate")) | 9;
    uint256 private constant K_METRIC = uint256(bytes32("metric")) | 6;
    uint256 private constant K_STATUS = uint256(bytes32("metric_status")) | 13;
    uint256 private constant K_UNCOVERED = uint256(bytes32("uncovered_requirements")) | 22;
    uint256 private constant K_INSUFFICIENT = uint256(bytes32("insufficient_evidence")) | 21;
    uint256 private constant K_CONFLICT = uint256(bytes32("conflict_detected")) | 17;
    uint256 private constant K_FALLBACK = uint256(bytes32("fallback_used")) | 13;
    uint256 private constant K_PROVENANCE = uint256(bytes32("provenance_ok")) | 13;
    uint256 private constant K_SUMMARY = uint256(bytes32("source_summary")) | 14;
    uint256 private constant K_EVENT = uint256(bytes32("event_observed")) | 14;
    uint256 private constant K_VALUE = uint256(bytes32("numeric_value")) | 13;
    uint256 private constant K_TIMESTAMP = uint256(bytes32("timestamp")) | 9;

    /// The output keys the layout names, in form order (SPEC §5.6.10's rest set).
    uint256 private constant O_PREDICATE = 0;
    uint256 private constant O_METRIC = 1;
    uint256 private constant O_STATUS = 2;
    uint256 private constant O_UNCOVERED = 3;
    uint256 private constant O_FLAGS = 4; // four flags, 4..7
    uint256 private constant O_SUMMARY = 8;
    uint256 private constant O_EVENT = 9;
    uint256 private constant O_VALUE = 10;
    uint256 private constant O_TIMESTAMP = 11;

    /// `F` DEDUCE of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.DEDUCE) revert OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// `F` DEDUCE of a valid deduce step (`at`: `PorRecords.reasoningStep`'s offsets):
    /// (defined, F).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        uint256[] memory names = new uint256[](1);
        names[0] = K_KIND;
        (uint256 ri,) = rest(leaf, at[PorRecords.STEP_INPUTS], names);
        (uint256 ro, uint256[] memory o) = rest(leaf, at[PorRecords.STEP_OUTPUT], outputNames());
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = word(base + 32, TAG);
        w = hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = word(w, ri);
        w = texts(leaf, w, at[PorRecords.STEP_PRIOR], false);
        w = texts(leaf, w, at[PorRecords.STEP_EVIDENCE], false);
        w = code(leaf, w, o[O_PREDICATE], false);
        w = hashed(leaf, w, o[O_METRIC]);
        w = code(leaf, w, o[O_STATUS], true);
        w = texts(leaf, w, o[O_UNCOVERED], true);
        for (uint256 i = O_FLAGS; i < O_FLAGS + 4; i++) {
            w = flag(leaf, w, o[i]);
        }
        w = texts(leaf, w, o[O_SUMMARY], false);
        w = o[O_EVENT] == 0 ? word(w, 0) : flag(leaf, word(w, 1), o[O_EVENT]);
        w = o[O_VALUE] == 0 ? word(w, 0) : decimal(leaf, word(w, 1), o[O_VALUE]);
        w = o[O_TIMESTAMP] == 0 ? word(w, 0) : integer(leaf, word(w, 1), o[O_TIMESTAMP]);
        w = word(w, ro);
        w = text(leaf, w, at[PorRecords.STEP_DESCRIPTION]);
        return close(base, w);
    }

    /// The form written from `base + 32` to `w` (0: no form) closed as a `bytes` at `base`,
    /// the free memory pointer moved past it: (defined, F).
    function close(uint256 base, uint256 w) internal pure returns (bool, bytes memory f) {
        if (w == 0) return (false, f);
        assembly ("memory-safe") {
            mstore(base, sub(w, add(base, 32)))
            mstore(0x40, w)
            f := base
        }
        return (true, f);
    }

    function outputNames() private pure returns (uint256[] memory n) {
        n = new uint256[](12);
        (n[0], n[1], n[2], n[3]) = (K_PREDICATE, K_METRIC, K_STATUS, K_UNCOVERED);
        (n[4], n[5], n[6], n[7]) = (K_INSUFFICIENT, K_CONFLICT, K_FALLBACK, K_PROVENANCE);
        (n[8], n[9], n[10], n[11]) = (K_SUMMARY, K_EVENT, K_VALUE, K_TIMESTAMP);
    }

    /// The rest word `R(m, names)` of the map at `pos` (a valid step's `inputs` or `output`:
    /// a map of text keys, SPEC §5.6.1): 0 when every key is named, else SHA-256 of the map
    /// head of the other entries' count and their bytes in record order; and the value
    /// offsets of the named keys (0: absent). One walk; the kept entries copied to scratch
    /// memory past the free memory pointer, which stays.
    function rest(bytes calldata d, uint256 pos, uint256[] memory names)
        internal
        view
        returns (uint256 r, uint256[] memory at)
    {
        at = new uint256[](names.length);
        (, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        uint256 m;
        assembly ("memory-safe") {
            m := mload(0x40)
        }
        (uint256 w, uint256 kept) = walk(d, p, n, names, at, m + 9); // room for the head
        if (kept == 0) return (0, at);
        r = digest(m + 9, w, kept);
    }

    /// The `n` entries from `p`: each named key's value offset into `at`, each other entry's
    /// bytes copied to `w` on; (the write position after them, their count). One assembly
    /// loop: a key's word as `PorKeyIndex` makes it (0 for a key of 32 bytes or more, which
    /// no name has), compared with each name; a value skipped as `PorCbor.skip` does.
    function walk(bytes calldata d, uint256 p, uint256 n, uint256[] memory names, uint256[] memory at, uint256 w)
        private
        pure
        returns (uint256, uint256 kept)
    {
        assembly ("memory-safe") {
            let b := d.offset
            let first := add(names, 32)
            let last := add(first, shl(5, mload(names)))
            for {} n { n := sub(n, 1) } {
                let len := and(byte(0, calldataload(add(b, p))), 31)
                let v := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, v)))
                    v := add(v, width)
                }
                let key := 0
                if lt(len, 32) { key := or(and(calldataload(add(b, v)), not(shr(shl(3, len), not(0)))), len) }
                v := add(v, len)
                // the value's end
                let q := add(b, v)
                for { let units := 1 } units {} {
                    let hb := shr(248, calldataload(q))
                    let a := and(hb, 31)
                    q := add(q, 1)
                    if gt(a, 23) {
                        let width := shl(sub(a, 24), 1)
                        a := shr(sub(256, shl(3, width)), calldataload(q))
                        q := add(q, width)
                    }
                    let f := shr(shr(3, and(hb, 0xe0)), 0x421100)
                    q := add(q, mul(and(f, 1), a))
                    units := add(units, sub(mul(and(shr(1, f), 3), a), 1))
                }
                let end := sub(q, b)
                let slot := first
                for {} lt(slot, last) { slot := add(slot, 32) } {
                    if eq(mload(slot), key) { break }
                }
                switch lt(slot, last)
                case 1 { mstore(add(at, sub(slot, names)), v) }
                default {
                    calldatacopy(w, add(b, p), sub(end, p))
                    w := add(w, sub(end, p))
                    kept := add(kept, 1)
                }
                p := end
            }
        }
        return (w, kept);
    }

    /// SHA-256 of the map head of `kept` entries (SPEC §2: shortest; a step holds at most
    /// 1024 items) put right before their bytes at [s, w).
    function digest(uint256 s, uint256 w, uint256 kept) internal view returns (uint256 r) {
        uint256 h = kept < 24 ? 1 : kept < 256 ? 2 : 3;
        uint256 head = kept < 24 ? 0xa0 | kept : kept < 256 ? 0xb800 | kept : 0xb90000 | kept;
        s -= h;
        assembly ("memory-safe") {
            for { let i := 0 } lt(i, h) { i := add(i, 1) } {
                mstore8(add(s, i), shr(shl(3, sub(sub(h, 1), i)), head))
            }
            if iszero(staticcall(gas(), 0x02, s, sub(w, s), 0x00, 0x20)) { revert(0, 0) }
            r := mload(0x00)
        }
    }

    // ------------------------------------------------------------ writers (no allocation)

    /// `W(v)` at `w`.
    function word(uint256 w, uint256 v) internal pure returns (uint256) {
        if (w == 0) return 0;
        assembly ("memory-safe") {
            mstore(w, v)
        }
        return w + 32;
    }

    /// The text at `pos` (0: absent): (ok, offset of its bytes, length).
    function textAt(bytes calldata d, uint256 pos) private pure returns (bool ok, uint256 off, uint256 len) {
        if (pos == 0) return (false, 0, 0);
        return PorCbor.str(d, pos, PorCbor.TEXT);
    }

    /// `H(t)` of the text at `pos`: its bytes copied to `w`, their SHA-256 written over them.
    function hashed(bytes calldata d, uint256 w, uint256 pos) internal view returns (uint256) {
        (bool ok, uint256 off, uint256 len) = textAt(d, pos);
        if (w == 0 || !ok) return 0;
        assembly ("memory-safe") {
            calldatacopy(w, add(d.offset, off), len)
            if iszero(staticcall(gas(), 0x02, w, len, w, 0x20)) { revert(0, 0) }
        }
        return w + 32;
    }

    /// `T(t)` of the text at `pos`: its length, its bytes zero-padded to a word.
    function text(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        (bool ok, uint256 off, uint256 len) = textAt(d, pos);
        if (w == 0 || !ok) return 0;
        return bytesAt(d, w, off, len);
    }

    /// `W(len)` then `d[off : off + len]` zero-padded (the word after the bytes cleared).
    function bytesAt(bytes calldata d, uint256 w, uint256 off, uint256 len) private pure returns (uint256) {
        assembly ("memory-safe") {
            mstore(w, len)
            calldatacopy(add(w, 32), add(d.offset, off), len)
            mstore(add(add(w, 32), len), 0)
        }
        return w + 32 + ((len + 31) & ~uint256(31));
    }

    /// `L[H]` (`asText` false) or `L[T]` of the array of texts at `pos`: one assembly loop
    /// over the items' heads (a text each, else no form), each written as `hashed` or
    /// `text` writes it.
    function texts(bytes calldata d, uint256 w, uint256 pos, bool asText) internal view returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return 0;
        w = word(w, n);
        assembly ("memory-safe") {
            let b := d.offset
            for {} n { n := sub(n, 1) } {
                let ib := byte(0, calldataload(add(b, p)))
                if iszero(eq(shr(5, ib), 3)) {
                    w := 0
                    break
                }
                let len := and(ib, 31)
                p := add(p, 1)
                if gt(len, 23) {
                    let width := shl(sub(len, 24), 1)
                    len := shr(sub(256, shl(3, width)), calldataload(add(b, p)))
                    p := add(p, width)
                }
                switch asText
                case 0 {
                    calldatacopy(w, add(b, p), len)
                    if iszero(staticcall(gas(), 0x02, w, len, w, 0x20)) { revert(0, 0) }
                    w := add(w, 32)
                }
                default {
                    mstore(w, len)
                    calldatacopy(add(w, 32), add(b, p), len)
                    mstore(add(add(w, 32), len), 0)
                    w := add(add(w, 32), and(add(len, 31), not(31)))
                }
                p := add(p, len)
            }
        }
        return w;
    }

    /// `B(b)` of the item at `pos`: CBOR false/true only.
    function flag(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        uint8 b = uint8(d[pos]);
        if (b != 0xf4 && b != 0xf5) return 0;
        return word(w, b == 0xf5 ? 1 : 0);
    }

    /// `W(n)` of an unsigned integer at `pos` (CBOR major 0: below 2^64).
    function integer(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        (bool ok, uint256 v) = PorCbor.uintAt(d, pos);
        if (w == 0 || !ok) return 0;
        return word(w, v);
    }

    /// `E(x)` of the text at `pos` (0: absent): a predicate's code (SPEC §5.6.2), or with
    /// `status` a metric_status's. Every name is shorter than 24 bytes: its encoding (head
    /// 0x60 | length, then the bytes) read as one right-aligned word and compared.
    function code(bytes calldata d, uint256 w, uint256 pos, bool status) private pure returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return 0;
        uint256 x;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
        uint256 c = status ? statusCode(x) : predicateCode(x);
        return c == NONE ? 0 : word(w, c);
    }

    uint256 private constant NONE = type(uint256).max;

    function predicateCode(uint256 x) private pure returns (uint256) {
        if (x == 0x6e6576656e745f6f62736572766564) return 0; // event_observed
        if (x == 0x716e756d657269635f7468726573686f6c64) return 1; // numeric_threshold
        if (x == 0x6d6e756d657269635f72616e6765) return 2; // numeric_range
        if (x == 0x706669656c645f636f6d70617269736f6e) return 3; // field_comparison
        if (x == 0x6b746578745f657175616c73) return 4; // text_equals
        if (x == 0x007374696d657374616d705f7468726573686f6c64) return 5; // timestamp_threshold
        return NONE;
    }

    function statusCode(uint256 x) private pure returns (uint256) {
        if (x == 0x6873656c6563746564) return 0; // selected
        if (x == 0x676d697373696e67) return 1; // missing
        if (x == 0x6c696e73756666696369656e74) return 2; // insufficient
        if (x == 0x696e6f5f71756f72756d) return 3; // no_quorum
        if (x == 0x6a77726f6e675f6b696e64) return 4; // wrong_kind
        if (x == 0x66616273656e74) return 5; // absent
        if (x == 0x72707265636f6e646974696f6e5f756e6d6574) return 6; // precondition_unmet
        if (x == 0x7276616c75655f6f75745f6f665f72616e6765) return 7; // value_out_of_range
        if (x == 0x6f766f7465735f756e64656369646564) return 8; // votes_undecided
        return NONE;
    }

    /// `D(d)` of the text at `pos` (SPEC §5.6.1, §3.2): a canonical decimal
    /// `-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?` of at most 64 characters, not `-0`; the word
    /// `sign << 255 | scale << 232 | len`, then the digits of `m` (leading zeros dropped,
    /// `0` for zero) zero-padded. The one writer is `PorFormProofDecimal.decimal` (s42,
    /// fpunify); this name stays for the libraries that import it.
    function decimal(bytes calldata d, uint256 w, uint256 pos) internal pure returns (uint256) {
        return PorFormProofDecimal.decimal(d, w, pos);
    }
}
