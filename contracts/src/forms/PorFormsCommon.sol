// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";

/// @title PorFormsCommon: the parts of COMMON (SPEC §5.6, draft §2.1) more than one
/// executor on forms reads, read once: its head (up to the requirement table, for the
/// aggregate, deduce and JudgeProof executors), its prediction semantics (from
/// `predicate` to the preconditions, for deduce and the JudgeProof) and the predicate on
/// a number (SPEC §12.4.1, §7.3) (ADR 0017 stage 4; s40 `fold`: the executors' copies
/// as one).
/// @notice Every word is read through `PorForms`' checked readers (a fault reverts
/// `ProofForm()`); the metric (a description composes it) is kept as the call data
/// position of its `T`; `expected_text` and a precondition's `equals` are `H` words
/// (lever (a)+v, SPEC §5.6.1: compared with a text value's `H`).
library PorFormsCommon {
    /// Predicate codes (draft §1.1).
    uint256 internal constant EVENT = 0;
    uint256 internal constant THRESHOLD = 1;
    uint256 internal constant RANGE = 2;
    uint256 internal constant FIELD = 3;
    uint256 internal constant TEXT_EQUALS = 4;
    uint256 internal constant TIME = 5;

    /// The prediction semantics as the executors read them.
    struct Semantics {
        uint256 predicate;
        uint256 metricT; // call data position of T(metric)
        uint256 comparison; // 0 when absent
        PorDecimal.Dec threshold;
        uint256 terms; // COMMON's offset of the first term (E sign, H metric), when present
        uint256 nTerms;
        PorDecimal.Dec lower;
        PorDecimal.Dec upper;
        bool lowerIncl; // absent: inclusive
        bool upperIncl; // absent: exclusive
        bool hasOther;
        bytes32 other; // H(other_metric)
        bool hasExpected; // expected_text present
        bytes32 expected; // H(expected_text)
        bool absentNo; // absent_means_no
        bytes32[] preKeys; // preconditions: H(field)
        bytes32[] preEquals; // H(equals)
        bool[] preOtherwiseNo; // otherwise `no`
    }

    /// COMMON's head: its tag, `H(metric)`, `Z(sources_required)`, `D(numeric_tolerance)`
    /// (at offset 96) and the requirement table `L[(H(requirement_id), E(strategy),
    /// W(#source_targets), W(min_provenance_tier))]`, every word checked. Returns
    /// sources_required (0: absent), the table's offset (its count word; row k at
    /// `table + 32 + 128 k`), its row count, and the offset after it (the market id).
    function head(bytes calldata f) internal pure returns (uint256 k, uint256 table, uint256 r, uint256 next) {
        uint256 o = F.open(f, F.COMMON) + 32; // H(metric): any word
        (k, o) = F.readZ(f, o);
        (,,,, table) = D.readD(f, o);
        (r, o) = F.readL(f, table);
        for (uint256 i; i < r; ++i) {
            (, o) = F.readE(f, o + 32, 3); // after H(requirement_id)
            (, o) = F.readW(f, o);
            (, o) = F.readW(f, o);
        }
        return (k, table, r, o);
    }

    /// The prediction semantics at offset `o` of COMMON `f` into `s` (filled in place: the
    /// caller's struct, nothing allocated but the preconditions); the offset after them.
    function read(bytes calldata f, uint256 o, Semantics memory s) internal pure returns (uint256) {
        (s.predicate, o) = F.readE(f, o, 6);
        s.metricT = F.pos(f) + o;
        o = F.skipT(f, o);
        bool present;
        (present, o) = F.readP(f, o);
        if (present) (s.comparison, o) = F.readE(f, o, 5);
        (present, o) = F.readP(f, o);
        if (present) (s.threshold, o) = D.readDec(f, o);
        (present, o) = F.readP(f, o);
        if (present) {
            (s.nTerms, o) = F.readL(f, o);
            s.terms = o;
            for (uint256 i; i < s.nTerms; ++i) {
                (, o) = F.readE(f, o, 2);
                o += 32; // H(metric)
            }
        }
        (present, o) = F.readP(f, o);
        if (present) (s.lower, o) = D.readDec(f, o);
        (present, o) = F.readP(f, o);
        if (present) (s.upper, o) = D.readDec(f, o);
        uint256 v;
        (present, v, o) = F.readO(f, o, 1);
        s.lowerIncl = !present || v == 1;
        (present, v, o) = F.readO(f, o, 1);
        s.upperIncl = present && v == 1;
        (s.hasOther, o) = F.readP(f, o);
        if (s.hasOther) (s.other, o) = F.readH(f, o);
        (present, o) = F.readP(f, o);
        if (present) (s.expected, o) = F.readH(f, o);
        s.hasExpected = present;
        (s.absentNo, o) = F.readB(f, o);
        return _preconditions(f, o, s);
    }

    /// The preconditions (`P[L[(H field, H equals, E otherwise)]]`).
    function _preconditions(bytes calldata f, uint256 o, Semantics memory s) private pure returns (uint256) {
        bool present;
        (present, o) = F.readP(f, o);
        uint256 n;
        if (present) (n, o) = F.readL(f, o);
        (s.preKeys, s.preEquals, s.preOtherwiseNo) = (new bytes32[](n), new bytes32[](n), new bool[](n));
        for (uint256 i; i < n; ++i) {
            (s.preKeys[i], o) = F.readH(f, o);
            (s.preEquals[i], o) = F.readH(f, o);
            uint256 otherwise;
            (otherwise, o) = F.readE(f, o, 2);
            s.preOtherwiseNo[i] = otherwise == 1;
        }
        return o;
    }

    /// The predicate on a combined number `x` (a numeric value or a timestamp): within the
    /// range for `numeric_range`, else `x` against the threshold (0 for
    /// `field_comparison`) by the comparison (gt, gte, lt, lte, eq).
    function holds(Semantics memory s, PorDecimal.Dec memory x) internal pure returns (bool) {
        if (s.predicate == RANGE) {
            int256 lo = PorDecimal.cmp(x, s.lower);
            int256 hi = PorDecimal.cmp(x, s.upper);
            return (s.lowerIncl ? lo >= 0 : lo > 0) && (s.upperIncl ? hi <= 0 : hi < 0);
        }
        int256 d = PorDecimal.cmp(x, s.predicate == FIELD ? PorDecimal.zero() : s.threshold);
        uint256 cmp = s.comparison;
        if (cmp == 0) return d > 0;
        if (cmp == 1) return d >= 0;
        if (cmp == 2) return d < 0;
        if (cmp == 3) return d <= 0;
        return d == 0;
    }
}
