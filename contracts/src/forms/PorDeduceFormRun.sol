// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorDeduceFormRead} from "./PorDeduceFormRead.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";
import {PorFormsIndex as I} from "./PorFormsIndex.sol";

/// @title PorDeduceFormRun: `por.auditor.deduce.deduce` on the forms read by
/// `PorDeduceFormRead` (SPEC §12.4.1, §12.5.6), rule for rule and in Python's order.
/// @notice Every needed field is found as the first field with its key (requirement then
/// field order); preconditions, the metric's conflict, k of n votes, `absent_means_no`,
/// then the value with its terms by exact decimal arithmetic, the timestamp, the event.
/// A read of a cited step that Python's `_typed`/`_votes`/`_stamp`/`summary_of` refuses
/// sets `bad` (`step.bad_prior_output`).
abstract contract PorDeduceFormRun is PorDeduceFormRead {
    /// Field statuses and metric statuses (draft §1.1).
    uint256 internal constant SELECTED = 0;
    uint256 internal constant MISSING = 1;
    uint256 internal constant WRONG_KIND = 4;
    uint256 internal constant ABSENT = 5;
    uint256 internal constant PRECONDITION_UNMET = 6;
    uint256 internal constant OUT_OF_RANGE = 7;
    uint256 internal constant UNDECIDED = 8;
    /// Up to FEW evidence ids a mark walks them; above, `PorFormsIndex`'s sorted positions
    /// (the honest proofs' few ids keep the cheaper walk).
    uint256 internal constant FEW = 16;

    /// What deduce found (`Deduced`); `eventCode` 0 none, 1 false, 2 true.
    struct Out {
        bool bad;
        bool insufficient;
        uint256 status;
        uint256 eventCode;
        bool hasNum;
        bytes num; // the canonical text of numeric_value
        bool hasStamp;
        uint256 stamp;
        bool conflict;
        bool fb;
    }

    struct Ctx {
        Sem s;
        Agg[] aggs;
        uint256[] cKinds;
        bytes32[] cKeys;
        uint256[] owner; // per needed field: requirement index + 1, 0 when absent
        uint256[] fi; // per needed field: field index + 1, 0 when absent or of another kind
        uint256[] status; // per needed field: its status, WRONG_KIND or ABSENT
        bytes32[] cWords; // past FEW conflicts: keccak256(kind, H(key)) each
        uint256[] cOrder; // cWords' positions sorted (PorFormsIndex), built at the first lookup
    }

    function _deduce(Ctx memory c) internal pure returns (Out memory out) {
        Sem memory s = c.s;
        uint256 n = s.keys.length;
        (c.owner, c.fi, c.status) = (new uint256[](n), new uint256[](n), new uint256[](n));
        _findAll(c);
        out.status = c.status[0];
        bool uncovered;
        for (uint256 i; i < c.aggs.length; ++i) uncovered = uncovered || !c.aggs[i].covered;
        uint256 nPre = s.ps.preKeys.length; // the last needed fields
        for (uint256 j; j < nPre; ++j) {
            uint256 i = n - nPre + j;
            if (c.status[i] != SELECTED || c.fi[i] == 0) {
                out.insufficient = true;
                return out;
            }
            _read(c, out, i);
            uint256 v = _val(c, i);
            if (v == 0) {
                out.bad = true;
                return out;
            }
            if (bytes32(F.load(v)) != s.ps.preEquals[j]) { // a text value's H against H(equals)
                out.status = PRECONDITION_UNMET;
                if (s.ps.preOtherwiseNo[j] && !uncovered) out.eventCode = 1;
                else out.insufficient = true;
                return out;
            }
        }
        uint256 owner = c.owner[0];
        if (owner != 0 && s.k == 0 && !s.chain[owner - 1] && _inConflicts(c, s.kinds[0], s.keys[0])) {
            out.conflict = true;
        }
        if (c.fi[0] == 0) {
            out.insufficient = true;
            return out;
        }
        if (s.k != 0) return _votes(c, out);
        if (c.status[0] == MISSING && s.ps.absentNo && c.aggs[owner - 1].covered) {
            out.eventCode = 1;
            Agg memory a = c.aggs[owner - 1];
            for (uint256 j; j < a.eh.length; ++j) _markHash(a, a.eh[j], out);
            return out;
        }
        for (uint256 i; i < n; ++i) {
            if (c.status[i] != SELECTED) {
                out.insufficient = true;
                return out;
            }
        }
        return _computed(c, out);
    }

    /// Every read field selected: the value and its terms, the timestamp, the event.
    function _computed(Ctx memory c, Out memory out) private pure returns (Out memory) {
        Sem memory s = c.s;
        uint256 v = _val(c, 0);
        PorDecimal.Dec memory x;
        bool ok;
        (ok, x) = _typed(s.kinds[0], v);
        if (!ok) {
            out.bad = true;
            return out;
        }
        _read(c, out, 0);
        for (uint256 i = 1; i < s.keys.length; ++i) {
            uint256 role = s.roles[i];
            if (role == PRE) continue;
            uint256 y = _val(c, i);
            if (y == 0) {
                out.bad = true;
                return out;
            }
            _read(c, out, i);
            x = role == PLUS ? PorDecimal.add(x, D.decAt(y)) : PorDecimal.sub(x, D.decAt(y));
        }
        _stamp(c, out);
        if (out.bad) return out;
        if (s.ps.predicate == C.EVENT) {
            out.eventCode = F.load(v) == 1 ? 2 : 1;
        } else if (s.ps.predicate == C.TEXT_EQUALS) {
            out.eventCode = bytes32(F.load(v)) == _expected(s) ? 2 : 1;
        } else {
            (out.hasNum, out.num) = PorDecimal.toText(x);
            if (!out.hasNum) {
                (out.insufficient, out.status) = (true, OUT_OF_RANGE);
                return out;
            }
            out.eventCode = C.holds(s.ps, x) ? 2 : 1;
        }
        return out;
    }

    /// k of n sources: each vote tested, then decided.
    function _votes(Ctx memory c, Out memory out) private pure returns (Out memory) {
        Sem memory s = c.s;
        Agg memory a = c.aggs[c.owner[0] - 1];
        uint256 p = a.fvotes[c.fi[0] - 1];
        if (p == 0) {
            out.bad = true;
            return out;
        }
        uint256 n = F.load(p);
        bytes32[] memory evidence = new bytes32[](n);
        uint256 yes;
        p += 32;
        uint256 kind = s.kinds[0];
        for (uint256 i; i < n; ++i) {
            (bool ok, PorDecimal.Dec memory x) = _typed(kind, p);
            if (!ok) {
                out.bad = true;
                return out;
            }
            if (_voteHolds(s, kind, p, x)) ++yes;
            p += (kind == F.TEXT ? 32 : F.vSize(kind, p)) + 32; // value (a text's H), H(source_id)
            evidence[i] = bytes32(F.load(p));
            p += 64; // H(evidence_id), rest
        }
        uint256 targets = s.targets[c.owner[0] - 1];
        if (s.k <= targets && yes >= s.k) out.eventCode = 2;
        else if (s.k <= targets && n - yes > targets - s.k) out.eventCode = 1;
        else (out.insufficient, out.status) = (true, UNDECIDED);
        if (out.eventCode != 0) {
            for (uint256 i; i < n; ++i) _markHash(a, evidence[i], out);
            out.fb = out.fb || a.ffb[c.fi[0] - 1];
        }
        return out;
    }

    /// The predicate's `H(expected_text)`; a `text_equals` COMMON without one is a form
    /// `F` never writes: `ProofForm()`.
    function _expected(Sem memory s) private pure returns (bytes32) {
        if (!s.ps.hasExpected) revert F.ProofForm();
        return s.ps.expected;
    }

    function _voteHolds(Sem memory s, uint256 kind, uint256 p, PorDecimal.Dec memory x) private pure returns (bool) {
        if (s.ps.predicate == C.EVENT) return kind == F.BOOLEAN && F.load(p) == 1;
        if (s.ps.predicate == C.TEXT_EQUALS) return kind == F.TEXT && bytes32(F.load(p)) == _expected(s);
        return C.holds(s.ps, x);
    }

    /// The metric requirement's first selected timestamp field that is not the metric.
    function _stamp(Ctx memory c, Out memory out) private pure {
        Agg memory a = c.aggs[c.owner[0] - 1];
        bool skip = c.s.ps.predicate == C.TIME;
        for (uint256 j; j < a.fkey.length; ++j) {
            if (a.fkind[j] == F.TIMESTAMP && a.fstatus[j] == SELECTED && !(skip && a.fkey[j] == c.s.keys[0])) {
                uint256 v = a.fval[j];
                if (v == 0) return;
                uint256 t = F.load(v);
                if (t > F.MAX_UINT63) {
                    out.bad = true;
                    return;
                }
                (out.hasStamp, out.stamp) = (true, t);
                _markList(a, a.fids[j], out);
                out.fb = out.fb || a.ffb[j];
                return;
            }
        }
    }

    /// A present value of `kind` at p (`_typed`): numeric as a decimal, a timestamp at most
    /// 2^63 - 1 as one; false when absent or out of range.
    function _typed(uint256 kind, uint256 p) private pure returns (bool, PorDecimal.Dec memory x) {
        if (p == 0) return (false, x);
        if (kind == F.NUMERIC) return (true, D.decAt(p));
        if (kind == F.TIMESTAMP) {
            uint256 t = F.load(p);
            return (t <= F.MAX_UINT63, PorDecimal.Dec(false, 0, t, 0));
        }
        return (true, x);
    }

    /// Every needed field found as the first field with its key (requirement then field
    /// order): the walk while the needed fields or the cited fields are at most FEW, else
    /// the fields' keys sorted once (`PorFormsIndex`) and each needed key's first place
    /// found by binary search: O((needed + fields) log fields) on any input.
    function _findAll(Ctx memory c) private pure {
        uint256 n = c.s.keys.length;
        uint256 m;
        for (uint256 r; r < c.aggs.length; ++r) m += c.aggs[r].fkey.length;
        if (n <= FEW || m <= FEW) {
            for (uint256 i; i < n; ++i) _find(c, i);
            return;
        }
        bytes32[] memory all = new bytes32[](m);
        uint256[] memory at = new uint256[](m); // (requirement << 128) | field
        m = 0;
        for (uint256 r; r < c.aggs.length; ++r) {
            bytes32[] memory keys = c.aggs[r].fkey;
            for (uint256 j; j < keys.length; ++j) (all[m], at[m++]) = (keys[j], (r << 128) | j);
        }
        uint256[] memory ord = I.order(all);
        for (uint256 i; i < n; ++i) {
            (bool found, uint256 p) = I.first(all, ord, c.s.keys[i]);
            if (found) _found(c, i, at[p] >> 128, uint128(at[p]));
            else c.status[i] = ABSENT;
        }
    }

    /// Needed field i found as the first field with its key: the walk.
    function _find(Ctx memory c, uint256 i) private pure {
        bytes32 key = c.s.keys[i];
        for (uint256 r; r < c.aggs.length; ++r) {
            Agg memory a = c.aggs[r];
            for (uint256 j; j < a.fkey.length; ++j) {
                if (a.fkey[j] == key) return _found(c, i, r, j);
            }
        }
        c.status[i] = ABSENT;
    }

    /// Needed field i is field j of requirement r: of its kind, or WRONG_KIND.
    function _found(Ctx memory c, uint256 i, uint256 r, uint256 j) private pure {
        Agg memory a = c.aggs[r];
        c.owner[i] = r + 1;
        if (a.fkind[j] != c.s.kinds[i]) {
            c.status[i] = WRONG_KIND;
        } else {
            c.fi[i] = j + 1;
            c.status[i] = a.fstatus[j];
        }
    }

    /// Needed field i's value position (0 when absent); the field is found with its kind.
    function _val(Ctx memory c, uint256 i) private pure returns (uint256) {
        return c.aggs[c.owner[i] - 1].fval[c.fi[i] - 1];
    }

    /// `read` of deduce.py: the field's evidence, its fallback, its conflict.
    function _read(Ctx memory c, Out memory out, uint256 i) private pure {
        uint256 owner = c.owner[i] - 1;
        Agg memory a = c.aggs[owner];
        uint256 j = c.fi[i] - 1;
        _markList(a, a.fids[j], out);
        out.fb = out.fb || a.ffb[j];
        if (!c.s.chain[owner] && _inConflicts(c, c.s.kinds[i], c.s.keys[i])) out.conflict = true;
    }

    /// (kind, key) among the conflicts: the walk up to FEW conflicts, else their
    /// keccak256(kind, key) words sorted at the first lookup and a binary search.
    function _inConflicts(Ctx memory c, uint256 kind, bytes32 key) private pure returns (bool) {
        uint256 n = c.cKinds.length;
        if (n > FEW) {
            if (c.cOrder.length == 0) {
                c.cWords = new bytes32[](n);
                for (uint256 i; i < n; ++i) c.cWords[i] = _pair(c.cKinds[i], c.cKeys[i]);
                c.cOrder = I.order(c.cWords);
            }
            (bool found,) = I.first(c.cWords, c.cOrder, _pair(kind, key));
            return found;
        }
        for (uint256 i; i < n; ++i) {
            if (c.cKinds[i] == kind && c.cKeys[i] == key) return true;
        }
        return false;
    }

    function _pair(uint256 kind, bytes32 key) private pure returns (bytes32 w) {
        assembly {
            mstore(0, kind)
            mstore(32, key)
            w := keccak256(0, 64)
        }
    }

    /// Each id of the checked `L[H]` at p marked (`_markHash`).
    function _markList(Agg memory a, uint256 p, Out memory out) private pure {
        uint256 n = F.load(p);
        for (uint256 i; i < n; ++i) _markHash(a, bytes32(F.load(p + 32 + (i << 5))), out);
    }

    /// The last place of the id (an `H` word) among the aggregate's evidence ids is read;
    /// none: the selection names evidence its step does not cite (`step.bad_prior_output`).
    function _markHash(Agg memory a, bytes32 h, Out memory out) private pure {
        if (a.eh.length > FEW) {
            if (a.order.length == 0) a.order = I.order(a.eh);
            (bool found, uint256 j) = I.last(a.eh, a.order, h);
            if (found) a.read[j] = true;
            else out.bad = true;
            return;
        }
        for (uint256 j = a.eh.length; j > 0; --j) {
            if (a.eh[j - 1] == h) {
                a.read[j - 1] = true;
                return;
            }
        }
        out.bad = true;
    }
}
