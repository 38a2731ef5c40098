"""``contracts/src/forms/PorFormsCommon.sol``: COMMON's head and prediction semantics,
read once for the aggregate, deduce and JudgeProof executors on forms (s40 ``fold``).

``head`` and ``read`` on the COMMON form ``por.forms.spec.common_form`` writes for a
fixture PromptSpec with seven prediction semantics; ``holds`` against Python's
``Decimal`` order; a malformed requirement row or a short table is ``proof.form``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, selector
from scratch_harness import SOLC

from por.forms.words import D, T
from por.signing.eip712 import keccak256

pytestmark = SOLC


SEMANTICS = """// SPDX-License-Identifier: Apache-2.0
pragma solidity 0.8.30;
import {PorForms as F} from "./PorForms.sol";
import {PorFormsDecimal as D} from "./PorFormsDecimal.sol";
import {PorFormsCommon as C} from "./PorFormsCommon.sol";
contract SemanticsProbe {
    /// COMMON's semantics, after its head, requirement table and market part.
    function _read(bytes calldata f) private pure returns (C.Semantics memory s) {
        uint256 o = F.open(f, F.COMMON) + 32;
        (, o) = F.readZ(f, o);
        (,,,, o) = D.readD(f, o);
        (uint256 r, uint256 q) = F.readL(f, o);
        (uint256 n, uint256 q2) = F.readL(f, q + 128 * r + 128);
        (n, q2) = F.readL(f, q2 + 32 * n);
        F.end(f, C.read(f, q2 + 32 * n + 256, s));
    }
    function head(bytes calldata f) external pure returns (uint256, uint256, uint256, bool, bytes32,
        bool, bool, bool) {
        C.Semantics memory s = _read(f);
        return (s.predicate, s.comparison, s.nTerms, s.hasOther, s.other, s.absentNo,
                s.lowerIncl, s.upperIncl);
    }
    function texts(bytes calldata f) external pure returns (bytes32, bytes32, bytes32[] memory,
        bytes32[] memory, bool[] memory, uint256) {
        C.Semantics memory s = _read(f);
        uint256 term = s.terms == 0 ? 0 : F.word(f, (s.terms >> 5) + 1);
        return (F.keccakT(s.metricT), s.hasExpected ? s.expected : bytes32(0),
                s.preKeys, s.preEquals, s.preOtherwiseNo, term);
    }
    function common(bytes calldata f) external pure returns (uint256, uint256, uint256, uint256) {
        return C.head(f);
    }
    function holds(bytes calldata f, bytes calldata x) external pure returns (bool) {
        return C.holds(_read(f), D.decAt(F.pos(x)));
    }
}
"""

PREDICTIONS = [
    {"predicate": "numeric_range", "metric": "m", "lower": "1.5", "upper": "10",
     "lower_inclusive": False, "upper_inclusive": True},
    {"predicate": "numeric_range", "metric": "m", "lower": "-1", "upper": "2.75"},
    {"predicate": "numeric_threshold", "metric": "price", "comparison": ">=",
     "threshold": "-2.25", "terms": [{"op": "+", "metric": "a"}, {"op": "-", "metric": "b"}]},
    {"predicate": "numeric_threshold", "metric": "price", "comparison": "==", "threshold": "3"},
    {"predicate": "field_comparison", "metric": "x", "comparison": "<", "other_metric": "y"},
    {"predicate": "text_equals", "metric": "t", "expected_text": "yes", "absent_means_no": True,
     "preconditions": [{"key": "k", "equals": "v", "otherwise": "NO"},
                       {"key": "k2", "equals": "wé"}]},
    {"predicate": "event_observed", "metric": "e"},
]


def _holds(ps: dict[str, Any], x: Decimal) -> bool:
    """``PorFormsCommon.holds`` as its comment says."""
    if ps["predicate"] == "numeric_range":
        lo, hi = Decimal(ps["lower"]), Decimal(ps["upper"])
        low = x >= lo if ps.get("lower_inclusive", True) else x > lo
        return low and (x <= hi if ps.get("upper_inclusive", False) else x < hi)
    field = ps["predicate"] == "field_comparison"
    bound = Decimal(0) if field else Decimal(ps.get("threshold", "0"))
    return {">": x > bound, ">=": x >= bound, "<": x < bound, "<=": x <= bound,
            "==": x == bound}[ps.get("comparison", ">")]


@pytest.mark.parametrize("ps", PREDICTIONS, ids=lambda ps: str(ps["predicate"]))
def test_prediction_semantics_read(ps: dict[str, Any]) -> None:
    from bundle_edits import honest

    from por.encoding import decode
    from por.forms.spec import common_form
    from por.forms.words import COMPARISON, PREDICATE, H

    spec = dict(decode(honest("08-quorum-agree").prompt_spec))
    spec["prediction_semantics"] = ps
    form = common_form(spec)
    probe_ = deploy("SemanticsProbe", SEMANTICS)
    out, _gas = call(probe_, selector("head(bytes)") + abi_encode(["bytes"], [form]))
    assert isinstance(out, bytes)
    assert tuple(abi_decode(["uint256"] * 3 + ["bool", "bytes32"] + ["bool"] * 3, out)) == (
        PREDICATE[ps["predicate"]], COMPARISON.get(ps.get("comparison", ">"), 0),
        len(ps.get("terms", [])), "other_metric" in ps,
        H(ps["other_metric"]) if "other_metric" in ps else bytes(32),
        ps.get("absent_means_no", False), "lower_inclusive" not in ps or ps["lower_inclusive"],
        ps.get("upper_inclusive", False))
    out, _gas = call(probe_, selector("texts(bytes)") + abi_encode(["bytes"], [form]))
    assert isinstance(out, bytes)
    pres = ps.get("preconditions", [])
    assert tuple(abi_decode(["bytes32", "bytes32", "bytes32[]", "bytes32[]", "bool[]", "uint256"],
                            out)) == (
        keccak256(T(ps["metric"])),
        H(ps["expected_text"]) if "expected_text" in ps else bytes(32),
        tuple(H(p["key"]) for p in pres), tuple(H(p["equals"]) for p in pres),
        tuple(p.get("otherwise") == "NO" for p in pres),
        int.from_bytes(H(ps["terms"][0]["metric"])) if "terms" in ps else 0)
    if ps["predicate"] in ("event_observed", "text_equals"):
        return
    for x in ("-3", "-2.25", "-1", "0", "1.5", "2.75", "3", "10", "10.5"):
        out, _gas = call(probe_, selector("holds(bytes,bytes)")
                         + abi_encode(["bytes", "bytes"], [form, D(x)]))
        assert isinstance(out, bytes)
        assert abi_decode(["bool"], out) == (_holds(ps, Decimal(x)),), x


def test_common_head() -> None:
    """``PorFormsCommon.head``: sources_required, the requirement table's offset, its rows
    and the offset after it; a row's strategy code 3 or a short table is ``proof.form``."""
    from bundle_edits import honest

    from por.encoding import decode
    from por.forms.spec import common_form

    spec = dict(decode(honest("08-quorum-agree").prompt_spec))
    probe_ = deploy("SemanticsProbe", SEMANTICS)
    for k in (None, 2):
        ps = dict(spec["prediction_semantics"])
        if k is not None:
            ps["sources_required"] = k
        form = common_form({**spec, "prediction_semantics": ps})
        out, _gas = call(probe_, selector("common(bytes)") + abi_encode(["bytes"], [form]))
        assert isinstance(out, bytes)
        tolerance = D(spec["conflict_policy"]["numeric_tolerance"])
        table = 96 + len(tolerance)
        rows = len(spec["data_requirements"])
        assert abi_decode(["uint256"] * 4, out) == (k or 0, table, rows, table + 32 + 128 * rows)
    bad = bytearray(form)
    bad[table + 32 + 63] = 3  # row 0's strategy
    for broken in (bytes(bad), form[:table + 32 + 96]):
        out, _gas = call(probe_, selector("common(bytes)") + abi_encode(["bytes"], [broken]))
        assert out == "proof.form"
