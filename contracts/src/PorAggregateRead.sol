// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateEntries} from "./PorAggregateEntries.sol";
import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys as K} from "./PorCborKeys.sol";
import {PorAggregateNumber} from "./PorAggregateNumber.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorAggregateRead: what an `aggregate` step reads (SPEC §12.5.4, §12.5.2, §14.8),
/// read and validated on chain as `por.auditor.steps.recompute_step` reads it.
/// @notice Offsets are absolute in the proof `d` (a leaf's offset plus the offset in the
/// leaf). `PorAggregateSpec.spec` reads the PromptSpec fields the aggregate needs (false:
/// `one_step.invalid_record`); `items` and `state` read the cited extract steps' cards and
/// claims and the cited check chunk's running state (false: the step cannot be executed,
/// `step.citation_mismatch` / `step.bad_prior_output`, `one_step.unexecutable`;
/// `state` is `PorAggregateChunk`'s).
library PorAggregateRead {
    uint256 internal constant SINGLE_BEST = 0;
    uint256 internal constant QUORUM = 1;
    uint256 internal constant FALLBACK_CHAIN = 2;
    uint256 internal constant BOOLEAN = 0;
    uint256 internal constant NUMERIC = 1;
    uint256 internal constant TIMESTAMP = 2;
    uint256 internal constant TEXT = 3;
    uint256 internal constant MAX_REQUIREMENTS = 8;
    uint256 internal constant MAX_TARGETS = 10;
    uint256 internal constant MAX_FIELDS = 8;

    /// R's selection policy and fields, and the spec-wide fields the aggregate reads.
    struct Spec {
        uint256 strategy;
        uint256 strategyPos; // the strategy text item
        uint256 minSources;
        uint256 quorum;
        bool highest; // tie_breaker highest_provenance
        uint256 nFields;
        uint256[8] keyPos; // a declared field's key item; 0 for a fallback field
        bytes32[8] keyWord; // each key's `keyWord`
        uint256[8] kind;
        uint256 nTargets;
        bytes32[10] targets; // keccak256 of each source_targets[i].source_id
        uint256 tolerance; // numeric_tolerance, read (`PorAggregateNumber`'s packed word)
        bool votes; // prediction_semantics.sources_required is set
        bytes32 metric; // its `keyWord`
    }

    /// A cited item, read through its extract step.
    struct Item {
        uint256 eid; // output.evidence_id (text item)
        uint256 src; // output.card.source_id (text item)
        uint256 tier;
        bytes32 eidHash;
        bytes32 srcHash;
        uint256 stepId; // the extract step's step_id (text item)
        uint256 claims; // output.claims (array)
        uint256[8] value; // per field of R: the value of the item's first claim with the
        uint256[8] id; // field's key and kind, and its claim_id (0: none, no vote)
        uint256[8] num; // a numeric vote's value, read (`PorAggregateNumber`'s packed word)
    }

    /// Where the proof's parts' leaves start (`PorInclusion.Part.leaf`, parts order) and how
    /// many evidence and prior-step parts it carries: all the reader needs of the parts.
    struct Leaves {
        uint256[] at;
        uint256 evidenceCount;
        uint256 priorCount;
    }

    /// The cited chunk C's values the aggregate copies.
    struct Chunk {
        uint256 covered;
        uint256 provenanceOk;
        uint256 itemCount;
        uint256 lastLeaf; // 0: absent
        uint256 sources; // the sources array
    }

    // --- words of keys and kinds -----------------------------------------------------------

    /// The key d[off:off+len] as one word, equal for equal keys only (hashes aside): under
    /// 32 bytes its bytes left-aligned and its length in the low byte
    /// (`PorCborKeys.wordAt`), else keccak256 of its bytes with the low byte 0xff (no
    /// shorter key's word has it). `PorAggregateEntries.entries` computes a claim key's.
    function keyWord(bytes calldata d, uint256 off, uint256 len) internal pure returns (bytes32) {
        return len < 32 ? bytes32(K.wordAt(d, off, len)) : hashOf(d, off, len) | bytes32(uint256(0xff));
    }

    /// A claim or field kind (`boolean`, `numeric`, `timestamp`, `text`) at `pos`.
    function kindOf(bytes calldata d, uint256 pos) internal pure returns (bool, uint256) {
        if (pos == 0) return (false, 0);
        (bool text, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        return kindOfWord(text && len < 32 ? K.wordAt(d, off, len) : 0);
    }

    /// The kind whose text's key word (`PorCborKeys.wordAt`) is `w`.
    function kindOfWord(uint256 w) internal pure returns (bool, uint256) {
        if (w == uint256(bytes32("boolean")) | 7) return (true, BOOLEAN);
        if (w == uint256(bytes32("numeric")) | 7) return (true, NUMERIC);
        if (w == uint256(bytes32("timestamp")) | 9) return (true, TIMESTAMP);
        if (w == uint256(bytes32("text")) | 4) return (true, TEXT);
        return (false, 0);
    }

    // --- the cited extract steps (SPEC §12.5.2) ------------------------------------------

    /// The extract step's output keys `item` reads (`PorAggregateEntries.seek`: one walk;
    /// each key's encoding's value, head first).
    uint256 private constant O_CARD = 0x6463617264; // "card"
    uint256 private constant O_CLAIMS = 0x66636c61696d73; // "claims"
    uint256 private constant O_EVIDENCE_ID = 0x6b65766964656e63655f6964; // "evidence_id"
    uint256 private constant O_REQUIREMENT_ID = 0x6e726571756972656d656e745f6964; // "requirement_id"

    /// The cited steps: every prior but the last an extract step, the last a check step,
    /// one extract per cited evidence id, each read (`read_cards`, `read_extract`).
    function items(
        bytes calldata d,
        Leaves memory parts,
        uint256[][] memory records,
        uint256 evidence,
        Spec memory s
    ) internal pure returns (bool ok, Item[] memory out) {
        uint256 first = 2 + parts.evidenceCount;
        uint256 n = parts.priorCount;
        (, uint256 cited, uint256 e) = PorCbor.container(d, evidence, PorCbor.ARRAY);
        if (n == 0 || cited != n - 1) return (false, out);
        out = new Item[](n - 1);
        uint256 free;
        assembly ("memory-safe") {
            free := mload(0x40)
        }
        for (uint256 i = 0; i < n; i++) {
            if (!isKind(d, parts.at[first + i], records[first + i], i == n - 1)) return (false, out);
            if (i == n - 1) break;
            if (!item(d, parts.at[first + i], records[first + i], e, out[i], s)) return (false, out);
            e = PorCbor.skip(d, e);
            assembly ("memory-safe") {
                mstore(0x40, free) // only `out[i]`'s words are kept: the rest used again
            }
        }
        return (true, out);
    }

    /// The step at leaf offset `leaf` (value offsets `at`) is a check step (`last`) or an extract step: what
    /// `PorRecords.computation` answers (known, that kind), its inputs.kind and step_type
    /// compared as words.
    function isKind(bytes calldata d, uint256 leaf, uint256[] memory at, bool last)
        private
        pure
        returns (bool)
    {
        uint256 inputs = leaf + at[PorRecords.STEP_INPUTS];
        uint256 k;
        assembly ("memory-safe") {
            // a map of 1-23 entries whose first key is "kind": its value in place
            let w := calldataload(add(d.offset, inputs))
            let hb := shr(248, w)
            if and(and(gt(hb, 0xa0), lt(hb, 0xb8)), eq(and(shr(208, w), 0xffffffffff), 0x646b696e64)) {
                k := add(inputs, 6)
            }
        }
        if (k == 0) (k,,) = PorAggregateEntries.find(d, inputs, PorAggregateEntries.KIND, PorAggregateEntries.NONE);
        if (k == 0) return false;
        uint256 t = leaf + at[PorRecords.STEP_TYPE];
        return last
            ? PorCbor.isText(d, k, "check_requirement") && PorCbor.isText(d, t, "check")
            : PorCbor.isText(d, k, "extract_claims") && PorCbor.isText(d, t, "extract");
    }

    /// The extract step at leaf offset `base` (value offsets `at`) stands for the evidence
    /// id at `e`: its card, evidence_id, requirement_id, evidence_ids and claims (and
    /// its votes for R's fields `s`).
    function item(bytes calldata d, uint256 base, uint256[] memory at, uint256 e, Item memory it, Spec memory s)
        private
        pure
        returns (bool)
    {
        // The output walked once: card (its read ends past it), claims (their walk ends
        // past them), then evidence_id and requirement_id after them (§2 order: shorter
        // keys first). A key sought that is the next entry's is read in place, else sought.
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, base + at[PorRecords.STEP_OUTPUT], PorCbor.MAP);
        if (!isMap) return false;
        (p, count) = next(d, p, count, O_CARD, 5);
        (isMap, it.src, it.tier, p) = p == 0 ? (false, 0, 0, 0) : PorAggregateEntries.card(d, p);
        if (!isMap) return false; // the card read
        (it.claims, count) = next(d, p, count, O_CLAIMS, 7);
        if (it.claims == 0) return false;
        (isMap, p) = claims(d, it.claims, s, it);
        if (!isMap) return false;
        (uint256[6] memory o,,) = PorAggregateEntries.seek(d, p, count, [O_EVIDENCE_ID, O_REQUIREMENT_ID, 0, 0, 0, 0], 2); // evidence_id, requirement_id
        it.eid = o[0];
        if (!isText(d, it.eid) || !isText(d, o[1]) || !PorText.sameText(d, it.eid, e)) return false;
        // read_extract: the step's evidence_ids are [its evidence_id].
        (, count, p) = PorCbor.container(d, base + at[PorRecords.STEP_EVIDENCE], PorCbor.ARRAY);
        if (count != 1 || !PorText.sameText(d, p, it.eid)) return false;
        it.eidHash = textHash(d, it.eid);
        it.srcHash = textHash(d, it.src);
        it.stepId = base + at[PorRecords.STEP_ID];
        return true;
    }

    /// The value offset of the output key `key` (its encoding's value, `len` bytes: a head
    /// and under 24 bytes) among the `count` entries from `p` of a checked map, and the
    /// entries after it: in place when it is the next entry's key (no memory used), else
    /// by `PorAggregateEntries.seek`; (0, 0) when absent.
    function next(bytes calldata d, uint256 p, uint256 count, uint256 key, uint256 len)
        private
        pure
        returns (uint256 v, uint256 left)
    {
        bool here;
        assembly ("memory-safe") {
            here := and(iszero(iszero(count)), eq(shr(sub(256, shl(3, len)), calldataload(add(d.offset, p))), key))
        }
        if (here) return (p + len, count - 1);
        uint256[6] memory o;
        (o, v, left) = PorAggregateEntries.seek(d, p, count, [key, 0, 0, 0, 0, 0], 1);
    }

    /// Every claim a map with text claim_id, key, path and a kind whose value it holds
    /// (`step_io._claim_value_ok`); the item's first claim of each field's key and kind
    /// votes for that field (`it.value`, `it.id`).
    function claims(bytes calldata d, uint256 pos, Spec memory s, Item memory it)
        private
        pure
        returns (bool, uint256)
    {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return (false, 0);
        uint256 free;
        assembly ("memory-safe") {
            free := mload(0x40)
        }
        for (uint256 i = 0; i < n; i++) {
            bool ok;
            (ok, p) = vote(d, p, s, it);
            if (!ok) return (false, 0);
            assembly ("memory-safe") {
                mstore(0x40, free) // a claim's entries are not kept: its memory used again
            }
        }
        return (true, p);
    }

    /// The claim at `p` well formed (`claim`); its vote kept for the field of its key (R's
    /// keys are unique: at most one) when of its kind and not yet voted for; the offset
    /// after the claim.
    function vote(bytes calldata d, uint256 p, Spec memory s, Item memory it) private pure returns (bool, uint256) {
        (bool ok, uint256 kind, uint256[9] memory at, uint256 num) = claim(d, p);
        if (!ok) return (false, 0);
        (uint256 n, uint256 v, uint256 id, uint256 h) = (s.nFields, at[2], at[3], at[7]);
        (uint256[8] memory kinds, bytes32[8] memory keys) = (s.kind, s.keyWord); // no copies:
        (uint256[8] memory values, uint256[8] memory ids) = (it.value, it.id); // the same arrays
        uint256[8] memory nums = it.num;
        assembly ("memory-safe") {
            for { let f := 0 } lt(f, n) { f := add(f, 1) } {
                let o := shl(5, f)
                if eq(mload(add(keys, o)), h) {
                    if and(iszero(mload(add(values, o))), eq(mload(add(kinds, o)), kind)) {
                        mstore(add(values, o), v)
                        mstore(add(ids, o), id)
                        mstore(add(nums, o), num)
                    }
                    break
                }
            }
        }
        return (true, at[5]);
    }

    /// The claim at `p`, its entries walked once: (well formed, its kind,
    /// `PorAggregateEntries.entries`, a numeric value read): kind, key, claim_id and path
    /// texts (at[6]'s bits), the value of the kind.
    function claim(bytes calldata d, uint256 p)
        internal
        pure
        returns (bool ok, uint256 kind, uint256[9] memory at, uint256 num)
    {
        bool isMap;
        (isMap, at) = PorAggregateEntries.entries(d, p);
        if (!isMap || at[6] & 0x1b != 0x1b) return (false, 0, at, 0);
        (ok, kind) = kindOfWord(at[8]);
        if (!ok) return (false, 0, at, 0);
        if (kind == NUMERIC) (ok, num) = PorAggregateNumber.text(d, at[2]);
        else ok = kind == TEXT ? at[6] & 4 != 0 : value(d, at[2], kind);
    }

    /// The value at `pos` (0: absent) is one of `kind`: a canonical decimal text, a bool,
    /// an integer 0..2^63-1, a text.
    function value(bytes calldata d, uint256 pos, uint256 kind) internal pure returns (bool ok) {
        if (pos == 0) return false;
        if (kind == NUMERIC) return PorAggregateNumber.isDecimal(d, pos);
        if (kind == BOOLEAN) {
            (ok,) = PorCbor.boolAt(d, pos);
            return ok;
        }
        if (kind == TIMESTAMP) {
            (ok,) = PorRecords.uintIn(d, pos, 0, PorRecords.MAX_COUNT);
            return ok;
        }
        return isText(d, pos);
    }

    function isText(bytes calldata d, uint256 pos) internal pure returns (bool ok) {
        if (pos == 0) return false;
        (ok,,) = PorCbor.str(d, pos, PorCbor.TEXT);
    }

    /// keccak256 of the text at `pos`.
    function textHash(bytes calldata d, uint256 pos) internal pure returns (bytes32) {
        (, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        return hashOf(d, off, len);
    }

    /// keccak256 of the item at `pos`, its head included.
    function rawHash(bytes calldata d, uint256 pos) internal pure returns (uint256) {
        return uint256(hashOf(d, pos, PorCbor.skip(d, pos) - pos));
    }

    /// keccak256 of d[off:off+len], hashed in free memory (nothing allocated).
    function hashOf(bytes calldata d, uint256 off, uint256 len) internal pure returns (bytes32 h) {
        d[off:off + len]; // reverts past d, as a slice does
        assembly ("memory-safe") {
            let m := mload(0x40)
            calldatacopy(m, add(d.offset, off), len)
            h := keccak256(m, len)
        }
    }

    /// Any hash twice: up to 16 hashes compared pairwise (no sort), more sorted, then
    /// neighbours compared (O(n log n) for a hostile state).
    function repeats(bytes32[] memory h) internal pure returns (bool twice) {
        uint256 n = h.length;
        if (n > 16) {
            PorRecords.sort(h, 0, int256(n) - 1);
            for (uint256 i = 1; i < n; i++) {
                if (h[i] == h[i - 1]) return true;
            }
            return false;
        }
        assembly ("memory-safe") {
            for { let i := 1 } lt(i, n) { i := add(i, 1) } {
                let x := mload(add(h, shl(5, add(i, 1))))
                for { let j := 0 } lt(j, i) { j := add(j, 1) } {
                    if eq(x, mload(add(h, shl(5, add(j, 1))))) { twice := 1 }
                }
            }
        }
    }
}
