// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";

/// @title PorJudgeFormRead: what the JudgeProof on chain forms reads, checked (ADR 0017
/// stage 4; `docs/spec-forms-draft.md` §2.1, §2.3, §2.9, §2.10).
/// @notice COMMON (its market, rule and confidence parts and the prediction semantics the
/// judge reads), the MAP form's variables and the EXTRACT forms' cards are read through
/// `PorForms`' bounds-checked readers (COMMON and MAP whole); a malformation reverts
/// `ProofForm()`. The summary's ids are `H` words (lever (a)+v): the lock counts the code
/// points of each carried EXTRACT's word 5 (`PorJudgeForm._cards`, `_points`).
abstract contract PorJudgeFormRead {
    /// `H("por.DeterministicVerdict/1")`, the schema lock's output_schema_ref.
    bytes32 internal constant SCHEMA_REF = sha256("por.DeterministicVerdict/1");

    /// COMMON as the judge reads it.
    struct Spec {
        bool hasK; // sources_required present
        bytes32[] reqs; // H(requirement_id)
        uint256[] tiers; // min_provenance_tier
        bytes32 market;
        uint256 start;
        uint256 end;
        uint256 slack;
        bool lockFails; // schema ref, strict mode, rule ids (unknown or out of stage order)
        bool onConflictInvalid;
        uint256[5] conf; // default, min for yes/no, conflict factor, fallback factor, invalid
        C.Semantics ps;
        bool anyOtherwiseNo; // a precondition's otherwise is `no`
    }

    /// The MAP form's evaluation variables.
    struct Vars {
        bool hasEvent;
        bool eventTrue;
        bool hasNum;
        PorDecimal.Dec num;
        bool hasStamp;
        uint256 stamp;
        bool conflict;
        bool insufficient;
        bool fb;
        bool prov;
        bool lockFails; // extra keys, a repeated id, an id of 0 or more than 128 code points, time > 2^63 - 1
        bytes32[] ids; // the unique summary ids' H words, in order (at most `cap`)
        uint256 nSummary; // entries of source_summary (with repeats)
        bool tooMany; // more unique ids than carried EXTRACT forms: `proof.citations`
    }

    // ---------------------------------------------------------------- COMMON

    function _common(bytes calldata f) internal pure returns (Spec memory s) {
        (uint256 k, uint256 table, uint256 r, uint256 o) = C.head(f);
        s.hasK = k != 0;
        (s.reqs, s.tiers) = (new bytes32[](r), new uint256[](r));
        uint256 p = F.pos(f) + table + 32;
        for (uint256 i; i < r; ++i) {
            (s.reqs[i], s.tiers[i]) = (bytes32(F.load(p)), F.load(p + 96));
            p += 128;
        }
        (s.market, o) = F.readH(f, o);
        (s.start, o) = F.readW(f, o);
        (s.end, o) = F.readW(f, o);
        (s.slack, o) = F.readW(f, o);
        uint256 n;
        (n, o) = F.readL(f, o);
        o += n << 5; // allowed sources
        o = _rules(f, o, s);
        uint256 v;
        (v, o) = F.readE(f, o, 2);
        s.onConflictInvalid = v == 0;
        bytes32 ref;
        (ref, o) = F.readH(f, o);
        bool strict;
        (strict, o) = F.readB(f, o);
        if (ref != SCHEMA_REF || !strict) s.lockFails = true;
        for (uint256 i; i < 5; ++i) (s.conf[i], o) = F.readW(f, o);
        o = C.read(f, o, s.ps);
        F.end(f, o);
        for (uint256 i; i < s.ps.preOtherwiseNo.length; ++i) {
            if (s.ps.preOtherwiseNo[i]) s.anyOtherwiseNo = true;
        }
    }

    /// The rule codes: an unknown id (code 0) or a rule after one of a later stage fails
    /// the lock (`schema_lock.out_of_order`: stages 0, 1, 2, 3, 3 for codes 1-5).
    function _rules(bytes calldata f, uint256 o, Spec memory s) private pure returns (uint256) {
        uint256 n;
        (n, o) = F.readL(f, o);
        uint256 latest;
        for (uint256 i; i < n; ++i) {
            uint256 code;
            (code, o) = F.readE(f, o, 6);
            if (code == 0) {
                s.lockFails = true;
                continue;
            }
            uint256 stage = code == 5 ? 4 : code;
            if (stage < latest) s.lockFails = true;
            if (stage > latest) latest = stage;
        }
        return o;
    }

    /// The predicate on the MAP's numeric value (`PorFormsCommon.holds`).
    function _holds(Spec memory s, PorDecimal.Dec memory x) internal pure returns (bool) {
        return C.holds(s.ps, x);
    }

    // ---------------------------------------------------------------- MAP

    /// The MAP form read whole; `cap` the carried EXTRACT forms (the most unique summary
    /// ids a proof can match).
    function _map(bytes calldata f, uint256 cap) internal pure returns (Vars memory v) {
        uint256 o = 96; // tag (checked by the caller), step id, Ri
        uint256 n;
        (n, o) = F.readL(f, o);
        (n, o) = F.readL(f, o + (n << 5)); // evidence_ids, L[H]
        o += n << 5;
        (v.hasEvent, o) = F.readP(f, o);
        if (v.hasEvent) (v.eventTrue, o) = F.readB(f, o);
        (v.hasNum, o) = F.readP(f, o);
        if (v.hasNum) (v.num, o) = D.readDec(f, o);
        (v.hasStamp, o) = F.readP(f, o);
        if (v.hasStamp) (v.stamp, o) = F.readW(f, o);
        if (v.stamp > (1 << 63) - 1) v.lockFails = true;
        (v.conflict, o) = F.readB(f, o);
        (v.insufficient, o) = F.readB(f, o);
        (v.fb, o) = F.readB(f, o);
        (v.prov, o) = F.readB(f, o);
        o = _summary(f, o, v, cap);
        if (F.at(f, o) != 0) v.lockFails = true; // R(v): a key EvaluationVariables does not have
        F.end(f, F.skipT(f, o + 64)); // R(output), description
    }

    /// source_summary (`L[H]`): its unique words in order; a repeat fails the lock. At most
    /// `cap` unique words are kept (each compared with those kept: O(n cap), `cap` the
    /// carried forms the caller pays for); one more sets `tooMany` (then the proof cannot
    /// carry one EXTRACT per id: `Citations`, as Python's count says) and the rest are
    /// only stepped over.
    function _summary(bytes calldata f, uint256 o, Vars memory v, uint256 cap) private pure returns (uint256) {
        uint256 n;
        (n, o) = F.readL(f, o);
        v.nSummary = n;
        bytes32[] memory ids = new bytes32[](n < cap ? n : cap);
        uint256 p = F.pos(f) + o;
        uint256 count;
        for (uint256 i; i < n && !v.tooMany; ++i) {
            bytes32 h = bytes32(F.load(p + (i << 5)));
            bool repeat;
            for (uint256 j; j < count && !repeat; ++j) repeat = ids[j] == h;
            if (repeat) {
                v.lockFails = true;
            } else if (count == cap) {
                v.tooMany = true;
            } else {
                ids[count++] = h;
            }
        }
        assembly {
            mstore(ids, count)
        }
        v.ids = ids;
        return o + (n << 5);
    }

    /// UTF-8 code points of `len` bytes at calldata position p: the bytes less the
    /// continuation bytes (10xxxxxx), counted a word at a time (the padding is zeros).
    function _points(uint256 p, uint256 len) internal pure returns (uint256 n) {
        assembly {
            let high := 0x8080808080808080808080808080808080808080808080808080808080808080
            let ones := 0x0101010101010101010101010101010101010101010101010101010101010101
            let cont := 0
            for { let i := 0 } lt(i, len) { i := add(i, 32) } {
                let w := calldataload(add(p, i))
                if gt(add(i, 32), len) { w := and(w, not(shr(shl(3, sub(len, i)), not(0)))) }
                // bit 7 set and bit 6 clear, as one bit per byte, summed by a multiply
                let c := shr(7, and(and(w, high), not(and(shl(1, w), high))))
                cont := add(cont, shr(248, mul(c, ones)))
            }
            n := sub(len, cont)
        }
    }
}
