"""The forms a FormStepProof carries for a step of a bundle, in its executor's order
(check / aggregate: the step's form, COMMON, R's REQUIREMENT - the first when R is none -,
the forms of its ``prior_step_ids``, the first leaf with each id), their indexes in the
forms tree and its size; built record by record with ``por.forms.form_of`` (no EVM, no
node: the unit tests' and the chain tests' three-way comparisons share it)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from por.bundle.layout import Bundle
from por.encoding import decode
from por.errors import PorError
from por.forms import form_of


@dataclass(frozen=True)
class Carried:
    """The carried forms, their indexes and the forms tree's size."""

    forms: list[bytes]
    index: list[int]
    size: int


def bundle_forms(bundle: Bundle) -> list[bytes | None]:
    """Every form of ``bundle`` in the forms tree's order, None for a record with none."""
    spec = decode(bundle.prompt_spec)
    records: list[tuple[Any, int | None]] = [(spec, None)]
    records += [(spec, k) for k in range(len(spec["data_requirements"]))]
    records += [(decode(s), None) for s in bundle.steps]
    records.append((decode(bundle.verdict), None))
    forms: list[bytes | None] = []
    for record, k in records:
        try:
            forms.append(form_of(record, k))
        except PorError:
            forms.append(None)
    return forms


def carried(bundle: Bundle, leaf: int) -> Carried | None:
    """The check or aggregate step at ``leaf``'s carried forms, or None when one of them
    has no form (a FormProof's case)."""
    forms = bundle_forms(bundle)
    spec = decode(bundle.prompt_spec)
    r = len(spec["data_requirements"])
    step = decode(bundle.steps[leaf])
    rid = step["inputs"].get("requirement_id")
    rids = [q.get("requirement_id") for q in spec["data_requirements"]]
    position: dict[Any, int] = {}
    for i, raw in enumerate(bundle.steps):
        position.setdefault(decode(raw).get("step_id"), i)
    index = [1 + r + leaf, 0, 1 + (rids.index(rid) if rid in rids else 0)]
    index += [1 + r + position[p] for p in step["prior_step_ids"]]
    chosen = [forms[j] for j in index]
    if any(f is None for f in chosen):
        return None
    return Carried([f for f in chosen if f is not None], index, len(forms))
