// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofChunkLists as L} from "./PorFormProofChunkLists.sol";

/// @title PorFormProofChunk: `F` CHUNK (SPEC §5.6.7, tag 4) of a `por.ReasoningStep/1` leaf of
/// kind `check_requirement`, built from its por-cbor/1 bytes with `PorFormProofDeduce`'s
/// readers and writers and `PorFormProofChunkLists`' lists (ADR 0017, s42 addendum `fpchunk2`).
/// @notice `form(leaf)` answers (valid, defined, F) as `PorFormProofDeduce.form` does; a valid
/// step of another kind reverts `PorFormProofDeduce.OtherFamily(kind)`. `F` CHUNK is undefined
/// when a required key is absent (every output key but `last_leaf` and `from_leaf`, the
/// window's `start` and `end`, `inputs.requirement_id`, each entry's but `gate_reason` and a
/// boolean group's `other`), a value has the wrong type (an integer not 0..2^64-1, a text,
/// flag, map or list not one), an enumerated text is outside its set (`reasons`,
/// `observed_from`, a group's `kind`: numeric or boolean only), or a numeric group's value is
/// not a canonical decimal.
library PorFormProofChunk {
    uint256 internal constant TAG = 4;

    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_REQUIREMENT_ID = uint256(bytes32("requirement_id")) | 14;
    uint256 private constant K_WINDOW = uint256(bytes32("window")) | 6;
    uint256 private constant K_CHUNK = uint256(bytes32("chunk")) | 5;
    uint256 private constant K_ITEMS = uint256(bytes32("items")) | 5;
    uint256 private constant K_ITEM_COUNT = uint256(bytes32("item_count")) | 10;
    uint256 private constant K_ADMITTED_COUNT = uint256(bytes32("admitted_count")) | 14;
    uint256 private constant K_COVERED = uint256(bytes32("covered")) | 7;
    uint256 private constant K_PROVENANCE_OK = uint256(bytes32("provenance_ok")) | 13;
    uint256 private constant K_CLAIM_COUNT = uint256(bytes32("claim_count")) | 11;
    uint256 private constant K_SOURCES = uint256(bytes32("sources")) | 7;
    uint256 private constant K_GROUPS = uint256(bytes32("groups")) | 6;
    uint256 private constant K_LAST_LEAF = uint256(bytes32("last_leaf")) | 9;
    uint256 private constant K_FROM_LEAF = uint256(bytes32("from_leaf")) | 9;
    uint256 private constant K_START = uint256(bytes32("start")) | 5;
    uint256 private constant K_END = uint256(bytes32("end")) | 3;

    /// The output keys (`CHUNK_OUTPUT`) as indices of `Reads.o`, in the canonical order of
    /// keys (SPEC §2: shorter first, then bytewise), the order `PorFormProofChunkLists.open`
    /// finds them fastest in.
    uint256 private constant O_CHUNK = 0;
    uint256 private constant O_ITEMS = 1;
    uint256 private constant O_GROUPS = 2;
    uint256 private constant O_WINDOW = 3;
    uint256 private constant O_COVERED = 4;
    uint256 private constant O_SOURCES = 5;
    uint256 private constant O_FROM_LEAF = 6;
    uint256 private constant O_LAST_LEAF = 7;
    uint256 private constant O_ITEM_COUNT = 8;
    uint256 private constant O_CLAIM_COUNT = 9;
    uint256 private constant O_PROVENANCE = 10;
    uint256 private constant O_ADMITTED = 11;
    uint256 private constant O_REQUIREMENT = 12;

    /// What the build reads before it writes (every allocation).
    struct Reads {
        uint256 ri; // R(inputs, kind requirement_id)
        uint256 ro; // R(output, CHUNK_OUTPUT)
        uint256 rw; // R(window, start end)
        uint256 requirement; // inputs.requirement_id
        uint256[] o; // the output's named values
        uint256[] win; // the window's end, start
    }

    /// `F` CHUNK of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.CHECK_REQUIREMENT) revert D.OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// The rest words and named offsets of `inputs`, `output` and `output.window`
    /// (`PorFormProofChunkLists.open`, its scratch past the free memory pointer): (ok,
    /// reads); ok false when the window is absent or not a map.
    function read(bytes calldata leaf, uint256[] memory at) private view returns (bool, Reads memory x) {
        uint256[] memory names = L.seven(K_KIND, K_REQUIREMENT_ID, 0, 0, 0, 0, 0, 2);
        uint256[] memory i = L.seven(0, 0, 0, 0, 0, 0, 0, 2);
        x.o = new uint256[](13);
        x.win = L.seven(0, 0, 0, 0, 0, 0, 0, 2);
        uint256[] memory outputs = outputNames();
        uint256 s;
        assembly ("memory-safe") {
            s := mload(0x40)
        }
        (, x.ri,) = L.open(leaf, at[PorRecords.STEP_INPUTS], names, i, s);
        x.requirement = i[1];
        (, x.ro,) = L.open(leaf, at[PorRecords.STEP_OUTPUT], outputs, x.o, s);
        uint256 win = x.o[O_WINDOW];
        if (win == 0) return (false, x);
        (names[0], names[1]) = (K_END, K_START);
        (bool isMap, uint256 rw,) = L.open(leaf, win, names, x.win, s);
        x.rw = rw;
        return (isMap, x);
    }

    /// `F` CHUNK of a valid check_requirement step (`at`: `PorRecords.reasoningStep`'s
    /// offsets): (defined, F). Words: W(4) H(step_id) H(requirement_id) B(covered)
    /// B(provenance_ok) W(item_count) O(last_leaf) L(source) T(inputs.requirement_id) Ri
    /// L[H](priors) L[H](evidence) W(chunk) W(admitted_count) W(claim_count) W(start) W(end)
    /// R(window) O(from_leaf) L(item) L(group) R(output) T(description).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        L.Ctx memory c = L.ctx();
        (bool ok, Reads memory x) = read(leaf, at);
        if (!ok) return (false, f);
        uint256[] memory o = x.o;
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = L.word(base + 32, TAG);
        w = L.hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = L.hashed(leaf, w, o[O_REQUIREMENT]);
        w = L.flag(leaf, w, o[O_COVERED]);
        w = L.flag(leaf, w, o[O_PROVENANCE]);
        w = L.integer(leaf, w, o[O_ITEM_COUNT]);
        w = L.optional(leaf, w, o[O_LAST_LEAF]);
        w = L.sources(leaf, w, o[O_SOURCES], c);
        w = D.text(leaf, w, x.requirement);
        w = L.word(w, x.ri);
        w = D.texts(leaf, w, at[PorRecords.STEP_PRIOR], false);
        w = D.texts(leaf, w, at[PorRecords.STEP_EVIDENCE], false);
        w = L.integer(leaf, w, o[O_CHUNK]);
        w = L.integer(leaf, w, o[O_ADMITTED]);
        w = L.integer(leaf, w, o[O_CLAIM_COUNT]);
        w = L.integer(leaf, w, x.win[1]);
        w = L.integer(leaf, w, x.win[0]);
        w = L.word(w, x.rw);
        w = L.optional(leaf, w, o[O_FROM_LEAF]);
        w = L.items(leaf, w, o[O_ITEMS], c);
        w = L.groups(leaf, w, o[O_GROUPS], c);
        w = L.word(w, x.ro);
        w = D.text(leaf, w, at[PorRecords.STEP_DESCRIPTION]);
        return D.close(base, w);
    }

    function outputNames() private pure returns (uint256[] memory n) {
        n = new uint256[](13);
        (n[O_CHUNK], n[O_ITEMS], n[O_GROUPS], n[O_WINDOW]) = (K_CHUNK, K_ITEMS, K_GROUPS, K_WINDOW);
        (n[O_COVERED], n[O_SOURCES], n[O_FROM_LEAF]) = (K_COVERED, K_SOURCES, K_FROM_LEAF);
        (n[O_LAST_LEAF], n[O_ITEM_COUNT], n[O_CLAIM_COUNT]) = (K_LAST_LEAF, K_ITEM_COUNT, K_CLAIM_COUNT);
        (n[O_PROVENANCE], n[O_ADMITTED], n[O_REQUIREMENT]) = (K_PROVENANCE_OK, K_ADMITTED_COUNT, K_REQUIREMENT_ID);
    }
}
