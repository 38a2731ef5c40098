// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "./PorCbor.sol";
import {PorCheckKeys} from "./PorCheckKeys.sol";
import {PorContradictionsMaps} from "./PorContradictionsMaps.sol";
import {PorDecimal} from "./PorDecimal.sol";
import {PorRecords} from "./PorRecords.sol";

/// @title PorCheckState: the running state of a requirement's check chunks (SPEC §12.5.3),
/// read from the cited chunk c-1 and written back as canonical por-cbor/1 bytes.
/// @notice Every position is an offset in the whole proof document `d` (a leaf's offset
/// plus the offset in the leaf), so items of different leaves are copied by position.
/// A claim reference is kept as positions: either the raw bytes of a reference of the
/// cited chunk (`raw`) or a claim of a cited extract step (its `value`, `claim_id` and
/// its item's `evidence_id`), so nothing is re-encoded that the chain could spell
/// another way: every map written here has a fixed key set whose §2 order is static.
library PorCheckState {
    /// A claim reference (SPEC §12.5.3): `raw` the reference map of chunk c-1 (0 for a
    /// claim of this chunk), `value` its value item, `claimId`/`eid` its texts.
    struct Ref {
        uint256 raw;
        uint256 value;
        uint256 claimId;
        uint256 eid;
    }

    /// A contradiction group: numeric (`a` min, `b` max) or boolean (`a` first, `b`
    /// other when `hasB`); `key` the key text's position, `tag` keccak(kind, key).
    struct Group {
        bool numeric;
        bool hasB;
        uint256 key;
        uint256 count;
        bytes32 tag;
        Ref a;
        Ref b;
        bool parsed; // a numeric group's `min`/`max`: a's and b's values, parsed once
        PorDecimal.Dec min;
        PorDecimal.Dec max;
    }

    /// The state carried from chunk c-1 (or the initial one).
    struct State {
        uint256 chunk; // chunk c-1's number + 1 (0 without a chunk before)
        uint256 items;
        uint256 admitted;
        uint256 claims;
        bool provenanceOk;
        bool hasLast;
        uint256 last;
        uint256 sources; // first source entry of chunk c-1 (raw copies)
        uint256 sourceCount;
        uint256 sourcesEnd; // the offset after chunk c-1's sources
        bytes32[] sourceTags; // their source_ids' text hashes
        uint256 groupCount;
        Group[] groups; // capacity for the new groups too
    }

    /// The keys of chunk c-1's output `read` uses, in §2 order (`PorCheckKeys.find`); the
    /// last, requirement_id, is its caller's.
    bytes internal constant STATE_KEYS =
        "\x05chunk\x06groups\x07covered\x07sources\x09last_leaf\x0aitem_count\x0bclaim_count\x0dprovenance_ok\x0eadmitted_count\x0erequirement_id";

    /// `source_id`, then `PorCheckKeys.ALL` (`findAll`: a target's or a source entry's
    /// source_id and the map walked to its end).
    bytes internal constant SOURCE_ID =
        "\x09source_id\x17\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";

    /// SPEC §12.5.3's malformed-state rules for chunk c-1's `output`, whose STATE_KEYS
    /// values are at `f` (one walk), with room for `extra` new groups; ok false is
    /// step.bad_prior_output (the caller has checked that it is a check chunk of R).
    function read(bytes calldata d, uint256[] memory f, uint256 extra) internal pure returns (bool ok, State memory s) {
        bool covered;
        uint256 chunk;
        (ok, chunk) = countAt(d, f[0]);
        s.chunk = chunk + 1;
        bool good;
        (good, s.items) = countAt(d, f[5]);
        ok = ok && good;
        (good, s.admitted) = countAt(d, f[8]);
        ok = ok && good;
        (good, s.claims) = countAt(d, f[6]);
        ok = ok && good;
        (good, covered) = f[2] == 0 ? (false, false) : PorCbor.boolAt(d, f[2]);
        ok = ok && good;
        (good, s.provenanceOk) = f[7] == 0 ? (false, false) : PorCbor.boolAt(d, f[7]);
        ok = ok && good && covered == (s.admitted > 0) && (!covered || s.provenanceOk);
        if (!ok) return (false, s);
        if (f[4] != 0) {
            s.hasLast = true;
            (ok, s.last) = PorRecords.uintIn(d, f[4], 0, PorRecords.MAX_COUNT);
            if (!ok) return (false, s);
        }
        (ok, s.sources, s.sourcesEnd, s.sourceTags) = sources(d, f[3]);
        if (!ok) return (false, s);
        s.sourceCount = s.sourceTags.length;
        uint256 p = f[1];
        bool isArray;
        (isArray, s.groupCount, p) = p == 0 ? (false, 0, 0) : PorCbor.container(d, p, PorCbor.ARRAY);
        if (!isArray) return (false, s);
        s.groups = room(s.groupCount + extra);
        bytes32[] memory tags = new bytes32[](s.groupCount);
        for (uint256 i = 0; i < s.groupCount; i++) {
            (ok, s.groups[i], p) = group(d, p);
            if (!ok) return (false, s);
            tags[i] = s.groups[i].tag;
        }
        ok = !repeats(tags);
    }

    /// Room for `n` groups: `n` entries not set (each is set before it is read), not
    /// `new Group[](n)`, which would build and zero `n` groups that are never read.
    function room(uint256 n) internal pure returns (Group[] memory g) {
        assembly ("memory-safe") {
            g := mload(0x40)
            mstore(g, n)
            let end := add(g, shl(5, add(n, 1)))
            for { let p := add(g, 32) } lt(p, end) { p := add(p, 32) } { mstore(p, 0x60) }
            mstore(0x40, end)
        }
    }

    /// A count (0..2^63-1) at `p` (0: absent).
    /// (`PorRecords.uintIn(d, p, 0, MAX_COUNT)` from the head's word: a major-0 head of
    /// at most eight argument bytes, the value below 2^63.)
    function countAt(bytes calldata d, uint256 p) internal pure returns (bool ok, uint256 v) {
        assembly ("memory-safe") {
            if p {
                let w := calldataload(add(d.offset, p))
                let ib := byte(0, w)
                if lt(ib, 0x1c) {
                    v := ib
                    ok := 1
                    if gt(ib, 23) {
                        v := shr(sub(256, shl(3, shl(sub(ib, 24), 1))), shl(8, w))
                        ok := iszero(shr(63, v))
                    }
                }
            }
        }
    }

    /// The value under a key of the map at `pos` (0 when absent or not a map): `k` is the
    /// key's canonical head and text, left-aligned, `n` their length (at most 32), so a
    /// key compares as one word (as PorCbor.get, without a key in memory).
    function key(bytes calldata d, uint256 pos, bytes32 k, uint256 n) internal pure returns (uint256) {
        (bool ok, uint256 count_, uint256 p) = PorCbor.container(d, pos, PorCbor.MAP);
        if (!ok) return 0;
        for (uint256 i = 0; i < count_; i++) {
            if (isWord(d, p, k, n)) return p + n;
            p = PorCbor.skip(d, PorCbor.skip(d, p));
        }
        return 0;
    }

    /// `PorRecords.computation`'s answer on a cited step (leaf offset `b`, its value
    /// offsets `rec`) as the readers of prior steps use it: 1 a known `extract_claims`
    /// step (inputs.kind that text, step_type "extract"), 2 a known `check_requirement`
    /// step (step_type "check"), else 0 (another kind, or not known). Texts compare as
    /// words: no hash, no walk past inputs' first key.
    function priorKind(bytes calldata d, uint256 b, uint256[] memory rec) internal pure returns (uint256) {
        return priorKindAt(d, b + rec[PorRecords.STEP_INPUTS], b + rec[PorRecords.STEP_TYPE]);
    }

    /// `priorKind` from the absolute offsets of the step's inputs and step_type values.
    function priorKindAt(bytes calldata d, uint256 inputs, uint256 t) internal pure returns (uint256) {
        uint256 k = key(d, inputs, 0x646b696e64000000000000000000000000000000000000000000000000000000, 5);
        if (k == 0) return 0;
        if (isWord(d, k, 0x6e657874726163745f636c61696d730000000000000000000000000000000000, 15)) {
            return isWord(d, t, 0x6765787472616374000000000000000000000000000000000000000000000000, 8) ? 1 : 0;
        }
        if (isWord(d, k, 0x71636865636b5f726571756972656d656e740000000000000000000000000000, 18)) {
            return isWord(d, t, 0x65636865636b0000000000000000000000000000000000000000000000000000, 6) ? 2 : 0;
        }
        return 0;
    }

    /// The item at `p` is the text whose head and bytes are `k`'s first `n` bytes.
    function isWord(bytes calldata d, uint256 p, bytes32 k, uint256 n) internal pure returns (bool same) {
        assembly ("memory-safe") {
            let sh := shl(3, sub(32, n))
            same := eq(shr(sh, calldataload(add(d.offset, p))), shr(sh, k))
        }
    }

    /// A count (0..2^63-1) under `key` of the map at `map`.
    function count(bytes calldata d, uint256 map, bytes32 k, uint256 n) internal pure returns (bool ok, uint256 v) {
        return countAt(d, key(d, map, k, n));
    }

    /// The text under `key` of the map at `map`: (ok, its position).
    function text(bytes calldata d, uint256 map, bytes32 k, uint256 n) internal pure returns (bool ok, uint256 p) {
        p = key(d, map, k, n);
        if (p == 0) return (false, 0);
        (ok,,) = PorCbor.str(d, p, PorCbor.TEXT);
    }

    /// A list of `{source_id, evidence_id, step_id}` texts (`PorContradictionsMaps.source`),
    /// no source named twice: its first entry, the offset after it, the source_ids' hashes.
    function sources(bytes calldata d, uint256 pos)
        private
        pure
        returns (bool ok, uint256 first, uint256 end, bytes32[] memory tags)
    {
        if (pos == 0) return (false, 0, 0, tags);
        uint256 n;
        (ok, n, first) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!ok) return (false, 0, 0, tags);
        tags = new bytes32[](n);
        end = first;
        for (uint256 i = 0; i < n; i++) {
            uint256 src;
            (end, src) = PorContradictionsMaps.source(d, end);
            if (end == 0) return (false, 0, 0, tags);
            tags[i] = textHash(d, src);
        }
        ok = !repeats(tags);
    }

    /// keccak256 of the text at `p`'s content.
    function textHash(bytes calldata d, uint256 p) internal pure returns (bytes32) {
        return PorCheckKeys.textHash(d, p);
    }

    /// The group tag of (kind, key): keccak256 of both texts' hashes.
    function tagOf(bool numeric, bytes32 keyHash) internal pure returns (bytes32 tag) {
        // keccak256(abi.encodePacked(numeric, keyHash)), in scratch space
        assembly ("memory-safe") {
            mstore8(0, numeric)
            mstore(1, keyHash)
            tag := keccak256(0, 33)
        }
    }

    /// One group of chunk c-1 (SPEC §12.5.3, `_group` of por/auditor/chunk_state.py, read
    /// in place by `PorContradictionsMaps.group`); `end` the offset after it when ok.
    function group(bytes calldata d, uint256 p) private pure returns (bool ok, Group memory g, uint256 end) {
        PorContradictionsMaps.Fields memory f = PorContradictionsMaps.group(d, p);
        end = f.end;
        if (end == 0) return (false, g, 0);
        (ok, g.count) = PorRecords.uintIn(d, f.countAt, 1, PorRecords.MAX_COUNT);
        (g.numeric, g.key, g.hasB) = (f.numeric, f.key, f.hi != 0);
        g.a = refAt(d, f.lo);
        if (g.hasB) g.b = refAt(d, f.hi);
        g.tag = tagOf(g.numeric, textHash(d, g.key));
    }

    /// The claim reference at `p` (checked by `PorContradictionsMaps.ref`: {value,
    /// claim_id, evidence_id} in that order) as a `Ref`.
    function refAt(bytes calldata d, uint256 p) private pure returns (Ref memory r) {
        unchecked {
            uint256 claimId = PorCbor.skip(d, p + 7) + 9; // after 0xa3, "\x65value", its value, "\x68claim_id"
            r = Ref(p, p + 7, claimId, PorCheckKeys.textEnd(d, claimId) + 12);
        }
    }

    /// A numeric value is canonical decimal text, a boolean one a bool.
    function valueOk(bytes calldata d, uint256 p, bool numeric) internal pure returns (bool ok) {
        if (!numeric) {
            (ok,) = PorCbor.boolAt(d, p);
            return ok;
        }
        (bool t, uint256 off, uint256 len) = PorCbor.str(d, p, PorCbor.TEXT);
        return t && PorDecimal.isCanonical(d, off, len);
    }

    /// Any hash twice (quadratic; the caller bounds the count by the leaf's size).
    function repeats(bytes32[] memory h) internal pure returns (bool) {
        for (uint256 i = 1; i < h.length; i++) {
            for (uint256 j = 0; j < i; j++) if (h[i] == h[j]) return true;
        }
        return false;
    }
}
