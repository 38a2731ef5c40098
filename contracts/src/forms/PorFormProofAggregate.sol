// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofAggregateWrite as AW} from "./PorFormProofAggregateWrite.sol";
import {PorFormProofDecimal as DEC} from "./PorFormProofDecimal.sol";

/// @title PorFormProofAggregate: `F` AGGREGATE (SPEC §5.6.8, tag 5) of a `por.ReasoningStep/1`
/// leaf, built from its por-cbor/1 bytes with `PorFormProofDeduce`'s rest-word walk and writers
/// (ADR 0017, s42 addendum `fpagg2`: the FormProof on chain, AGGREGATE family).
/// @notice `form(leaf)` answers (valid, defined, F) as `PorFormProofDeduce.form` does; a valid
/// step of another kind reverts `PorFormProofDeduce.OtherFamily(kind)`. `F` AGGREGATE is
/// undefined when a key the layout names is absent (`inputs.requirement_id`, the output's
/// nine but `last_leaf`, a field's `key kind status candidates fallback_used claim_ids
/// evidence_ids`, a quorum's three, a vote's three), a value has the wrong type (a map, list,
/// text, boolean or integer 0..2^64-1 expected), an enum text is outside its set (`strategy`,
/// a field's `kind` and `status`: SPEC §5.6.1's codes), or a field's value or vote value is
/// not of the field's kind (`V_kind`: a canonical decimal, a boolean, an integer, a text).
/// One pass, no second walk: each open map's rest word (`PorFormProofDeduce.rest`) is
/// computed where the form reaches it, at the write position (its offsets copied out before
/// the words go over them), so the form stays one run of words from the free memory pointer.
library PorFormProofAggregate {
    uint256 internal constant TAG = 5;

    /// Key words (`PorKeyIndex`'s: the key's bytes left-aligned, its length in the low byte).
    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_REQUIREMENT = uint256(bytes32("requirement_id")) | 14;
    uint256 private constant K_STRATEGY = uint256(bytes32("strategy")) | 8;
    uint256 private constant K_COVERED = uint256(bytes32("covered")) | 7;
    uint256 private constant K_PROVENANCE = uint256(bytes32("provenance_ok")) | 13;
    uint256 private constant K_ITEMS = uint256(bytes32("item_count")) | 10;
    uint256 private constant K_LAST_LEAF = uint256(bytes32("last_leaf")) | 9;
    uint256 private constant K_FALLBACK = uint256(bytes32("fallback_used")) | 13;
    uint256 private constant K_FIELDS = uint256(bytes32("fields")) | 6;
    uint256 private constant K_SOURCES = uint256(bytes32("sources_used")) | 12;
    uint256 private constant K_KEY = uint256(bytes32("key")) | 3;
    uint256 private constant K_STATUS = uint256(bytes32("status")) | 6;
    uint256 private constant K_CANDIDATES = uint256(bytes32("candidates")) | 10;
    uint256 private constant K_VALUE = uint256(bytes32("value")) | 5;
    uint256 private constant K_QUORUM = uint256(bytes32("quorum")) | 6;
    uint256 private constant K_CLAIMS = uint256(bytes32("claim_ids")) | 9;
    uint256 private constant K_EVIDENCE = uint256(bytes32("evidence_ids")) | 12;
    uint256 private constant K_VOTES = uint256(bytes32("votes")) | 5;
    uint256 private constant K_REQUIRED = uint256(bytes32("required")) | 8;
    uint256 private constant K_AGREEING = uint256(bytes32("agreeing")) | 8;
    uint256 private constant K_MET = uint256(bytes32("met")) | 3;
    uint256 private constant K_SOURCE = uint256(bytes32("source_id")) | 9;
    uint256 private constant K_EVIDENCE_ID = uint256(bytes32("evidence_id")) | 11;

    /// Output keys in form order (`AGGREGATE_OUTPUT`), a field's (`FIELD`), a quorum's, a vote's.
    uint256 private constant O_REQUIREMENT = 0;
    uint256 private constant O_STRATEGY = 1;
    uint256 private constant O_COVERED = 2;
    uint256 private constant O_PROVENANCE = 3;
    uint256 private constant O_ITEMS = 4;
    uint256 private constant O_LAST_LEAF = 5;
    uint256 private constant O_FALLBACK = 6;
    uint256 private constant O_FIELDS = 7;
    uint256 private constant O_SOURCES = 8;
    uint256 private constant F_KEY = 0;
    uint256 private constant F_KIND = 1;
    uint256 private constant F_STATUS = 2;
    uint256 private constant F_CANDIDATES = 3;
    uint256 private constant F_FALLBACK = 4;
    uint256 private constant F_VALUE = 5;
    uint256 private constant F_QUORUM = 6;
    uint256 private constant F_CLAIMS = 7;
    uint256 private constant F_EVIDENCE = 8;
    uint256 private constant F_VOTES = 9;

    /// Enum sets (SPEC §5.6.1): `KIND`, `STATUS`, `STRATEGY`.
    uint256 private constant E_KIND = 0;
    uint256 private constant E_STATUS = 1;
    uint256 private constant E_STRATEGY = 2;
    uint256 private constant NONE = type(uint256).max;

    /// The key names of the nested maps and the offsets of their values, copied out of
    /// `PorFormProofDeduce.rest`'s answer (which the words then overwrite).
    struct Maps {
        uint256[] fieldNames;
        uint256[] field;
        uint256[] quorumNames;
        uint256[] quorum;
        uint256[] voteNames;
        uint256[] vote;
    }

    /// `F` AGGREGATE of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.AGGREGATE) revert D.OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// `F` AGGREGATE of a valid aggregate step (`at`: `PorRecords.reasoningStep`'s offsets):
    /// (defined, F). Words: W(5) H(step_id) T(inputs.requirement_id) Ri L[H](priors)
    /// L[H](evidence) H(requirement_id) E(strategy) B(covered) B(provenance_ok) W(item_count)
    /// O(last_leaf) B(fallback_used) L[field](fields) L[H](sources_used) R(output, the nine)
    /// T(description).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        uint256[] memory names = new uint256[](2);
        (names[0], names[1]) = (K_KIND, K_REQUIREMENT);
        (uint256 ri, uint256[] memory inputs) = D.rest(leaf, at[PorRecords.STEP_INPUTS], names);
        (uint256 ro, uint256[] memory o) = D.rest(leaf, at[PorRecords.STEP_OUTPUT], outputNames());
        Maps memory m = maps();
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = D.word(base + 32, TAG);
        w = D.hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = D.text(leaf, w, inputs[1]);
        w = D.word(w, ri);
        w = D.texts(leaf, w, at[PorRecords.STEP_PRIOR], false);
        w = D.texts(leaf, w, at[PorRecords.STEP_EVIDENCE], false);
        w = D.hashed(leaf, w, o[O_REQUIREMENT]);
        w = code(leaf, w, o[O_STRATEGY], E_STRATEGY);
        w = D.flag(leaf, w, o[O_COVERED]);
        w = D.flag(leaf, w, o[O_PROVENANCE]);
        w = D.integer(leaf, w, o[O_ITEMS]);
        w = o[O_LAST_LEAF] == 0 ? D.word(D.word(w, 0), 0) : D.integer(leaf, D.word(w, 1), o[O_LAST_LEAF]);
        w = D.flag(leaf, w, o[O_FALLBACK]);
        w = fields(leaf, w, o[O_FIELDS], m);
        w = D.texts(leaf, w, o[O_SOURCES], false);
        w = D.word(w, ro);
        w = D.text(leaf, w, at[PorRecords.STEP_DESCRIPTION]);
        return D.close(base, w);
    }

    /// `L[field]` of the array at `pos`.
    function fields(bytes calldata d, uint256 w, uint256 pos, Maps memory m) private view returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return 0;
        w = D.word(w, n);
        for (; n > 0 && w != 0; n--) {
            (w, p) = field(d, w, p, m);
        }
        return w;
    }

    /// A field (SPEC §5.6.8): H(key) E(kind) E(status) W(candidates) B(fallback_used)
    /// P[V_kind](value) P[quorum] L[H](claim_ids) L[H](evidence_ids) P[L[vote]](votes)
    /// R(field, the ten); and the field's end.
    function field(bytes calldata d, uint256 w, uint256 p, Maps memory m)
        private
        view
        returns (uint256, uint256 end)
    {
        uint256 rf;
        (w, rf, end) = restAt(d, w, p, m.fieldNames, m.field);
        uint256[] memory a = m.field;
        uint256 kind = codeOf(d, a[F_KIND], E_KIND);
        w = D.hashed(d, w, a[F_KEY]);
        w = kind == NONE ? 0 : D.word(w, kind);
        w = code(d, w, a[F_STATUS], E_STATUS);
        w = D.integer(d, w, a[F_CANDIDATES]);
        w = D.flag(d, w, a[F_FALLBACK]);
        w = a[F_VALUE] == 0 ? D.word(w, 0) : value(d, D.word(w, 1), kind, a[F_VALUE]);
        w = a[F_QUORUM] == 0 ? D.word(w, 0) : quorum(d, D.word(w, 1), a[F_QUORUM], m);
        w = D.texts(d, w, a[F_CLAIMS], false);
        w = D.texts(d, w, a[F_EVIDENCE], false);
        w = a[F_VOTES] == 0 ? D.word(w, 0) : votes(d, D.word(w, 1), kind, a[F_VOTES], m);
        return (D.word(w, rf), end);
    }

    /// A quorum: W(required) W(agreeing) B(met) R(quorum, the three).
    function quorum(bytes calldata d, uint256 w, uint256 p, Maps memory m) private view returns (uint256) {
        uint256 rq;
        (w, rq,) = restAt(d, w, p, m.quorumNames, m.quorum);
        uint256[] memory a = m.quorum;
        w = D.integer(d, w, a[0]);
        w = D.integer(d, w, a[1]);
        w = D.flag(d, w, a[2]);
        return D.word(w, rq);
    }

    /// `L[vote]` of the array at `pos`, a vote V_kind(value) H(source_id) H(evidence_id)
    /// R(vote, the three).
    function votes(bytes calldata d, uint256 w, uint256 kind, uint256 pos, Maps memory m)
        private
        view
        returns (uint256)
    {
        if (w == 0) return 0;
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return 0;
        w = D.word(w, n);
        uint256[] memory a = m.vote;
        for (; n > 0 && w != 0; n--) {
            uint256 rv;
            (w, rv, p) = restAt(d, w, p, m.voteNames, a);
            w = value(d, w, kind, a[0]);
            w = D.hashed(d, w, a[1]);
            w = D.hashed(d, w, a[2]);
            w = D.word(w, rv);
        }
        return w;
    }

    /// The map at `p` (else no form): its rest word over `names`, the named values' offsets
    /// in `out`, and its end. When every key is named (`PorFormProofAggregateWrite.named`, one
    /// walk), the rest word is 0; else `PorFormProofDeduce.rest`, run at the write position
    /// `w` (the free memory pointer set there, so its offsets and scratch bytes lie where the
    /// next words go), its offsets copied to `out`, and the end `PorCbor.skip`'s.
    function restAt(bytes calldata d, uint256 w, uint256 p, uint256[] memory names, uint256[] memory out)
        private
        view
        returns (uint256, uint256 r, uint256 end)
    {
        if (w == 0) return (0, 0, 0);
        (bool isMap, uint256 n, uint256 first) = PorCbor.container(d, p, PorCbor.MAP);
        if (!isMap) return (0, 0, 0);
        bool all;
        (all, end) = AW.named(d, first, n, names, out);
        if (all) return (w, 0, end);
        return (w, restCopied(d, w, p, names, out), PorCbor.skip(d, p));
    }

    /// `PorFormProofDeduce.rest` of the map at `p` run at `w`, its offsets copied to `out`.
    function restCopied(bytes calldata d, uint256 w, uint256 p, uint256[] memory names, uint256[] memory out)
        private
        view
        returns (uint256 r)
    {
        assembly ("memory-safe") {
            mstore(0x40, w)
        }
        uint256[] memory a;
        (r, a) = D.rest(d, p, names);
        for (uint256 i = 0; i < a.length; i++) {
            out[i] = a[i];
        }
    }

    /// `V_kind` of the item at `pos` (`kind`: the field's `KIND` code): D (in one assembly
    /// pass, `PorFormProofAggregateWrite`), B, W or H.
    function value(bytes calldata d, uint256 w, uint256 kind, uint256 pos) private view returns (uint256) {
        if (kind == 0) return D.flag(d, w, pos);
        if (kind == 1) return DEC.decimal(d, w, pos);
        if (kind == 2) return D.integer(d, w, pos);
        if (kind == 3) return D.hashed(d, w, pos);
        return 0;
    }

    /// `E(x)` of the text at `pos` in set `set`.
    function code(bytes calldata d, uint256 w, uint256 pos, uint256 set) private pure returns (uint256) {
        uint256 c = codeOf(d, pos, set);
        return c == NONE ? 0 : D.word(w, c);
    }

    /// The code of the text at `pos` (0: absent) in set `set`, or NONE. Every name is shorter
    /// than 24 bytes: its encoding (head 0x60 | length, then the bytes) read as one
    /// right-aligned word and compared.
    function codeOf(bytes calldata d, uint256 pos, uint256 set) private pure returns (uint256) {
        if (pos == 0) return NONE;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return NONE;
        uint256 x;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
        if (set == E_KIND) {
            if (x == 0x67626f6f6c65616e) return 0; // boolean
            if (x == 0x676e756d65726963) return 1; // numeric
            if (x == 0x6974696d657374616d70) return 2; // timestamp
            if (x == 0x6474657874) return 3; // text
        } else if (set == E_STATUS) {
            if (x == 0x6873656c6563746564) return 0; // selected
            if (x == 0x676d697373696e67) return 1; // missing
            if (x == 0x6c696e73756666696369656e74) return 2; // insufficient
            if (x == 0x696e6f5f71756f72756d) return 3; // no_quorum
        } else {
            if (x == 0x6b73696e676c655f62657374) return 0; // single_best
            if (x == 0x00736d756c74695f736f757263655f71756f72756d) return 1; // multi_source_quorum
            if (x == 0x6e66616c6c6261636b5f636861696e) return 2; // fallback_chain
        }
        return NONE;
    }

    function outputNames() private pure returns (uint256[] memory n) {
        n = new uint256[](9);
        (n[0], n[1], n[2], n[3], n[4]) = (K_REQUIREMENT, K_STRATEGY, K_COVERED, K_PROVENANCE, K_ITEMS);
        (n[5], n[6], n[7], n[8]) = (K_LAST_LEAF, K_FALLBACK, K_FIELDS, K_SOURCES);
    }

    /// The nested maps' names and offset arrays, allocated before the form.
    function maps() private pure returns (Maps memory m) {
        uint256[] memory f = new uint256[](10);
        (f[0], f[1], f[2], f[3], f[4]) = (K_KEY, K_KIND, K_STATUS, K_CANDIDATES, K_FALLBACK);
        (f[5], f[6], f[7], f[8], f[9]) = (K_VALUE, K_QUORUM, K_CLAIMS, K_EVIDENCE, K_VOTES);
        uint256[] memory q = new uint256[](3);
        (q[0], q[1], q[2]) = (K_REQUIRED, K_AGREEING, K_MET);
        uint256[] memory v = new uint256[](3);
        (v[0], v[1], v[2]) = (K_VALUE, K_SOURCE, K_EVIDENCE_ID);
        m = Maps(f, new uint256[](10), q, new uint256[](3), v, new uint256[](3));
    }
}
