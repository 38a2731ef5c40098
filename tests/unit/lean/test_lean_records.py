"""Lean records (``por.lean``) accept nothing the pydantic models refuse.

Two pins: field by field, each lean record lists the model's wire keys and
attribute names, and a key is optional in the lean record only where the
model's default is ``None``; and differentially, every mutant of every example
market's PromptSpec and EvidenceItems that the lean record accepts is accepted
by the pydantic model with the bytes' canonical form and equal attributes.
Lean records may refuse more (the full verifier then decides); the honest
records of every example market must be accepted (else no fast path).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from por.bundle import layout as py_layout
from por.errors import PorError
from por.lean import bundle as lean_bundle
from por.lean import evidence as lean_evidence
from por.lean import prompt as lean_prompt
from por.lean.base import Reject, Struct
from por.scenarios import list_scenarios, load_scenario
from por.schemas import evidence as py_evidence
from por.schemas import market as py_market
from por.schemas import prompt as py_prompt

PAIRS: list[tuple[type[Struct], type[BaseModel]]] = [
    (lean_prompt.ResolutionWindow, py_market.ResolutionWindow),
    (lean_prompt.ResolutionRule, py_market.ResolutionRule),
    (lean_prompt.ResolutionRules, py_market.ResolutionRules),
    (lean_prompt.DisputePolicy, py_market.DisputePolicy),
    (lean_prompt.MarketSpec, py_market.MarketSpec),
    (lean_prompt.SourceTarget, py_prompt.SourceTarget),
    (lean_prompt.SelectionPolicy, py_prompt.SelectionPolicy),
    (lean_prompt.FieldSpec, py_prompt.FieldSpec),
    (lean_prompt.DataRequirement, py_prompt.DataRequirement),
    (lean_prompt.PredictionSemantics, py_prompt.PredictionSemantics),
    (lean_prompt.ConfidencePolicy, py_prompt.ConfidencePolicy),
    (lean_prompt.ConflictPolicy, py_prompt.ConflictPolicy),
    (lean_prompt.PromptSpec, py_prompt.PromptSpec),
    (lean_evidence.SourceRef, py_evidence.SourceRef),
    (lean_evidence.RetrievalReceipt, py_evidence.RetrievalReceipt),
    (lean_evidence.EvidenceItem, py_evidence.EvidenceItem),
    (lean_bundle.Commitments, py_layout.Commitments),
    (lean_bundle.Bundle, py_layout.Bundle),
]


@pytest.mark.parametrize(("lean", "model"), PAIRS, ids=[p[0].__name__ for p in PAIRS])
def test_fields_correspond(lean: type[Struct], model: type[BaseModel]) -> None:
    want = {(info.alias or name, name, info.default is None and not info.is_required())
            for name, info in model.model_fields.items()}
    got = {(key, _public(attr), optional) for key, attr, _, optional in lean.FIELDS}
    assert got == want
    slots = set(lean.__slots__)
    assert slots == {attr for _, attr, _, _ in lean.FIELDS}


def _public(attr: str) -> str:
    """A field stored privately is read through a property of its public name
    (``EvidenceItem._content`` -> ``content``)."""
    return attr.removeprefix("_")


def _same(lean: Any, model: Any) -> bool:
    """Equal attributes, recursively (lean records against pydantic models)."""
    if isinstance(lean, Struct):
        return isinstance(model, BaseModel) and all(
            _same(getattr(lean, _public(attr)), getattr(model, _public(attr)))
            for _, attr, _, _ in lean.FIELDS)
    if isinstance(lean, list):
        return isinstance(model, list) and len(lean) == len(model) and all(
            _same(a, b) for a, b in zip(lean, model, strict=True))
    return type(lean) is type(model) and lean == model


PALETTE: list[Any] = [None, True, False, 0, 1, -1, 3, 64, 65, 100, 599, 600, 10_000, 10_001,
                      2**63 - 1, 2**63, 2**64, "", "x", "x" * 128, "x" * 129, "x" * 257,
                      "0", "-0", "1.50", "-1", "1e3", "GET", "POST", "anyone", "invalid",
                      ">", "numeric", "application/json", b"", b"x" * 32, [], {}, ["x"],
                      ["a", "a"], {"x": 1}]


def mutants(value: Any) -> Iterator[Any]:
    """The value with one change at one place: a key dropped or added, a leaf or
    container replaced by each palette value, a list emptied, doubled or reversed."""
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
            for sub in mutants(value[key]):
                yield {**value, key: sub}
        yield {**value, "extra": 1}
    elif isinstance(value, list):
        yield []
        yield value + value[:1]
        yield list(reversed(value))
        for index, item in enumerate(value[:2]):
            for sub in mutants(item):
                yield [*value[:index], sub, *value[index + 1:]]
    yield from (copy.copy(p) for p in PALETTE)


def _records() -> Iterator[tuple[str, Any, type[Struct], type[Any]]]:
    for name in list_scenarios():
        scenario = load_scenario(name)
        yield name, scenario.prompt_spec.to_dict(), lean_prompt.PromptSpec, py_prompt.PromptSpec
        for item in scenario.evidence.items[:2]:
            yield (name, item.to_dict(), lean_evidence.EvidenceItem,
                   py_evidence.EvidenceItem)


RECORDS = list(_records())


@pytest.mark.parametrize(("name", "value", "lean", "model"), RECORDS,
                         ids=[f"{r[0]}-{r[2].__name__}" for r in RECORDS])
def test_lean_accepts_only_what_pydantic_accepts(name: str, value: Any, lean: type[Struct],
                                                 model: Any) -> None:
    assert _same(lean.build(value), model.from_dict(value))  # the honest record
    accepted = refused = 0
    for mutant in mutants(value):
        try:
            record = lean.build(mutant)
        except Reject:
            refused += 1
            continue
        accepted += 1
        try:
            want = model.from_dict(mutant)
        except PorError as exc:
            pytest.fail(f"lean accepted what pydantic refuses ({exc.check_id}): {mutant!r}")
        assert want.to_dict() == mutant, "lean accepted a non-canonical form"
        assert _same(record, want)
    assert refused > 100  # the mutants do reach the checks


def test_from_lean_equals_the_validated_record() -> None:
    """``EvidenceItem.from_lean`` (the full verifier's shortcut) gives the record
    ``from_cbor`` gives, field for field and byte for byte."""
    from por.encoding import decode

    seen = 0
    for name in list_scenarios():
        for item in load_scenario(name).evidence.items:
            data = item.to_cbor()
            lean = lean_evidence.EvidenceItem.from_value(decode(data), data)
            record = py_evidence.EvidenceItem.from_lean(lean)
            assert record == py_evidence.EvidenceItem.from_cbor(data)
            assert record.to_cbor() == data
            assert record.model_copy().to_cbor() == data  # fields, not only the cache
            seen += 1
    assert seen > 15
