// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckAdmit} from "./PorCheckAdmit.sol";
import {PorCheckClaim} from "./PorCheckClaim.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckRecord} from "./PorCheckRecord.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";
import {PorText} from "./PorText.sol";

/// @title PorCheckStep: a `check_requirement` chunk re-executed on chain (SPEC §12.5.3,
/// §12.5.2 cards, §12.5.1 citations, §10.5 step 7).
/// @notice The step cites its extract steps (the k-th: the k-th item, read through its
/// card and claims) and, for chunk c > 0, chunk c-1 (P); `PorCheckSpec` reads the
/// PromptSpec. Every map of the record has a fixed key set, so the recomputed `output`
/// and `description` are written as canonical bytes (`PorCheckRecord`, `PorCheckWrite`,
/// bounded by the committed size) and compared by hash: no walk to accept an extra key.
library PorCheckStep {
    bytes32 internal constant KIND = PorIds.CHECK_REQUIREMENT;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant MATCH = PorIds.MATCH;
    bytes32 internal constant MISMATCH = PorIds.MISMATCH;
    /// CHECK_CHUNK_ITEMS (por/protocol/limits.py).
    uint256 internal constant K = 10;

    /// The step's leaf offset, R's position, the spec read, the cited items and P.
    struct Ctx {
        uint256 sb;
        uint256 rid;
        PorCheckSpec.Spec spec;
        Item[] items;
        uint256 prior;
    }

    /// A cited item as read through its extract step.
    struct Item {
        uint256 eid;
        uint256 sid;
        uint256 stepId;
        uint256 claims; // first claim
        uint256 nClaims;
        uint256[] refs; // each claim as read: its `ref` word (`claimTo`), then its packed number (`PorCheckClaim.number`, else 0)
        uint256 observed; // a uint item: the claim's value or the card's retrieved_at
        bool fromClaim;
        uint256 reasons; // bits, SPEC §12.2's order
        uint256 leaf;
    }

    /// The chunk re-executed on the verified parts (`leaves`: each part's leaf offset, the
    /// step, the PromptSpec, `evidenceCount` items, then the prior steps), the PromptSpec
    /// read by `PorCheckSpec` (its leaf checked by §2).
    function executeWith(
        bytes calldata d,
        uint256[] memory leaves,
        uint256 evidenceCount,
        uint256[][] memory records,
        uint256[] memory at,
        PorCheckSpec.Spec memory spec
    ) internal pure returns (bool, bytes32) {
        Ctx memory c;
        c.sb = leaves[0];
        (c.rid, c.spec) = (spec.rid, spec); // R as the spec's reader found it (`requirementOf`)
        bool ok;
        (ok, c.items, c.prior) = readPriors(d, leaves, 2 + evidenceCount, records, c.sb + at[PorRecords.STEP_EVIDENCE], c.rid, c.spec.skip);
        if (!ok) return (true, UNEXECUTABLE);
        PorCheckState.State memory s;
        (ok, s) = chainState(d, leaves, evidenceCount, records, c.prior, c.rid, c.items);
        if (!ok) return (true, UNEXECUTABLE);
        return compare(d, c.sb, at, c.rid, c.spec, s, c.items);
    }

    /// Admit the items, then compare the recomputed description and output.
    function compare(
        bytes calldata d,
        uint256 sb,
        uint256[] memory at,
        uint256 rid,
        PorCheckSpec.Spec memory spec,
        PorCheckState.State memory s,
        Item[] memory items
    ) private pure returns (bool, bytes32) {
        uint256 admitted = 0;
        bytes32[] memory allowed = PorCheckAdmit.hashes(d, spec.allowed);
        for (uint256 i = 0; i < items.length; i++) {
            PorCheckAdmit.admit(d, spec, allowed, spec.tags, items[i]);
            if (items[i].reasons == 0) admitted++;
        }
        bool same = PorCheckRecord.description(d, sb + at[PorRecords.STEP_DESCRIPTION], rid, s.chunk, admitted, items.length)
            && PorCheckRecord.output(d, sb, at, rid, spec, s, items, admitted);
        return same ? (false, MATCH) : (true, MISMATCH);
    }

    // --- the cited steps (SPEC §12.5.1, §12.5.2) ---------------------------------------

    /// The extract steps first, then at most one check chunk (its index in the prior
    /// steps plus one, 0 for none); one extract step per cited evidence id (at most K).
    function readPriors(
        bytes calldata d,
        uint256[] memory leaves,
        uint256 first,
        uint256[][] memory records,
        uint256 evidence,
        uint256 rid,
        uint256 skip
    ) private pure returns (bool ok, Item[] memory items, uint256 prior) {
        (, uint256 n, uint256 e) = PorCbor.container(d, evidence, PorCbor.ARRAY);
        {
            uint256 extracts;
            (ok, extracts, prior) = shape(d, leaves, first, records);
            if (!ok || n != extracts || n > K) return (false, items, 0);
        }
        (ok, items) = readItems(d, leaves, first, records, e, n, rid, skip);
        if (!ok) prior = 0;
    }

    /// The `n` items from the evidence id at `e`, the k-th through the extract step at
    /// part `first + k`.
    function readItems(
        bytes calldata d,
        uint256[] memory leaves,
        uint256 first,
        uint256[][] memory records,
        uint256 e,
        uint256 n,
        uint256 rid,
        uint256 skip
    ) private pure returns (bool ok, Item[] memory items) {
        items = new Item[](n);
        uint256[] memory f = new uint256[](5); // the walks' buffer, shared by the items
        for (uint256 k = 0; k < n; k++) {
            (ok, items[k]) = readExtract(d, leaves[first + k], records[first + k], e, rid, skip, f);
            if (!ok) return (false, items);
            e = PorCbor.skip(d, e);
        }
        ok = true;
    }

    /// The prior steps are extract steps, then at most one check chunk (`prior`: its
    /// index plus one, 0 for none).
    function shape(bytes calldata d, uint256[] memory leaves, uint256 first, uint256[][] memory records)
        private
        pure
        returns (bool, uint256 extracts, uint256 prior)
    {
        for (uint256 k = 0; first + k < leaves.length; k++) {
            // PorRecords.computation's (known, kind), for the two kinds read here
            uint256 kind = PorCheckState.priorKind(d, leaves[first + k], records[first + k]);
            if (kind == 0 || prior != 0) return (false, 0, 0);
            if (kind == 2) prior = k + 1;
            else extracts++;
        }
        return (true, extracts, prior);
    }

    bytes private constant CARD = "\x04card";
    bytes private constant CLAIMS = "\x06claims";
    bytes private constant OUT_IDS = "\x0bevidence_id\x0erequirement_id";

    /// The item whose id is at `eid`, through the extract step at leaf offset `b`: it cites
    /// exactly that id, its output names it and R, its card is in range, its claims are
    /// well-typed (step_io.read_card, read_extract); the output walked once. Its keys are
    /// read in place where they are those an extract output is written with (`card`
    /// first, `claims` next, `ids`), else found by `PorCheckKeys`' walk (extra keys are
    /// allowed): the same positions either way. `f`: a buffer of five words.
    function readExtract(
        bytes calldata d,
        uint256 b,
        uint256[] memory at,
        uint256 eid,
        uint256 rid,
        uint256 skip,
        uint256[] memory f
    ) private pure returns (bool ok, Item memory it) {
        it.eid = eid;
        it.stepId = b + at[PorRecords.STEP_ID];
        bool claimsOk;
        uint256 end;
        {
            uint256 left;
            (end, left) = cardThenClaims(d, b + at[PorRecords.STEP_OUTPUT], it, f);
            if (end == 0) return (false, it);
            (claimsOk, end) = claimsOf(d, end, it, skip, f);
            // evidence_id and requirement_id sort after claims: absent unless entries
            // follow it (a failed claims read ends nowhere: nothing is read after it)
            if (claimsOk) ids(d, end, left, f);
        }
        ok = claimsOk && names(d, b + at[PorRecords.STEP_EVIDENCE], f[0], f[1], eid, rid);
        (claimsOk, it.leaf) = leafOf(d, it.stepId);
        if (!ok || !claimsOk) return (false, it);
    }

    /// The output at `out`: its card read into `it` (in range), then the value of its
    /// `claims` and the entries after it; (0, 0) when either fails (`f` a buffer). The
    /// card walked once: claims found from its end.
    function cardThenClaims(bytes calldata d, uint256 out, Item memory it, uint256[] memory f)
        private
        pure
        returns (uint256 v, uint256 left)
    {
        (v, left) = firstCard(d, out);
        if (v == 0) {
            (, left) = PorCheckKeys.find(d, out, CARD, f);
            v = f[0];
        }
        uint256 end = card(d, v, it);
        if (end == 0 || left == 0) return (0, 0);
        v = PorCheckKeys.keyAt(d, end, 0x66636c61696d73, 7); // "claims", the next key
        if (v != 0) return (v, left - 1);
        (, left) = PorCheckKeys.findFrom(d, end, left, CLAIMS, f);
        return (f[0], left);
    }

    /// `find(d, out, CARD, f)` when `card` is the first key of the map at `out` (of
    /// fewer than 24 entries): its value and the entries after it; else (0, 0).
    function firstCard(bytes calldata d, uint256 out) private pure returns (uint256 v, uint256 left) {
        assembly ("memory-safe") {
            let w := calldataload(add(d.offset, out))
            let ib := byte(0, w)
            if and(lt(sub(ib, 0xa1), 23), eq(and(shr(208, w), 0xffffffffff), 0x6463617264)) {
                v := add(out, 6)
                left := sub(ib, 0xa1)
            }
        }
    }

    /// evidence_id's and requirement_id's values among the `left` entries from `p` (after
    /// claims) into `f[0]`, `f[1]`: in place when they are those entries, after `warnings`
    /// or not, else by `PorCheckKeys.findAfter`.
    function ids(bytes calldata d, uint256 p, uint256 left, uint256[] memory f) private pure {
        uint256 q = p;
        uint256 n = left;
        if (n == 3) {
            uint256 w = PorCheckKeys.keyAt(d, q, 0x687761726e696e6773, 9); // "warnings"
            if (w != 0) (q, n) = (PorCbor.skip(d, w), 2);
        }
        if (n == 2) {
            uint256 own = PorCheckKeys.keyAt(d, q, 0x6b65766964656e63655f6964, 12);
            uint256 req = PorCheckKeys.keyAt(d, PorCheckKeys.textEnd(d, own), 0x6e726571756972656d656e745f6964, 15);
            if (req != 0) {
                (f[0], f[1]) = (own, req);
                return;
            }
        }
        PorCheckKeys.findAfter(d, p, left, OUT_IDS, f);
    }

    /// The leaf index the step id at `stepId` names (`step_N`: N - 1); ok false for N 0.
    /// `PorRecords.stepNumber` of the text (9..14 bytes: one head byte and one word).
    function leafOf(bytes calldata d, uint256 stepId) private pure returns (bool ok, uint256 leaf) {
        assembly ("memory-safe") {
            let ib := byte(0, calldataload(add(d.offset, stepId)))
            let len := and(ib, 31)
            // a text of 9..14 bytes whose head is one byte, starting "step_"
            if and(eq(shr(5, ib), 3), and(gt(len, 8), lt(len, 15))) {
                let w := calldataload(add(d.offset, add(stepId, 1)))
                if eq(shr(216, w), 0x737465705f) {
                    ok := 1
                    // more than four digits: no leading zero
                    if and(gt(len, 9), eq(byte(5, w), 0x30)) { ok := 0 }
                    for { let i := 5 } and(ok, lt(i, len)) { i := add(i, 1) } {
                        let c := byte(i, w)
                        if or(lt(c, 0x30), gt(c, 0x39)) { ok := 0 }
                        leaf := add(mul(leaf, 10), sub(c, 0x30))
                    }
                }
            }
            // N 0 names no leaf
            if iszero(leaf) { ok := 0 }
            switch ok
            case 0 { leaf := 0 }
            default { leaf := sub(leaf, 1) }
        }
    }

    /// output.claims (at `claims`) well-typed; the item's observed time (SPEC §12.5.3:
    /// the first timestamp claim whose key is not `skip`, else the card's retrieved_at);
    /// `end` the offset after the claims when they are.
    function claimsOf(bytes calldata d, uint256 claims, Item memory it, uint256 skip, uint256[] memory f)
        private
        pure
        returns (bool ok, uint256 end)
    {
        if (claims == 0) return (false, 0);
        (ok, it.nClaims, it.claims) = PorCbor.container(d, claims, PorCbor.ARRAY);
        if (!ok) return (false, 0);
        uint256[] memory refs = new uint256[](it.nClaims << 1); // bounded by the leaf's size: a claim is at least one byte
        it.refs = refs;
        end = it.claims;
        // refs[2i], refs[2i + 1] written in place (`q` their memory word)
        uint256 q;
        assembly ("memory-safe") {
            q := add(refs, 0x20)
        }
        for (uint256 i = 0; ok && i < it.nClaims; i++) {
            uint8 kindOf;
            uint256 next;
            (ok, kindOf, next) = claimTo(d, end, f, q);
            if (ok && kindOf == TIMESTAMP && !it.fromClaim) {
                if (skip == 0 || !PorText.sameText(d, f[0], skip)) (it.observed, it.fromClaim) = (f[3], true);
            }
            end = next != 0 ? next : PorCbor.skip(d, end);
            q += 0x40;
        }
    }

    /// `PorCheckClaim.claim(d, p, f)`, its `ref` word (its kind and its key, value and
    /// claim_id positions: kind | key << 16 | value << 96 | claim_id << 176, a position
    /// below 2^80 as the proof is calldata) and packed number written to memory at `q` and
    /// `q + 32` (an item's `refs[2i]`, `refs[2i + 1]`).
    function claimTo(bytes calldata d, uint256 p, uint256[] memory f, uint256 q)
        private
        pure
        returns (bool ok, uint8 kindOf, uint256 next)
    {
        uint256 num;
        (ok, kindOf, next, num) = PorCheckClaim.claim(d, p, f);
        assembly ("memory-safe") {
            // ref(kindOf, f[0], f[3], f[4])
            let r := or(shl(16, mload(add(f, 0x20))), or(shl(96, mload(add(f, 0x80))), shl(176, mload(add(f, 0xa0)))))
            mstore(q, or(kindOf, r))
            mstore(add(q, 0x20), num)
        }
    }

    /// The extract step cites exactly `eid` and its output's evidence_id (at `own`) and
    /// requirement_id (at `req`) are texts naming `eid` and R.
    function names(bytes calldata d, uint256 evidence, uint256 own, uint256 req, uint256 eid, uint256 rid) private pure returns (bool) {
        (, uint256 n, uint256 cited) = PorCbor.container(d, evidence, PorCbor.ARRAY);
        return n == 1 && isText(d, own) && isText(d, req) && PorText.sameText(d, cited, eid)
            && PorText.sameText(d, own, eid) && PorText.sameText(d, req, rid);
    }

    /// output.card (at `p`): exactly its five keys, in range (SPEC §12.5.2), read in place
    /// in their §2 order; status_code and provenance_tier packed in `reasons` for `admit`.
    /// `q`: the offset after the card, 0 when it is not valid.
    function card(bytes calldata d, uint256 p, Item memory it) private pure returns (uint256 q) {
        if (p == 0 || d[p] != 0xa5) return 0;
        it.sid = PorCheckKeys.keyAt(d, p + 1, 0x69736f757263655f6964, 10);
        (bool ok, uint256 code,, uint256 next) =
            inRange(d, PorCheckKeys.textEnd(d, it.sid), 0x6b7374617475735f636f6465, 12, 100, 599);
        bool good;
        (good,, it.observed, q) = inRange(d, next, 0x6c7265747269657665645f6174, 13, 0, PorRecords.MAX_COUNT);
        ok = ok && good;
        (good,,, q) = inRange(d, q, 0x6e636f6e666964656e63655f627073, 15, 0, 10000);
        ok = ok && good;
        uint256 tier;
        (good, tier,, q) = inRange(d, q, 0x6f70726f76656e616e63655f74696572, 16, 0, 3);
        it.reasons = (code << 8) | (tier << 128);
        if (!(ok && good)) q = 0;
    }

    /// The card entry at `q` (0: none) whose key's encoding is `enc` (`n` bytes): its
    /// value an unsigned integer in lo..hi `v` at `at`, `next` the offset after it.
    function inRange(bytes calldata d, uint256 q, uint256 enc, uint256 n, uint256 lo, uint256 hi)
        private
        pure
        returns (bool ok, uint256 v, uint256 at, uint256 next)
    {
        // PorCheckKeys.keyAt, then PorRecords.uintIn and PorCheckKeys.uintEnd inline
        assembly ("memory-safe") {
            if q {
                if eq(shr(sub(256, shl(3, n)), calldataload(add(d.offset, q))), enc) {
                    at := add(q, n)
                    let w := calldataload(add(d.offset, at))
                    let ib := byte(0, w)
                    if lt(ib, 0x1c) {
                        v := ib
                        next := add(at, 1)
                        if gt(ib, 23) {
                            let width := shl(sub(ib, 24), 1)
                            v := shr(sub(256, shl(3, width)), shl(8, w))
                            next := add(next, width)
                        }
                        ok := iszero(or(lt(v, lo), gt(v, hi)))
                    }
                }
            }
        }
    }

    uint8 internal constant NUMERIC = 1;
    uint8 internal constant BOOLEAN = 2;
    uint8 internal constant TIMESTAMP = 3;
    uint8 internal constant TEXT_KIND = 4;

    /// A text at `p` (0: absent).
    function isText(bytes calldata d, uint256 p) internal pure returns (bool ok) {
        assembly ("memory-safe") {
            ok := and(iszero(iszero(p)), eq(shr(5, byte(0, calldataload(add(d.offset, p)))), 3))
        }
    }

    /// The state chunk c-1 carries (the initial one for c = 0), with its citation rules:
    /// P a check chunk of R whose item_count is 10 (P's chunk + 1), this chunk not empty,
    /// the items' leaves strictly increasing after P's last_leaf.
    function chainState(
        bytes calldata d,
        uint256[] memory leaves,
        uint256 evidenceCount,
        uint256[][] memory records,
        uint256 prior,
        uint256 rid,
        Item[] memory items
    ) private pure returns (bool ok, PorCheckState.State memory s) {
        uint256 extra = 0;
        for (uint256 i = 0; i < items.length; i++) extra += items[i].nClaims;
        if (prior == 0) {
            s.provenanceOk = true;
            s.groups = PorCheckState.room(extra);
        } else {
            uint256 i = 2 + evidenceCount + prior - 1;
            (ok, s) = priorState(d, leaves[i], records[i], rid, extra);
            if (!ok || s.items != K * s.chunk || items.length == 0) return (false, s);
        }
        bool has = s.hasLast;
        uint256 last = s.last;
        for (uint256 i = 0; i < items.length; i++) {
            if (has && items[i].leaf <= last) return (false, s);
            (has, last) = (true, items[i].leaf);
        }
        ok = true;
    }

    /// P (leaf offset `b`) is a check chunk of R (inputs and output name R) and its state.
    function priorState(bytes calldata d, uint256 b, uint256[] memory rec, uint256 rid, uint256 extra)
        private
        pure
        returns (bool, PorCheckState.State memory s)
    {
        uint256 out = b + rec[PorRecords.STEP_OUTPUT];
        uint256 inputR = PorCheckState.key(d, b + rec[PorRecords.STEP_INPUTS], 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15);
        uint256[] memory f = new uint256[](10);
        PorCheckKeys.find(d, out, PorCheckState.STATE_KEYS, f);
        uint256 outR = f[9];
        if (!isText(d, inputR) || !PorText.sameText(d, inputR, rid) || !isText(d, outR) || !PorText.sameText(d, outR, rid)) {
            return (false, s);
        }
        return PorCheckState.read(d, f, extra);
    }

    // --- admission (SPEC §12.2, §12.5.3) ------------------------------------------------

    uint256 internal constant ALLOWED = 1;
    uint256 internal constant TARGET = 2;
    uint256 internal constant WINDOW = 4;
    uint256 internal constant PROVENANCE = 8;
    uint256 internal constant STATUS = 32;
    uint256 internal constant GATE = 64;
}
