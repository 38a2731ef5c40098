// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorCitationCheck: `verify_citation_proof` (SPEC §10.2.7, §12.5.1) on-chain.
/// @notice Input: the exact bytes of a por.CitationProof/1 file. Output: (won, check id,
/// por_root). `won` is true for a fault shown (one_step.citation_repeat,
/// one_step.citation_order, one_step.citation_set, one_step.prior_order,
/// one_step.id_position, one_step.invalid_record); false with
/// one_step.citations_canonical when the citations shown break no rule, and false with
/// the proof.* / merkle.* id when the proof itself is invalid. Check ids are keccak256 of
/// their SPEC text.
library PorCitationCheck {
    using PorRecords for bytes;

    bytes32 internal constant MALFORMED = keccak256("proof.malformed");
    bytes32 internal constant SCHEMA = keccak256("proof.schema");
    bytes32 internal constant UNSUPPORTED = keccak256("proof.unsupported");
    bytes32 internal constant CITATIONS = keccak256("proof.citations");
    bytes32 internal constant INVALID_RECORD = keccak256("one_step.invalid_record");
    bytes32 internal constant ID_POSITION = keccak256("one_step.id_position");
    bytes32 internal constant REPEAT = keccak256("one_step.citation_repeat");
    bytes32 internal constant ORDER = keccak256("one_step.citation_order");
    bytes32 internal constant SET = keccak256("one_step.citation_set");
    bytes32 internal constant PRIOR_ORDER = keccak256("one_step.prior_order");
    bytes32 internal constant CANONICAL = keccak256("one_step.citations_canonical");

    /// CitationProof fields, canonical order.
    bytes internal constant KEYS = "\x04kind\x04step\x06schema\x08evidence\x08por_root\x0cchallenge_id";
    uint256 internal constant MAX_ITEMS = 2;

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
        if (!ok || !PorCbor.isText(d, at[2], "por.CitationProof/1")) {
            id = schemaName(d);
            return (false, id == 0 ? SCHEMA : id, 0);
        }
        bool rootOk;
        (rootOk, porRoot) = PorCbor.hashAt(d, at[4]);
        PorInclusion.Part[] memory parts;
        (ok, parts) = schema(d, at);
        if (!ok || !rootOk) return (false, SCHEMA, porRoot);
        // 1-3. Every part under por_root, then the proof's own id.
        for (uint256 i = 0; i < parts.length; i++) {
            uint8 want = i == 0 ? PorInclusion.REASONING_LEAF : PorInclusion.EVIDENCE_LEAF;
            bytes32 err = PorInclusion.verify(d, parts[i], want, porRoot);
            if (err != 0) return (false, err, porRoot);
        }
        (, bytes32 challengeId) = PorCbor.hashAt(d, at[5]);
        if (PorInclusion.bodyHash(d, 0, d.length, at[5]) != challengeId) {
            return (false, PorInclusion.CHALLENGE_ID, porRoot);
        }
        (won, id) = decide(d, parts);
    }

    /// 0 when the top-level `schema` is por.CitationProof/1, else the id.
    function schemaName(bytes calldata d) private pure returns (bytes32) {
        uint256 at = PorCbor.get(d, 0, "schema");
        if (at != 0 && PorCbor.isText(d, at, "por.CitationProof/1")) return 0;
        return at != 0 && otherVersion(d, at) ? UNSUPPORTED : SCHEMA;
    }

    /// The text at `pos` is `por.<proof record>/<1-9 digits>` with a version other than 1
    /// (SPEC §10.8 `proof.unsupported`; the records of §10.2).
    function otherVersion(bytes calldata d, uint256 pos) private pure returns (bool) {
        (bool text, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!text || len < 6 || bytes4(d[off:off + 4]) != "por.") return false;
        uint256 slash = off + 4;
        while (slash < off + len && d[slash] != "/") slash++;
        if (slash == off + len) return false; // no slash (computed before: an underflow)
        uint256 digits = off + len - slash - 1;
        if (digits == 0 || digits > 9) return false;
        for (uint256 i = slash + 1; i < off + len; i++) {
            if (d[i] < "0" || d[i] > "9") return false;
        }
        if (digits == 1 && d[slash + 1] == "1") return false;
        bytes32 name = keccak256(d[off + 4:slash]);
        return name == keccak256("InclusionProof") || name == keccak256("BundleProof")
            || name == keccak256("OneStepProof") || name == keccak256("OmissionProof")
            || name == keccak256("JudgeProof") || name == keccak256("HeaderProof")
            || name == keccak256("CitationProof");
    }

    /// The fields other than por_root: kind, schema, challenge_id, and the parts (step
    /// first, then at most two items), each a valid InclusionProof record.
    function schema(bytes calldata d, uint256[] memory at)
        private
        pure
        returns (bool ok, PorInclusion.Part[] memory parts)
    {
        (bool items, uint256 n, uint256 first) = PorCbor.container(d, at[3], PorCbor.ARRAY);
        (bool idOk,) = PorCbor.hashAt(d, at[5]);
        if (!items || n > MAX_ITEMS || !idOk || !PorCbor.isText(d, at[0], "reasoning_leaf")
                || !PorCbor.isText(d, at[2], "por.CitationProof/1")) {
            return (false, parts);
        }
        parts = new PorInclusion.Part[](n + 1);
        (ok, parts[0]) = PorInclusion.parse(d, at[1]);
        for (uint256 i = 0; ok && i < n; i++) {
            (ok, parts[i + 1]) = PorInclusion.parse(d, first);
            first = parts[i + 1].end;
        }
    }

    /// Steps 4-6 of verify_citation_proof on verified parts.
    function decide(bytes calldata d, PorInclusion.Part[] memory parts) private pure returns (bool, bytes32) {
        // 4. The carried records parse; a committed invalid record is a fault.
        bytes calldata leaf = leafOf(d, parts[0]);
        (bool ok, uint256[] memory at) = PorRecords.reasoningStep(leaf);
        if (!ok) return (true, INVALID_RECORD);
        uint256[][] memory items = new uint256[][](parts.length);
        for (uint256 i = 1; i < parts.length; i++) {
            (ok, items[i]) = PorRecords.evidenceItem(leafOf(d, parts[i]));
            if (!ok) return (true, INVALID_RECORD);
        }
        Step memory s = readStep(leaf, at, parts[0].leafIndex + 1);
        if (!PorRecords.isStepId(leaf, at[PorRecords.STEP_ID], s.number)) return (true, ID_POSITION);
        // 5. The step alone (R1, R2, O1, S1, S2).
        bytes32 fault = stepFault(leaf, s);
        if (fault != 0) return (true, fault);
        // 6. The carried items: two adjacent citations (O2) or one citation (S3, S4).
        if (parts.length == 1) return (false, CANONICAL);
        if (parts.length == 3) return pairFault(d, parts, items, leaf, s);
        return itemFault(d, parts[1], items[1], leaf, s);
    }

    function leafOf(bytes calldata d, PorInclusion.Part memory p) private pure returns (bytes calldata) {
        return d[p.leaf:p.leaf + p.leafLength];
    }

    /// O2: two items the step cites next to each other, in leaf order.
    function pairFault(
        bytes calldata d,
        PorInclusion.Part[] memory parts,
        uint256[][] memory items,
        bytes calldata leaf,
        Step memory s
    ) private pure returns (bool, bytes32) {
        (uint256 k, bool found) = position(leaf, s, leafOf(d, parts[1]), items[1][PorRecords.ITEM_EVIDENCE_ID]);
        if (!found || k + 1 >= s.evidenceCount) return (false, CITATIONS);
        if (!citedAt(leaf, nth(leaf, s.evidence, k + 1), d, parts[2], items[2])) return (false, CITATIONS);
        if (parts[1].leafIndex == parts[2].leafIndex) return (true, REPEAT);
        if (parts[1].leafIndex > parts[2].leafIndex) return (true, ORDER);
        return (false, CANONICAL);
    }

    /// The step's citation at `at` is the evidence_id of the item `part` carries.
    function citedAt(
        bytes calldata leaf,
        uint256 at,
        bytes calldata d,
        PorInclusion.Part memory part,
        uint256[] memory fields
    ) private pure returns (bool) {
        return PorRecords.sameText(leaf, at, leafOf(d, part), fields[PorRecords.ITEM_EVIDENCE_ID]);
    }

    /// S4 and S3: one item the step cites.
    function itemFault(
        bytes calldata d,
        PorInclusion.Part memory part,
        uint256[] memory fields,
        bytes calldata leaf,
        Step memory s
    )
        private
        pure
        returns (bool, bytes32)
    {
        bytes calldata item = leafOf(d, part);
        (uint256 k, bool found) = position(leaf, s, item, fields[PorRecords.ITEM_EVIDENCE_ID]);
        if (!found) return (false, CITATIONS);
        if (s.kind == CHECK_REQUIREMENT
                && (s.requirement == 0 || !PorRecords.sameText(leaf, s.requirement, item, fields[PorRecords.ITEM_REQUIREMENT]))) {
            return (true, SET);
        }
        bool extractsFirst = s.kind == CHECK_REQUIREMENT || s.kind == AGGREGATE || s.kind == CONTRADICTIONS;
        if (extractsFirst && k < s.priorCount && !PorRecords.isStepId(leaf, nth(leaf, s.prior, k), part.leafIndex + 1)) {
            return (true, SET);
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
        if ((kind == EXTRACT_CLAIMS && (e != 1 || c != 0)) || (kind == CHECK_REQUIREMENT && c != e)
                || (kind == AGGREGATE && c != e + 1) || (kind == CONTRADICTIONS && c <= e)
                || (kind == MAP && c != 1) || (kind == DEDUCE && c < 2)) {
            return SET; // S1
        }
        if ((kind == AGGREGATE || kind == DEDUCE || kind == MAP)
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
            if (PorRecords.sameText(leaf, p, item, idAt)) return (i, true);
            p = PorCbor.skip(leaf, p);
        }
        return (0, false);
    }
}
