// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorContradictionsItems} from "./PorContradictionsItems.sol";
import {PorContradictionsMaps} from "./PorContradictionsMaps.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorText} from "./PorText.sol";

/// @title PorContradictionsState: the cited check chunks' states read as `read_state`
/// reads them (SPEC §12.5.3, `step.bad_prior_output` / `step.citation_mismatch`) and
/// their contradiction groups merged by requirement order (SPEC §12.5.5).
/// @notice Offsets are absolute in the proof `d` (a leaf's offset plus the offset in it).
/// A merged group keeps the offsets of its key and of its claim references (`lo`/`hi`:
/// numeric `min`/`max`, boolean `first`/`other`, `hi` 0 while it has no `other`).
library PorContradictionsState {
    struct Group {
        bytes32 id; // keccak256(kind byte, key text item)
        bool numeric;
        uint256 key; // the key's text item
        uint256 count;
        uint256 lo;
        uint256 hi;
        uint256 chunk; // 1 + the citation index of the chunk that touched it last
    }

    /// The merged groups by id: `keys` an open-addressing table (`slot`), `index` 1 + the
    /// group's place in the merged list (0: empty slot).
    struct Table {
        bytes32[] keys;
        uint256[] index;
    }

    /// The k-th cited step is a check chunk of requirement k (id text at `reqIds[k]`) with
    /// a valid state; (ok, the merged groups, the sum of the chunks' claim_count).
    function merge(bytes calldata d, uint256[] calldata w, uint256[] memory reqIds)
        internal
        pure
        returns (bool ok, Group[] memory merged, uint256 claims)
    {
        unchecked {
            // each chunk's groups read (walked once) with its state, then merged
            Group[][] memory lists = new Group[][](reqIds.length);
            uint256 total = 0;
            for (uint256 k = 0; k < reqIds.length; k++) {
                uint256 claimCount;
                (ok, claimCount, lists[k]) = readState(d, w[5 + 3 * k], w[6 + 3 * k], w[7 + 3 * k], reqIds[k]);
                if (!ok) return (false, merged, 0);
                claims += claimCount;
                total += lists[k].length;
            }
            merged = new Group[](total);
            Table memory t = Table(tableFor(total), new uint256[](0));
            t.index = new uint256[](t.keys.length);
            uint256 n = 0;
            for (uint256 k = 0; k < reqIds.length; k++) {
                (ok, n) = mergeChunk(d, merged, n, lists[k], k + 1, t);
                if (!ok) return (false, merged, 0);
            }
            assembly ("memory-safe") {
                mstore(merged, n)
            }
        }
    }

    /// Merge the groups `list` (read by `readGroups`) of the `chunk`-th cited chunk (from
    /// 1) into `merged[0:n]`: (ok, the new n).
    function mergeChunk(
        bytes calldata d,
        Group[] memory merged,
        uint256 n,
        Group[] memory list,
        uint256 chunk,
        Table memory t
    ) private pure returns (bool, uint256) {
        unchecked {
            for (uint256 i = 0; i < list.length; i++) {
                Group memory g = list[i];
                g.chunk = chunk;
                uint256 at = slot(t.keys, g.id);
                uint256 j = t.index[at];
                if (j == 0) {
                    (t.keys[at], t.index[at]) = (g.id, n + 1);
                    merged[n++] = g;
                } else {
                    j--;
                    if (merged[j].chunk == chunk) return (false, n); // a group named twice
                    merged[j].chunk = chunk;
                    fold(d, merged[j], g);
                }
            }
            return (true, n);
        }
    }

    /// The groups array at `pos` (0: absent): each group read (`readGroup`, one walk
    /// each); (ok, the groups, the offset after the array).
    function readGroups(bytes calldata d, uint256 pos)
        private
        pure
        returns (bool ok, Group[] memory list, uint256 p)
    {
        unchecked {
            if (pos == 0) return (false, list, 0);
            (bool isArray, uint256 count, uint256 first) = PorContradictionsMaps.container(d, pos, PorCbor.ARRAY);
            if (!isArray) return (false, list, 0);
            // room for `count` groups (each set below; not `new`, which would build them)
            assembly ("memory-safe") {
                list := mload(0x40)
                mstore(list, count)
                mstore(0x40, add(list, shl(5, add(count, 1))))
            }
            p = first;
            for (uint256 i = 0; i < count; i++) {
                Group memory g;
                (ok, g) = readGroup(d, p);
                if (!ok) return (false, list, 0);
                // readGroup's end of the group (see there)
                p = g.chunk;
                list[i] = g;
            }
            ok = true;
        }
    }

    /// An open-addressing table for `n` hashed keys (a power of two, more than 2n slots),
    /// so finding a key costs O(1) whatever the forger wrote (Python's dict).
    function tableFor(uint256 n) private pure returns (bytes32[] memory) {
        unchecked {
            uint256 size = 2;
            while (size <= 2 * n) size <<= 1;
            return new bytes32[](size);
        }
    }

    /// The slot of `key` in `table`, or the empty slot where it goes (keys are keccak256
    /// hashes, never 0).
    function slot(bytes32[] memory table, bytes32 key) private pure returns (uint256 i) {
        unchecked {
            uint256 mask = table.length - 1;
            i = uint256(key) & mask;
            while (table[i] != 0 && table[i] != key) i = (i + 1) & mask;
        }
    }

    /// Fold group `g` (a later chunk's) into the merged group `m` (SPEC §12.5.5).
    function fold(bytes calldata d, Group memory m, Group memory g) private pure {
        unchecked {
            m.count += g.count;
            if (m.numeric) {
                // equal texts are equal canonical decimals: neither moves, nothing parsed
                (uint256 gl, uint256 ml) = (value(d, g.lo), value(d, m.lo));
                if (!PorText.sameText(d, gl, ml) && PorDecimal.cmp(decimal(d, gl), decimal(d, ml)) < 0) m.lo = g.lo;
                (uint256 gh, uint256 mh) = (value(d, g.hi), value(d, m.hi));
                if (!PorText.sameText(d, gh, mh) && PorDecimal.cmp(decimal(d, gh), decimal(d, mh)) > 0) m.hi = g.hi;
            } else if (m.hi == 0) {
                bytes1 v = d[value(d, m.lo)];
                if (d[value(d, g.lo)] != v) {
                    m.hi = g.lo;
                } else if (g.hi != 0 && d[value(d, g.hi)] != v) {
                    m.hi = g.hi;
                }
            }
        }
    }

    /// The canonical decimal text item at `pos` (checked before) as a `PorDecimal.Dec`.
    function decimal(bytes calldata d, uint256 pos) internal pure returns (PorDecimal.Dec memory v) {
        (, v) = PorDecimal.parseText(d, pos);
    }

    /// The value of the claim reference at `at` (checked by `PorContradictionsMaps.ref`:
    /// a three-entry map whose first key is "value").
    function value(bytes calldata, uint256 at) internal pure returns (uint256) {
        unchecked {
            return at + 7; // 0xa3, "\x65value"
        }
    }

    /// `read_state` of the cited step whose inputs, step_type and output values are at
    /// `inputs`, `stepType`, `out` for the requirement whose id text is at `req`: a check
    /// chunk (`check_requirement`) of that requirement, its output's requirement_id too;
    /// chunk, item_count, admitted_count, claim_count (and last_leaf when present)
    /// 0..2^63-1, covered iff admitted_count > 0, provenance_ok true when covered,
    /// `sources` valid, its groups valid (`readGroup`); (ok,
    /// claim_count, the groups).
    function readState(bytes calldata d, uint256 inputs, uint256 stepType, uint256 out, uint256 req)
        private
        pure
        returns (bool ok, uint256 claims, Group[] memory groups)
    {
        unchecked {
            // PorRecords.computation: a known check_requirement step
            uint256 rid = checkInputs(d, inputs, stepType);
            if (rid == 0) {
                if (PorCheckState.priorKindAt(d, inputs, stepType) != 2) return (false, 0, groups);
                rid = PorCheckState.key(d, inputs, 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15);
            }
            if (rid == 0 || !PorText.sameText(d, rid, req)) return (false, 0, groups);
            return stateOf(d, out, req);
        }
    }

    /// The requirement_id value of the inputs at `inputs` when they are {kind
    /// "check_requirement", requirement_id} as a check chunk's are written and the
    /// step_type at `stepType` is "check" (two word compares), else 0 (the caller asks
    /// `PorCheckState.priorKindAt` and walks the inputs: the same answer either way).
    function checkInputs(bytes calldata d, uint256 inputs, uint256 stepType) private pure returns (uint256 rid) {
        assembly ("memory-safe") {
            let b := d.offset
            // 0xa2, "\x64kind", "\x71check_requirement" (24 bytes), then "\x6erequirement_id"
            if eq(shr(64, calldataload(add(b, inputs))), 0xa2646b696e6471636865636b5f726571756972656d656e74) {
                if eq(shr(136, calldataload(add(b, add(inputs, 24)))), 0x6e726571756972656d656e745f6964) {
                    // "\x65check"
                    if eq(shr(208, calldataload(add(b, stepType))), 0x65636865636b) { rid := add(inputs, 39) }
                }
            }
        }
    }

    /// The output's keys before and after its groups, in §2 order (`PorCheckKeys.find`):
    /// to `groups`, then to `sources`, then those after `sources`.
    bytes private constant HEAD_KEYS = "\x05chunk\x06groups";
    bytes private constant MID_KEYS = "\x07covered\x07sources";
    bytes private constant TAIL_KEYS =
        "\x09last_leaf\x0aitem_count\x0bclaim_count\x0dprovenance_ok\x0eadmitted_count\x0erequirement_id";

    /// `readState`'s checks of the output at `out`, walked once: to `groups`, each group
    /// read (`readGroups`), then the keys after them (`tail`).
    function stateOf(bytes calldata d, uint256 out, uint256 req)
        private
        pure
        returns (bool ok, uint256 claims, Group[] memory groups)
    {
        unchecked {
            uint256[] memory at = new uint256[](6);
            uint256 left = headAt(d, out, at);
            if (left == 0) (, left) = PorCheckKeys.find(d, out, HEAD_KEYS, at);
            uint256 end;
            (ok, groups, end) = readGroups(d, at[1]);
            // the keys after groups: absent unless entries follow it
            if (!ok || left == 0) return (false, 0, groups);
            (ok, claims) = tail(d, at[0], end, left, req, at);
        }
    }

    /// The `left` entries from `p` after `groups` (chunk's value at `chunk`): to `sources`,
    /// its list read (`sources`), then the keys after it (each required key after
    /// `sources` sorts after it: `sources` is never the last entry of a valid state);
    /// `at` six words.
    function tail(bytes calldata d, uint256 chunk, uint256 p, uint256 left, uint256 req, uint256[] memory at)
        private
        pure
        returns (bool, uint256)
    {
        unchecked {
            // MID_KEYS: covered 0, sources 1
            (uint256 done, uint256 more) = (0, midAt(d, p, left, at));
            if (more == 0) (done, more) = PorCheckKeys.findFrom(d, p, left, MID_KEYS, at);
            uint256 covered = at[0];
            p = done == 0 && more != 0 && at[1] != 0 ? sources(d, at[1]) : 0;
            if (p == 0) return (false, 0);
            // TAIL_KEYS: last_leaf 0, item_count 1, claim_count 2, provenance_ok 3,
            // admitted_count 4, requirement_id 5
            if (!tailAt(d, p, more, at)) PorCheckKeys.findAfter(d, p, more, TAIL_KEYS, at);
            return rest(d, chunk, covered, at, req);
        }
    }

    /// HEAD_KEYS' values when the output at `out` begins {chunk (an unsigned integer),
    /// items, groups} as a state is written and entries follow groups: `find`'s positions
    /// in `at` and its `left` (the entries after groups), read in place; else 0 (the
    /// caller walks).
    function headAt(bytes calldata d, uint256 out, uint256[] memory at) private pure returns (uint256) {
        unchecked {
            (bool isMap, uint256 count, uint256 q) = PorContradictionsMaps.container(d, out, PorCbor.MAP);
            if (!isMap || count < 4) return 0;
            at[0] = q = PorCheckKeys.keyAt(d, q, 0x656368756e6b, 6);
            q = PorCheckKeys.keyAt(d, PorCheckKeys.uintEnd(d, q), 0x656974656d73, 6);
            if (q == 0) return 0;
            uint256 end = PorContradictionsItems.end(d, q);
            at[1] = q = PorCheckKeys.keyAt(d, end == 0 ? PorCbor.skip(d, q) : end, 0x6667726f757073, 7);
            return q == 0 ? 0 : count - 3;
        }
    }

    /// MID_KEYS' values when the `left` entries from `p` (after groups) begin {window,
    /// covered (a bool), sources} as a state is written and entries follow sources:
    /// `findFrom`'s positions in `at` and the entries after sources, read in place; else 0.
    function midAt(bytes calldata d, uint256 p, uint256 left, uint256[] memory at) private pure returns (uint256) {
        unchecked {
            if (left < 4) return 0;
            uint256 q = PorCheckKeys.keyAt(d, p, 0x6677696e646f77, 7);
            if (q == 0) return 0;
            q = PorCheckKeys.keyAt(d, windowEnd(d, q), 0x67636f7665726564, 8);
            if (q == 0 || (d[q] != 0xf4 && d[q] != 0xf5)) return 0;
            at[0] = q;
            at[1] = q = PorCheckKeys.keyAt(d, q + 1, 0x67736f7572636573, 8);
            return q == 0 ? 0 : left - 3;
        }
    }

    /// The offset after the window value at `q`: read in place when it is {end, start} of
    /// unsigned integers as a state is written, else skipped (the same offset).
    function windowEnd(bytes calldata d, uint256 q) private pure returns (uint256 e) {
        unchecked {
            if (d[q] == 0xa2) {
                e = PorCheckKeys.uintEnd(d, PorCheckKeys.keyAt(d, q + 1, 0x63656e64, 4)); // "\x63end"
                e = PorCheckKeys.uintEnd(d, PorCheckKeys.keyAt(d, e, 0x657374617274, 6)); // "\x65start"
            }
            if (e == 0) e = PorCbor.skip(d, q);
        }
    }

    /// TAIL_KEYS' values when they are the next entries from `p` (of the `more` left), in
    /// their §2 order, `last_leaf` optional, each of the type read (a state as written):
    /// `findAfter`'s positions in `at`, read in place; else false (the caller walks).
    function tailAt(bytes calldata d, uint256 p, uint256 more, uint256[] memory at) private pure returns (bool) {
        unchecked {
            uint256 q = PorCheckKeys.keyAt(d, p, 0x696c6173745f6c656166, 10);
            at[0] = q;
            q = q == 0 ? p : PorCheckKeys.uintEnd(d, q);
            if (more < (at[0] == 0 ? 5 : 6)) return false;
            at[1] = q = PorCheckKeys.keyAt(d, q, 0x6a6974656d5f636f756e74, 11);
            at[2] = q = PorCheckKeys.keyAt(d, PorCheckKeys.uintEnd(d, q), 0x6b636c61696d5f636f756e74, 12);
            at[3] = q = PorCheckKeys.keyAt(d, PorCheckKeys.uintEnd(d, q), 0x6d70726f76656e616e63655f6f6b, 14);
            // provenance_ok a bool
            if (q == 0 || (d[q] != 0xf4 && d[q] != 0xf5)) return false;
            at[4] = q = PorCheckKeys.keyAt(d, q + 1, 0x6e61646d69747465645f636f756e74, 15);
            at[5] = PorCheckKeys.keyAt(d, PorCheckKeys.uintEnd(d, q), 0x6e726571756972656d656e745f6964, 15);
            return at[5] != 0;
        }
    }

    /// `stateOf`'s checks of `covered` (at `covered`) and the keys after `sources`
    /// (TAIL_KEYS positions `at`): chunk (at `chunk`), item_count, claim_count,
    /// admitted_count counts (0..2^63-1), last_leaf absent or a count, covered and
    /// provenance_ok bools, covered iff admitted_count > 0, provenance_ok when covered,
    /// requirement_id the requirement's; (ok, claim_count). One assembly block.
    function rest(bytes calldata d, uint256 chunk, uint256 covered, uint256[] memory at, uint256 req)
        private
        pure
        returns (bool ok, uint256 claims)
    {
        assembly ("memory-safe") {
            // `PorCheckState.countAt`: (1, v) for a count 0..2^63-1 at `p`, else (0, _)
            function count(bs, p) -> okc, v {
                if p {
                    let w := calldataload(add(bs, p))
                    let ib := byte(0, w)
                    if lt(ib, 0x1c) {
                        v := ib
                        okc := 1
                        if gt(ib, 23) {
                            v := shr(sub(256, shl(3, shl(sub(ib, 24), 1))), shl(8, w))
                            okc := iszero(shr(63, v))
                        }
                    }
                }
            }
            // a bool at `p` (0: absent): (1, value), else (0, _)
            function boolean(bs, p) -> okb, v {
                if p {
                    let ib := byte(0, calldataload(add(bs, p)))
                    okb := or(eq(ib, 0xf4), eq(ib, 0xf5))
                    v := eq(ib, 0xf5)
                }
            }
            let b := d.offset
            let leaf := mload(add(at, 0x20))
            ok := 1
            if leaf { ok, leaf := count(b, leaf) }
            let okc, v := count(b, chunk)
            ok := and(ok, okc)
            okc, v := count(b, mload(add(at, 0x40))) // item_count
            ok := and(ok, okc)
            okc, claims := count(b, mload(add(at, 0x60)))
            ok := and(ok, okc)
            okc, v := count(b, mload(add(at, 0xa0))) // admitted_count
            ok := and(ok, okc)
            let okb, isCovered := boolean(b, covered)
            ok := and(ok, okb)
            let provenance := 0
            okb, provenance := boolean(b, mload(add(at, 0x80)))
            // covered iff admitted_count > 0; provenance_ok when covered
            ok := and(and(ok, okb), and(eq(isCovered, gt(v, 0)), or(provenance, iszero(isCovered))))
        }
        ok = ok && at[5] != 0 && PorText.sameText(d, at[5], req);
    }

    /// The longest `sources` list whose ids are compared pairwise.
    uint256 private constant SMALL = 8;

    /// `sources`: a list of {evidence_id, source_id, step_id} maps of texts
    /// (`PorContradictionsMaps.source`), no source_id twice: the offset after the list,
    /// else 0. Up to SMALL entries each source_id is compared with those before it (at
    /// most 28 compares, no hash); a longer list goes through a hash table.
    function sources(bytes calldata d, uint256 pos) private pure returns (uint256) {
        unchecked {
            (bool isArray, uint256 n, uint256 p) = PorContradictionsMaps.container(d, pos, PorCbor.ARRAY);
            if (!isArray) return 0;
            if (n > SMALL) return sourcesHashed(d, n, p);
            uint256[SMALL] memory seen;
            for (uint256 i = 0; i < n; i++) {
                (uint256 end, uint256 src) = PorContradictionsMaps.source(d, p);
                if (end == 0) return 0;
                for (uint256 j = 0; j < i; j++) {
                    if (PorText.sameText(d, seen[j], src)) return 0; // a source named twice
                }
                seen[i] = src;
                p = end;
            }
            return p;
        }
    }

    /// `sources` of `n` > SMALL entries from `p`, their source_id hashes in a table.
    function sourcesHashed(bytes calldata d, uint256 n, uint256 p) private pure returns (uint256) {
        unchecked {
            bytes32[] memory seen = tableFor(n);
            for (uint256 i = 0; i < n; i++) {
                (uint256 end, uint256 src) = PorContradictionsMaps.source(d, p);
                if (end == 0) return 0;
                bytes32 key = PorCheckKeys.textHash(d, src);
                uint256 free = slot(seen, key);
                if (seen[free] == key) return 0; // a source named twice
                seen[free] = key;
                p = end;
            }
            return p;
        }
    }

    /// A group (`_group`, `PorContradictionsMaps.group`): claim_count 1..2^63-1 too.
    /// `g.chunk` (set by the caller after): the offset after the group.
    function readGroup(bytes calldata d, uint256 p) private pure returns (bool ok, Group memory g) {
        unchecked {
            PorContradictionsMaps.Fields memory f = PorContradictionsMaps.group(d, p);
            if (f.end == 0) return (false, g);
            (ok, g.count) = PorRecords.uintIn(d, f.countAt, 1, PorRecords.MAX_COUNT);
            (g.numeric, g.key, g.lo, g.hi, g.chunk) = (f.numeric, f.key, f.lo, f.hi, f.end);
            if (ok) g.id = keccak256(abi.encodePacked(g.numeric, d[g.key:f.keyEnd]));
        }
    }

    /// The claim_id item of the reference at `r` (after "value" and its value, then the key).
    function claimId(bytes calldata d, uint256 r) internal pure returns (uint256) {
        unchecked {
            return PorCbor.skip(d, value(d, r)) + 9; // "\x68claim_id"
        }
    }
}
