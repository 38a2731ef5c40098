// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorFormStep} from "./PorFormStep.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorCheckFormItems as I} from "./PorCheckFormItems.sol";
import {PorCheckFormState as S} from "./PorCheckFormState.sol";
import {PorCheckFormWrite as Wr} from "./PorCheckFormWrite.sol";

/// @title PorCheckForm: a `check_requirement` chunk re-executed on chain forms (ADR 0017
/// stage 4; SPEC §12.5.3 on `docs/spec-forms-draft.md` §2.1-§2.5; SPEC §10.5 steps 5-7).
/// @notice `execute(forms, inc)` takes the forms by ABI, as `PorAggregateForm`: `forms[0]`
/// the step's CHUNK, `forms[1]` COMMON, `forms[2]` the REQUIREMENT of the step's
/// requirement R (any REQUIREMENT when COMMON lists no R), then the forms of the step's
/// `prior_step_ids` in citation order (its extract steps, then P); `inc`
/// (`PorForms.Inclusion`) their indexes and paths in the `forms` tree and the forms
/// component's path to `porRoot`. It answers as Python's one-step check of the step's
/// OneStepProof: (won, check id, cause): won `one_step.id_position`,
/// `one_step.prior_order`, `one_step.unexecutable` (cause `step.bad_inputs`,
/// `step.citation_mismatch` or `step.bad_prior_output` where the forms show it, in
/// Python's order), `one_step.mismatch`; lost `one_step.match`. An invalid proof reverts:
/// `ProofForm()` (`proof.form`: a carried form does not parse, or its tag is not its
/// index's), `Citations(i)` (`proof.citations`: form i is not the step's citation or
/// not R's REQUIREMENT), the inclusions' errors. Rules of the cited records their forms
/// do not hold (a claim's `path`, an extract step's own `evidence_ids`) are their own
/// proofs' (ADR 0017 decision 3).
contract PorCheckForm is PorFormStep {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:check").
    bytes32 public constant KIND = keccak256("form:check");

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        Wr.Ctx memory c = _roles(forms, inc.index, inc.size);
        if (bytes32(F.wordAt(c.step + 32, c.stepEnd)) != F.stepIdHash(c.stepIndex - c.r)) return (true, ID_POSITION, 0);
        for (uint256 i = 3; i < forms.length; ++i) {
            if (inc.index[i] >= c.stepIndex) return (true, PRIOR_ORDER, 0);
        }
        return _recompute(c, forms, inc.index);
    }

    function _slot(bytes[] calldata forms, uint256 i) private pure returns (uint256 p, uint256 end) {
        bytes calldata f = forms[i];
        if (f.length < 32 || f.length & 31 != 0) revert F.ProofForm();
        assembly { p := f.offset }
        end = p + f.length;
    }

    function _tagged(bytes[] calldata forms, uint256 i, uint256 tag) private pure returns (uint256 p, uint256 end) {
        (p, end) = _slot(forms, i);
        if (F.wordAt(p, end) != tag) revert F.ProofForm();
    }

    /// Tags by index (draft §3), the step's head, its citations (SPEC §10.5 step 5: the
    /// carried priors are its `prior_step_ids`), R's row in COMMON and its REQUIREMENT.
    function _roles(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        view
        returns (Wr.Ctx memory c)
    {
        if (forms.length < 3) revert F.ProofForm();
        (c.step, c.stepEnd) = _tagged(forms, 0, F.CHUNK);
        (c.common, c.commonEnd) = _tagged(forms, 1, F.COMMON);
        (c.req, c.reqEnd) = _tagged(forms, 2, F.REQUIREMENT);
        uint256 table = D.dEnd(c.common + 96, c.commonEnd);
        c.r = F.countAt(table, c.commonEnd, 4);
        uint256 first = 1 + c.r;
        c.stepIndex = index[0];
        if (index[1] != 0 || index[2] == 0 || index[2] > c.r || c.stepIndex < first || c.stepIndex + 1 >= size) {
            revert F.ProofForm();
        }
        for (uint256 i = 3; i < forms.length; ++i) {
            F.stepTag(forms[i], index[i], c.r, size);
        }
        uint256 stepEnd = c.stepEnd;
        uint256 q = c.step + 288 + 128 * F.countAt(c.step + 256, stepEnd, 4);
        c.ridT = q;
        q = F.tEnd(q, stepEnd) + 32;
        F.wordAt(q - 32, stepEnd); // Ri
        uint256 np = F.countAt(q, stepEnd, 1);
        if (np != forms.length - 3) revert Citations(forms.length);
        for (uint256 k; k < np; ++k) {
            (uint256 p, uint256 end) = _slot(forms, 3 + k);
            if (F.wordAt(p + 32, end) != F.wordAt(q + 32 + 32 * k, stepEnd)) revert Citations(3 + k);
        }
        c.evidence = q + 32 + 32 * np;
        c.headEnd = c.evidence + 32 + 32 * F.countAt(c.evidence, stepEnd, 1); // L[H]
        c.rid = F.hashT(c.ridT);
        c.row = c.r;
        for (uint256 k; k < c.r; ++k) {
            if (bytes32(F.wordAt(table + 32 + 128 * k, c.commonEnd)) == c.rid) {
                c.row = k;
                break;
            }
        }
        if (c.row < c.r) {
            if (index[2] != 1 + c.row) revert Citations(2);
            if (bytes32(F.wordAt(c.req + 32, c.reqEnd)) != c.rid) revert F.ProofForm();
        }
    }

    /// SPEC §12.5.3 on the forms: unexecutable with Python's first cause, else the
    /// rebuilt CHUNK form's hash against the committed one.
    function _recompute(Wr.Ctx memory c, bytes[] calldata forms, uint256[] calldata index)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        (bytes32 cause, I.Item[] memory items, S.Prior memory prior, uint256[] memory groups) =
            _causes(c, forms, index);
        if (cause != 0) return (true, UNEXECUTABLE, cause);
        _admit(c, items);
        if (!Wr.build(c, prior, items, groups, prior.nGroups)) return (true, MISMATCH, 0);
        return (false, MATCH, 0);
    }

    /// Python's checks before the chunk's computation, in its order (`recompute_step`,
    /// `check_requirement_step`): 0 when all hold, else the cause; the items, P's state
    /// and the groups table read on the way.
    function _causes(Wr.Ctx memory c, bytes[] calldata forms, uint256[] calldata index)
        private
        pure
        returns (bytes32 cause, I.Item[] memory items, S.Prior memory prior, uint256[] memory groups)
    {
        if (F.wordAt(c.ridT + 32 + ((F.wordAt(c.ridT, c.stepEnd) + 31) & ~uint256(31)), c.stepEnd) != 0) {
            return (BAD_INPUTS, items, prior, groups); // inputs with another key
        }
        uint256[] memory at;
        uint256 chunkAt;
        (at, chunkAt, cause) = _split(forms);
        items = new I.Item[](at.length);
        bool badClaim;
        if (cause == 0) (cause, badClaim) = _cards(c, forms, index, at, items);
        if (cause == 0) (cause, prior, groups) = _prior(c, forms, chunkAt, items);
        if (cause == 0 && badClaim) cause = BAD_PRIOR_OUTPUT; // `read_extracts`, after the order
        // the recomputed step cites its extract steps, then P: P elsewhere fails
        // `recompute_step`'s last check (its prior_step_ids), before the comparison
        if (cause == 0 && chunkAt != 0 && chunkAt != forms.length - 1) cause = CITATION_MISMATCH;
    }

    /// Python's `_split`: the extract steps' positions in `forms`, P's (0: none); a cited
    /// step of another kind, or a second chunk, is `step.citation_mismatch`.
    function _split(bytes[] calldata forms) private pure returns (uint256[] memory at, uint256 chunkAt, bytes32 cause) {
        at = new uint256[](forms.length - 3);
        uint256 n;
        uint256 chunks;
        for (uint256 i = 3; i < forms.length; ++i) {
            (uint256 p, uint256 end) = _slot(forms, i);
            uint256 tag = F.wordAt(p, end);
            if (tag == F.EXTRACT) {
                at[n++] = i;
            } else if (tag == F.CHUNK) {
                chunkAt = i;
                ++chunks;
            } else {
                return (at, chunkAt, CITATION_MISMATCH);
            }
        }
        assembly { mstore(at, n) }
        if (chunks > 1) cause = CITATION_MISMATCH;
    }

    /// The cards (`read_cards`: one per evidence id, each the cited id), R (`bad_inputs`
    /// when COMMON lists no R), at most 10 items, each of R; `badClaim`: a timestamp claim
    /// above 2^63-1 (Python's bad claim value, raised later by `read_extracts`).
    function _cards(
        Wr.Ctx memory c,
        bytes[] calldata forms,
        uint256[] calldata index,
        uint256[] memory at,
        I.Item[] memory items
    ) private pure returns (bytes32, bool badClaim) {
        uint256 n = at.length;
        if (n != F.wordAt(c.evidence, c.stepEnd)) return (CITATION_MISMATCH, false);
        for (uint256 k; k < n; ++k) {
            (uint256 p, uint256 end) = _slot(forms, at[k]);
            bool bad;
            (items[k], bad) = I.read(p, end);
            items[k].leaf = index[at[k]] - 1 - c.r;
            badClaim = badClaim || bad;
        }
        uint256 e = c.evidence + 32; // each cited id's H against the item's word 4
        for (uint256 k; k < n; ++k) {
            if (F.load(items[k].e + 128) != F.load(e + 32 * k)) return (CITATION_MISMATCH, badClaim);
        }
        if (c.row == c.r) return (BAD_INPUTS, badClaim);
        if (n > 10) return (CITATION_MISMATCH, badClaim);
        for (uint256 k; k < n; ++k) {
            if (bytes32(F.load(items[k].tail)) != c.rid) return (CITATION_MISMATCH, badClaim);
        }
        return (0, badClaim);
    }

    /// P's state (`read_state`: P of R, its state well formed), the chunk after a full P
    /// with items, the items' leaves strictly increasing after P's `last_leaf`; the
    /// groups table (P's groups, room for every cited claim).
    function _prior(Wr.Ctx memory c, bytes[] calldata forms, uint256 chunkAt, I.Item[] memory items)
        private
        pure
        returns (bytes32 cause, S.Prior memory prior, uint256[] memory groups)
    {
        uint256 cap;
        for (uint256 k; k < items.length; ++k) cap += items[k].nClaims;
        if (chunkAt != 0) {
            (uint256 p, uint256 end) = _slot(forms, chunkAt);
            bool bad;
            (prior, bad) = S.readPrior(p, end);
            groups = new uint256[]((cap + prior.nGroups) * S.G);
            (uint256 q, bool badGroups) = S.loadGroups(groups, prior.groups, prior.nGroups, end);
            F.wordAt(q, end); // the output's rest, not read
            if (F.tEnd(q + 32, end) != end) revert F.ProofForm();
            if (!F.sameT(prior.ridT, c.ridT) || prior.outRid != c.rid) return (CITATION_MISMATCH, prior, groups);
            if (bad || badGroups) return (BAD_PRIOR_OUTPUT, prior, groups);
            if (items.length == 0 || prior.itemCount != 10 * (prior.chunk + 1)) {
                return (CITATION_MISMATCH, prior, groups);
            }
        } else {
            groups = new uint256[](cap * S.G);
        }
        uint256 last = prior.hasLast ? prior.last + 1 : 0; // leaves at or above `last`
        for (uint256 k; k < items.length; ++k) {
            if (items[k].leaf < last) return (CITATION_MISMATCH, prior, groups);
            last = items[k].leaf + 1;
        }
    }

    /// The admission's rules from COMMON and REQUIREMENT (both walked to the words read),
    /// then each item admitted.
    function _admit(Wr.Ctx memory c, I.Item[] memory items) private pure {
        I.Rules memory rules;
        uint256 end = c.commonEnd;
        uint256 q = D.dEnd(c.common + 96, end);
        rules.minTier = F.intAt(q + 32 + 128 * c.row + 96, end);
        q += 32 + 128 * c.r + 32; // the window's start
        uint256 start = F.intAt(q, end);
        uint256 slack = F.intAt(q + 64, end);
        rules.start = start > slack ? start - slack : 0;
        rules.end = F.intAt(q + 32, end) + slack;
        rules.allowed = q + 96;
        q = rules.allowed + 32 + 32 * F.countAt(rules.allowed, end, 1);
        q += 32 + 32 * F.countAt(q, end, 1); // rules
        F.codeAt(q, end, 1); // on_conflict
        F.codeAt(q + 64, end, 1); // strict mode
        rules.skipMetric = F.codeAt(q + 256, end, 5) == 5; // timestamp_threshold
        rules.metric = bytes32(F.wordAt(c.common + 32, end));
        end = c.reqEnd;
        rules.targets = c.req + 192;
        q = rules.targets + 32 + 32 * F.countAt(rules.targets, end, 1);
        uint256 nf = F.countAt(q, end, 2); // L[E(kind) H(key)]
        q += 32;
        for (uint256 k; k < nf; ++k) {
            F.codeAt(q, end, 3);
            q += 64;
        }
        if (F.codeAt(q, end, 1) == 1) {
            rules.codes = q + 32;
            q += 64 + 32 * F.countAt(q + 32, end, 1);
        } else {
            q += 32;
        }
        if (q != end) revert F.ProofForm();
        for (uint256 k; k < items.length; ++k) I.admit(items[k], rules);
    }
}
