// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorDecimal} from "../PorDecimal.sol";
import {PorCheckFormState as S} from "./PorCheckFormState.sol";
import {PorDeduceFormRead} from "./PorDeduceFormRead.sol";
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsIndex as Index} from "./PorFormsIndex.sol";

/// @title PorContradictionsForm: a `contradictions` step re-executed on chain forms (SPEC
/// §10.4.4, §12.5.5; ADR 0017, s45 `contraform`).
/// @notice `execute(forms, inc)`: `forms[0]` the step's CONTRADICTIONS, `forms[1]` COMMON,
/// then the CHUNK forms of its `prior_step_ids` in citation order. The prologue is the
/// deduce executor's (`PorDeduceFormRead._prologue`); each CHUNK is read as the check
/// executor reads its P (`PorCheckFormState.readPrior`, `loadGroups`); the groups are
/// merged by (kind, H(key)) and the whole CONTRADICTIONS form is rebuilt in memory and
/// its hash compared: won `one_step.mismatch`, lost `one_step.match`, or won
/// `one_step.unexecutable` (`step.bad_inputs`, `step.citation_mismatch`,
/// `step.bad_prior_output`), `one_step.id_position`, `one_step.prior_order`. Python's
/// twin: `por/forms/execute/contradictions.py`.
contract PorContradictionsForm is PorDeduceFormRead {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:contradictions").
    bytes32 public constant KIND = keccak256("form:contradictions");
    uint256 private constant G = S.G;

    /// The forms' inclusion (`PorForms.included`), the prologue, then §12.5.5.
    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        (Sem memory s, Head memory h, bytes32 answer, bytes32 cause) =
            _prologue(forms, inc.index, inc.size, F.CONTRADICTIONS);
        return answer != 0 ? (true, answer, cause) : _step(forms, s.reqs, h.evid, h.evidEnd);
    }

    /// §12.5.5 on the forms after the prologue.
    function _step(bytes[] calldata forms, bytes32[] memory reqs, uint256 evid, uint256 evidEnd)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        if (evidEnd != evid + 32 || forms.length - 2 != reqs.length) return (true, UNEXECUTABLE, CITATION_MISMATCH);
        for (uint256 k; k < reqs.length; ++k) {
            if (F.tagOf(forms[2 + k]) != F.CHUNK) return (true, UNEXECUTABLE, CITATION_MISMATCH);
        }
        (bytes32 bad, uint256[][] memory groups, uint256 claims, uint256 total) = _chunks(forms, reqs);
        if (bad != 0) return (true, UNEXECUTABLE, bad);
        return _compare(forms, evidEnd, claims, groups, total);
    }

    /// The rebuilt form against the committed one.
    function _compare(bytes[] calldata forms, uint256 evidEnd, uint256 claims, uint256[][] memory groups, uint256 total)
        private
        pure
        returns (bool, bytes32, bytes32)
    {
        (uint256[] memory g, uint256 n) = _merge(groups, total);
        bool same = keccak256(_form(forms, evidEnd, claims, g, n)) == keccak256(forms[0]);
        return same ? (false, MATCH, bytes32(0)) : (true, MISMATCH, bytes32(0));
    }

    /// Each cited CHUNK's groups, in citation order (`PorCheckFormState`'s reading of a P),
    /// the sum of their claim counts and the groups' number; or the cause of §12.5.5's
    /// refusal at the first chunk that has one.
    function _chunks(bytes[] calldata forms, bytes32[] memory reqs)
        private
        view
        returns (bytes32, uint256[][] memory groups, uint256 claims, uint256 total)
    {
        groups = new uint256[][](reqs.length);
        for (uint256 k; k < reqs.length; ++k) {
            uint256 p = F.pos(forms[2 + k]);
            uint256 end = p + forms[2 + k].length;
            (S.Prior memory prior, bool bad) = S.readPrior(p, end);
            if (F.hashT(prior.ridT) != reqs[k] || prior.outRid != reqs[k]) return (CITATION_MISMATCH, groups, 0, 0);
            groups[k] = new uint256[](prior.nGroups * G);
            (, bool badGroups) = S.loadGroups(groups[k], prior.groups, prior.nGroups, end);
            if (bad || badGroups) return (BAD_PRIOR_OUTPUT, groups, 0, 0);
            claims += prior.claimCount;
            total += prior.nGroups;
        }
        return (0, groups, claims, total);
    }

    /// §12.5.5's merge of the chunks' groups (`G` words each, `PorCheckFormState`'s
    /// layout) by (kind, H(key)), in first-appearance order; the merged groups and their
    /// count. Each group finds its merged group by a stable sort of the (kind, H(key))
    /// words (`PorFormsIndex.order`: O(n log n) in the groups, SPEC §14.6's work rule; a
    /// run's first position is its first appearance), not by a scan.
    function _merge(uint256[][] memory groups, uint256 total) private pure returns (uint256[] memory g, uint256 n) {
        uint256[] memory all = new uint256[](total * G);
        uint256 t;
        for (uint256 k; k < groups.length; ++k) {
            uint256[] memory c = groups[k];
            for (uint256 j; j < c.length; ++j) all[t++] = c[j];
        }
        bytes32[] memory h = new bytes32[](total);
        for (uint256 i; i < total; ++i) h[i] = keccak256(abi.encode(all[i * G], all[i * G + 1]));
        uint256[] memory o = Index.order(h);
        uint256[] memory slot = new uint256[](total); // each group's run head
        for (uint256 r; r < total;) {
            uint256 head = o[r];
            for (bytes32 w = h[head]; r < total && h[o[r]] == w; ++r) slot[o[r]] = head;
        }
        g = new uint256[](total * G);
        for (uint256 i; i < total; ++i) {
            if (slot[i] == i) {
                for (uint256 j; j < G; ++j) g[n * G + j] = all[i * G + j];
                slot[i] = n++; // a head's merged number (heads come first in their run)
            } else {
                _fold(g, slot[slot[i]] * G, all, i * G);
            }
        }
    }

    /// The group at `a` of `c` folded into the merged group at `at` of `g`.
    function _fold(uint256[] memory g, uint256 at, uint256[] memory c, uint256 a) private pure {
        g[at + 2] += c[a + 2];
        if (c[a] == 1) {
            if (D.cmpDecimal(c[a + 5], g[at + 5]) < 0) _copyRef(g, at + 3, c, a + 3);
            if (D.cmpDecimal(c[a + 8], g[at + 8]) > 0) _copyRef(g, at + 6, c, a + 6);
        } else if (g[at + 9] == 0) {
            uint256 first = F.load(g[at + 5]);
            if (F.load(c[a + 5]) != first) {
                _copyRef(g, at + 6, c, a + 3);
                g[at + 9] = 1;
            } else if (c[a + 9] == 1 && F.load(c[a + 8]) != first) {
                _copyRef(g, at + 6, c, a + 6);
                g[at + 9] = 1;
            }
        }
    }

    function _copyRef(uint256[] memory g, uint256 to, uint256[] memory c, uint256 from) private pure {
        (g[to], g[to + 1], g[to + 2]) = (c[from], c[from + 1], c[from + 2]);
    }

    /// The CONTRADICTIONS form §12.5.5 writes: the committed head up to its (empty)
    /// evidence ids, W(claim_count), COMMON's tolerance words, L[conflict], W(0), the
    /// description.
    function _form(bytes[] calldata forms, uint256 evidEnd, uint256 claims, uint256[] memory g, uint256 n)
        private
        pure
        returns (bytes memory)
    {
        uint256 tp = F.pos(forms[1]) + 96;
        uint256 tEnd = D.dEnd(tp, F.pos(forms[1]) + forms[1].length);
        (bytes memory conflicts, uint256 nc) = _conflicts(D.decAt(tp), g, n);
        bytes memory text = abi.encodePacked(
            "contradiction check over ", _decimal(claims), " claim(s): ", _decimal(nc), " conflict(s)"
        );
        return bytes.concat(
            forms[0][:evidEnd], abi.encode(claims), forms[1][96:tEnd + 96 - tp], abi.encode(nc), conflicts,
            abi.encode(0, text.length), text, new bytes((32 - text.length % 32) % 32)
        );
    }

    /// The conflicting merged groups' words, in merged order, and their number.
    function _conflicts(PorDecimal.Dec memory t, uint256[] memory g, uint256 n)
        private
        pure
        returns (bytes memory conflicts, uint256 nc)
    {
        for (uint256 i; i < n; ++i) {
            uint256 at = i * G;
            if (g[at + 9] == 0) continue;
            if (g[at] == 1 && PorDecimal.absDiffLe(D.decAt(g[at + 8]), D.decAt(g[at + 5]), t)) continue;
            conflicts = bytes.concat(conflicts, _conflict(g, at));
            ++nc;
        }
    }

    /// E(check_id) E(kind) H(key) L[H](claim_ids) L[H](evidence_ids) L[V'](values)
    /// W(claim_count) W(0): the refs' words copied.
    function _conflict(uint256[] memory g, uint256 at) private pure returns (bytes memory) {
        uint256 kind = g[at];
        return bytes.concat(
            abi.encode(kind == 1 ? 0 : 1, kind, g[at + 1], 2, F.load(g[at + 3]), F.load(g[at + 6])),
            abi.encode(2, F.load(g[at + 4]), F.load(g[at + 7]), 2),
            _value(kind, g[at + 5]), _value(kind, g[at + 8]), abi.encode(g[at + 2], 0)
        );
    }

    /// The value words at call data position `p`: a `D` (numeric) or one word.
    function _value(uint256 kind, uint256 p) private pure returns (bytes memory v) {
        uint256 size = kind == 1 ? 32 + ((F.load(p) & 0xffffffff) + 31 & ~uint256(31)) : 32;
        v = new bytes(size);
        assembly {
            calldatacopy(add(v, 32), p, size)
        }
    }

    /// `x` in decimal.
    function _decimal(uint256 x) private pure returns (bytes memory b) {
        uint256 d = 1;
        for (uint256 y = x / 10; y != 0; y /= 10) ++d;
        b = new bytes(d);
        for (; d > 0; x /= 10) b[--d] = bytes1(uint8(48 + x % 10));
    }
}
