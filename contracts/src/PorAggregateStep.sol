// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorAggregateAgree} from "./PorAggregateAgree.sol";
import {PorAggregateChunk} from "./PorAggregateChunk.sol";
import {PorAggregateEntries as E} from "./PorAggregateEntries.sol";
import {PorAggregateRead as R} from "./PorAggregateRead.sol";
import {PorAggregateSpec} from "./PorAggregateSpec.sol";
import {PorCbor} from "./PorCbor.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

/// @title PorAggregateStep: the `aggregate` step re-executed on chain (SPEC §12.5.4, §14.8).
/// @notice Reads R's policy and fields (PromptSpec), the cited extract steps' cards and claims
/// and the cited check chunk C (`PorAggregateRead`), applies the selection policy to each
/// field (voters: each cited item's first claim of the field's key and kind) and compares the
/// recomputed description and output with the committed ones: the output walked once, each
/// expected item checked in its canonical (§2) place, never re-encoded in memory.
library PorAggregateStep {
    bytes32 internal constant KIND = PorIds.AGGREGATE;
    bytes32 internal constant INVALID_RECORD = PorIds.INVALID_RECORD;
    bytes32 internal constant UNEXECUTABLE = PorIds.UNEXECUTABLE;
    bytes32 internal constant MATCH = PorIds.MATCH;
    bytes32 internal constant MISMATCH = PorIds.MISMATCH;

    uint256 private constant SELECTED = 0;
    uint256 private constant MISSING = 1;
    uint256 private constant INSUFFICIENT = 2;
    uint256 private constant NO_QUORUM = 3;

    /// One field's voters (voter order) and the policy's result.
    struct Field {
        uint256 n; // candidates
        uint256[] item; // the voter's cited item
        uint256[] value; // the voter's claim's value
        uint256[] id; // the voter's claim's claim_id
        uint256[] num; // the voter's numeric value, read (`PorAggregateNumber`'s packed word)
        uint256 status;
        uint256 chosen; // the chosen voter (selected)
        bool[] member; // claim_ids / evidence_ids (selected)
        uint256 members;
        uint256 agreeing;
        bool fallbackUsed;
    }

    /// A committed value being walked: the next offset, the end of `d`, still equal.
    struct Walk {
        uint256 p;
        uint256 end;
        bool ok;
    }

    /// What the step reads (SPEC §12.5.4, `PorAggregateRead`; `top`: where the PromptSpec's
    /// top-level items start, `PorCborTop.checkTop`): (0, R's policy and fields, the cited items,
    /// the cited chunk C, the inputs.requirement_id text item), or the fault:
    /// `one_step.invalid_record` (a malformed PromptSpec field), `one_step.unexecutable`.
    function read(
        bytes calldata d,
        R.Leaves memory parts,
        uint256[][] memory records,
        uint256[] memory at,
        uint256[] memory top
    ) internal pure returns (bytes32 fault, R.Spec memory s, R.Item[] memory its, R.Chunk memory c, uint256 rid) {
        uint256 base = parts.at[0];
        rid = E.requirementId(d, base + at[PorRecords.STEP_INPUTS]);
        bool ok;
        bool found;
        (ok, found, s) = PorAggregateSpec.spec(d, parts.at[1], top, rid);
        if (!ok) return (INVALID_RECORD, s, its, c, rid);
        if (!found) return (UNEXECUTABLE, s, its, c, rid); // step.bad_inputs
        (ok, its) = R.items(d, parts, records, base + at[PorRecords.STEP_EVIDENCE], s);
        if (!ok) return (UNEXECUTABLE, s, its, c, rid);
        uint256 last = 1 + parts.evidenceCount + parts.priorCount;
        (ok, c) = PorAggregateChunk.state(d, parts.at[last], records[last], rid, its);
        if (!ok) return (UNEXECUTABLE, s, its, c, rid);
    }

    /// The policy applied to each field, the committed step (description and output at
    /// `descriptionAt`, `outputAt`) compared: lost `one_step.match`, won `one_step.mismatch`.
    function decide(
        bytes calldata d,
        uint256 descriptionAt,
        uint256 outputAt,
        uint256 rid,
        R.Spec memory s,
        R.Item[] memory its,
        R.Chunk memory c
    ) internal pure returns (bool, bytes32) {
        Field[] memory fs = select(d, s, its);
        bool ok = description(d, descriptionAt, rid, s, fs) && output(d, outputAt, rid, s, its, c, fs);
        return ok ? (false, MATCH) : (true, MISMATCH);
    }

    // --- selection (SPEC §12.5.4) ---------------------------------------------------------

    /// Each field's voters, in item order (the votes the reader collected: each item's first
    /// claim of the field's key and kind), then its policy.
    function select(bytes calldata d, R.Spec memory s, R.Item[] memory its) private pure returns (Field[] memory fs) {
        uint256 nf = s.nFields;
        fs = new Field[](nf);
        assembly ("memory-safe") {
            // Each field's arrays (item, value, id, num, member: Field members 1-4, 7) zeroed in one
            // block; each item's votes (Item members 7-9) appended to its fields' in item order.
            let m := mload(its)
            let size := shl(5, add(m, 1))
            for { let f := 0 } lt(f, nf) { f := add(f, 1) } {
                let fd := mload(add(fs, shl(5, add(f, 1))))
                let a := mload(0x40)
                calldatacopy(a, calldatasize(), mul(5, size)) // zeros
                for { let j := 0 } lt(j, 5) { j := add(j, 1) } {
                    let arr := add(a, mul(j, size))
                    mstore(arr, m)
                    mstore(add(fd, shl(5, add(add(j, 1), mul(eq(j, 4), 2)))), arr) // j 0-3: members 1-4, 4: 7
                }
                mstore(0x40, add(a, mul(5, size)))
            }
            for { let k := 0 } lt(k, m) { k := add(k, 1) } {
                let it := mload(add(its, shl(5, add(k, 1))))
                let values := mload(add(it, 224))
                let ids := mload(add(it, 256))
                let nums := mload(add(it, 288))
                for { let f := 0 } lt(f, nf) { f := add(f, 1) } {
                    let o := shl(5, f)
                    let value := mload(add(values, o))
                    if value {
                        let fd := mload(add(fs, add(o, 32)))
                        let v := mload(fd)
                        mstore(fd, add(v, 1))
                        let q := shl(5, add(v, 1))
                        mstore(add(mload(add(fd, 32)), q), k)
                        mstore(add(mload(add(fd, 64)), q), value)
                        mstore(add(mload(add(fd, 96)), q), mload(add(ids, o)))
                        mstore(add(mload(add(fd, 128)), q), mload(add(nums, o)))
                    }
                }
            }
        }
        for (uint256 f = 0; f < s.nFields; f++) {
            uint256 free;
            assembly ("memory-safe") {
                free := mload(0x40)
            }
            policy(d, s, its, fs[f], s.kind[f]);
            assembly ("memory-safe") {
                mstore(0x40, free) // what policy allocated is not kept (only fs[f]'s own arrays)
            }
        }
    }

    function policy(bytes calldata d, R.Spec memory s, R.Item[] memory its, Field memory fd, uint256 kind)
        private
        pure
    {
        if (fd.n == 0) {
            fd.status = MISSING;
            return;
        }
        if (s.strategy == R.QUORUM) {
            if (fd.n < s.minSources) {
                fd.status = INSUFFICIENT;
                return;
            }
            quorum(d, s, its, fd, kind);
            return;
        }
        fd.status = SELECTED;
        if (s.strategy == R.FALLBACK_CHAIN) {
            uint256 best = type(uint256).max;
            for (uint256 v = 0; v < fd.n; v++) {
                uint256 rank = s.nTargets;
                for (uint256 t = 0; t < s.nTargets; t++) {
                    if (s.targets[t] == its[fd.item[v]].srcHash) {
                        rank = t;
                        break;
                    }
                }
                if (rank < best) (best, fd.chosen) = (rank, v);
            }
            fd.fallbackUsed = its[fd.item[fd.chosen]].srcHash != s.targets[0];
        } else {
            uint256[] memory none; // `size` unread
            (, fd.chosen) = first(s, its, fd, none, 0);
        }
        fd.member[fd.chosen] = true;
        fd.members = 1;
    }

    /// The first voter in tie-breaker order whose agreeing group's size (`size`, unread when
    /// `need` is 0) reaches `need`: (found, that voter). source_order is voter order;
    /// highest_provenance the highest provenance_tier first, then voter order: of the voters
    /// that reach `need`, the first of the highest tier (the reader keeps tiers 0-3). One
    /// pass over the voters; the order is not built.
    function first(R.Spec memory s, R.Item[] memory its, Field memory fd, uint256[] memory size, uint256 need)
        private
        pure
        returns (bool found, uint256 chosen)
    {
        (uint256 n, uint256[] memory item, bool highest) = (fd.n, fd.item, s.highest);
        assembly ("memory-safe") {
            let best := 0 // the chosen voter's tier + 1
            for { let v := 0 } lt(v, n) { v := add(v, 1) } {
                let ok := 1
                if need { ok := iszero(lt(mload(add(size, shl(5, add(v, 1)))), need)) }
                if ok {
                    if iszero(highest) {
                        found := 1
                        chosen := v
                        break
                    }
                    // its[item[v]].tier + 1 (an Item's third member; item[v] < its.length)
                    let it := mload(add(its, shl(5, add(mload(add(item, shl(5, add(v, 1)))), 1))))
                    let t := add(mload(add(it, 0x40)), 1)
                    if gt(t, best) {
                        best := t
                        found := 1
                        chosen := v
                        if eq(t, 4) { break } // tier 3: none comes before it
                    }
                }
            }
        }
    }

    /// multi_source_quorum: the first voter by tie-breaker whose agreeing group reaches
    /// `quorum` (numbers within numeric_tolerance exactly, other kinds equal).
    function quorum(bytes calldata d, R.Spec memory s, R.Item[] memory its, Field memory fd, uint256 kind)
        private
        pure
    {
        (uint256[] memory group, uint256[] memory size) = agreeing(d, s, fd, kind);
        (bool found, uint256 v) = first(s, its, fd, size, s.quorum);
        if (!found) {
            fd.status = NO_QUORUM;
            return;
        }
        (fd.status, fd.chosen) = (SELECTED, v);
        (fd.agreeing, fd.members) = (size[v], size[v]);
        for (uint256 u = 0; u < fd.n; u++) fd.member[u] = (group[v] >> u) & 1 == 1;
    }

    /// Each voter's agreeing group and its size (`PorAggregateAgree.agreeing`); the largest
    /// size in `fd.agreeing`.
    function agreeing(bytes calldata d, R.Spec memory s, Field memory fd, uint256 kind)
        private
        pure
        returns (uint256[] memory group, uint256[] memory size)
    {
        (group, size) = PorAggregateAgree.agreeing(d, s.tolerance, fd.n, fd.value, fd.num, kind);
        largest(fd, size);
    }

    /// The largest group's size in `fd.agreeing`.
    function largest(Field memory fd, uint256[] memory size) private pure {
        for (uint256 v = 0; v < fd.n; v++) {
            if (size[v] > fd.agreeing) fd.agreeing = size[v];
        }
    }

    // --- the committed step ----------------------------------------------------------------

    /// "aggregate requirement R by strategy: n of m field(s) selected".
    function description(bytes calldata d, uint256 pos, uint256 rid, R.Spec memory s, Field[] memory fs)
        private
        pure
        returns (bool)
    {
        uint256 chosen = 0;
        for (uint256 f = 0; f < fs.length; f++) {
            if (fs[f].status == SELECTED) chosen++;
        }
        (, uint256 ro, uint256 rl) = PorCbor.str(d, rid, PorCbor.TEXT);
        (, uint256 so, uint256 sl) = PorCbor.str(d, s.strategyPos, PorCbor.TEXT);
        bytes memory text = bytes.concat(
            "aggregate requirement ", d[ro:ro + rl], " by ", d[so:so + sl], ": ", decimal(chosen), " of ",
            decimal(fs.length), " field(s) selected"
        );
        return PorCbor.isText(d, pos, text);
    }

    /// decimal(n) for n <= 8 (at most 8 fields, §4.2).
    function decimal(uint256 n) private pure returns (bytes1) {
        return bytes1(uint8(48 + n));
    }

    /// The committed output at `pos` is the recomputed one (keys in §2 order). The expected items
    /// form one item E compared byte for byte from `pos` (bounded by `d`'s end): a definite-length
    /// item's bytes fix its extent, so it is E once the bytes from `pos` begin with E's.
    function output(
        bytes calldata d,
        uint256 pos,
        uint256 rid,
        R.Spec memory s,
        R.Item[] memory its,
        R.Chunk memory c,
        Field[] memory fs
    ) private pure returns (bool) {
        Walk memory w = Walk(pos, d.length, true);
        expectHead(d, w, PorCbor.MAP, c.lastLeaf == 0 ? 8 : 9);
        expectWord(d, w, uint256(bytes32("\x66fields")) | 7);
        expectHead(d, w, PorCbor.ARRAY, fs.length);
        bool fallbackUsed = false;
        bytes32[] memory picked = new bytes32[](its.length * fs.length);
        uint256 np = 0;
        for (uint256 f = 0; f < fs.length && w.ok; f++) {
            field(d, w, s, its, fs[f], f);
            fallbackUsed = fallbackUsed || fs[f].fallbackUsed;
            for (uint256 v = 0; v < fs[f].n; v++) {
                if (fs[f].member[v]) picked[np++] = its[fs[f].item[v]].eidHash;
            }
        }
        expectWord(d, w, uint256(bytes32("\x67covered")) | 8);
        expectRaw(d, w, c.covered);
        expectWord(d, w, uint256(bytes32("\x68strategy")) | 9);
        expectRaw(d, w, s.strategyPos);
        if (c.lastLeaf != 0) {
            expectWord(d, w, uint256(bytes32("\x69last_leaf")) | 10);
            expectRaw(d, w, c.lastLeaf);
        }
        expectWord(d, w, uint256(bytes32("\x6aitem_count")) | 11);
        expectRaw(d, w, c.itemCount);
        expectWord(d, w, uint256(bytes32("\x6csources_used")) | 13);
        sourcesUsed(d, w, its, picked, np);
        expectWord(d, w, uint256(bytes32("\x6dfallback_used")) | 14);
        expectBool(d, w, fallbackUsed);
        expectWord(d, w, uint256(bytes32("\x6dprovenance_ok")) | 14);
        expectRaw(d, w, c.provenanceOk);
        expectWord(d, w, uint256(bytes32("\x6erequirement_id")) | 15);
        expectRaw(d, w, rid);
        return w.ok;
    }

    /// The cited items, in order, whose id is among the `np` picked ids.
    function sourcesUsed(bytes calldata d, Walk memory w, R.Item[] memory its, bytes32[] memory picked, uint256 np)
        private
        pure
    {
        bool[] memory used = new bool[](its.length);
        uint256 nUsed = 0;
        for (uint256 k = 0; k < its.length; k++) {
            for (uint256 i = 0; i < np && !used[k]; i++) used[k] = picked[i] == its[k].eidHash;
            if (used[k]) nUsed++;
        }
        expectHead(d, w, PorCbor.ARRAY, nUsed);
        for (uint256 k = 0; k < its.length; k++) {
            if (used[k]) expectRaw(d, w, its[k].eid);
        }
    }

    /// One field's map: key, kind, value?, votes?, quorum?, status, claim_ids, candidates,
    /// evidence_ids, fallback_used.
    function field(bytes calldata d, Walk memory w, R.Spec memory s, R.Item[] memory its, Field memory fd, uint256 f)
        private
        pure
    {
        bool value = fd.status == SELECTED;
        bool votes = s.votes && s.keyWord[f] == s.metric;
        bool hasQuorum = s.strategy == R.QUORUM && (fd.status == SELECTED || fd.status == NO_QUORUM);
        expectHead(d, w, PorCbor.MAP, 7 + (value ? 1 : 0) + (votes ? 1 : 0) + (hasQuorum ? 1 : 0));
        expectWord(d, w, uint256(bytes32("\x63key")) | 4);
        if (s.keyPos[f] != 0) expectRaw(d, w, s.keyPos[f]);
        else expectWord(d, w, fallbackKey(f));
        expectWord(d, w, uint256(bytes32("\x64kind")) | 5);
        expectWord(d, w, kindName(s.kind[f]));
        if (value) {
            expectWord(d, w, uint256(bytes32("\x65value")) | 6);
            expectRaw(d, w, fd.value[fd.chosen]);
        }
        if (votes) {
            expectWord(d, w, uint256(bytes32("\x65votes")) | 6);
            expectHead(d, w, PorCbor.ARRAY, fd.n);
            for (uint256 v = 0; v < fd.n; v++) {
                expectHead(d, w, PorCbor.MAP, 3);
                expectWord(d, w, uint256(bytes32("\x65value")) | 6);
                expectRaw(d, w, fd.value[v]);
                expectWord(d, w, uint256(bytes32("\x69source_id")) | 10);
                expectRaw(d, w, its[fd.item[v]].src);
                expectWord(d, w, uint256(bytes32("\x6bevidence_id")) | 12);
                expectRaw(d, w, its[fd.item[v]].eid);
            }
        }
        if (hasQuorum) {
            expectWord(d, w, uint256(bytes32("\x66quorum")) | 7);
            expectHead(d, w, PorCbor.MAP, 3);
            expectWord(d, w, uint256(bytes32("\x63met")) | 4);
            expectBool(d, w, value);
            expectWord(d, w, uint256(bytes32("\x68agreeing")) | 9);
            expectHead(d, w, PorCbor.UINT, fd.agreeing);
            expectWord(d, w, uint256(bytes32("\x68required")) | 9);
            expectHead(d, w, PorCbor.UINT, s.quorum);
        }
        expectWord(d, w, uint256(bytes32("\x66status")) | 7);
        expectWord(d, w, statusName(fd.status));
        expectWord(d, w, uint256(bytes32("\x69claim_ids")) | 10);
        expectHead(d, w, PorCbor.ARRAY, fd.members);
        for (uint256 v = 0; v < fd.n; v++) {
            if (fd.member[v]) expectRaw(d, w, fd.id[v]);
        }
        expectWord(d, w, uint256(bytes32("\x6acandidates")) | 11);
        expectHead(d, w, PorCbor.UINT, fd.n);
        expectWord(d, w, uint256(bytes32("\x6cevidence_ids")) | 13);
        expectHead(d, w, PorCbor.ARRAY, fd.members);
        for (uint256 v = 0; v < fd.n; v++) {
            if (fd.member[v]) expectRaw(d, w, its[fd.item[v]].eid);
        }
        expectWord(d, w, uint256(bytes32("\x6dfallback_used")) | 14);
        expectBool(d, w, fd.fallbackUsed);
    }

    /// The key of fallback field f (§12.1), as an `expectWord` word.
    function fallbackKey(uint256 f) private pure returns (uint256) {
        if (f == 0) return uint256(bytes32("\x66result")) | 7;
        if (f == 1) return uint256(bytes32("\x65value")) | 6;
        return f == 2 ? uint256(bytes32("\x65price")) | 6 : uint256(bytes32("\x69timestamp")) | 10;
    }

    function kindName(uint256 k) private pure returns (uint256) {
        if (k == R.BOOLEAN) return uint256(bytes32("\x67boolean")) | 8;
        if (k == R.NUMERIC) return uint256(bytes32("\x67numeric")) | 8;
        return k == R.TIMESTAMP ? uint256(bytes32("\x69timestamp")) | 10 : uint256(bytes32("\x64text")) | 5;
    }

    function statusName(uint256 st) private pure returns (uint256) {
        if (st == SELECTED) return uint256(bytes32("\x68selected")) | 9;
        if (st == MISSING) return uint256(bytes32("\x67missing")) | 8;
        return st == INSUFFICIENT ? uint256(bytes32("\x6cinsufficient")) | 13 : uint256(bytes32("\x69no_quorum")) | 10;
    }

    // --- the walk: each expected item against the committed bytes ---------------------

    /// A head (major, arg): the committed output is canonical, so (major, arg) fix its bytes.
    function expectHead(bytes calldata d, Walk memory w, uint8 major, uint256 arg) private pure {
        if (!w.ok || w.p >= w.end) {
            w.ok = false;
            return;
        }
        (uint8 m, uint256 a, uint256 next) = PorCbor.head(d, w.p);
        w.ok = m == major && a == arg && next <= w.end;
        w.p = next;
    }

    /// A short text, its head and bytes given as one word (`hw`: left-aligned, their
    /// length in the low byte; a literal key or name of under 24 bytes): one compare.
    function expectWord(bytes calldata d, Walk memory w, uint256 hw) private pure {
        uint256 len = hw & 0xff;
        uint256 p = w.p;
        if (!w.ok || p + len > w.end) {
            w.ok = false;
            return;
        }
        bool same;
        assembly ("memory-safe") {
            same := eq(and(calldataload(add(d.offset, p)), not(shr(shl(3, len), not(0)))), and(hw, not(0xff)))
        }
        w.ok = same;
        w.p = p + len;
    }

    function expectBool(bytes calldata d, Walk memory w, bool b) private pure {
        if (!w.ok || w.p >= w.end) {
            w.ok = false;
            return;
        }
        w.ok = uint8(d[w.p]) == (b ? 0xf5 : 0xf4);
        w.p++;
    }

    /// The item at `pos` (a checked leaf of `d`), byte for byte.
    function expectRaw(bytes calldata d, Walk memory w, uint256 pos) private pure {
        uint256 len;
        assembly ("memory-safe") {
            // a short text (head and bytes) or an integer 0..23 in place: `PorCbor.skip`'s length
            let hb := shr(248, calldataload(add(d.offset, pos)))
            switch lt(sub(hb, 0x60), 24)
            case 1 { len := sub(hb, 0x5f) }
            default { len := lt(hb, 0x18) }
        }
        if (len == 0) len = PorCbor.skip(d, pos) - pos;
        if (!w.ok || w.p + len > w.end) {
            w.ok = false;
            return;
        }
        bool same;
        uint256 at = w.p;
        assembly ("memory-safe") {
            // word by word, the last one shifted to the bytes left (nothing copied)
            same := 1
            for { let i := 0 } lt(i, len) { i := add(i, 32) } {
                let x := xor(calldataload(add(d.offset, add(at, i))), calldataload(add(d.offset, add(pos, i))))
                if lt(sub(len, i), 32) { x := shr(shl(3, sub(32, sub(len, i))), x) }
                if x {
                    same := 0
                    break
                }
            }
        }
        w.ok = same;
        w.p += len;
    }
}
