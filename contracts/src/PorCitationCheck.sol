// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorSchemaName} from "./PorSchemaName.sol";
import {PorText} from "./PorText.sol";

/// @title PorCitationCheck: `verify_citation_proof` (SPEC §10.2.7, §12.5.1) on-chain.
/// @notice Input: the exact bytes of a por.CitationProof/2 file (the step and the extract
/// steps of at most two cited items, each standing for its item: output.evidence_id,
/// output.requirement_id, and its leaf index, which is the item's). Output: (won, check id,
/// por_root). `won` is true for a fault shown (one_step.citation_repeat,
/// one_step.citation_order, one_step.citation_set, one_step.prior_order,
/// one_step.id_position, one_step.invalid_record); false with
/// one_step.citations_canonical when the citations shown break no rule, and false with
/// the proof.* / merkle.* id when the proof itself is invalid. Check ids are keccak256 of
/// their SPEC text.
library PorCitationCheck {
    using PorRecords for bytes;

    bytes32 internal constant MALFORMED = PorIds.MALFORMED;
    bytes32 internal constant SCHEMA = PorIds.SCHEMA;
    bytes32 internal constant UNSUPPORTED = PorIds.UNSUPPORTED;
    bytes32 internal constant CITATIONS = PorIds.CITATIONS;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant ID_POSITION = PorIds.ID_POSITION;
    bytes32 internal constant REPEAT = keccak256("one_step.citation_repeat");
    bytes32 internal constant ORDER = keccak256("one_step.citation_order");
    bytes32 internal constant SET = keccak256("one_step.citation_set");
    bytes32 internal constant PRIOR_ORDER = PorIds.PRIOR_ORDER;
    bytes32 internal constant CANONICAL = keccak256("one_step.citations_canonical");

    /// CitationProof fields, canonical order.
    bytes internal constant KEYS = "\x04kind\x04step\x06schema\x08por_root\x0cchallenge_id\x0dextract_steps";
    /// The S5 form (SPEC §10.2.7 rule 6): `prior_steps` [aggregate A, cited chunk X] too.
    bytes internal constant KEYS_S5 =
        "\x04kind\x04step\x06schema\x08por_root\x0bprior_steps\x0cchallenge_id\x0dextract_steps";
    bytes internal constant SCHEMA_TEXT = "por.CitationProof/2";
    uint256 private constant F_KIND = 0;
    uint256 private constant F_STEP = 1;
    uint256 private constant F_SCHEMA = 2;
    uint256 private constant F_ROOT = 3;
    uint256 private constant F_ID = 4;
    uint256 private constant F_EXTRACTS = 5;
    uint256 private constant F_PRIORS = 6; // the S5 form only
    uint256 internal constant MAX_ITEMS = 2;
    uint256 internal constant S5_PRIORS = 2;
    /// Items one check chunk reads (SPEC §12.5.3, ADR 0011 stage 3).
    uint256 internal constant CHUNK = 10;

    /// inputs.kind of a step (SPEC §12.5.1): 0 for anything else (absent, other text, not text).
    uint8 internal constant EXTRACT_CLAIMS = 1;
    uint8 internal constant CHECK_REQUIREMENT = 2;
    uint8 internal constant AGGREGATE = 3;
    uint8 internal constant CONTRADICTIONS = 4;
    uint8 internal constant MAP = 5;
    uint8 internal constant DEDUCE = 6;

    /// What the rules read from the step leaf (offsets into the leaf).
    struct Step {
        uint8 kind;
        uint256 requirement; // offset of inputs.requirement_id, 0 when absent
        uint256 evidence; // first item, count
        uint256 evidenceCount;
        uint256 prior;
        uint256 priorCount;
        uint256 number; // leaf_index + 1
    }

    function check(bytes calldata d) internal view returns (bool won, bytes32 id, bytes32 porRoot) {
        (bytes32 codec,) = PorCbor.check(d);
        if (codec != 0) return (false, MALFORMED, 0);
        return checkChecked(d);
    }

    /// `check` for a document the caller has run the §2 reader over (`PorCbor.check`).
    function checkChecked(bytes calldata d) internal view returns (bool won, bytes32 id, bytes32 porRoot) {
        // The schema field names the record (proof_from_cbor): another version of a
        // proof record is proof.unsupported (exit 2), anything else but a
        // CitationProof proof.schema; every field is typed before anything is verified.
        (bool ok, uint256[] memory at) = PorRecords.fields(d, 0, KEYS);
        if (!ok) (ok, at) = s5Fields(d);
        if (!ok || !PorCbor.isText(d, at[F_SCHEMA], SCHEMA_TEXT)) {
            id = schemaName(d);
            return (false, id == 0 ? SCHEMA : id, 0);
        }
        bool rootOk;
        (rootOk, porRoot) = PorCbor.hashAt(d, at[F_ROOT]);
        PorInclusion.Part[] memory parts;
        (ok, parts) = schema(d, at);
        if (!ok || !rootOk) return (false, SCHEMA, porRoot);
        // 1-3. Every part under por_root, then the proof's own id.
        for (uint256 i = 0; i < parts.length; i++) {
            bool known = i > 0 && PorInclusion.sameComponent(d, parts[i - 1], parts[i]);
            bytes32 err = PorInclusion.verify(d, parts[i], PorInclusion.REASONING_LEAF, porRoot, known);
            if (err != 0) return (false, err, porRoot);
        }
        (, bytes32 challengeId) = PorCbor.hashAt(d, at[F_ID]);
        if (PorInclusion.bodyHash(d, 0, d.length, at[F_ID]) != challengeId) {
            return (false, PorInclusion.CHALLENGE_ID, porRoot);
        }
        (won, id) = decide(d, parts, at.length > F_EXTRACTS + 1);
    }

    /// The S5 form's fields in KEYS' slots, then the offset of `prior_steps` (slot F_PRIORS).
    function s5Fields(bytes calldata d) private pure returns (bool ok, uint256[] memory at) {
        uint256[] memory all;
        (ok, all) = PorRecords.fields(d, 0, KEYS_S5);
        if (!ok) return (false, at);
        at = new uint256[](F_PRIORS + 1);
        (at[F_KIND], at[F_STEP], at[F_SCHEMA], at[F_ROOT]) = (all[0], all[1], all[2], all[3]);
        (at[F_PRIORS], at[F_ID], at[F_EXTRACTS]) = (all[4], all[5], all[6]);
    }

    /// 0 when the top-level `schema` is por.CitationProof/2, else the id.
    function schemaName(bytes calldata d) private pure returns (bytes32) {
        uint256 at = PorCbor.get(d, 0, "schema");
        if (at != 0 && PorCbor.isText(d, at, SCHEMA_TEXT)) return 0;
        return at != 0 && PorSchemaName.otherVersion(d, at) ? UNSUPPORTED : SCHEMA;
    }

    /// The fields other than por_root: kind, schema, challenge_id, and the parts (step
    /// first, then at most two extract steps, then the S5 form's two prior steps), each a
    /// valid InclusionProof record; `n` the number of extract steps.
    function schema(bytes calldata d, uint256[] memory at)
        private
        pure
        returns (bool ok, PorInclusion.Part[] memory parts)
    {
        (bool items, uint256 n, uint256 first) = PorCbor.container(d, at[F_EXTRACTS], PorCbor.ARRAY);
        uint256 priorsAt = at.length > F_PRIORS ? at[F_PRIORS] : 0;
        (bool idOk,) = PorCbor.hashAt(d, at[F_ID]);
        (bool chainOk, uint256 c, uint256 firstPrior) =
            priorsAt == 0 ? (true, 0, 0) : PorCbor.container(d, priorsAt, PorCbor.ARRAY);
        if (!items || n > MAX_ITEMS || !idOk || !PorCbor.isText(d, at[F_KIND], "reasoning_leaf")
                || !PorCbor.isText(d, at[F_SCHEMA], SCHEMA_TEXT) || !chainOk
                || (priorsAt != 0 && c != S5_PRIORS)) {
            return (false, parts);
        }
        parts = new PorInclusion.Part[](n + c + 1);
        (ok, parts[0]) = PorInclusion.parse(d, at[F_STEP]);
        for (uint256 i = 0; ok && i < n + c; i++) {
            if (i == n) first = firstPrior;
            (ok, parts[i + 1]) = PorInclusion.parse(d, first);
            first = parts[i + 1].end;
        }
    }

    /// Steps 4-6 of verify_citation_proof on verified parts.
    function decide(bytes calldata d, PorInclusion.Part[] memory parts, bool chain) private pure returns (bool, bytes32) {
        // 4. The carried records parse; a committed invalid record is a fault.
        bytes calldata leaf = leafOf(d, parts[0]);
        (bool ok, uint256[] memory at) = PorRecords.reasoningStep(leaf);
        if (!ok) return (true, INVALID_RECORD);
        uint256[][] memory extracts;
        (ok, extracts) = parseExtracts(d, parts);
        if (!ok) return (true, INVALID_RECORD);
        Step memory s = readStep(leaf, at, parts[0].leafIndex + 1);
        if (!PorRecords.isStepId(leaf, at[PorRecords.STEP_ID], s.number)) return (true, ID_POSITION);
        if (chain && (parts.length != S5_PRIORS + 1 || s.kind != CONTRADICTIONS)) return (false, CITATIONS);
        // 5. The step alone (R1, R2, O1, S1, S2).
        bytes32 fault = stepFault(leaf, s);
        if (fault != 0) return (true, fault);
        if (chain) return s5Fault(d, parts, extracts, leaf, s); // rule 6 (S5)
        // 6. The carried extract steps: two adjacent citations (O2) or one citation (S3, S4).
        if (parts.length == 1) return (false, CANONICAL);
        return carriedFault(d, parts, extracts, leaf, s);
    }
    /// Step 6 on the carried extract steps (each standing for its item).
    function carriedFault(
        bytes calldata d,
        PorInclusion.Part[] memory parts,
        uint256[][] memory extracts,
        bytes calldata leaf,
        Step memory s
    ) private pure returns (bool, bytes32) {
        (bool views, uint256[] memory ids, uint256[] memory reqs) = viewAll(d, parts, extracts);
        if (!views) return (false, CITATIONS);
        if (parts.length == 3) return pairFault(d, parts, ids, leaf, s);
        return itemFault(leafOf(d, parts[1]), parts[1].leafIndex, ids[1], reqs[1], leaf, s);
    }
    /// Rule 6 (S5): parts[1] the aggregate A of requirement R, parts[2] a check chunk X
    /// of R that the contradictions step cites; won SET when A's last prior step is not X.
    function s5Fault(
        bytes calldata d,
        PorInclusion.Part[] memory parts,
        uint256[][] memory at,
        bytes calldata leaf,
        Step memory s
    ) private pure returns (bool, bytes32) {
        if (!s5Shape(d, parts, at) || !cites(leaf, s, leafOf(d, parts[2]), at[2][PorRecords.STEP_ID])) {
            return (false, CITATIONS);
        }
        return lastIsX(d, parts, at) ? (false, CANONICAL) : (true, SET);
    }

    /// A's last prior step id is X's step_id.
    function lastIsX(bytes calldata d, PorInclusion.Part[] memory parts, uint256[][] memory at)
        private
        pure
        returns (bool)
    {
        bytes calldata a = leafOf(d, parts[1]);
        Step memory sa = readStep(a, at[1], parts[1].leafIndex + 1);
        return PorText.sameText(a, nth(a, sa.prior, sa.priorCount - 1), leafOf(d, parts[2]), at[2][PorRecords.STEP_ID]);
    }

    /// The step's prior_step_ids hold the text at `xId` of `x`.
    function cites(bytes calldata leaf, Step memory s, bytes calldata x, uint256 xId) private pure returns (bool) {
        uint256 p = s.prior;
        for (uint256 i = 0; i < s.priorCount; i++) {
            if (PorText.sameText(leaf, p, x, xId)) return true;
            p = PorCbor.skip(leaf, p);
        }
        return false;
    }

    /// A is the aggregate step at its own position with a text requirement_id and a prior
    /// step; X the check_requirement step at its own position for the same requirement.
    function s5Shape(bytes calldata d, PorInclusion.Part[] memory parts, uint256[][] memory at)
        private
        pure
        returns (bool)
    {
        bytes calldata a = leafOf(d, parts[1]);
        bytes calldata x = leafOf(d, parts[2]);
        Step memory sa = readStep(a, at[1], parts[1].leafIndex + 1);
        Step memory sx = readStep(x, at[2], parts[2].leafIndex + 1);
        return sx.kind == CHECK_REQUIREMENT && sx.requirement != 0
            && PorRecords.isStepId(x, at[2][PorRecords.STEP_ID], sx.number) && sa.kind == AGGREGATE
            && sa.requirement != 0 && sa.priorCount != 0 && PorRecords.isStepId(a, at[1][PorRecords.STEP_ID], sa.number)
            && PorText.sameText(a, sa.requirement, x, sx.requirement);
    }

    /// Each carried extract step (parts 1..) is a valid ReasoningStep record.
    function parseExtracts(bytes calldata d, PorInclusion.Part[] memory parts)
        private
        pure
        returns (bool ok, uint256[][] memory extracts)
    {
        extracts = new uint256[][](parts.length);
        ok = true;
        for (uint256 i = 1; ok && i < parts.length; i++) {
            (ok, extracts[i]) = PorRecords.reasoningStep(leafOf(d, parts[i]));
        }
    }
    /// extractView of every carried extract step: offsets of output.evidence_id and
    /// output.requirement_id in each.
    function viewAll(bytes calldata d, PorInclusion.Part[] memory parts, uint256[][] memory extracts)
        private
        pure
        returns (bool ok, uint256[] memory ids, uint256[] memory reqs)
    {
        ids = new uint256[](parts.length);
        reqs = new uint256[](parts.length);
        ok = true;
        for (uint256 i = 1; ok && i < parts.length; i++) {
            (ok, ids[i], reqs[i]) = extractView(leafOf(d, parts[i]), extracts[i], parts[i].leafIndex + 1);
        }
    }
    /// citations.extract_view: the carried step is the extract_claims step `step_{number}`
    /// (step_type `extract`) citing exactly its text output.evidence_id, with a text
    /// output.requirement_id; returns the offsets of the two texts in the extract leaf.
    function extractView(bytes calldata ex, uint256[] memory at, uint256 number)
        private
        pure
        returns (bool, uint256, uint256)
    {
        uint256 kind = PorCbor.get(ex, at[PorRecords.STEP_INPUTS], "kind");
        if (!PorCbor.isText(ex, at[PorRecords.STEP_TYPE], "extract") || kind == 0
                || !PorCbor.isText(ex, kind, "extract_claims") || !PorRecords.isStepId(ex, at[PorRecords.STEP_ID], number)) {
            return (false, 0, 0);
        }
        uint256 id = textAt(ex, at[PorRecords.STEP_OUTPUT], "evidence_id");
        uint256 req = textAt(ex, at[PorRecords.STEP_OUTPUT], "requirement_id");
        if (id == 0 || req == 0 || !citesOnly(ex, at[PorRecords.STEP_EVIDENCE], id)) return (false, 0, 0);
        return (true, id, req);
    }
    /// Offset of the text value of `key` in the map at `map`, else 0.
    function textAt(bytes calldata ex, uint256 map, bytes memory key) private pure returns (uint256 at) {
        at = PorCbor.get(ex, map, key);
        if (at == 0) return 0;
        (bool text,,) = PorCbor.str(ex, at, PorCbor.TEXT);
        return text ? at : 0;
    }
    /// The array at `list` is exactly [the text at `id`].
    function citesOnly(bytes calldata ex, uint256 list, uint256 id) private pure returns (bool) {
        (, uint256 n, uint256 first) = PorCbor.container(ex, list, PorCbor.ARRAY);
        return n == 1 && PorText.sameText(ex, first, id);
    }
    function leafOf(bytes calldata d, PorInclusion.Part memory p) private pure returns (bytes calldata) {
        return d[p.leaf:p.leaf + p.leafLength];
    }
    /// O2: two items the step cites next to each other, in leaf order (each at its
    /// extract step's leaf index).
    function pairFault(
        bytes calldata d,
        PorInclusion.Part[] memory parts,
        uint256[] memory ids,
        bytes calldata leaf,
        Step memory s
    ) private pure returns (bool, bytes32) {
        (uint256 k, bool found) = position(leaf, s, leafOf(d, parts[1]), ids[1]);
        if (!found || k + 1 >= s.evidenceCount) return (false, CITATIONS);
        if (!PorText.sameText(leaf, nth(leaf, s.evidence, k + 1), leafOf(d, parts[2]), ids[2])) {
            return (false, CITATIONS);
        }
        if (parts[1].leafIndex == parts[2].leafIndex) return (true, REPEAT);
        if (parts[1].leafIndex > parts[2].leafIndex) return (true, ORDER);
        return (false, CANONICAL);
    }
    /// S4 and S3: one item the step cites, shown by its extract step.
    function itemFault(
        bytes calldata ex,
        uint256 exIndex,
        uint256 idAt,
        uint256 requirementAt,
        bytes calldata leaf,
        Step memory s
    )
        private
        pure
        returns (bool, bytes32)
    {
        (uint256 k, bool found) = position(leaf, s, ex, idAt);
        if (!found) return (false, CITATIONS);
        // S4 and S3 read only check chunks and aggregates (contradictions cites no item).
        if (s.kind != CHECK_REQUIREMENT && s.kind != AGGREGATE) return (false, CANONICAL);
        if (s.requirement == 0 || !PorText.sameText(leaf, s.requirement, ex, requirementAt)) {
            return (true, SET); // S4
        }
        if (k < s.priorCount && !PorRecords.isStepId(leaf, nth(leaf, s.prior, k), exIndex + 1)) {
            return (true, SET); // S3
        }
        return (false, CANONICAL);
    }
    function readStep(bytes calldata leaf, uint256[] memory at, uint256 number) private pure returns (Step memory s) {
        s.number = number;
        uint256 kind = PorCbor.get(leaf, at[PorRecords.STEP_INPUTS], "kind");
        if (kind != 0) {
            if (PorCbor.isText(leaf, kind, "extract_claims")) s.kind = EXTRACT_CLAIMS;
            else if (PorCbor.isText(leaf, kind, "check_requirement")) s.kind = CHECK_REQUIREMENT;
            else if (PorCbor.isText(leaf, kind, "aggregate")) s.kind = AGGREGATE;
            else if (PorCbor.isText(leaf, kind, "contradictions")) s.kind = CONTRADICTIONS;
            else if (PorCbor.isText(leaf, kind, "map")) s.kind = MAP;
            else if (PorCbor.isText(leaf, kind, "deduce")) s.kind = DEDUCE;
        }
        uint256 requirement = PorCbor.get(leaf, at[PorRecords.STEP_INPUTS], "requirement_id");
        (bool text,,) = requirement == 0 ? (false, 0, 0) : PorCbor.str(leaf, requirement, PorCbor.TEXT);
        s.requirement = text ? requirement : 0;
        (, s.evidenceCount, s.evidence) = PorCbor.container(leaf, at[PorRecords.STEP_EVIDENCE], PorCbor.ARRAY);
        (, s.priorCount, s.prior) = PorCbor.container(leaf, at[PorRecords.STEP_PRIOR], PorCbor.ARRAY);
    }

    /// The first fault of the step alone (citations.step_fault), else 0.
    function stepFault(bytes calldata leaf, Step memory s) private pure returns (bytes32) {
        if (PorRecords.hasRepeat(leaf, s.evidence, s.evidenceCount)) return REPEAT; // R1
        uint256 previous = 0;
        uint256 p = s.prior;
        uint256 lastPrior = p;
        for (uint256 i = 0; i < s.priorCount; i++) { // O1, R2
            (, uint256 off, uint256 len) = PorCbor.str(leaf, p, PorCbor.TEXT);
            (bool wellFormed, uint256 got) = PorRecords.stepNumber(leaf, off, len);
            if (!wellFormed || got >= s.number) return PRIOR_ORDER;
            if (got == previous) return REPEAT;
            if (got < previous) return ORDER;
            previous = got;
            lastPrior = p;
            p = off + len;
        }
        (uint256 e, uint256 c, uint8 kind) = (s.evidenceCount, s.priorCount, s.kind);
        if ((kind == EXTRACT_CLAIMS && (e != 1 || c != 0))
                || (kind == CHECK_REQUIREMENT && (e > CHUNK || (c != e && c != e + 1)))
                || (kind == AGGREGATE && c != e + 1) || (kind == CONTRADICTIONS && (e != 0 || c < 1))
                || (kind == MAP && c != 1) || (kind == DEDUCE && c < 2)) {
            return SET; // S1
        }
        bool chained = kind == CHECK_REQUIREMENT && c == e + 1; // a chunk after the first
        if ((kind == AGGREGATE || kind == DEDUCE || kind == MAP || chained)
                && !PorRecords.isStepId(leaf, lastPrior, s.number - 1)) {
            return SET; // S2
        }
        return 0;
    }

    /// Offset of the n-th text of the array whose first item is at `first`.
    function nth(bytes calldata leaf, uint256 first, uint256 n) private pure returns (uint256 p) {
        p = first;
        for (uint256 i = 0; i < n; i++) p = PorCbor.skip(leaf, p);
    }

    /// The first position at which the step cites the item's evidence_id.
    function position(bytes calldata leaf, Step memory s, bytes calldata item, uint256 idAt)
        private
        pure
        returns (uint256, bool)
    {
        uint256 p = s.evidence;
        for (uint256 i = 0; i < s.evidenceCount; i++) {
            if (PorText.sameText(leaf, p, item, idAt)) return (i, true);
            p = PorCbor.skip(leaf, p);
        }
        return (0, false);
    }
}
