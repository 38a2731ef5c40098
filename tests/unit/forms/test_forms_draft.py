"""SPEC §5.6's own examples byte for byte (§5.6.1's table, §5.6.13's worked example;
the text moved from docs/spec-forms-draft.md at s39) and the ``form.none`` cases of
§5.6.1 and §5.6.15."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from forms_markets import markets
from vector_generators import load_generator

from por.errors import PorError
from por.forms import form_of
from por.forms.words import STRATEGY, B, D, E, H, L, O, P, R, T, V, W, Z
from por.merkle.hashing import leaf_hash

SPEC = (Path(__file__).resolve().parents[3] / "SPEC.md").read_text(encoding="utf-8")


def word(n: int) -> str:
    return f"{n:064x}"


def text(data: bytes) -> str:
    return (data + bytes(-len(data) % 32)).hex()


def test_section_1_examples() -> None:
    assert W(5).hex() == word(5)
    assert B(True).hex() == word(1)
    assert E(STRATEGY, "fallback_chain").hex() == word(2)
    assert H("price").hex() == "683b531f41ec88a2f345b727afe59757b73162a340a65c86bba62866f8fe556c"
    assert T("ab").hex() == word(2) + text(b"ab")
    assert T("").hex() == word(0)
    assert T("a" * 32).hex() == word(32) + text(b"a" * 32)
    assert D("-0.25").hex() == "80" + "00" + "02" + "00" * 28 + "02" + text(b"25")
    assert D("100").hex() == word(3) + text(b"100")
    assert D("0").hex() == word(1) + text(b"0")
    assert V("numeric", "100") == D("100")
    assert L(T, ["a"]).hex() == word(1) + word(1) + text(b"a")
    assert P(W, {}, "n").hex() == word(0)
    assert P(W, {"n": 7}, "n").hex() == word(1) + word(7)
    assert O({}, "n").hex() == word(0) * 2
    assert Z({}, "n", 64).hex() == word(0)
    assert Z({"n": 64}, "n", 64).hex() == word(64)
    assert R({"a": 1, "x": 1}, {"a"}).hex() == (
        "2956b2cee8e54663cef11aac45368e3a869c862ed7a6fd2dba3a408017ce3e0e")
    assert R({"a": 1}, {"a"}).hex() == word(0)


def test_worked_example_5_6_13() -> None:
    block = SPEC.split("#### 5.6.13 Worked example", 1)[1].split("```", 2)[1]
    words = re.findall(r"^([0-9a-f]{64})  ", block, flags=re.MULTILINE)
    assert len(words) == 14
    leaf = re.search(r"LH\(F\) = ([0-9a-f]{64})", block)
    assert leaf is not None
    spec = next(m for m in markets() if m.name == "01-boolean-observed").prompt_spec
    form = form_of(spec, 0)
    assert form.hex() == "".join(words)
    assert leaf_hash(form).hex() == leaf.group(1)


def _market(name: str) -> Any:
    return next(m for m in markets() if m.name == name)


def _spec(name: str = "08-quorum-agree") -> dict[str, Any]:
    return copy.deepcopy(_market(name).prompt_spec)


GEN = load_generator("gen_forms")
NONE = [*GEN.NO_FORM,
        ("an integer of 2^64", "deduce", "output.timestamp", 1 << 64, None)]


def _records() -> dict[str, Any]:
    market = _market(GEN.EDITED)
    records = {"prompt_spec": market.prompt_spec, "verdict": market.verdict}
    for step in market.steps:
        records.setdefault(step["inputs"]["kind"], step)
    return records


@pytest.mark.parametrize(("why", "source", "path", "value", "requirement"), NONE,
                         ids=[c[0] for c in NONE])
def test_form_none(why: str, source: str, path: str, value: Any,
                   requirement: int | None) -> None:
    record = GEN.no_form_record(_records(), source, path, value)
    with pytest.raises(PorError) as caught:
        form_of(record, requirement)
    assert caught.value.check_id == "form.none", why


def test_a_missing_optional_keeps_a_form() -> None:
    """Keys a layout reads under P/O/Z, and §4's defaults, have forms when absent."""
    spec = _spec()
    del spec["data_requirements"][0]["selection_policy"]["tie_breaker"]
    del spec["confidence_policy"]
    assert form_of(spec) and form_of(spec, 0)
    assert form_of(spec, 0) == form_of(_spec(), 0)  # tie_breaker's default
    defaults = _spec()
    defaults["confidence_policy"] = {
        "default_confidence_bps": 7000, "min_confidence_for_yesno_bps": 5500,
        "conflict_factor_bps": 8000, "fallback_factor_bps": 9000, "invalid_confidence_bps": 0}
    assert form_of(spec) == form_of(defaults)  # the policy's defaults, written out
    assert form_of(spec) != form_of(_spec())  # market 08's policy is not the default
