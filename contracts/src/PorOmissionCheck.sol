// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorText} from "./PorText.sol";

/// @title PorOmissionCheck: `verify_omission_proof` (SPEC §10.2.4) on chain.
/// @notice Input: the exact bytes of a por.OmissionProof/2 file that `PorCbor.check`
/// accepted. Output: (won, check id, por_root), as `por check-proof` without
/// `--por-root`: won omission.uncited_item, omission.extract_position,
/// one_step.invalid_record; lost omission.cited, omission.not_a_check,
/// omission.other_requirement, omission.other_chunk; `won` false with a proof.* /
/// merkle.* id for an invalid proof. Nothing is re-executed and no PromptSpec is read:
/// rules 1-4 read the step's inputs, citations and `from_leaf`/`last_leaf`, and the
/// item's id, requirement and leaf index (from its extract step or the item itself).
library PorOmissionCheck {
    bytes32 internal constant SCHEMA = PorIds.SCHEMA;
    bytes32 internal constant CITATIONS = PorIds.CITATIONS;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant UNCITED = keccak256("omission.uncited_item");
    bytes32 internal constant POSITION = keccak256("omission.extract_position");
    bytes32 internal constant CITED = keccak256("omission.cited");
    bytes32 internal constant NOT_A_CHECK = keccak256("omission.not_a_check");
    bytes32 internal constant OTHER_REQUIREMENT = keccak256("omission.other_requirement");
    bytes32 internal constant OTHER_CHUNK = keccak256("omission.other_chunk");

    /// OmissionProof fields, canonical order.
    bytes internal constant KEYS = "\x04kind\x04step\x06schema\x08evidence\x08por_root\x0cchallenge_id";
    uint256 private constant F_KIND = 0;
    uint256 private constant F_STEP = 1;
    uint256 private constant F_SCHEMA = 2;
    uint256 private constant F_EVIDENCE = 3;
    uint256 private constant F_ROOT = 4;
    uint256 private constant F_ID = 5;

    /// inputs.kind of the step (0: anything else, absent or not text).
    uint8 private constant EXTRACT = 1;
    uint8 private constant CHECK = 2;
    uint8 private constant AGGREGATE = 3;
    /// Items one check chunk reads (SPEC §12.5.3).
    uint256 private constant CHUNK = 10;

    /// What the rules read of the step leaf (absolute offsets into the proof).
    struct Step {
        uint8 kind;
        uint256 requirement; // inputs.requirement_id, 0 when absent
        uint256 output;
        uint256 evidence; // the evidence_ids array
        uint256 leafIndex;
    }

    /// What the rules read of the item: its id and requirement (texts) and leaf index.
    struct Item {
        uint256 evidenceId;
        uint256 requirement;
        uint256 leafIndex;
        uint256 treeSize;
    }

    /// `d` is a por-cbor/1 document (the router's reader passed it).
    function check(bytes calldata d) internal view returns (bool won, bytes32 id, bytes32 porRoot) {
        PorInclusion.Part[] memory parts;
        (id, porRoot, parts) = verifyParts(d);
        if (id != 0) return (false, id, porRoot);
        (won, id) = decide(d, parts[0], parts[1]);
    }

    /// The schema (§10.4 step 0), both parts under por_root (§10.5 steps 1-2; the
    /// evidence part a reasoning_leaf or an evidence_leaf), then the proof's own id.
    function verifyParts(bytes calldata d)
        private
        view
        returns (bytes32 err, bytes32 porRoot, PorInclusion.Part[] memory parts)
    {
        (bool ok, uint256[] memory at, PorInclusion.Part[] memory walked, bool partsOk) = walk(d);
        if (!ok) return (SCHEMA, 0, parts);
        (ok, porRoot) = schema(d, at, partsOk);
        parts = walked;
        if (!ok) return (SCHEMA, porRoot, parts);
        err = PorInclusion.verify(d, parts[0], PorInclusion.REASONING_LEAF, porRoot);
        uint8 carried =
            parts[1].kind == PorInclusion.REASONING_LEAF ? PorInclusion.REASONING_LEAF : PorInclusion.EVIDENCE_LEAF;
        if (err == 0) err = PorInclusion.verify(d, parts[1], carried, porRoot);
        if (err != 0) return (err, porRoot, parts);
        (, bytes32 challengeId) = PorCbor.hashAt(d, at[F_ID]);
        if (PorInclusion.bodyHash(d, 0, d.length, at[F_ID]) != challengeId) err = PorInclusion.CHALLENGE_ID;
    }

    /// `PorRecords.fields(d, 0, KEYS)` in one walk, each part parsed as it is met (its
    /// end is where the next key starts; a part that does not parse is skipped and
    /// `partsOk` false), other values skipped.
    function walk(bytes calldata d)
        private
        pure
        returns (bool ok, uint256[] memory at, PorInclusion.Part[] memory parts, bool partsOk)
    {
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, 0, PorCbor.MAP);
        if (!isMap || count != 6) return (false, at, parts, false);
        at = new uint256[](6);
        parts = new PorInclusion.Part[](2);
        partsOk = true;
        uint256 k = 0;
        bytes memory keys = KEYS; // once: each use of the constant copies it to memory
        for (uint256 i = 0; i < 6; i++) {
            (ok, p, k) = PorRecords.keyIs(d, p, keys, k);
            if (!ok) return (false, at, parts, false);
            at[i] = p;
            bool parsed = false;
            if (i == F_STEP || i == F_EVIDENCE) {
                (parsed, parts[i == F_STEP ? 0 : 1]) = PorInclusion.parse(d, p);
                partsOk = partsOk && parsed;
            }
            p = parsed ? parts[i == F_STEP ? 0 : 1].end : PorCbor.skip(d, p);
        }
    }

    /// kind, schema, por_root, challenge_id typed; step and evidence InclusionProof
    /// records (parsed by `walk`).
    function schema(bytes calldata d, uint256[] memory at, bool partsOk) private pure returns (bool ok, bytes32 porRoot) {
        (bool rootOk, bytes32 root) = PorCbor.hashAt(d, at[F_ROOT]);
        (bool idOk,) = PorCbor.hashAt(d, at[F_ID]);
        ok = rootOk && idOk && PorCbor.isText(d, at[F_KIND], "reasoning_leaf")
            && PorCbor.isText(d, at[F_SCHEMA], "por.OmissionProof/2") && partsOk;
        porRoot = root;
    }

    /// Verified parts: the records (won one_step.invalid_record), the extract step's
    /// position (proof.citations), then rules 1-4 in order.
    function decide(bytes calldata d, PorInclusion.Part memory stepPart, PorInclusion.Part memory evidencePart)
        private
        pure
        returns (bool, bytes32)
    {
        bool byExtract = evidencePart.kind == PorInclusion.REASONING_LEAF;
        (bool ok, Step memory s) = stepOf(d, stepPart);
        Item memory item;
        if (ok) (ok, item) = itemOf(d, evidencePart, byExtract);
        if (!ok) return (true, INVALID_RECORD);
        if (item.evidenceId == 0) return (false, CITATIONS);
        bool sameRequirement = s.requirement != 0 && isTextAt(d, s.requirement)
            && PorText.sameText(d, s.requirement, item.requirement);
        if (sameRequirement && omits(d, s, item)) return (true, UNCITED);
        if (!byExtract) {
            // Rules 2-3 (the item itself): extract steps are the first n leaves, and step
            // leaf i < n extracts evidence leaf i.
            if (s.kind == EXTRACT && s.leafIndex >= item.treeSize) return (true, POSITION);
            if (s.leafIndex == item.leafIndex) {
                return s.kind == EXTRACT && citesOnly(d, s.evidence, item.evidenceId) ? (false, CITED) : (true, POSITION);
            }
        }
        // Rule 4: why the item is not one the step leaves out.
        if (s.kind != CHECK && s.kind != AGGREGATE) return (false, NOT_A_CHECK);
        if (!sameRequirement) return (false, OTHER_REQUIREMENT);
        if (cites(d, s.evidence, item.evidenceId)) return (false, CITED);
        return (false, OTHER_CHUNK);
    }

    /// The step part's leaf as a valid por.ReasoningStep/1, what the rules read of it.
    function stepOf(bytes calldata d, PorInclusion.Part memory p) private pure returns (bool ok, Step memory s) {
        uint256[] memory at;
        (ok, at) = record(d, p, true);
        if (!ok) return (false, s);
        uint256 inputs = at[PorRecords.STEP_INPUTS];
        s = Step({
            kind: kindOf(d, PorCbor.get(d, inputs, "kind")),
            requirement: PorCbor.get(d, inputs, "requirement_id"),
            output: at[PorRecords.STEP_OUTPUT],
            evidence: at[PorRecords.STEP_EVIDENCE],
            leafIndex: p.leafIndex
        });
    }

    /// The evidence part's leaf as a valid record (an extract step or an item): the
    /// item's id and requirement; `evidenceId` 0 for an extract step that does not stand
    /// for its item (`extract_view` is None: proof.citations).
    function itemOf(bytes calldata d, PorInclusion.Part memory p, bool byExtract)
        private
        pure
        returns (bool ok, Item memory item)
    {
        uint256[] memory at;
        (ok, at) = record(d, p, byExtract);
        if (!ok) return (false, item);
        (item.leafIndex, item.treeSize) = (p.leafIndex, p.treeSize);
        if (!byExtract) {
            (item.evidenceId, item.requirement) = (at[PorRecords.ITEM_EVIDENCE_ID], at[PorRecords.ITEM_REQUIREMENT]);
        } else if (!extractView(d, at, p.leafIndex, item)) {
            item.evidenceId = 0;
        }
    }

    /// The part's leaf is a valid por.ReasoningStep/1 (`step`) or por.EvidenceItem/1:
    /// its value offsets, absolute in `d`.
    function record(bytes calldata d, PorInclusion.Part memory p, bool step)
        private
        pure
        returns (bool ok, uint256[] memory at)
    {
        bytes calldata leaf = d[p.leaf:p.leaf + p.leafLength];
        (ok, at) = step ? PorRecords.reasoningStep(leaf) : PorRecords.evidenceItem(leaf);
        for (uint256 i = 0; ok && i < at.length; i++) at[i] += p.leaf;
    }

    function kindOf(bytes calldata d, uint256 pos) private pure returns (uint8) {
        if (pos == 0) return 0;
        if (PorCbor.isText(d, pos, "extract_claims")) return EXTRACT;
        if (PorCbor.isText(d, pos, "check_requirement")) return CHECK;
        if (PorCbor.isText(d, pos, "aggregate")) return AGGREGATE;
        return 0;
    }

    function isTextAt(bytes calldata d, uint256 pos) private pure returns (bool text) {
        (text,,) = PorCbor.str(d, pos, PorCbor.TEXT);
    }

    /// `extract_view` (SPEC §10.2.4): the extract_claims step at its own position
    /// (step_{j+1:04d}, step type extract) with text output.evidence_id and
    /// output.requirement_id and evidence_ids exactly [output.evidence_id], read into `item`.
    function extractView(bytes calldata d, uint256[] memory at, uint256 leafIndex, Item memory item)
        private
        pure
        returns (bool)
    {
        (item.evidenceId, item.requirement) = two(d, at[PorRecords.STEP_OUTPUT], "evidence_id", "requirement_id");
        return PorRecords.isStepId(d, at[PorRecords.STEP_ID], leafIndex + 1)
            && PorCbor.isText(d, at[PorRecords.STEP_TYPE], "extract")
            && kindOf(d, PorCbor.get(d, at[PorRecords.STEP_INPUTS], "kind")) == EXTRACT && item.evidenceId != 0
            && item.requirement != 0 && isTextAt(d, item.evidenceId) && isTextAt(d, item.requirement)
            && citesOnly(d, at[PorRecords.STEP_EVIDENCE], item.evidenceId);
    }

    /// The id list at `list` is exactly [the text at `id`].
    function citesOnly(bytes calldata d, uint256 list, uint256 id) private pure returns (bool) {
        (, uint256 n, uint256 first) = PorCbor.container(d, list, PorCbor.ARRAY);
        return n == 1 && PorText.sameText(d, first, id);
    }

    /// The id list at `list` holds the text at `id`.
    function cites(bytes calldata d, uint256 list, uint256 id) private pure returns (bool) {
        (, uint256 n, uint256 p) = PorCbor.container(d, list, PorCbor.ARRAY);
        for (uint256 i = 0; i < n; i++) {
            if (PorText.sameText(d, p, id)) return true;
            p = PorCbor.skip(d, p);
        }
        return false;
    }

    /// `omits` (SPEC §10.2.4 rule 1) for an item of the step's requirement: a check chunk
    /// that does not cite it, with the item after its `from_leaf` (or none) and either
    /// before its `last_leaf` or the chunk holding fewer than 10 items; or the
    /// requirement's aggregate with the item after its `last_leaf` (or none). The output
    /// is walked once for both keys.
    function omits(bytes calldata d, Step memory s, Item memory item) private pure returns (bool) {
        if (s.kind != AGGREGATE && (s.kind != CHECK || cites(d, s.evidence, item.evidenceId))) return false;
        (uint256 from, uint256 last) = two(d, s.output, "from_leaf", "last_leaf");
        if (s.kind == AGGREGATE) return below(d, last, item.leafIndex);
        if (!below(d, from, item.leafIndex)) return false;
        (, uint256 n,) = PorCbor.container(d, s.evidence, PorCbor.ARRAY);
        return n < CHUNK || above(d, last, item.leafIndex);
    }

    /// The values of keys `a` and `b` (a before b in §2 order) of the map at `pos`, 0 when
    /// absent: one walk, which stops after `b` or at the first key ordered after both.
    function two(bytes calldata d, uint256 pos, bytes memory a, bytes memory b)
        private
        pure
        returns (uint256 va, uint256 vb)
    {
        (, uint256 count, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        for (uint256 i = 0; i < count; i++) {
            (, uint256 len,) = PorCbor.head(d, p); // keys are texts (§2)
            if (len > b.length) return (va, vb); // every later key is longer
            uint256 value = PorCbor.skip(d, p);
            if (va == 0 && PorCbor.isText(d, p, a)) {
                va = value;
            } else if (PorCbor.isText(d, p, b)) {
                return (va, value);
            }
            p = PorCbor.skip(d, value);
        }
    }

    /// The integer at `pos` (0: absent) is below `leaf`, or there is none (absent, or
    /// another type: `_leaf` reads only integers; a negative one is below every leaf).
    function below(bytes calldata d, uint256 pos, uint256 leaf) private pure returns (bool) {
        if (pos == 0) return true;
        (uint8 major, uint256 v,) = PorCbor.head(d, pos);
        return major != PorCbor.UINT || v < leaf;
    }

    /// An integer at `pos` (0: absent) above `leaf`; false when there is none.
    function above(bytes calldata d, uint256 pos, uint256 leaf) private pure returns (bool) {
        if (pos == 0) return false;
        (uint8 major, uint256 v,) = PorCbor.head(d, pos);
        return major == PorCbor.UINT && v > leaf;
    }
}
