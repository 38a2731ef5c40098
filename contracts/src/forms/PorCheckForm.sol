// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorMerkle} from "../PorMerkle.sol";
import {PorCheckFormRead as R} from "./PorCheckFormRead.sol";
import {PorCheckFormItems as I} from "./PorCheckFormItems.sol";
import {PorCheckFormState as S} from "./PorCheckFormState.sol";
import {PorCheckFormWrite as Wr} from "./PorCheckFormWrite.sol";

/// @title PorCheckForm: the `check_requirement` chunk re-executed on chain forms (ADR 0017
/// stage 4, draft SPEC §5.6 §2.1-§2.5; SPEC §12.5.3, §10.5 steps 5-7).
/// @notice Input by ABI (the proof document and the registry route come later): `porRoot`
/// of seven components, the `forms` tree's size and its component leaf's path (index 6),
/// and the forms with their indexes and paths in that tree: COMMON, the REQUIREMENT of
/// the step's requirement, the disputed CHUNK, then the forms of the step's
/// `prior_step_ids` in order (its extract steps, then P). Output as today's executors:
/// (won, check id): won `one_step.id_position`, `one_step.prior_order`,
/// `one_step.unexecutable`, `one_step.mismatch`; lost `one_step.match`; `won` false with
/// `proof.form` (a carried form does not parse, or has a tag its index does not take),
/// `proof.citations` (the carried forms are not the step's citations, or not its
/// requirement's REQUIREMENT) or `merkle.root_mismatch`.
contract PorCheckForm {
    /// The executor's input (one call data struct: one stack slot).
    struct Proof {
        bytes32 porRoot;
        uint256 formsSize;
        bytes32[] componentPath;
        bytes[] forms;
        uint256[] indexes;
        bytes32[][] paths;
    }

    bytes32 internal constant MATCH = keccak256("one_step.match");
    bytes32 internal constant MISMATCH = keccak256("one_step.mismatch");
    bytes32 internal constant UNEXECUTABLE = keccak256("one_step.unexecutable");
    bytes32 internal constant ID_POSITION = keccak256("one_step.id_position");
    bytes32 internal constant PRIOR_ORDER = keccak256("one_step.prior_order");
    bytes32 internal constant CITATIONS = keccak256("proof.citations");
    bytes32 internal constant PROOF_FORM = keccak256("proof.form");
    bytes32 internal constant ROOT_MISMATCH = keccak256("merkle.root_mismatch");

    /// `check` answering `proof.form` (won false) where a carried form does not parse.
    function execute(
Proof calldata proof) external view returns (bool won, bytes32 checkId) {
        proof;
        bytes4 sel = this.check.selector;
        bytes4 fault = R.FormFault.selector;
        bytes32 proofForm = PROOF_FORM;
        assembly {
            let m := mload(0x40)
            calldatacopy(m, 0, calldatasize())
            mstore(m, or(and(mload(m), not(shl(224, 0xffffffff))), sel))
            let ok := staticcall(gas(), address(), m, calldatasize(), 0, 0)
            returndatacopy(m, 0, returndatasize())
            if ok { return(m, returndatasize()) }
            if iszero(eq(and(mload(m), shl(224, 0xffffffff)), fault)) { revert(m, returndatasize()) }
            mstore(m, 0)
            mstore(add(m, 32), proofForm)
            return(m, 64)
        }
    }

    /// The executor; a form that does not parse reverts `FormFault`.
    function check(
Proof calldata proof) external view returns (bool won, bytes32 checkId) {
        bytes32 root = _formsRoot(proof.forms, proof.indexes, proof.paths, proof.formsSize);
        if (
            root == 0
                || PorMerkle.rootFromPath(
                    PorMerkle.componentLeafHash(root, uint64(proof.formsSize)), 6, 7, proof.componentPath
                ) != proof.porRoot
        ) return (false, ROOT_MISMATCH);
        return _decide(proof.forms, proof.indexes, proof.formsSize);
    }

    /// The forms tree's root every carried form's path gives, or 0 when two differ.
    function _formsRoot(bytes[] calldata forms, uint256[] calldata indexes, bytes32[][] calldata paths, uint256 size)
        private
        view
        returns (bytes32 root)
    {
        uint256 n = forms.length;
        if (n < 3 || indexes.length != n || paths.length != n || size >> 64 != 0) revert R.FormFault(0);
        for (uint256 i; i < n; ++i) {
            if (forms[i].length % 32 != 0 || forms[i].length < 64) revert R.FormFault(i);
            bytes32 h = PorMerkle.rootFromPath(PorMerkle.leafHash(forms[i]), indexes[i], size, paths[i]);
            if (i == 0) root = h;
            else if (h != root) return 0;
        }
    }

    function _form(bytes[] calldata forms, uint256 i, uint256 tag) private pure returns (uint256 p, uint256 end) {
        bytes calldata f = forms[i];
        assembly { p := f.offset }
        end = p + f.length;
        if (R.w(p, end) != tag) revert R.FormFault(p);
    }

    /// Tags by index, citations, positions (SPEC §10.5 steps 5-6), then the re-execution.
    function _decide(bytes[] calldata forms, uint256[] calldata indexes, uint256 size)
        private
        view
        returns (bool, bytes32)
    {
        Wr.Ctx memory c;
        (c.common, c.commonEnd) = _form(forms, 0, 1);
        uint256 q = R.dEnd(c.common + 96, c.commonEnd);
        c.r = R.count(q, c.commonEnd, 4);
        (c.req, c.reqEnd) = _form(forms, 1, 2);
        (c.step, c.stepEnd) = _form(forms, 2, 4);
        uint256 first = 1 + c.r;
        if (indexes[0] != 0 || indexes[1] == 0 || indexes[1] > c.r || size < first + 1) revert R.FormFault(0);
        c.stepIndex = indexes[2];
        if (c.stepIndex < first || c.stepIndex + 1 >= size) revert R.FormFault(2);
        for (uint256 i = 3; i < forms.length; ++i) {
            bytes calldata f = forms[i];
            uint256 p;
            assembly { p := f.offset }
            uint256 tag = R.w(p, p + f.length);
            if (tag < 3 || tag > 8 || indexes[i] < first || indexes[i] + 1 >= size) revert R.FormFault(i);
        }
        // the step's head: sources, T(inputs.requirement_id), Ri, priors, evidence ids
        uint256 end = c.stepEnd;
        q = c.step + 288 + 128 * R.count(c.step + 256, end, 4);
        c.ridT = q;
        q = R.tEnd(q, end) + 32;
        R.w(q - 32, end);
        uint256 np = R.count(q, end, 1);
        if (np != forms.length - 3) return (false, CITATIONS);
        for (uint256 k; k < np; ++k) {
            bytes calldata f = forms[3 + k];
            uint256 p;
            assembly { p := f.offset }
            if (R.w(p + 32, p + f.length) != R.w(q + 32 + 32 * k, end)) return (false, CITATIONS);
        }
        c.evidence = q + 32 + 32 * np;
        q = c.evidence + 32;
        uint256 ne = R.count(c.evidence, end, 1);
        for (uint256 k; k < ne; ++k) q = R.tEnd(q, end);
        c.headEnd = q;
        // the REQUIREMENT of R: the row of H(R) in COMMON's table
        c.rid = R.hashT(c.ridT);
        c.row = c.r;
        uint256 table = R.dEnd(c.common + 96, c.commonEnd) + 32;
        for (uint256 k; k < c.r; ++k) {
            if (bytes32(R.w(table + 128 * k, c.commonEnd)) == c.rid) {
                c.row = k;
                break;
            }
        }
        if (c.row < c.r) {
            if (indexes[1] != 1 + c.row) return (false, CITATIONS);
            if (bytes32(R.w(c.req + 32, c.reqEnd)) != c.rid) revert R.FormFault(c.req);
        }
        if (bytes32(R.w(c.step + 32, end)) != R.stepIdHash(c.stepIndex - c.r)) return (true, ID_POSITION);
        for (uint256 i = 3; i < forms.length; ++i) {
            if (indexes[i] >= c.stepIndex) return (true, PRIOR_ORDER);
        }
        return _recompute(c, forms, indexes);
    }

    /// SPEC §12.5.3 on the forms: unexecutable where Python raises, else the rebuilt
    /// CHUNK form's hash against the committed one.
    function _recompute(Wr.Ctx memory c, bytes[] calldata forms, uint256[] calldata indexes)
        private
        view
        returns (bool, bytes32)
    {
        if (R.w(c.ridT + 32 + ((R.w(c.ridT, c.stepEnd) + 31) & ~uint256(31)), c.stepEnd) != 0) {
            return (true, UNEXECUTABLE); // inputs with another key: step.bad_inputs
        }
        (uint256 n, S.Prior memory prior, bool bad) = _priors(c, forms);
        if (bad || c.row == c.r || n > 10 || n != R.w(c.evidence, c.stepEnd)) return (true, UNEXECUTABLE);
        if (prior.present && (n == 0 || prior.itemCount != 10 * (prior.chunk + 1))) return (true, UNEXECUTABLE);
        I.Item[] memory items = new I.Item[](n);
        if (_items(c, forms, indexes, items, prior.hasLast ? prior.last + 1 : 0)) return (true, UNEXECUTABLE);
        uint256[] memory groups;
        uint256 nGroups;
        (groups, nGroups, bad) = _groups(forms, prior, items);
        if (bad) return (true, UNEXECUTABLE);
        _admit(c, items);
        return Wr.build(c, prior, items, groups, nGroups);
    }

    /// The cited steps: `n` extract steps, then at most one chunk P (its state read);
    /// `bad` where Python raises (another kind, a second chunk, P not last, P of another
    /// requirement or malformed).
    function _priors(Wr.Ctx memory c, bytes[] calldata forms)
        private
        pure
        returns (uint256 n, S.Prior memory prior, bool bad)
    {
        for (uint256 k = 3; k < forms.length; ++k) {
            (uint256 p, uint256 end) = _slot(forms, k);
            uint256 tag = R.w(p, end);
            if (tag == 3 && !prior.present) {
                ++n;
            } else if (tag == 4 && !prior.present) {
                (prior, bad) = S.readPrior(p, end);
                if (!R.sameT(prior.ridT, c.ridT) || prior.outRid != c.rid) bad = true;
            } else {
                return (n, prior, true);
            }
        }
    }

    /// The cited items from their EXTRACT forms, in citation order; `bad` where Python
    /// raises (an evidence id not the cited one, an item of another requirement, leaves
    /// not strictly increasing from `last` (P's `last_leaf` + 1, or 0), a timestamp claim
    /// above 2^63-1).
    function _items(Wr.Ctx memory c, bytes[] calldata forms, uint256[] calldata indexes, I.Item[] memory items, uint256 last)
        private
        pure
        returns (bool bad)
    {
        uint256 e = c.evidence + 32;
        for (uint256 k; k < items.length; ++k) {
            (uint256 p, uint256 end) = _slot(forms, 3 + k);
            (items[k], bad) = I.read(p, end);
            items[k].leaf = indexes[3 + k] - 1 - c.r;
            if (bad || !R.sameT(p + 160, e) || bytes32(R.w(items[k].tail, end)) != c.rid || items[k].leaf < last) {
                return true;
            }
            last = items[k].leaf + 1;
            e = R.tEnd(e, c.stepEnd);
        }
    }

    /// P's groups (none without P) in a table with room for every cited claim.
    function _groups(bytes[] calldata forms, S.Prior memory prior, I.Item[] memory items)
        private
        pure
        returns (uint256[] memory groups, uint256 nGroups, bool bad)
    {
        uint256 cap = prior.nGroups;
        for (uint256 k; k < items.length; ++k) cap += items[k].nClaims;
        groups = new uint256[](cap * S.G);
        if (!prior.present) return (groups, 0, false);
        (uint256 p, uint256 end) = _slot(forms, forms.length - 1);
        uint256 q;
        (q, bad) = S.loadGroups(groups, prior.groups, prior.nGroups, end);
        R.w(q, end); // the output's rest, not read
        if (R.tEnd(q + 32, end) != end) revert R.FormFault(p);
        nGroups = prior.nGroups;
    }

    function _slot(bytes[] calldata forms, uint256 i) private pure returns (uint256 p, uint256 end) {
        bytes calldata f = forms[i];
        assembly { p := f.offset }
        end = p + f.length;
    }

    function _admit(Wr.Ctx memory c, I.Item[] memory items) private pure {
        I.Rules memory rules;
        uint256 end = c.commonEnd;
        uint256 q = R.dEnd(c.common + 96, end);
        uint256 row = q + 32 + 128 * c.row;
        rules.minTier = R.w(row + 96, end);
        q += 32 + 128 * c.r + 32; // market id
        uint256 start = R.w(q, end);
        uint256 slack = R.w(q + 64, end);
        rules.start = start > slack ? start - slack : 0;
        rules.end = R.w(q + 32, end) + slack;
        rules.allowed = q + 96;
        q = rules.allowed + 32 + 32 * R.count(rules.allowed, end, 1);
        q += 32 + 32 * R.count(q, end, 1); // rules
        R.code(q, end, 1); // on_conflict
        R.code(q + 64, end, 1); // strict mode
        uint256 predicate = R.code(q + 256, end, 5);
        rules.skipMetric = predicate == 5;
        rules.metric = bytes32(R.w(c.common + 32, end));
        end = c.reqEnd;
        rules.targets = c.req + 192;
        q = rules.targets + 32 + 32 * R.count(rules.targets, end, 1);
        uint256 nf = R.count(q, end, 3);
        q += 32;
        for (uint256 k; k < nf; ++k) {
            R.code(q, end, 3);
            q = R.tEnd(q + 64, end);
        }
        if (R.code(q, end, 1) == 1) {
            rules.codes = q + 32;
            q += 64 + 32 * R.count(q + 32, end, 1);
        } else {
            q += 32;
        }
        if (q != end) revert R.FormFault(q);
        for (uint256 k; k < items.length; ++k) I.admit(items[k], rules);
    }
}
