"""``F`` per record and the ``forms`` component: order, leaf hashes, root (SPEC §5.6.14).

Records are decoded ``por-cbor/1`` values (dicts); a por model (anything with
``to_cbor``) is decoded first, so ``F`` reads exactly the committed bytes' value.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from por.encoding import decode
from por.forms.recomputed import aggregate_form, contradictions_form, deduce_form, map_form
from por.forms.spec import common_form, requirement_form
from por.forms.steps import chunk_form, extract_form, identity
from por.forms.verdict import verdict_form
from por.forms.words import amap, array, get, none
from por.merkle.hashing import leaf_hash
from por.merkle.tree import root_from_leaf_hashes

STEP_FORMS: dict[str, Callable[[Mapping[str, Any]], bytes]] = {
    "extract_claims": extract_form, "check_requirement": chunk_form,
    "aggregate": aggregate_form, "contradictions": contradictions_form,
    "deduce": deduce_form, "map": map_form}
TAG_NAMES = {1: "COMMON", 2: "REQUIREMENT", 3: "EXTRACT", 4: "CHUNK", 5: "AGGREGATE",
             6: "CONTRADICTIONS", 7: "DEDUCE", 8: "MAP", 9: "VERDICT"}


def as_record(record: object) -> Mapping[str, Any]:
    """A decoded record: a model is decoded from its ``por-cbor/1`` bytes."""
    to_cbor = getattr(record, "to_cbor", None)
    if callable(to_cbor):
        record = decode(to_cbor())
    return amap(record)


def step_form(step: object) -> bytes:
    """``F`` of a ReasoningStep: its kind's form (tags 3-8)."""
    record = as_record(step)
    kind, _ = identity(record)
    return STEP_FORMS[kind](record)


def form_of(record: object, requirement: int | None = None) -> bytes:
    """``F`` of a record by its ``schema``: a PromptSpec's COMMON (or, with
    ``requirement = k``, the REQUIREMENT of ``data_requirements[k]``), a step's form,
    a verdict's; any other record has no form type (``form.none``)."""
    value = as_record(record)
    schema = value.get("schema")
    if schema == "por.PromptSpec/1":
        if requirement is None:
            return common_form(value)
        entries = array(get(value, "data_requirements"))
        if not 0 <= requirement < len(entries):
            none(f"no data_requirements entry {requirement}")
        return requirement_form(amap(entries[requirement]))
    if requirement is not None:
        none("only a PromptSpec has requirement forms")
    if schema == "por.ReasoningStep/1":
        return step_form(value)
    if schema == "por.DeterministicVerdict/1":
        return verdict_form(value)
    return none(f"no form type for a record of schema {schema!r}"[:200])


@dataclass(frozen=True)
class Form:
    """One entry of the ``forms`` component: its record's name, tag, bytes, ``LH(F)``."""

    name: str
    tag: int
    form: bytes
    leaf: bytes


@dataclass(frozen=True)
class Forms:
    """The ``forms`` component: the forms in order and ``MTH`` of their leaves."""

    forms: tuple[Form, ...]
    root: bytes

    @property
    def size(self) -> int:
        """``r + s + 2``."""
        return len(self.forms)


def _entry(name: str, form: bytes) -> Form:
    tag = int.from_bytes(form[:32], "big")
    return Form(name=name, tag=tag, form=form, leaf=leaf_hash(form))


def forms_of(prompt_spec: object, steps: Sequence[object], verdict: object) -> Forms:
    """Every form of a bundle in component order (COMMON, one REQUIREMENT per
    ``data_requirements`` entry, every step in trace order, VERDICT) with its
    ``LH(F)``, and the ``forms`` root; ``form.none`` if any record has none."""
    spec = as_record(prompt_spec)
    entries = array(get(spec, "data_requirements"))
    out = [_entry("COMMON", common_form(spec))]
    out += [_entry(f"REQUIREMENT {k}", requirement_form(amap(q))) for k, q in enumerate(entries)]
    for i, step in enumerate(steps):
        record = as_record(step)
        out.append(_entry(f"step {i} {record.get('step_id')}", step_form(record)))
    out.append(_entry("VERDICT", verdict_form(as_record(verdict))))
    return Forms(forms=tuple(out), root=root_from_leaf_hashes([f.leaf for f in out]))
