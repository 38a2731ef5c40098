// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorIds} from "../PorIds.sol";
import {PorInclusion} from "../PorInclusion.sol";
import {PorMerkle} from "../PorMerkle.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce} from "./PorFormProofDeduce.sol";
import {PorFormProofMap} from "./PorFormProofMap.sol";
import {PorFormProofVerdict} from "./PorFormProofVerdict.sol";

/// @title PorFormProofCheck: `verify_form_proof` (SPEC §10.4.3) on chain for a
/// `por.FormProof/1` whose record is a step (`kind` `reasoning_leaf`) or the verdict, `F` read
/// by `PorFormProofDeduce`, `PorFormProofMap`, `PorFormProofVerdict` (ADR 0017 s41 spike).
/// @notice Input: the exact bytes of a por.FormProof/1 file. Output (won, check id), as
/// `por check-proof` without `--por-root`: `won` false with `proof.malformed` (not one
/// por-cbor/1 item), `proof.schema`, the record part's `proof.*` / `merkle.*` id (§10.4.1),
/// `merkle.*` or `proof.leaf_path` for the form leaf's path, `proof.component_path`,
/// `proof.challenge_id`, `proof.form_index`; won `one_step.invalid_record`, `form.none`,
/// `form.mismatch`; lost `form.match`. Families: the DEDUCE and MAP steps, the verdict (kind
/// `verdict`). A proof on the PromptSpec, or on a valid step of another kind, reverts
/// `PorFormProofDeduce.OtherFamily`.
library PorFormProofCheck {
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
        uint8 kind; // PorInclusion.REASONING_LEAF or PorInclusion.VERDICT
    }

    /// SPEC §10.4.3 in its order (see the notice).
    function check(bytes calldata d) internal view returns (bool won, bytes32 id) {
        (bytes32 err,) = PorCbor.check(d);
        if (err != 0) return (false, PorIds.MALFORMED);
        (bool ok, uint256[] memory at) = PorRecords.fields(d, 0, KEYS);
        if (!ok) return (false, PorIds.SCHEMA);
        PorInclusion.Part memory part;
        Proof memory p;
        (ok, part, p) = typed(d, at);
        if (!ok) return (false, PorIds.SCHEMA);
        id = verify(d, part, p, at[F_ID]);
        if (id != 0) return (false, id);
        return decide(d[part.leaf:part.leaf + part.leafLength], part, p);
    }

    /// The fields' types (`proof.schema`); a proof on another record than a step reverts.
    function typed(bytes calldata d, uint256[] memory at)
        private
        pure
        returns (bool ok, PorInclusion.Part memory part, Proof memory p)
    {
        if (!PorCbor.isText(d, at[F_SCHEMA], "por.FormProof/1")) return (false, part, p);
        if (PorCbor.isText(d, at[F_KIND], "reasoning_leaf")) {
            p.kind = PorInclusion.REASONING_LEAF;
        } else if (PorCbor.isText(d, at[F_KIND], "verdict")) {
            p.kind = PorInclusion.VERDICT;
        } else {
            if (PorCbor.isText(d, at[F_KIND], "prompt_spec")) {
                (, uint256 off, uint256 len) = PorCbor.str(d, at[F_KIND], PorCbor.TEXT);
                revert PorFormProofDeduce.OtherFamily(keccak256(d[off:off + len]));
            }
            return (false, part, p);
        }
        (ok, part) = PorInclusion.parse(d, at[F_RECORD]);
        bool[7] memory good;
        good[0] = ok;
        (good[1], p.porRoot) = PorCbor.hashAt(d, at[F_ROOT]);
        (good[2], p.formLeaf) = PorCbor.hashAt(d, at[F_LEAF]);
        (good[3], p.formsRoot) = PorCbor.hashAt(d, at[F_FORMS_ROOT]);
        (bool idOk,) = PorCbor.hashAt(d, at[F_ID]);
        (bool indexOk, uint256 index) = PorRecords.uintIn(d, at[F_INDEX], 0, PorRecords.MAX_COUNT);
        (bool sizeOk, uint256 size) = PorRecords.uintIn(d, at[F_SIZE], 0, PorRecords.MAX_COUNT);
        (p.formIndex, p.formsSize) = (index, size);
        (good[4], p.formPath, p.formPathLength) = path(d, at[F_PATH]);
        (good[5], p.formsPath, p.formsPathLength) = path(d, at[F_FORMS_PATH]);
        good[6] = idOk && indexOk && sizeOk;
        ok = good[0] && good[1] && good[2] && good[3] && good[4] && good[5] && good[6];
    }

    /// A Path at `pos`: an array of at most 64 32-byte byte strings: (ok, first item, count).
    function path(bytes calldata d, uint256 pos) private pure returns (bool ok, uint256 first, uint256 n) {
        (ok, n, first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok || n > PorInclusion.MAX_PATH) return (false, first, n);
        for (uint256 i = 0; i < n; i++) {
            (bool h,) = PorCbor.hashAt(d, first + 34 * i);
            if (!h) return (false, first, n);
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
        (, bytes32 id) = PorCbor.hashAt(d, idAt);
        if (PorInclusion.bodyHash(d, 0, d.length, idAt) != id) return PorInclusion.CHALLENGE_ID;
        return 0;
    }

    /// The step's validity, its identity, then `F` of its family (DEDUCE, MAP; another
    /// valid kind reverts `OtherFamily`): (valid, defined, F).
    function form(bytes calldata leaf) private view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind == PorIds.DEDUCE) {
            (defined, f) = PorFormProofDeduce.build(leaf, at);
        } else if (kind == PorIds.MAP) {
            (defined, f) = PorFormProofMap.build(leaf, at);
        } else {
            revert PorFormProofDeduce.OtherFamily(kind);
        }
    }

    /// The record's validity, the form index (a step's `1 + (forms_size - tree_size - 2) +
    /// leaf_index`, compared without a subtraction; the verdict's `forms_size - 1`), `F`
    /// and `LH(F)`.
    function decide(bytes calldata leaf, PorInclusion.Part memory part, Proof memory p)
        private
        view
        returns (bool, bytes32)
    {
        bool verdict = p.kind == PorInclusion.VERDICT;
        (bool valid, bool defined, bytes memory f) = verdict ? PorFormProofVerdict.form(leaf) : form(leaf);
        if (!valid) return (true, PorIds.INVALID_RECORD);
        bool indexOk = verdict ? p.formIndex + 1 == p.formsSize
            : p.formIndex + part.treeSize + 1 == p.formsSize + part.leafIndex;
        if (!indexOk) return (false, FORM_INDEX);
        if (!defined) return (true, FORM_NONE);
        bytes32 h;
        assembly ("memory-safe") {
            // LH(F) = SHA-256(0x00 || F): the zero byte written just before F's bytes, over
            // the low byte of its length word (restored after)
            let n := mload(f)
            mstore8(add(f, 31), 0)
            if iszero(staticcall(gas(), 0x02, add(f, 31), add(n, 1), 0x00, 0x20)) { revert(0, 0) }
            h := mload(0x00)
            mstore(f, n)
        }
        return h == p.formLeaf ? (false, FORM_MATCH) : (true, FORM_MISMATCH);
    }
}
