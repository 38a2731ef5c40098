// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorCheckState} from "./PorCheckState.sol";
import {PorCheckSpec} from "./PorCheckSpec.sol";
import {PorCheckStep} from "./PorCheckStep.sol";
import {PorCheckWrite} from "./PorCheckWrite.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorCheckRecord: a check chunk's recomputed `description` and `output`
/// (SPEC §12.5.3) written as por-cbor/1 bytes and compared with the committed ones.
library PorCheckRecord {
    // --- the recomputed record ----------------------------------------------------------

    /// "check requirement " R " chunk " c ": " a " of " n " item(s) admitted".
    function description(bytes calldata d, uint256 pos, uint256 rid, uint256 c, uint256 a, uint256 n)
        internal
        pure
        returns (bool)
    {
        (bool t, uint256 off, uint256 len) = PorCbor.str(d, pos, PorCbor.TEXT);
        if (!t) return false;
        PorCheckWrite.W memory w = PorCheckWrite.create(len + 1);
        (, uint256 ro, uint256 rl) = PorCbor.str(d, rid, PorCbor.TEXT);
        PorCheckWrite.word(w, 0x636865636b20726571756972656d656e74200000000000000000000000000000, 18);
        PorCheckWrite.copy(w, d, ro, ro + rl);
        PorCheckWrite.word(w, 0x206368756e6b2000000000000000000000000000000000000000000000000000, 7);
        PorCheckWrite.decimal(w, c);
        PorCheckWrite.word(w, 0x3a20000000000000000000000000000000000000000000000000000000000000, 2);
        PorCheckWrite.decimal(w, a);
        PorCheckWrite.word(w, 0x206f662000000000000000000000000000000000000000000000000000000000, 4);
        PorCheckWrite.decimal(w, n);
        PorCheckWrite.word(w, 0x206974656d2873292061646d6974746564000000000000000000000000000000, 17);
        return PorCheckWrite.equals(w, d, off, off + len);
    }

    /// The output's bytes equal the committed map of the step at `sb` (fields at `at`,
    /// SPEC §12.5.3's table; R at `rid`).
    function output(
        bytes calldata d,
        uint256 sb,
        uint256[] memory at,
        uint256 rid,
        PorCheckSpec.Spec memory spec,
        PorCheckState.State memory s,
        PorCheckStep.Item[] memory items,
        uint256 admitted
    ) internal pure returns (bool) {
        // The step's keys are exactly PorRecords.STEP_KEYS, in order: the "schema" key
        // (7 bytes) follows the output, so the output ends where that key begins.
        (uint256 pos, uint256 end) = (sb + at[PorRecords.STEP_OUTPUT], sb + at[PorRecords.STEP_SCHEMA] - 7);
        PorCheckWrite.W memory w = PorCheckWrite.create(end - pos + 1);
        s.admitted += admitted;
        body(w, d, rid, spec, s, items);
        return PorCheckWrite.equals(w, d, pos, end);
    }

    /// The recomputed output written to `w` (`s.admitted` counts this chunk's already).
    /// Pieces that follow one another are one word where they fit: a key and the head
    /// after it (`PorCheckWrite.keyHead`), keys with fixed values between them.
    function body(
        PorCheckWrite.W memory w,
        bytes calldata d,
        uint256 rid,
        PorCheckSpec.Spec memory spec,
        PorCheckState.State memory s,
        PorCheckStep.Item[] memory items
    ) private pure {
        uint256 keys = 11 + (s.hasLast || items.length > 0 ? 1 : 0) + (s.hasLast ? 1 : 0);
        // map(keys), "chunk": the map's head (keys < 24: one byte) before the key
        PorCheckWrite.keyHead(w, bytes32((0xa0 | keys) << 248) | bytes32(0x00656368756e6b00000000000000000000000000000000000000000000000000), 7, PorCbor.UINT, s.chunk);
        PorCheckWrite.keyHead(w, 0x656974656d730000000000000000000000000000000000000000000000000000, 6, PorCbor.ARRAY, items.length); // "items"
        for (uint256 i = 0; i < items.length; i++) writeItem(w, d, items[i]);
        s.claims += PorCheckStepGroups.update(d, s, items);
        PorCheckWrite.keyHead(w, 0x6667726f75707300000000000000000000000000000000000000000000000000, 7, PorCbor.ARRAY, s.groupCount); // "groups"
        for (uint256 i = 0; i < s.groupCount; i++) PorCheckWrite.group(w, d, s.groups[i]);
        PorCheckWrite.keyHead(w, 0x6677696e646f77a263656e640000000000000000000000000000000000000000, 12, PorCbor.UINT, spec.end); // "window": {"end"
        PorCheckWrite.keyHead(w, 0x6573746172740000000000000000000000000000000000000000000000000000, 6, PorCbor.UINT, spec.start); // "start"
        tail(w, d, rid, s, items);
    }

    /// From "covered" on (`s` updated with this chunk's admitted and claim counts).
    function tail(PorCheckWrite.W memory w, bytes calldata d, uint256 rid, PorCheckState.State memory s, PorCheckStep.Item[] memory items)
        private
        pure
    {
        uint256 prov = 0;
        for (uint256 i = 0; i < items.length; i++) prov |= items[i].reasons;
        bool covered = s.admitted > 0;
        // "covered", its bool (0xf4, | 1 for true: 0xf5), "sources"
        PorCheckWrite.word(w, bytes32(0x67636f7665726564f467736f7572636573000000000000000000000000000000) | bytes32(uint256(covered ? 1 : 0) << 184), 17);
        PorCheckStepGroups.writeSources(w, d, s, items);
        if (s.hasLast) PorCheckWrite.keyHead(w, 0x6966726f6d5f6c65616600000000000000000000000000000000000000000000, 10, PorCbor.UINT, s.last); // "from_leaf"
        if (s.hasLast || items.length > 0) {
            PorCheckWrite.keyHead(w, 0x696c6173745f6c65616600000000000000000000000000000000000000000000, 10, PorCbor.UINT, items.length > 0 ? items[items.length - 1].leaf : s.last); // "last_leaf"
        }
        PorCheckWrite.keyHead(w, 0x6a6974656d5f636f756e74000000000000000000000000000000000000000000, 11, PorCbor.UINT, s.items + items.length); // "item_count"
        PorCheckWrite.keyHead(w, 0x6b636c61696d5f636f756e740000000000000000000000000000000000000000, 12, PorCbor.UINT, s.claims); // "claim_count"
        // "provenance_ok", its bool, "admitted_count"
        bool prOk = covered || (s.provenanceOk && prov & PorCheckStep.PROVENANCE == 0);
        PorCheckWrite.word(w, bytes32(0x6d70726f76656e616e63655f6f6bf46e61646d69747465645f636f756e740000) | bytes32(uint256(prOk ? 1 : 0) << 136), 30);
        PorCheckWrite.head(w, PorCbor.UINT, s.admitted);
        PorCheckWrite.word(w, 0x6e726571756972656d656e745f69640000000000000000000000000000000000, 15); // "requirement_id"
        PorCheckWrite.item(w, d, rid);
    }

    /// `{"reasons", "admitted", "source_id", "evidence_id", "gate_reason"?, "observed_at",
    /// "observed_from"}` (§2 order).
    function writeItem(PorCheckWrite.W memory w, bytes calldata d, PorCheckStep.Item memory it) private pure {
        uint256 r = it.reasons;
        if (r == 0) {
            // map(6), "reasons": [], "admitted": true, "source_id"
            PorCheckWrite.word(w, 0xa667726561736f6e73806861646d6974746564f569736f757263655f69640000, 30);
        } else {
            uint256 n = 0;
            for (uint256 b = 1; b <= PorCheckStep.GATE; b <<= 1) if (r & b != 0) n++;
            // map(6 or 7), "reasons", array(n)
            PorCheckWrite.word(w, bytes32(uint256(r == PorCheckStep.GATE ? 0xa7 : 0xa6) << 248 | (0x80 | n) << 176) | bytes32(0x0067726561736f6e730000000000000000000000000000000000000000000000), 10);
            if (r & PorCheckStep.ALLOWED != 0) PorCheckWrite.word(w, 0x7573616e6974792e616c6c6f7765645f736f7572636500000000000000000000, 22);
            if (r & PorCheckStep.TARGET != 0) PorCheckWrite.word(w, 0x7473616e6974792e736f757263655f7461726765740000000000000000000000, 21);
            if (r & PorCheckStep.WINDOW != 0) PorCheckWrite.word(w, 0x7273616e6974792e74696d655f77696e646f7700000000000000000000000000, 19);
            if (r & PorCheckStep.PROVENANCE != 0) PorCheckWrite.word(w, 0x7173616e6974792e70726f76656e616e63650000000000000000000000000000, 18);
            if (r & PorCheckStep.STATUS != 0) PorCheckWrite.word(w, 0x7273616e6974792e687474705f73746174757300000000000000000000000000, 19);
            if (r & PorCheckStep.GATE != 0) PorCheckWrite.word(w, 0x6f676174652e6167656e745f6e616d6500000000000000000000000000000000, 16);
            // "admitted": false, "source_id"
            PorCheckWrite.word(w, 0x6861646d6974746564f469736f757263655f6964000000000000000000000000, 20);
        }
        PorCheckWrite.item(w, d, it.sid);
        PorCheckWrite.word(w, 0x6b65766964656e63655f69640000000000000000000000000000000000000000, 12); // "evidence_id"
        PorCheckWrite.item(w, d, it.eid);
        if (r == PorCheckStep.GATE) {
            PorCheckWrite.word(w, 0x6b676174655f726561736f6e0000000000000000000000000000000000000000, 12); // "gate_reason"
            PorCheckWrite.word(w, 0x782f6167656e74206e616d6520697320626c616e6b2028656d707479206f7220, 32);
            PorCheckWrite.word(w, 0x6f6e6c7920776869746520737061636529000000000000000000000000000000, 17);
        }
        PorCheckWrite.word(w, 0x6b6f627365727665645f61740000000000000000000000000000000000000000, 12); // "observed_at"
        PorCheckWrite.item(w, d, it.observed);
        // "observed_from": "claim" or "receipt"
        if (it.fromClaim) PorCheckWrite.word(w, 0x6d6f627365727665645f66726f6d65636c61696d000000000000000000000000, 20);
        else PorCheckWrite.word(w, 0x6d6f627365727665645f66726f6d677265636569707400000000000000000000, 22);
    }
}

/// @title PorCheckStepGroups: the running state's groups and sources updated with a
/// chunk's admitted items (SPEC §12.5.3), and the sources written.
library PorCheckStepGroups {
    /// Fold the claims of the admitted items into `s.groups` (numeric min/max exact,
    /// boolean first/other); the number of their claims (every kind).
    function update(bytes calldata d, PorCheckState.State memory s, PorCheckStep.Item[] memory items)
        internal
        pure
        returns (uint256 claims)
    {
        for (uint256 i = 0; i < items.length; i++) {
            PorCheckStep.Item memory it = items[i];
            if (it.reasons != 0) continue;
            claims += it.nClaims;
            // refs: two words a claim (its ref word, the claim as checked when read, then
            // its packed number), walked by their memory position
            uint256[] memory refs = it.refs;
            uint256 q;
            uint256 e = it.nClaims << 6;
            assembly ("memory-safe") {
                q := add(refs, 0x20)
                e := add(q, e)
            }
            for (; q < e; q += 0x40) {
                uint256 c;
                uint256 num;
                assembly ("memory-safe") {
                    c := mload(q)
                    num := mload(add(q, 0x20))
                }
                uint8 kind = uint8(c);
                if (kind == PorCheckStep.NUMERIC || kind == PorCheckStep.BOOLEAN) fold(d, s, c, num, it.eid);
            }
        }
    }

    /// Fold one claim (`PorCheckStep.ref`'s word; a numeric one's value as
    /// `PorCheckClaim.number` parsed it when the claim was read) into its group.
    function fold(bytes calldata d, PorCheckState.State memory s, uint256 c, uint256 num, uint256 eid) private pure {
        bool numeric = uint8(c) == PorCheckStep.NUMERIC;
        uint256 key = (c >> 16) & 0xffffffffffffffffffff;
        PorCheckState.Ref memory r = PorCheckState.Ref(0, (c >> 96) & 0xffffffffffffffffffff, c >> 176, eid);
        bytes32 tag = PorCheckState.tagOf(numeric, PorCheckState.textHash(d, key));
        PorDecimal.Dec memory v;
        if (numeric) v = PorDecimal.Dec(num >> 255 != 0, 0, num & ((1 << 216) - 1), (num >> 216) & 0xff);
        for (uint256 g = 0; g < s.groupCount; g++) {
            PorCheckState.Group memory x = s.groups[g];
            if (x.tag != tag) continue;
            x.count++;
            if (numeric) {
                if (!x.parsed) {
                    (, x.min) = PorDecimal.parseText(d, x.a.value);
                    (, x.max) = PorDecimal.parseText(d, x.b.value);
                    x.parsed = true;
                }
                if (order(v, x.min) < 0) (x.a, x.min) = (r, v);
                if (order(v, x.max) > 0) (x.b, x.max) = (r, v);
            } else if (!x.hasB && d[r.value] != d[x.a.value]) {
                (x.b, x.hasB) = (r, true);
            }
            return;
        }
        s.groups[s.groupCount++] = PorCheckState.Group(numeric, numeric, key, 1, tag, r, r, numeric, v, v);
    }

    /// `PorDecimal.cmp(a, b)`: of one sign, `hi` 0 (every parsed text) and scales at most
    /// 18 apart, the magnitudes compare as words at the larger scale (a magnitude below
    /// 2^196 times 10^18 < 2^60 stays in a word); any other pair goes to `cmp`. Exact.
    function order(PorDecimal.Dec memory a, PorDecimal.Dec memory b) private pure returns (int256 c) {
        bool done;
        assembly ("memory-safe") {
            // Dec: neg, hi, lo, scale (a word each)
            if and(eq(mload(a), mload(b)), iszero(or(mload(add(a, 0x20)), mload(add(b, 0x20))))) {
                let x := mload(add(a, 0x40))
                let y := mload(add(b, 0x40))
                let sa := mload(add(a, 0x60))
                let sb := mload(add(b, 0x60))
                if lt(sa, sb) {
                    if and(lt(sub(sb, sa), 19), iszero(shr(196, x))) {
                        x := mul(x, exp(10, sub(sb, sa)))
                        sa := sb
                    }
                }
                if lt(sb, sa) {
                    if and(lt(sub(sa, sb), 19), iszero(shr(196, y))) {
                        y := mul(y, exp(10, sub(sa, sb)))
                        sb := sa
                    }
                }
                if eq(sa, sb) {
                    done := 1
                    c := sub(gt(x, y), lt(x, y))
                    if mload(a) { c := sub(0, c) }
                }
            }
        }
        if (!done) c = PorDecimal.cmp(a, b);
    }

    /// P's sources, then `{source_id, evidence_id, step_id}` of each admitted item whose
    /// source is named by no entry yet.
    function writeSources(PorCheckWrite.W memory w, bytes calldata d, PorCheckState.State memory s, PorCheckStep.Item[] memory items)
        internal
        pure
    {
        // the source_ids named so far (hashes): P's entries' as `PorCheckState.read` hashed
        // them, then each added item's, in memory allocated here (`textHash` hashes in
        // scratch memory past the free pointer)
        bytes32[] memory tags = s.sourceTags;
        uint256 n = s.sourceCount;
        uint256 named;
        uint256 room = items.length;
        assembly ("memory-safe") {
            named := mload(0x40)
            mcopy(named, add(tags, 0x20), shl(5, n))
            mstore(0x40, add(named, shl(5, add(n, room))))
        }
        uint256 adds = 0; // bit i: item i adds an entry (items.length <= K)
        for (uint256 i = 0; i < items.length; i++) {
            if (items[i].reasons != 0) continue;
            bytes32 h = PorCheckState.textHash(d, items[i].sid);
            bool seen;
            assembly ("memory-safe") {
                let e := add(named, shl(5, n))
                for { let q := named } lt(q, e) { q := add(q, 0x20) } {
                    if eq(mload(q), h) {
                        seen := 1
                        break
                    }
                }
                if iszero(seen) {
                    mstore(e, h)
                    n := add(n, 1)
                }
            }
            if (!seen) adds |= 1 << i;
        }
        PorCheckWrite.head(w, PorCbor.ARRAY, n);
        PorCheckWrite.copy(w, d, s.sources, s.sourcesEnd);
        for (uint256 i = 0; i < items.length; i++) {
            if (adds & (1 << i) == 0) continue;
            PorCheckWrite.word(w, 0xa367737465705f69640000000000000000000000000000000000000000000000, 9); // map(3), "step_id"
            PorCheckWrite.item(w, d, items[i].stepId);
            PorCheckWrite.word(w, 0x69736f757263655f696400000000000000000000000000000000000000000000, 10); // "source_id"
            PorCheckWrite.item(w, d, items[i].sid);
            PorCheckWrite.word(w, 0x6b65766964656e63655f69640000000000000000000000000000000000000000, 12); // "evidence_id"
            PorCheckWrite.item(w, d, items[i].eid);
        }
    }
}
