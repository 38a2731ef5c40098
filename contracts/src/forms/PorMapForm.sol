// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;

import {PorForms as F} from "./PorForms.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormStep} from "./PorFormStep.sol";
import {PorFormsSort} from "./PorFormsSort.sol";

/// @title PorMapForm: a `map` step re-executed on chain forms (SPEC §10.4.4, §12.5.7;
/// ADR 0017 s45).
/// @notice `execute(forms, inc)` takes the forms by ABI as `PorDeduceForm` does:
/// `forms[0]` the step's MAP, `forms[1]` COMMON (its requirement count places the step's
/// leaf), then the forms of the step's `prior_step_ids` in citation order (one DEDUCE
/// for an honest step); `inc` (`PorForms.Inclusion`) their indexes and paths in the forms
/// tree and the forms component's path to `porRoot`. It answers as Python's one-step
/// check of the step's OneStepProof: (won, check id, cause): won `one_step.id_position`,
/// `one_step.prior_order`, `one_step.unexecutable` (cause `step.bad_inputs`,
/// `step.citation_mismatch` or `step.bad_prior_output`), `one_step.mismatch`; lost
/// `one_step.match`. The whole MAP form is rebuilt in memory from the DEDUCE form's
/// variables and its hash compared. An invalid proof reverts: `ProofForm()`
/// (`proof.form`), `Citations(i)` (`proof.citations`), `FormsInclusion`/`FormsPorRoot`/
/// PorMerkle's errors. Python's twin: `por/forms/execute/map.py`.
contract PorMapForm is PorFormStep {
    /// The kind PorProofCheck routes to it (SPEC §14.8): keccak256("form:map").
    bytes32 public constant KIND = keccak256("form:map");
    /// `variables_from`'s timestamp bound.
    uint256 private constant MAX_UINT63 = (1 << 63) - 1;
    /// The description's length and bytes (`T("map to evaluation variables")`).
    uint256 private constant DESCRIPTION_LENGTH = 27;
    bytes32 private constant DESCRIPTION = "map to evaluation variables";

    function execute(bytes[] calldata forms, F.Inclusion calldata inc) external view returns (bool, bytes32, bytes32) {
        F.included(forms, inc);
        return _run(forms, inc.index, inc.size);
    }

    /// The MAP form's head: Ri, its prior step ids (call data position of their count
    /// word) and the offsets of its evidence ids' `L[H]` and after it.
    struct Head {
        uint256 ri;
        uint256 priors;
        uint256 evid;
        uint256 evidEnd;
    }

    function _run(bytes[] calldata forms, uint256[] calldata index, uint256 size)
        private
        view
        returns (bool, bytes32, bytes32)
    {
        if (forms.length < 2 || index[1] != 0) revert F.ProofForm();
        (,, uint256 r,) = C.head(forms[1]);
        Head memory h = _head(forms[0]);
        if (F.load(h.priors) != forms.length - 2) revert Citations(forms.length);
        for (uint256 i = 2; i < forms.length; ++i) {
            F.stepTag(forms[i], index[i], r, size);
            if (F.word(forms[i], 1) != F.load(h.priors + 32 * (i - 1))) revert Citations(i);
        }
        F.stepTag(forms[0], index[0], r, size);
        if (F.stepIdHash(index[0] - r) != bytes32(F.word(forms[0], 1))) return (true, ID_POSITION, 0);
        for (uint256 i = 2; i < forms.length; ++i) {
            if (index[i] >= index[0]) return (true, PRIOR_ORDER, 0);
        }
        if (h.ri != 0) return (true, UNEXECUTABLE, BAD_INPUTS);
        if (forms.length != 3 || F.tagOf(forms[2]) != F.DEDUCE) return (true, UNEXECUTABLE, CITATION_MISMATCH);
        bytes32 cause = _compare(forms[0], forms[2], h);
        if (cause == MATCH) return (false, MATCH, 0);
        if (cause == MISMATCH) return (true, MISMATCH, 0);
        return (true, UNEXECUTABLE, cause);
    }

    /// The head of the MAP form `f` (its tag checked).
    function _head(bytes calldata f) private pure returns (Head memory h) {
        uint256 o = F.open(f, F.MAP) + 32;
        h.ri = F.at(f, o);
        h.priors = F.pos(f) + o + 32;
        uint256 n;
        (n, o) = F.readL(f, o + 32);
        h.evid = o + (n << 5);
        (n, o) = F.readL(f, h.evid);
        h.evidEnd = o + (n << 5);
    }

    /// The DEDUCE form `d`'s variables (`step.bad_prior_output`), its summary as the MAP
    /// form's evidence ids (`step.citation_mismatch`), then the MAP form rebuilt against
    /// the committed one (`one_step.match` / `one_step.mismatch`).
    function _compare(bytes calldata f, bytes calldata d, Head memory h) private pure returns (bytes32) {
        (bool ok, uint256 vars, uint256 varsEnd, uint256 flags, uint256 sum, uint256 sumEnd) = _variables(d);
        if (!ok) return BAD_PRIOR_OUTPUT;
        if (keccak256(f[h.evid:h.evidEnd]) != keccak256(d[sum:sumEnd])) return CITATION_MISMATCH;
        bytes memory built = bytes.concat(
            f[:h.evidEnd],
            d[vars:varsEnd],
            abi.encode(flags & 2 != 0, flags & 1 != 0, flags & 4 != 0, flags & 8 != 0),
            d[sum:sumEnd],
            abi.encode(uint256(0), uint256(0), DESCRIPTION_LENGTH, DESCRIPTION)
        );
        return keccak256(built) == keccak256(f) ? MATCH : MISMATCH;
    }

    /// The DEDUCE form `d`'s evaluation variables, read up to its timestamp (the rest is
    /// not read): `ok` false where `variables_from` refuses them (a repeated summary id,
    /// a timestamp past 2^63 - 1: `step.bad_prior_output`); the offsets of its
    /// `P[B] P[D] P[W]` (`vars`..`varsEnd`) and of its `L[H](source_summary)`
    /// (`sum`..`sumEnd`); `flags` bit 0 insufficient, 1 conflict, 2 fallback, 3 provenance.
    function _variables(bytes calldata d)
        private
        pure
        returns (bool ok, uint256 vars, uint256 varsEnd, uint256 flags, uint256 sum, uint256 sumEnd)
    {
        (uint256 n, uint256 o) = F.readL(d, 96); // after the tag, step id, Ri: prior_step_ids
        (n, o) = F.readL(d, o + (n << 5)); // evidence_ids
        o = F.skipTexts(d, o + (n << 5) + 96); // predicate, metric, status: not read
        for (uint256 i; i < 4; ++i) {
            bool b;
            (b, o) = F.readB(d, o);
            if (b) flags |= 1 << i;
        }
        sum = o;
        (n, o) = F.readL(d, o);
        vars = o + (n << 5);
        ok = !_repeats(F.pos(d) + o, n);
        bool present;
        (present, o) = F.readP(d, vars);
        if (present) (, o) = F.readB(d, o);
        (present, o) = F.readP(d, o);
        if (present) (,,,, o) = D.readD(d, o);
        (present, o) = F.readP(d, o);
        if (present) {
            uint256 stamp;
            (stamp, o) = F.readW(d, o);
            if (stamp > MAX_UINT63) ok = false;
        }
        (sumEnd, varsEnd) = (vars, o);
    }

    /// Whether the `n` words at call data position `p` hold a word twice (`PorFormsSort`:
    /// O(n log n) on a count the signer chooses).
    function _repeats(uint256 p, uint256 n) private pure returns (bool) {
        uint256[] memory w = new uint256[](n);
        assembly {
            calldatacopy(add(w, 32), p, shl(5, n))
        }
        return PorFormsSort.repeats(w);
    }
}
