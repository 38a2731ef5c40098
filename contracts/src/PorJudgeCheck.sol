// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCborKeys} from "./PorCborKeys.sol";
import {PorCborTop} from "./PorCborTop.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorJudgeRules} from "./PorJudgeRules.sol";
import {PorJudgeVars} from "./PorJudgeVars.sol";
import {PorJudgeVerdict} from "./PorJudgeVerdict.sol";
import {PorKeyIndex} from "./PorKeyIndex.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorText} from "./PorText.sol";

/// @title PorJudgeCheck: `verify_judge_proof` (SPEC §10.2.5) on chain.
/// @notice Input: the exact bytes of a por.JudgeProof/1 file that `PorCbor.check` accepted.
/// Output: (won, check id, por_root), as `por check-proof` without `--por-root`: won
/// one_step.invalid_record, judge.final_step, judge.mismatch; lost judge.match; `won`
/// false with a proof.* / merkle.* id for an invalid proof. The PromptSpec is read only
/// where the judge reads it (`PorJudgeRules.readSpec`, SPEC §14.8).
library PorJudgeCheck {
    bytes32 internal constant SCHEMA = PorIds.SCHEMA;
    bytes32 internal constant CITATIONS = PorIds.CITATIONS;
    bytes32 internal constant FINAL_STEP = keccak256("proof.final_step");
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant NOT_MAP = keccak256("judge.final_step");
    bytes32 internal constant MATCH = keccak256("judge.match");
    bytes32 internal constant MISMATCH = keccak256("judge.mismatch");

    /// JudgeProof fields, canonical order.
    bytes internal constant KEYS =
        "\x04kind\x06schema\x07verdict\x08por_root\x0afinal_step\x0bprompt_spec\x0cchallenge_id\x0dextract_steps";
    uint256 private constant F_KIND = 0;
    uint256 private constant F_SCHEMA = 1;
    uint256 private constant F_VERDICT = 2;
    uint256 private constant F_ROOT = 3;
    uint256 private constant F_FINAL = 4;
    uint256 private constant F_SPEC = 5;
    uint256 private constant F_ID = 6;
    uint256 private constant F_EXTRACTS = 7;
    /// Parts: verdict, prompt_spec, final_step, then the extract steps.
    uint256 private constant FIRST_EXTRACT = 3;


    /// `d` is a por-cbor/1 document whose schema is por.JudgeProof/1 (SPEC §10.2.5): the
    /// schema, the parts and the committed verdict record verified (`PorJudgeExec`): `id`
    /// the first fault's (INVALID_RECORD: the verdict leaf is no valid verdict, a won
    /// proof), else 0 and `flat`, each part's leaf offset, leaf length and leaf index, then
    /// the verdict's `PorJudgeVerdict.Committed` words (`decideFlat`'s input).
    function verify(bytes calldata d) internal view returns (bytes32 id, bytes32 porRoot, uint256[] memory flat) {
        PorInclusion.Part[] memory parts;
        (id, porRoot, parts) = verifyParts(d);
        if (id != 0) return (id, porRoot, flat);
        flat = new uint256[](3 * parts.length + PorJudgeVerdict.WORDS);
        uint256 committed;
        assembly ("memory-safe") {
            // each part's leaf, leafLength and leafIndex: three words from 0x80 (`Part`)
            let to := add(flat, 32)
            for { let i := 0 } lt(i, mload(parts)) { i := add(i, 1) } {
                mcopy(add(to, mul(96, i)), add(mload(add(parts, shl(5, add(i, 1)))), 0x80), 96)
            }
            committed := add(to, mul(96, mload(parts)))
        }
        // the verdict record first (`decide` read it before any other record)
        if (!PorJudgeVerdict.words(d, parts[0].leaf, parts[0].leafLength, committed)) id = INVALID_RECORD;
    }

    /// What `decide` reads of a verified part: its leaf's offset and length in the proof
    /// and its leaf index (`PorInclusion.Part`'s fields of the same names).
    struct Leaf {
        uint256 leaf;
        uint256 leafLength;
        uint256 leafIndex;
    }

    /// `decide` on `verify`'s `flat` (`PorJudgeCore`): (won, check id).
    function decideFlat(bytes calldata d, uint256[] calldata flat) internal pure returns (bool, bytes32) {
        Leaf[] memory all;
        PorJudgeVerdict.Committed memory v;
        assembly ("memory-safe") {
            // `flat` copied once; each Leaf a pointer to its three words, the verdict's
            // words after them
            let n := div(sub(flat.length, 6), 3) // PorJudgeVerdict.WORDS
            all := mload(0x40)
            mstore(all, n)
            let body := add(all, shl(5, add(n, 1)))
            calldatacopy(body, flat.offset, shl(5, flat.length))
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                mstore(add(all, shl(5, add(i, 1))), add(body, mul(96, i)))
            }
            v := add(body, mul(96, n))
            mstore(0x40, add(body, shl(5, flat.length)))
        }
        return decide(d, all, v);
    }

    /// The schema, every part under por_root, the proof's id and the final step's position.
    function verifyParts(bytes calldata d)
        private
        view
        returns (bytes32, bytes32 porRoot, PorInclusion.Part[] memory all)
    {
        (bool ok, uint256[] memory at, PorInclusion.Part[] memory walked) = walk(d);
        if (ok) {
            all = walked;
            ok = typed(d, at);
        } else {
            // the walk met a fault: a key out of place (por_root unread), or a part or
            // the extract_steps array out of shape (por_root read by the field walk)
            (ok, at) = PorRecords.fields(d, 0, KEYS);
            if (!ok) return (SCHEMA, 0, all);
            ok = false;
        }
        bool rootOk;
        (rootOk, porRoot) = PorCbor.hashAt(d, at[F_ROOT]);
        if (!ok || !rootOk) return (SCHEMA, porRoot, all);
        for (uint256 i = 0; i < all.length; i++) {
            uint8 want = i == 0 ? PorInclusion.VERDICT : i == 1 ? PorInclusion.PROMPT_SPEC : PorInclusion.REASONING_LEAF;
            // an extract part whose component leaf and path equal the part before it (a
            // reasoning part that passed: the final step or an extract) shares its
            // component path check (`PorInclusion.sameComponent`, as `PorOneStepCheck`)
            bool known = i >= FIRST_EXTRACT && PorInclusion.sameComponent(d, all[i - 1], all[i]);
            bytes32 err = PorInclusion.verify(d, all[i], want, porRoot, known);
            if (err != 0) return (err, porRoot, all);
        }
        (, bytes32 challengeId) = PorCbor.hashAt(d, at[F_ID]);
        if (PorInclusion.bodyHash(d, 0, d.length, at[F_ID]) != challengeId) {
            return (PorInclusion.CHALLENGE_ID, porRoot, all);
        }
        if (all[2].leafIndex + 1 != all[2].treeSize) return (FINAL_STEP, porRoot, all);
        return (0, porRoot, all);
    }

    /// One walk of the proof's map (`PorOneStepCheck.walk`'s way): each field's value
    /// offset, each part parsed once (`PorInclusion.parse` gives its end) into verdict,
    /// prompt_spec, final_step, then the extract steps, the other values skipped; ok false
    /// at the first key, part or array out of shape (`verifyParts` then answers
    /// `proof.schema` with the por_root the field walk reads).
    function walk(bytes calldata d) private pure returns (bool ok, uint256[] memory at, PorInclusion.Part[] memory all) {
        (bool isMap, uint256 count, uint256 p) = PorCbor.container(d, 0, PorCbor.MAP);
        if (!isMap || count != 8) return (false, at, all);
        at = new uint256[](8);
        PorInclusion.Part[3] memory first; // verdict, prompt_spec, final_step
        uint256 k = 0;
        for (uint256 i = 0; i < 8; i++) {
            (ok, p, k) = PorRecords.keyIs(d, p, KEYS, k);
            if (!ok) return (false, at, all);
            at[i] = p;
            if (i == F_VERDICT || i == F_SPEC || i == F_FINAL) {
                uint256 j = i == F_VERDICT ? 0 : i == F_SPEC ? 1 : 2;
                (ok, first[j]) = PorInclusion.parse(d, p);
                p = first[j].end;
            } else if (i == F_EXTRACTS) {
                (ok, all) = extracts(d, p);
            } else {
                p = PorCbor.skip(d, p);
            }
            if (!ok) return (false, at, all);
        }
        (all[0], all[1], all[2]) = (first[0], first[1], first[2]);
    }

    /// The extract_steps array at `p`, each part parsed, from place FIRST_EXTRACT on.
    function extracts(bytes calldata d, uint256 p) private pure returns (bool ok, PorInclusion.Part[] memory all) {
        uint256 n;
        (ok, n, p) = PorCbor.container(d, p, PorCbor.ARRAY);
        if (!ok) return (false, all);
        all = new PorInclusion.Part[](FIRST_EXTRACT + n);
        for (uint256 i = FIRST_EXTRACT; ok && i < all.length; i++) {
            (ok, all[i]) = PorInclusion.parse(d, p);
            p = all[i].end;
        }
    }

    /// kind and schema their texts, challenge_id 32 bytes (the parts' shapes are the walk's).
    function typed(bytes calldata d, uint256[] memory at) private pure returns (bool) {
        (bool idOk,) = PorCbor.hashAt(d, at[F_ID]);
        return idOk && PorJudgeRules.textIs(d, at[F_KIND], PorJudgeRules.T_VERDICT)
            && PorJudgeRules.textIs(d, at[F_SCHEMA], PorJudgeRules.T_JUDGE_PROOF);
    }

    function leafOf(bytes calldata d, Leaf memory p) private pure returns (bytes calldata) {
        return d[p.leaf:p.leaf + p.leafLength];
    }

    /// Value offsets (absolute in `d`) of the reasoning step in part `p`, then for an
    /// extract part (`extract`) its output's `card`, `evidence_id` and `requirement_id`
    /// (`O_*`, 0 absent), found in one walk of the output (`PorKeyIndex.three`, stopping
    /// at the last of them): each read once.
    function step(bytes calldata d, Leaf memory p, bool extract)
        private
        pure
        returns (bool ok, uint256[] memory at)
    {
        (ok, at) = PorRecords.reasoningStep(leafOf(d, p));
        if (!ok) return (false, at);
        assembly ("memory-safe") {
            // a valid step's `at` is `checkTop`'s array of its 16 items' offsets reused for
            // its 8 values (`PorRecords.topFields`): rebased in place (absolute in `d`), then
            // 16 words long; the O_* words are written before they are read (`output` below
            // for an extract; the final step's here, in `citations`)
            // (the eight words unrolled: no loop test a word)
            let base := mload(p)
            mstore(add(at, 0x20), add(mload(add(at, 0x20)), base))
            mstore(add(at, 0x40), add(mload(add(at, 0x40)), base))
            mstore(add(at, 0x60), add(mload(add(at, 0x60)), base))
            mstore(add(at, 0x80), add(mload(add(at, 0x80)), base))
            mstore(add(at, 0xa0), add(mload(add(at, 0xa0)), base))
            mstore(add(at, 0xc0), add(mload(add(at, 0xc0)), base))
            mstore(add(at, 0xe0), add(mload(add(at, 0xe0)), base))
            mstore(add(at, 0x100), add(mload(add(at, 0x100)), base))
            mstore(at, 16)
        }
        if (!extract) {
            at[O_VARIABLES] = PorJudgeRules.field(d, at[PorRecords.STEP_OUTPUT], PorJudgeRules.K_EVALUATION_VARIABLES);
            return (true, at);
        }
        output(d, at);
    }

    /// An extract output's card, evidence_id and requirement_id (`O_*`) from one walk
    /// (`PorKeyIndex.three`, stopping at the last of them). When the output's first key is
    /// `card` and the card reads (`PorCborKeys.exact`, `card`'s read of it), its five value
    /// offsets are kept at O_FIELDS.. (O_FIELDS non-zero: a card value's offset) and the
    /// walk goes on after it: the card is walked once, not skipped and then read.
    function output(bytes calldata d, uint256[] memory at) private pure {
        (, uint256 count, uint256 p) = PorCbor.container(d, at[PorRecords.STEP_OUTPUT], PorCbor.MAP);
        (uint256 w, uint256 v) = PorKeyIndex.entry(d, p);
        at[O_FIELDS] = 0;
        uint256 left = 3;
        if (count != 0 && w == PorJudgeRules.K_CARD) {
            (bool read, uint256[5] memory f, uint256 next) = PorCborKeys.exact(d, v, PorCborKeys.cardWords(), 5, 1);
            if (read) {
                assembly ("memory-safe") {
                    mcopy(add(at, 0x180), f, 0xa0) // at[O_FIELDS..O_FIELDS + 5)
                }
                (at[O_CARD], p, count, left) = (v, next, count - 1, 2);
            }
        }
        uint256 c;
        (c, at[O_EVIDENCE_ID], at[O_REQUIREMENT_ID]) = PorKeyIndex.three(
            d, p, count, left, PorJudgeRules.K_CARD, PorJudgeRules.K_EVIDENCE_ID, PorJudgeRules.K_REQUIREMENT_ID
        );
        if (left == 3) at[O_CARD] = c;
    }

    /// Where `step` keeps an extract output's card, evidence_id and requirement_id, and
    /// the final step's output.evaluation_variables (0 absent; read by the citations and
    /// the judge's variables).
    uint256 private constant O_CARD = 8;
    uint256 private constant O_VARIABLES = 8;
    /// Where `citations` keeps, in the final step's words, the offset of the first id of
    /// the source summary it read (0: none) and whether that list repeats an id
    /// (`PorRecords.hasRepeat`), for `variables` (the same list: the same answer).
    uint256 private constant O_SUMMARY = 9;
    uint256 private constant O_REPEATS = 10;
    uint256 private constant O_EVIDENCE_ID = 9;
    uint256 private constant O_REQUIREMENT_ID = 10;
    /// Where `output` keeps an extract card's five value offsets when it read the card
    /// (words 11-15 of the step's 16; O_FIELDS 0 when it did not).
    uint256 private constant O_FIELDS = 11;

    /// Verified parts: the records, the citations, the final step's type, the cards, then
    /// the judge and the comparison with the committed verdict.
    function decide(bytes calldata d, Leaf[] memory all, PorJudgeVerdict.Committed memory verdict)
        private
        pure
        returns (bool, bytes32)
    {
        (bool ok, PorJudgeRules.Spec memory s) = spec(d, all[1]);
        uint256[][] memory steps = new uint256[][](all.length);
        for (uint256 i = 2; ok && i < all.length; i++) (ok, steps[i]) = step(d, all[i], i >= FIRST_EXTRACT);
        if (!ok) return (true, INVALID_RECORD);
        uint256 evidenceCount = verdict.evidenceCount;
        if (!citations(d, all, steps, evidenceCount)) return (false, CITATIONS);
        if (!PorJudgeRules.textIs(d, steps[2][PorRecords.STEP_TYPE], PorJudgeRules.T_MAP)) return (true, NOT_MAP);
        PorJudgeRules.Card[] memory cards = new PorJudgeRules.Card[](all.length - FIRST_EXTRACT);
        for (uint256 i = 0; i < cards.length; i++) {
            (ok, cards[i]) = card(d, all[FIRST_EXTRACT + i], steps[FIRST_EXTRACT + i], evidenceCount);
            if (!ok) return (true, INVALID_RECORD); // a stand-in for "" has no card (`_cards`)
        }
        PorJudgeRules.Vars memory v = variables(d, steps[2]);
        (uint8 outcome, uint256 confidence, uint8 rule) = PorJudgeRules.judge(d, s, v, cards);
        return same(d, verdict, s, outcome, confidence, rule) ? (false, MATCH) : (true, MISMATCH);
    }

    /// The PromptSpec leaf passes the §2 reader and the fields the judge reads are valid
    /// (`PorJudgeRules.readSpec`, from the top-level offsets of the reader's pass).
    function spec(bytes calldata d, Leaf memory p) private pure returns (bool, PorJudgeRules.Spec memory s) {
        (bytes32 err,, uint256[] memory top,) = PorCborTop.checkTop(leafOf(d, p));
        if (err != 0) return (false, s);
        return PorJudgeRules.readSpec(d, p.leaf, top);
    }

    /// The recomputed verdict's bytes equal the committed ones: the references are the
    /// committed verdict's, so the decision fields (market_id, outcome, confidence, rule,
    /// resolution_time = the window's end) decide.
    function same(
        bytes calldata d,
        PorJudgeVerdict.Committed memory v,
        PorJudgeRules.Spec memory s,
        uint8 outcome,
        uint256 confidence,
        uint8 rule
    ) private pure returns (bool) {
        // an absent resolution_time (`PorJudgeVerdict.ABSENT`) equals no window end
        return v.time == s.end && v.confidence == confidence && v.outcome == outcome && v.rule == rule
            && PorText.sameText(d, v.market, s.marketId);
    }

    /// Each extract part is an extract step below evidence_count whose output.evidence_id
    /// is, in order, the next distinct source_summary id (`_summary`: none unless the final
    /// step's evaluation_variables.source_summary is a list of texts). A part that is not
    /// such a step stands for the id "" (`_cards`).
    function citations(bytes calldata d, Leaf[] memory all, uint256[][] memory steps, uint256 evidenceCount)
        private
        pure
        returns (bool)
    {
        (bool ok, uint256 n, uint256 first) = summary(d, steps[2][O_VARIABLES]);
        // a list without a repeated id (`hasRepeat`, O(n log n)) has every id distinct:
        // `seen` (O(n^2)) only for one with a repeat
        bool repeats = ok && PorRecords.hasRepeat(d, first, n);
        assembly ("memory-safe") {
            // the final step's words (steps[2]): O_SUMMARY, O_REPEATS
            let last := mload(add(steps, 0x60))
            mstore(add(last, 0x140), mul(ok, first))
            mstore(add(last, 0x160), repeats)
        }
        uint256 k = FIRST_EXTRACT;
        uint256 p = first;
        for (uint256 i = 0; ok && i < n; i++) {
            if (!repeats || !seen(d, first, p)) {
                if (k == all.length) return false;
                (bool extract, uint256 eid) = extractAt(d, all[k], steps[k], evidenceCount);
                if (extract ? !PorText.sameText(d, eid, p) : !PorJudgeRules.textIs(d, p, PorJudgeRules.T_EMPTY)) return false;
                k++;
            }
            p = PorCbor.skip(d, p);
        }
        return k == all.length;
    }

    /// The part is an extract step (`step_type` extract, a text `output.evidence_id`) at
    /// a leaf below `evidenceCount`: (true, the id's offset); else it stands for "".
    function extractAt(bytes calldata d, Leaf memory part, uint256[] memory at, uint256 evidenceCount)
        private
        pure
        returns (bool, uint256 eid)
    {
        eid = at[O_EVIDENCE_ID];
        // eid 0 (absent) is no text: offset 0 is the proof's map head (`verifyParts`)
        (bool text,,) = PorCbor.str(d, eid, PorCbor.TEXT);
        return (PorJudgeRules.textIs(d, at[PorRecords.STEP_TYPE], PorJudgeRules.T_EXTRACT)
            && part.leafIndex < evidenceCount && text, eid);
    }

    /// The text at `p` equals one of the texts from `first` up to `p`.
    function seen(bytes calldata d, uint256 first, uint256 p) private pure returns (bool) {
        for (uint256 q = first; q < p; q = PorCbor.skip(d, q)) {
            if (PorText.sameText(d, q, p)) return true;
        }
        return false;
    }

    /// source_summary of the evaluation variables at `vars` (0: absent; `field` then reads
    /// the proof's map head, which has no such key): (ok, count, first) when it is a list
    /// of texts.
    function summary(bytes calldata d, uint256 vars) private pure returns (bool ok, uint256 n, uint256 first) {
        uint256 s = PorJudgeRules.field(d, vars, PorJudgeRules.K_SOURCE_SUMMARY);
        if (s == 0) return (true, 0, 0);
        (ok, n, first) = PorCbor.container(d, s, PorCbor.ARRAY);
        if (!ok) return (true, 0, 0);
        bool texts = true;
        assembly ("memory-safe") {
            // each item a text (`PorCbor.str`), stepped over by its head and bytes
            // (`PorCbor.skip` of a text; a checked document's heads are definite)
            let b := d.offset
            let p := first
            for { let i := 0 } lt(i, n) { i := add(i, 1) } {
                let hb := byte(0, calldataload(add(b, p)))
                if iszero(eq(shr(5, hb), 3)) {
                    texts := 0
                    break
                }
                let a := and(hb, 31)
                p := add(p, 1)
                if gt(a, 23) {
                    let width := shl(sub(a, 24), 1)
                    a := shr(sub(256, shl(3, width)), calldataload(add(b, p)))
                    p := add(p, width)
                }
                p := add(p, a)
            }
        }
        if (!texts) return (true, 0, 0);
    }

    /// `read_card` (SPEC §12.5.2): inputs.kind extract_claims, output.requirement_id text,
    /// output.card exactly source_id (text), status_code 100..599, retrieved_at 0..2^63-1,
    /// confidence_bps 0..10000, provenance_tier 0..3.
    /// The part is an extract step (`extractAt`) and its card reads (its output's card,
    /// evidence_id and requirement_id as `step` found them).
    function card(bytes calldata d, Leaf memory part, uint256[] memory at, uint256 evidenceCount)
        private
        pure
        returns (bool ok, PorJudgeRules.Card memory c)
    {
        (bool extract,) = extractAt(d, part, at, evidenceCount);
        if (!extract) return (false, c);
        if (!PorJudgeRules.textIs(d, PorJudgeRules.field(d, at[PorRecords.STEP_INPUTS], PorJudgeRules.K_KIND), PorJudgeRules.T_EXTRACT_CLAIMS)) return (false, c);
        c.requirement = at[O_REQUIREMENT_ID];
        (bool req,,) = PorCbor.str(d, c.requirement, PorCbor.TEXT);
        // exactly the five keys, source_id a text (one pass; absent (0): the proof's map
        // head is no map of five entries, as in `extractAt`); read by `output` when it
        // kept the card's offsets (O_FIELDS non-zero)
        uint256[5] memory f;
        bool source = at[O_FIELDS] != 0;
        if (source) {
            assembly ("memory-safe") {
                f := add(at, 0x180) // at[O_FIELDS..O_FIELDS + 5)
            }
        } else {
            (source, f,) = PorCborKeys.exact(d, at[O_CARD], PorCborKeys.cardWords(), 5, 1);
        }
        if (!source || !req) return (false, c);
        (bool status,) = PorRecords.uintIn(d, f[1], 100, 599);
        (bool time,) = PorRecords.uintIn(d, f[2], 0, PorJudgeRules.MAX_TIME);
        bool conf;
        bool tier;
        (conf, c.confidence) = PorRecords.uintIn(d, f[3], 0, 10_000);
        (tier, c.tier) = PorRecords.uintIn(d, f[4], 0, 3);
        ok = status && time && conf && tier;
    }

    /// The map step's output.evaluation_variables (`at[O_VARIABLES]`, 0 absent; `at` the
    /// final step's words), read as `variables_from`: each entry's key word and value
    /// offset from its head (`PorKeyIndex.entry`), the value skipped once.
    function variables(bytes calldata d, uint256[] memory at) private pure returns (PorJudgeRules.Vars memory v) {
        assembly ("memory-safe") {
            // summaryFirst, summaryRepeats (`Vars`' 11th and 12th words) from O_SUMMARY, O_REPEATS
            mstore(add(v, 0x140), mload(add(at, 0x140)))
            mstore(add(v, 0x160), mload(add(at, 0x160)))
        }
        PorJudgeVars.entries(d, at[O_VARIABLES], v);
    }
}
