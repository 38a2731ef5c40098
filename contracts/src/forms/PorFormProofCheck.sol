// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorCborTop} from "../PorCborTop.sol";
import {PorIds} from "../PorIds.sol";
import {PorInclusion} from "../PorInclusion.sol";
import {PorMerkle} from "../PorMerkle.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorSchemaName} from "../PorSchemaName.sol";
import {IPorFormFamily} from "./IPorFormFamily.sol";
import {IPorPromptFamily} from "./IPorPromptFamily.sol";

/// @title PorFormProofCheck: `verify_form_proof` (SPEC §10.4.3) on chain for a
/// `por.FormProof/1` (its record the PromptSpec, a step or the verdict), `F` read
/// by the family contract of the record's form tag through `IPorFormFamily` (ADR 0017: s41
/// spike, s42 split `fpsplit`).
/// @notice Input: the exact bytes of a por.FormProof/1 file. Output (won, check id), as
/// `por check-proof` without `--por-root`: `won` false with `proof.malformed` (not one
/// por-cbor/1 item), `proof.schema` (`proof.unsupported` for a schema naming another version
/// of a proof record, `PorSchemaName`), the record part's `proof.*` / `merkle.*` id (§10.4.1),
/// `merkle.*` or `proof.leaf_path` for the form leaf's path, `proof.component_path`,
/// `proof.challenge_id`, `proof.form_index`; won `one_step.invalid_record`, `form.none`,
/// `form.mismatch`; lost `form.match`. `families[tag]` is the family contract of form tag
/// `tag` (SPEC §5.6: 3 EXTRACT .. 8 MAP the steps, 9 VERDICT; 1, 2 the PromptSpec), 0 when
/// that family is not on chain: a proof whose answer needs it reverts `NoFamily(tag)`, never
/// a wrong answer. A proof of kind `prompt_spec` goes to slot 1 (`IPorPromptFamily`, COMMON
/// and REQUIREMENT: s43 `psfamily`), which decides `F`, not the PromptSpec's validity (ADR
/// 0018, SPEC §10.2.8).
/// A step's family is picked by its `inputs.kind`, read where a valid step holds it (a few
/// heads, `kindTag`); the family answers validity and `F`. A kind that names no family
/// here (unreadable, unknown, or a family not on chain) is answered here as Python does:
/// the record's validity (`one_step.invalid_record`), then its identity (`form.none` for a
/// valid step of no computation); only a valid step of a known kind reverts `NoFamily`.
library PorFormProofCheck {
    /// The answer needs the family contract of form tag `tag`, which is not on chain.
    error NoFamily(uint8 tag);

    bytes32 internal constant FORM_NONE = keccak256("form.none");
    bytes32 internal constant FORM_MISMATCH = keccak256("form.mismatch");
    bytes32 internal constant FORM_MATCH = keccak256("form.match");
    bytes32 internal constant FORM_INDEX = keccak256("proof.form_index");

    /// FormProof fields, canonical order (SPEC §2 rule 2).
    bytes internal constant KEYS = "\x04kind\x06record\x06schema\x08por_root\x09form_leaf\x09form_path"
        "\x0aform_index\x0aforms_path\x0aforms_root\x0aforms_size\x0cchallenge_id";
    uint256 private constant F_KIND = 0;
    uint256 private constant F_RECORD = 1;
    uint256 private constant F_SCHEMA = 2;
    uint256 private constant F_ROOT = 3;
    uint256 private constant F_LEAF = 4;
    uint256 private constant F_PATH = 5;
    uint256 private constant F_INDEX = 6;
    uint256 private constant F_FORMS_PATH = 7;
    uint256 private constant F_FORMS_ROOT = 8;
    uint256 private constant F_SIZE = 9;
    uint256 private constant F_ID = 10;

    /// The proof's fields once typed: hashes, counts and where its paths are.
    struct Proof {
        bytes32 porRoot;
        bytes32 formLeaf;
        bytes32 formsRoot;
        uint256 formIndex;
        uint256 formsSize;
        uint256 formPath; // offset of the first item, then the count
        uint256 formPathLength;
        uint256 formsPath;
        uint256 formsPathLength;
        uint8 kind; // PorInclusion.PROMPT_SPEC, REASONING_LEAF or VERDICT
    }

    /// SPEC §10.4.3 in its order (see the notice).
    function check(bytes calldata d, address[10] memory families)
        internal
        view
        returns (bool won, bytes32 id, bytes32 porRoot)
    {
        // the §2 reader's one pass keeps where the top-level items start: the fields are
        // read from those offsets, not by a second walk of the map (`topFields`)
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(d);
        if (err != 0) return (false, PorIds.MALFORMED, 0);
        (bool ok, uint256[] memory at) = PorRecords.topFields(d, top, KEYS);
        if (!ok) return (false, PorSchemaName.faultOf(d), 0);
        PorInclusion.Part memory part;
        Proof memory p;
        (ok, part, p) = typed(d, at);
        if (!ok) return (false, PorSchemaName.faultOf(d), 0);
        porRoot = p.porRoot;
        id = verify(d, part, p, at[F_ID]);
        if (id != 0) return (false, id, porRoot);
        (won, id) = decide(d[part.leaf:part.leaf + part.leafLength], part, p, families);
    }

    /// The fields' types (`proof.schema`).
    function typed(bytes calldata d, uint256[] memory at)
        private
        pure
        returns (bool ok, PorInclusion.Part memory part, Proof memory p)
    {
        // the texts as their encodings (head and bytes) in one word each
        if (word(d, at[F_SCHEMA], 16) != T_SCHEMA) return (false, part, p);
        uint256 kind = word(d, at[F_KIND], 15);
        if (kind == T_REASONING_LEAF) {
            p.kind = PorInclusion.REASONING_LEAF;
        } else if (kind >> 56 == T_VERDICT) {
            p.kind = PorInclusion.VERDICT;
        } else if (kind >> 24 == T_PROMPT_SPEC) {
            p.kind = PorInclusion.PROMPT_SPEC;
        } else {
            return (false, part, p);
        }
        (ok, part) = PorInclusion.parse(d, at[F_RECORD]);
        bool[7] memory good;
        good[0] = ok;
        (good[1], p.porRoot) = hash32(d, at[F_ROOT]);
        (good[2], p.formLeaf) = hash32(d, at[F_LEAF]);
        (good[3], p.formsRoot) = hash32(d, at[F_FORMS_ROOT]);
        (bool idOk,) = hash32(d, at[F_ID]);
        (bool indexOk, uint256 index) = PorRecords.uintIn(d, at[F_INDEX], 0, PorRecords.MAX_COUNT);
        (bool sizeOk, uint256 size) = PorRecords.uintIn(d, at[F_SIZE], 0, PorRecords.MAX_COUNT);
        (p.formIndex, p.formsSize) = (index, size);
        (good[4], p.formPath, p.formPathLength) = path(d, at[F_PATH]);
        (good[5], p.formsPath, p.formsPathLength) = path(d, at[F_FORMS_PATH]);
        good[6] = idOk && indexOk && sizeOk;
        ok = good[0] && good[1] && good[2] && good[3] && good[4] && good[5] && good[6];
    }

    /// Encoded texts (head and bytes): "por.FormProof/1" (16 bytes), "reasoning_leaf" (15),
    /// "verdict" (8), "prompt_spec" (12).
    uint256 private constant T_SCHEMA = 0x6f706f722e466f726d50726f6f662f31;
    uint256 private constant T_REASONING_LEAF = 0x6e726561736f6e696e675f6c656166;
    uint256 private constant T_VERDICT = 0x6776657264696374;
    uint256 private constant T_PROMPT_SPEC = 0x6b70726f6d70745f73706563;

    /// The `len` bytes at `pos` of a checked document, right-aligned (past its end: zeros).
    function word(bytes calldata d, uint256 pos, uint256 len) private pure returns (uint256 w) {
        assembly ("memory-safe") {
            w := shr(sub(256, shl(3, len)), calldataload(add(d.offset, pos)))
        }
    }

    /// The 32-byte byte string at `pos` of a checked document (its head the two bytes
    /// 0x58 0x20: then its 32 bytes are inside the document): (ok, its bytes).
    function hash32(bytes calldata d, uint256 pos) private pure returns (bool ok, bytes32 h) {
        assembly ("memory-safe") {
            let q := add(d.offset, pos)
            ok := eq(shr(240, calldataload(q)), 0x5820)
            h := calldataload(add(q, 2))
        }
    }

    /// A Path at `pos`: an array of at most 64 32-byte byte strings: (ok, first item, count).
    /// Each item's head is the two bytes 0x58 0x20 (a checked document: the canonical head
    /// of a 32-byte byte string), compared as one word: item i is at `first + 34 i` once
    /// items 0..i-1 were such heads, so the first other item fails there.
    function path(bytes calldata d, uint256 pos) private pure returns (bool ok, uint256 first, uint256 n) {
        (ok, n, first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok || n > PorInclusion.MAX_PATH) return (false, first, n);
        assembly ("memory-safe") {
            let q := add(d.offset, first)
            for { let end := add(q, mul(34, n)) } lt(q, end) { q := add(q, 34) } {
                if iszero(eq(shr(240, calldataload(q)), 0x5820)) {
                    ok := 0
                    break
                }
            }
        }
    }

    /// The record part under `por_root` (§10.4.1, `proof.kind` for a part of another kind),
    /// the form leaf's root (a leaf hash as given, no second LH) equal to `forms_root`, the
    /// forms component's root at 6 of 7 equal to `por_root`, the proof's own id: 0 or the
    /// first failure's id.
    function verify(bytes calldata d, PorInclusion.Part memory part, Proof memory p, uint256 idAt)
        private
        view
        returns (bytes32 err)
    {
        err = PorInclusion.verify(d, part, p.kind, p.porRoot);
        if (err != 0) return err;
        bytes32 got;
        (err, got) = PorInclusion.root(d, p.formLeaf, p.formIndex, p.formsSize, p.formPath, p.formPathLength);
        if (err != 0) return err;
        if (got != p.formsRoot) return PorInclusion.LEAF_PATH;
        (err, got) = PorInclusion.root(d, PorMerkle.componentLeafHash(p.formsRoot, uint64(p.formsSize)), 6, 7,
            p.formsPath, p.formsPathLength);
        if (err != 0) return err;
        if (got != p.porRoot) return PorInclusion.COMPONENT_PATH;
        (, bytes32 id) = hash32(d, idAt);
        if (PorInclusion.bodyHash(d, 0, d.length, idAt) != id) return PorInclusion.CHALLENGE_ID;
        return 0;
    }

    /// Form tags of the step kinds (SPEC §5.6).
    uint8 private constant EXTRACT = 3;
    uint8 private constant MAP = 8;
    uint8 private constant VERDICT = 9;

    /// The record's validity, the form index (a step's `1 + (forms_size - tree_size - 2) +
    /// leaf_index`, compared without a subtraction; the verdict's `forms_size - 1`), `F`
    /// (its family's, `form`) and `LH(F)`.
    function decide(bytes calldata leaf, PorInclusion.Part memory part, Proof memory p, address[10] memory families)
        private
        view
        returns (bool, bytes32)
    {
        if (p.kind == PorInclusion.PROMPT_SPEC) return prompt(leaf, p, families[1]);
        bool verdict = p.kind == PorInclusion.VERDICT;
        (bool valid, bool defined, bytes memory f) = form(leaf, verdict, families);
        if (!valid) return (true, PorIds.INVALID_RECORD);
        bool indexOk = verdict ? p.formIndex + 1 == p.formsSize
            : p.formIndex + part.treeSize + 1 == p.formsSize + part.leafIndex;
        if (!indexOk) return (false, FORM_INDEX);
        if (!defined) return (true, FORM_NONE);
        return matched(f, p.formLeaf);
    }

    /// The PromptSpec's record (SPEC §5.6.3-§5.6.4): its family `x` (slot 1, serving tags 1
    /// and 2; `NoFamily(1)` for COMMON, `NoFamily(2)` for a REQUIREMENT when 0) answers the
    /// reads' validity and `F` of form index `j`; the index rule `j <= r` (SPEC §5.4) asked of
    /// it only when `F` is not defined (a `j` past the requirements has none).
    function prompt(bytes calldata leaf, Proof memory p, address x) private view returns (bool, bytes32) {
        uint256 j = p.formIndex;
        if (x == address(0)) revert NoFamily(j == 0 ? 1 : 2);
        // LH(F) from the family (`formHashAt`): no copy of F returned
        (bool valid, bool defined, bytes32 h) = IPorPromptFamily(x).formHashAt(leaf, j);
        if (!valid) return (true, PorIds.INVALID_RECORD);
        if (!defined) {
            if (j > 0) {
                (, uint256 r) = IPorPromptFamily(x).requirements(leaf);
                if (j > r) return (false, FORM_INDEX);
            }
            return (true, FORM_NONE);
        }
        return h == p.formLeaf ? (false, FORM_MATCH) : (true, FORM_MISMATCH);
    }

    /// (won, id) of `F` against the committed leaf hash: `LH(F)` equal is lost `form.match`.
    function matched(bytes memory f, bytes32 formLeaf) private view returns (bool, bytes32) {
        return PorMerkle.leafHashMem(f) == formLeaf ? (false, FORM_MATCH) : (true, FORM_MISMATCH);
    }

    /// (valid, defined, F) of the record: its family's `form` when the family is on chain
    /// (the verdict's: 9; a step's: its kind's, `kindTag`); else, for a step, answered here
    /// (validity, then identity: `form.none` for a valid step of no computation), and
    /// `NoFamily` only for a valid step of a known kind whose family is not on chain.
    function form(bytes calldata leaf, bool verdict, address[10] memory families)
        private
        view
        returns (bool valid, bool defined, bytes memory f)
    {
        uint8 tag = verdict ? VERDICT : kindTag(leaf);
        address x = families[tag];
        if (x != address(0)) return IPorFormFamily(x).form(leaf);
        if (verdict) revert NoFamily(VERDICT);
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        // a valid step `kindTag` could not route (a key sorting before `inputs` or `kind`,
        // e.g. an extra `inputs.a`): its family by the kind the validity read
        tag = tagOf(kind);
        x = families[tag];
        if (x != address(0)) return IPorFormFamily(x).form(leaf);
        revert NoFamily(tag);
    }

    /// The form tag of a step leaf's `inputs.kind`, read where a valid por.ReasoningStep/1
    /// holds it (`inputs` its first key, `kind` the first of `inputs`: SPEC §2's order), a
    /// few heads and word compares, every read inside the leaf; 0 when it is not there or
    /// names no step form. Routing only: the family checks everything, and a valid step
    /// whose `kind` is elsewhere (a shorter key before it) is routed after its validity.
    function kindTag(bytes calldata leaf) private pure returns (uint8) {
        (uint8 major,, uint256 p) = PorCbor.head(leaf, 0); // the step map
        if (leaf.length == 0 || major != PorCbor.MAP || p + 7 > leaf.length) return 0;
        if (!keyed(leaf, p, KEY_INPUTS, 7)) return 0;
        uint256 arg;
        (major, arg, p) = PorCbor.head(leaf, p + 7); // the inputs map
        if (major != PorCbor.MAP || p + 5 > leaf.length) return 0;
        if (!keyed(leaf, p, KEY_KIND, 5)) return 0;
        (major, arg, p) = PorCbor.head(leaf, p + 5); // inputs.kind
        if (major != PorCbor.TEXT || p > leaf.length || arg > leaf.length - p) return 0;
        return tagOf(keccak256(leaf[p:p + arg]));
    }

    /// The form tag of step kind `kind` (keccak256 of `inputs.kind`), 0 for none.
    function tagOf(bytes32 kind) private pure returns (uint8) {
        if (kind == PorIds.DEDUCE) return 7;
        if (kind == PorIds.MAP) return MAP;
        if (kind == PorIds.EXTRACT_CLAIMS) return EXTRACT;
        if (kind == PorIds.CHECK_REQUIREMENT) return 4;
        if (kind == PorIds.AGGREGATE) return 5;
        if (kind == PorIds.CONTRADICTIONS) return 6;
        return 0;
    }

    /// Encoded text keys (head and bytes), right-aligned.
    uint256 private constant KEY_KIND = 0x646b696e64;
    uint256 private constant KEY_INPUTS = 0x66696e70757473;

    /// The `len`-byte encoded key `key` is at `p`.
    function keyed(bytes calldata d, uint256 p, uint256 key, uint256 len) private pure returns (bool yes) {
        assembly ("memory-safe") {
            yes := eq(shr(sub(256, shl(3, len)), calldataload(add(d.offset, p))), key)
        }
    }
}
