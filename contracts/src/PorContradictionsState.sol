// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorInclusion} from "./PorInclusion.sol";
import {PorOneStepCheck} from "./PorOneStepCheck.sol";
import {PorRecords} from "./PorRecords.sol";
import {PorIds} from "./PorIds.sol";

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
        uint256[] buf; // `readGroup`'s seven GROUP_KEYS positions
    }

    // Key lists in §2 order (1-byte length then the text, `PorRecords.fields`,
    // `PorCheckKeys.find`).
    bytes internal constant GROUP_KEYS = "\x03key\x03max\x03min\x04kind\x05first\x05other\x0bclaim_count";
    bytes internal constant REF_KEYS = "\x05value\x08claim_id\x0bevidence_id";
    bytes internal constant SOURCE_KEYS = "\x07step_id\x09source_id\x0bevidence_id";

    /// The k-th cited step is a check chunk of requirement k (id text at `reqIds[k]`) with
    /// a valid state; (ok, the merged groups, the sum of the chunks' claim_count).
    function merge(
        bytes calldata d,
        PorOneStepCheck.Parts memory parts,
        uint256[][] memory records,
        uint256[] memory reqIds
    ) internal pure returns (bool ok, Group[] memory merged, uint256 claims) {
        unchecked {
            uint256 first = 2 + parts.evidenceCount;
            uint256[] memory groupsAt = new uint256[](reqIds.length);
            uint256 total = 0;
            for (uint256 k = 0; k < reqIds.length; k++) {
                uint256 claimCount;
                uint256 groupCount;
                (ok, claimCount, groupsAt[k], groupCount) = readState(d, parts.all[first + k], records[first + k], reqIds[k]);
                if (!ok) return (false, merged, 0);
                claims += claimCount;
                total += groupCount;
            }
            merged = new Group[](total);
            Table memory t = Table(tableFor(total), new uint256[](0), new uint256[](7));
            t.index = new uint256[](t.keys.length);
            uint256 n = 0;
            for (uint256 k = 0; k < reqIds.length; k++) {
                (ok, n) = mergeChunk(d, merged, n, groupsAt[k], k + 1, t);
                if (!ok) return (false, merged, 0);
            }
            assembly ("memory-safe") {
                mstore(merged, n)
            }
        }
    }

    /// Merge the groups array at `groups` of the `chunk`-th cited chunk (from 1) into
    /// `merged[0:n]`: (ok, the new n).
    function mergeChunk(
        bytes calldata d,
        Group[] memory merged,
        uint256 n,
        uint256 groups,
        uint256 chunk,
        Table memory t
    ) private pure returns (bool ok, uint256) {
        unchecked {
            (, uint256 count, uint256 p) = PorCbor.container(d, groups, PorCbor.ARRAY);
            for (uint256 i = 0; i < count; i++) {
                Group memory g;
                (ok, g) = readGroup(d, p, t.buf);
                if (!ok) return (false, n);
                // readGroup's end of the group (see there), then the chunk
                p = g.chunk != 0 ? g.chunk : PorCbor.skip(d, p);
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
                if (PorDecimal.cmp(decimal(d, value(d, g.lo)), decimal(d, value(d, m.lo))) < 0) m.lo = g.lo;
                if (PorDecimal.cmp(decimal(d, value(d, g.hi)), decimal(d, value(d, m.hi))) > 0) m.hi = g.hi;
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

    /// The value of the claim reference at `at` (its first key, §2 order).
    function value(bytes calldata d, uint256 at) internal pure returns (uint256) {
        unchecked {
            (,, uint256 p) = PorCbor.container(d, at, PorCbor.MAP);
            return p + 6; // "\x65value"
        }
    }

    /// `read_state` of the cited step `part` (value offsets `rec` in its leaf) for the
    /// requirement whose id text is at `req`: a check chunk (`check_requirement`) of that
    /// requirement, its output's requirement_id too; chunk, item_count, admitted_count,
    /// claim_count (and last_leaf when present) 0..2^63-1, covered iff admitted_count > 0,
    /// provenance_ok true when covered, `sources` valid; (ok, claim_count, the groups
    /// array, its count).
    function readState(bytes calldata d, PorInclusion.Part memory part, uint256[] memory rec, uint256 req)
        private
        pure
        returns (bool ok, uint256 claims, uint256 groups, uint256 groupCount)
    {
        unchecked {
            (bool known, bytes32 kind,) = PorRecords.computation(d[part.leaf:part.leaf + part.leafLength], rec);
            if (!known || kind != PorIds.CHECK_REQUIREMENT) return (false, 0, 0, 0);
            uint256 rid = PorCheckState.key(
                d, part.leaf + rec[PorRecords.STEP_INPUTS], 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15
            );
            if (!sameText(d, rid, req)) return (false, 0, 0, 0);
            return stateOf(d, part.leaf + rec[PorRecords.STEP_OUTPUT], req);
        }
    }

    /// `readState`'s checks of the output at `out`.
    function stateOf(bytes calldata d, uint256 out, uint256 req)
        private
        pure
        returns (bool ok, uint256 claims, uint256 groups, uint256 groupCount)
    {
        unchecked {
            // PorCheckState.STATE_KEYS: chunk 0, groups 1, covered 2, sources 3, last_leaf 4,
            // item_count 5, claim_count 6, provenance_ok 7, admitted_count 8, requirement_id 9
            uint256[] memory at = new uint256[](10);
            PorCheckKeys.find(d, out, PorCheckState.STATE_KEYS, at);
            uint256 admitted;
            (ok, claims, admitted) = counts(d, at);
            (bool okCovered, bool covered) = at[2] == 0 ? (false, false) : PorCbor.boolAt(d, at[2]);
            (bool okProvenance, bool provenance) = at[7] == 0 ? (false, false) : PorCbor.boolAt(d, at[7]);
            ok = ok && okCovered && okProvenance && covered == (admitted > 0) && (provenance || !covered)
                && sameText(d, at[9], req) && sources(d, at[3]);
            groups = at[1];
            (ok, groupCount) = arrayAt(d, groups, ok);
        }
    }

    /// chunk, item_count, claim_count, admitted_count counts, last_leaf absent or a count
    /// (`stateOf`'s positions `at`): (ok, claim_count, admitted_count).
    function counts(bytes calldata d, uint256[] memory at) private pure returns (bool ok, uint256 claims, uint256 admitted) {
        ok = true;
        if (at[4] != 0) (ok,) = PorCheckState.countAt(d, at[4]);
        (bool okChunk,) = PorCheckState.countAt(d, at[0]);
        (bool okItems,) = PorCheckState.countAt(d, at[5]);
        (bool okClaims, uint256 c) = PorCheckState.countAt(d, at[6]);
        (bool okAdmitted, uint256 a) = PorCheckState.countAt(d, at[8]);
        return (ok && okChunk && okItems && okClaims && okAdmitted, c, a);
    }

    /// (`ok` and the item at `p` (0: absent) is an array, its count).
    function arrayAt(bytes calldata d, uint256 p, bool ok) private pure returns (bool, uint256 n) {
        if (p == 0) return (false, 0);
        bool isArray;
        (isArray, n,) = PorCbor.container(d, p, PorCbor.ARRAY);
        return (ok && isArray, n);
    }

    /// Python's text equality of the item at `a` (0: absent) and the text at `b`.
    function sameText(bytes calldata d, uint256 a, uint256 b) private pure returns (bool) {
        if (a == 0) return false;
        (bool text,,) = PorCbor.str(d, a, PorCbor.TEXT);
        return text && PorCheckKeys.sameText(d, a, b);
    }

    /// `sources`: a list of {evidence_id, source_id, step_id} maps of texts, no source_id twice.
    function sources(bytes calldata d, uint256 pos) private pure returns (bool) {
        unchecked {
            if (pos == 0) return false;
            (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
            if (!isArray) return false;
            bytes32[] memory seen = tableFor(n);
            uint256[] memory at = new uint256[](3);
            for (uint256 i = 0; i < n; i++) {
                uint256 end = three(d, p, SOURCE_KEYS, at);
                if (end == 0) return false;
                for (uint256 k = 0; k < 3; k++) {
                    (bool text,,) = PorCbor.str(d, at[k], PorCbor.TEXT);
                    if (!text) return false;
                }
                bytes32 key = PorCheckKeys.textHash(d, at[1]);
                uint256 free = slot(seen, key);
                if (seen[free] == key) return false; // a source named twice
                seen[free] = key;
                p = end;
            }
            return true;
        }
    }

    /// A group (`_group`): numeric {kind, key, claim_count >= 1, min, max} or boolean
    /// {kind, key, claim_count >= 1, first[, other]}, no other key, with references of
    /// its kind, a boolean `other` of the other value.
    /// `g.chunk` (set by the caller after): the offset after the group when its walk
    /// reached it (always when ok: its last key, claim_count, is a key read), else 0.
    function readGroup(bytes calldata d, uint256 p, uint256[] memory at) private pure returns (bool ok, Group memory g) {
        unchecked {
            // GROUP_KEYS: key 0, max 1, min 2, kind 3, first 4, other 5, claim_count 6
            (g.chunk,) = PorCheckKeys.find(d, p, GROUP_KEYS, at);
            (, uint256 count,) = PorCbor.container(d, p, PorCbor.MAP);
            (bool keyText,,) = at[0] == 0 ? (false, 0, 0) : PorCbor.str(d, at[0], PorCbor.TEXT);
            (bool counted, uint256 n) = at[6] == 0 ? (false, 0) : PorRecords.uintIn(d, at[6], 1, PorRecords.MAX_COUNT);
            ok = keyText && counted && at[3] != 0;
            g.numeric = ok && PorCheckState.isWord(d, at[3], 0x676e756d65726963000000000000000000000000000000000000000000000000, 8);
            if (g.numeric) {
                (g.lo, g.hi) = (at[2], at[1]);
                ok = count == 5 && at[2] != 0 && at[1] != 0 && ref(d, g.lo, true) && ref(d, g.hi, true);
            } else {
                (g.lo, g.hi) = (at[4], at[5]);
                ok = ok && PorCheckState.isWord(d, at[3], 0x67626f6f6c65616e000000000000000000000000000000000000000000000000, 8)
                    && at[2] == 0 && at[1] == 0 && at[4] != 0 && count == (at[5] == 0 ? 4 : 5) && ref(d, g.lo, false)
                    && (g.hi == 0 || (ref(d, g.hi, false) && d[value(d, g.hi)] != d[value(d, g.lo)]));
            }
            (g.key, g.count) = (at[0], n);
            if (ok) g.id = keccak256(abi.encodePacked(g.numeric, d[g.key:PorCbor.skip(d, g.key)]));
        }
    }

    /// A claim reference {claim_id, evidence_id (texts), value}: a canonical decimal text
    /// (`numeric`) or a bool.
    function ref(bytes calldata d, uint256 p, bool numeric) private pure returns (bool) {
        unchecked {
            uint256[] memory at = new uint256[](3);
            if (three(d, p, REF_KEYS, at) == 0) return false;
            (bool a,,) = PorCbor.str(d, at[1], PorCbor.TEXT);
            (bool b,,) = PorCbor.str(d, at[2], PorCbor.TEXT);
            if (!a || !b) return false;
            if (!numeric) {
                (bool isBool,) = PorCbor.boolAt(d, at[0]);
                return isBool;
            }
            (bool text, uint256 off, uint256 len) = PorCbor.str(d, at[0], PorCbor.TEXT);
            return text && PorDecimal.isCanonical(d, off, len);
        }
    }

    /// The map at `p` has exactly the three `keys` (packed in §2 order): the offset after
    /// it, their value positions in `at`; else 0. One walk (`PorCheckKeys.find`): three
    /// entries and the three keys found is exactly those keys (keys are unique, §2).
    function three(bytes calldata d, uint256 p, bytes memory keys, uint256[] memory at) private pure returns (uint256 end) {
        (bool isMap, uint256 count,) = PorCbor.container(d, p, PorCbor.MAP);
        (end,) = PorCheckKeys.find(d, p, keys, at);
        if (!isMap || count != 3 || at[0] == 0 || at[1] == 0 || at[2] == 0) return 0;
    }

    /// The claim_id item of the reference at `r` (after "value" and its value, then the key).
    function claimId(bytes calldata d, uint256 r) internal pure returns (uint256) {
        unchecked {
            return PorCbor.skip(d, value(d, r)) + 9; // "\x68claim_id"
        }
    }
}
