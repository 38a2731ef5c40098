// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorCbor} from "../PorCbor.sol";
import {PorIds} from "../PorIds.sol";
import {PorRecords} from "../PorRecords.sol";
import {PorFormProofDeduce as D} from "./PorFormProofDeduce.sol";
import {PorFormProofDecimal as X} from "./PorFormProofDecimal.sol";

/// @title PorFormProofContradictions: `F` CONTRADICTIONS (SPEC §5.6.9, tag 6) of a
/// `por.ReasoningStep/1` leaf (a `contradictions` step, §12.5.5), built from its por-cbor/1
/// bytes with `PorFormProofDeduce`'s readers and writers, `D` by `PorFormProofContradictionsWrite`
/// (ADR 0017, s42 addendum `fpcontra`).
/// @notice `form(leaf)` answers (valid, defined, F) as `PorFormProofDeduce.form` does; a valid
/// step of another kind reverts `PorFormProofDeduce.OtherFamily(kind)`. `F` is undefined when
/// `output.claim_count` is not an integer, `output.numeric_tolerance` not a canonical decimal,
/// `output.conflicts` not a list of maps, or a conflict has a key absent or of the wrong
/// type: `check_id` not one of the two `contradiction.*` codes, `kind` not `boolean` (0) or
/// `numeric` (1) (SPEC §5.6.2: a conflict's kind codes; a timestamp or text conflict has no
/// form, even with no values), `key` not a text, `claim_ids`/`evidence_ids` not lists of
/// texts, a `values` item not `V'_kind` (numeric: a canonical decimal text; boolean: the
/// text `true` or `false`), `claim_count` not an integer.
/// Two phases as in DEDUCE: the reads that allocate (the rest words of `inputs`, `output`
/// and every conflict, each conflict's value offsets), then the build, which allocates
/// nothing (`PorFormProofDeduce`'s writers, from the free memory pointer on).
library PorFormProofContradictions {
    uint256 internal constant TAG = 6;

    /// Key words (`PorKeyIndex`'s: the key's bytes left-aligned, its length in the low byte).
    uint256 private constant K_KIND = uint256(bytes32("kind")) | 4;
    uint256 private constant K_CLAIM_COUNT = uint256(bytes32("claim_count")) | 11;
    uint256 private constant K_TOLERANCE = uint256(bytes32("numeric_tolerance")) | 17;
    uint256 private constant K_CONFLICTS = uint256(bytes32("conflicts")) | 9;
    uint256 private constant K_CHECK_ID = uint256(bytes32("check_id")) | 8;
    uint256 private constant K_KEY = uint256(bytes32("key")) | 3;
    uint256 private constant K_CLAIM_IDS = uint256(bytes32("claim_ids")) | 9;
    uint256 private constant K_EVIDENCE_IDS = uint256(bytes32("evidence_ids")) | 12;
    uint256 private constant K_VALUES = uint256(bytes32("values")) | 6;

    /// A conflict's keys in form order (SPEC §5.6.9, Python's `CONFLICT`).
    uint256 private constant C_CHECK = 0;
    uint256 private constant C_KIND = 1;
    uint256 private constant C_KEY = 2;
    uint256 private constant C_CLAIMS = 3;
    uint256 private constant C_EVIDENCE = 4;
    uint256 private constant C_VALUES = 5;
    uint256 private constant C_COUNT = 6;

    uint256 private constant NONE = type(uint256).max;
    uint256 private constant NUMERIC = 1;
    uint256 private constant BOOLEAN = 0;

    /// `F` CONTRADICTIONS of `leaf` (see the notice).
    function form(bytes calldata leaf) internal view returns (bool valid, bool defined, bytes memory f) {
        uint256[] memory at;
        (valid, at) = PorRecords.reasoningStep(leaf);
        if (!valid) return (false, false, f);
        (bool known, bytes32 kind,) = PorRecords.computation(leaf, at);
        if (!known) return (true, false, f); // SPEC §5.6.1 "Identity of a step"
        if (kind != PorIds.CONTRADICTIONS) revert D.OtherFamily(kind);
        (defined, f) = build(leaf, at);
    }

    /// `F` CONTRADICTIONS of a valid contradictions step (`at`: `PorRecords.reasoningStep`'s
    /// offsets): (defined, F). Words: W(6) H(step_id) Ri L[H](priors) L[H](evidence)
    /// W(claim_count) D(numeric_tolerance) L[conflict](conflicts) R(output, the three)
    /// T(description).
    function build(bytes calldata leaf, uint256[] memory at) internal view returns (bool, bytes memory f) {
        uint256[] memory names = new uint256[](1);
        names[0] = K_KIND;
        (uint256 ri,) = D.rest(leaf, at[PorRecords.STEP_INPUTS], names);
        names = new uint256[](3);
        (names[0], names[1], names[2]) = (K_CLAIM_COUNT, K_TOLERANCE, K_CONFLICTS);
        (uint256 ro, uint256[] memory o) = D.rest(leaf, at[PorRecords.STEP_OUTPUT], names);
        if (o[0] == 0 || o[2] == 0) return (false, f);
        (bool ok, uint256[][] memory cs, uint256[] memory rests) = conflicts(leaf, o[2]);
        if (!ok) return (false, f);
        uint256 base;
        assembly ("memory-safe") {
            base := mload(0x40)
        }
        uint256 w = D.word(base + 32, TAG);
        w = D.hashed(leaf, w, at[PorRecords.STEP_ID]);
        w = D.word(w, ri);
        w = D.texts(leaf, w, at[PorRecords.STEP_PRIOR], false);
        w = D.texts(leaf, w, at[PorRecords.STEP_EVIDENCE], false);
        w = D.integer(leaf, w, o[0]);
        w = X.decimal(leaf, w, o[1]);
        w = D.word(w, cs.length);
        for (uint256 i = 0; i < cs.length && w != 0; i++) {
            w = conflict(leaf, w, cs[i], rests[i]);
        }
        w = D.word(w, ro);
        w = D.text(leaf, w, at[PorRecords.STEP_DESCRIPTION]);
        return D.close(base, w);
    }

    /// The conflicts at `pos`: (a list of maps, each one's named value offsets, each one's
    /// rest word `R(conflict, CONFLICT)`).
    function conflicts(bytes calldata leaf, uint256 pos)
        private
        view
        returns (bool, uint256[][] memory cs, uint256[] memory rests)
    {
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(leaf, pos, PorCbor.ARRAY);
        if (!isArray) return (false, cs, rests);
        cs = new uint256[][](n);
        rests = new uint256[](n);
        uint256[] memory names = conflictNames();
        for (uint256 i = 0; i < n; i++) {
            (bool isMap,,) = PorCbor.container(leaf, p, PorCbor.MAP);
            if (!isMap) return (false, cs, rests);
            (rests[i], cs[i]) = D.rest(leaf, p, names);
            p = PorCbor.skip(leaf, p);
        }
        return (true, cs, rests);
    }

    function conflictNames() private pure returns (uint256[] memory n) {
        n = new uint256[](7);
        (n[0], n[1], n[2], n[3]) = (K_CHECK_ID, K_KIND, K_KEY, K_CLAIM_IDS);
        (n[4], n[5], n[6]) = (K_EVIDENCE_IDS, K_VALUES, K_CLAIM_COUNT);
    }

    /// A conflict at `w`: E(check_id) E(kind) H(key) L[H](claim_ids) L[H](evidence_ids)
    /// L[V'_kind](values) W(claim_count) R(conflict, CONFLICT) (`c`: its value offsets).
    function conflict(bytes calldata leaf, uint256 w, uint256[] memory c, uint256 r)
        private
        view
        returns (uint256)
    {
        uint256 check = encoded(leaf, c[C_CHECK]);
        if (check == 0x75636f6e74726164696374696f6e2e6e756d65726963) {
            w = D.word(w, 0); // contradiction.numeric
        } else if (check == 0x75636f6e74726164696374696f6e2e626f6f6c65616e) {
            w = D.word(w, 1); // contradiction.boolean
        } else {
            return 0;
        }
        uint256 kind = kindCode(encoded(leaf, c[C_KIND]));
        if (kind == NONE) return 0;
        w = D.word(w, kind);
        w = D.hashed(leaf, w, c[C_KEY]);
        w = D.texts(leaf, w, c[C_CLAIMS], false);
        w = D.texts(leaf, w, c[C_EVIDENCE], false);
        w = values(leaf, w, c[C_VALUES], kind);
        w = c[C_COUNT] == 0 ? 0 : D.integer(leaf, w, c[C_COUNT]);
        return D.word(w, r);
    }

    /// The short text at `pos` (0: absent) encoded (head 0x60 | length, then its bytes) as one
    /// right-aligned word; 0 when it is not a text shorter than 24 bytes (no code's).
    function encoded(bytes calldata d, uint256 pos) private pure returns (uint256 x) {
        if (pos == 0) return 0;
        uint256 hb = uint8(d[pos]);
        if (hb < 0x60 || hb > 0x77) return 0;
        assembly ("memory-safe") {
            x := shr(sub(256, shl(3, sub(hb, 0x5f))), calldataload(add(d.offset, pos)))
        }
    }

    /// A conflict kind's code (SPEC §5.6.2: 0 boolean, 1 numeric), or NONE.
    function kindCode(uint256 x) private pure returns (uint256) {
        if (x == 0x67626f6f6c65616e) return BOOLEAN; // boolean
        if (x == 0x676e756d65726963) return NUMERIC; // numeric
        return NONE; // timestamp, text, anything else: no form (SPEC §5.6.2, §5.6.9)
    }

    /// `L[V'_kind]` of the list at `pos` (SPEC §5.6.9: a value read as text, §12.5.2): numeric
    /// `D` of a canonical decimal text; boolean `W(1)` for the text `true`, `W(0)` for
    /// `false`; a value of another kind, or of another text, has no form.
    function values(bytes calldata d, uint256 w, uint256 pos, uint256 kind) private pure returns (uint256) {
        if (w == 0 || pos == 0) return 0;
        (bool isArray, uint256 n, uint256 p) = PorCbor.container(d, pos, PorCbor.ARRAY);
        if (!isArray) return 0;
        w = D.word(w, n);
        for (; n > 0 && w != 0; n--) {
            (bool ok, uint256 off, uint256 len) = PorCbor.str(d, p, PorCbor.TEXT);
            if (!ok) return 0;
            if (kind == NUMERIC) {
                w = X.decimal(d, w, p);
            } else if (kind == BOOLEAN) {
                uint256 x = encoded(d, p);
                if (x == 0x6474727565) w = D.word(w, 1); // true
                else if (x == 0x6566616c7365) w = D.word(w, 0); // false
                else return 0;
            } else {
                return 0;
            }
            p = off + len;
        }
        return w;
    }
}
