"""Valid sample records and a tiny edit language for the schema tests.

The samples come from scenario ``08-quorum-agree`` (a numeric threshold, three
sources, three evidence items) run through ``por.bundle.build``, so every
record type is a real one.  An *edit* is ``(path, value)`` where ``path`` is a
dotted path (``"market.resolution_rules.rules.0.rule_id"``; integer parts index
lists; ``"$"`` is the whole record) and ``value`` is the new value, or
:data:`DELETE` to drop the key, or :data:`APPEND_COPY` to append a copy of the
list's first element.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from por.bundle import Manifest, build, current_manifest
from por.encoding import decode
from por.scenarios import load_scenario
from por.schemas import (
    DeterministicVerdict,
    EvidenceBundle,
    EvidenceItem,
    PromptSpec,
    ReasoningStep,
    ReasoningTrace,
    Record,
    TraceHeader,
)

SCENARIO = "08-quorum-agree"
DELETE = object()
APPEND_COPY = object()

CLASSES: dict[str, type[Record]] = {
    cls.__name__: cls
    for cls in (PromptSpec, EvidenceItem, EvidenceBundle, ReasoningStep, TraceHeader,
                ReasoningTrace, DeterministicVerdict, Manifest)
}


@functools.cache
def samples() -> dict[str, Record]:
    """One valid record of each type, by class name."""
    scenario = load_scenario(SCENARIO)
    built = build(scenario.prompt_spec, scenario.evidence)
    return {
        "PromptSpec": scenario.prompt_spec,
        "EvidenceItem": scenario.evidence.items[0],
        "EvidenceBundle": scenario.evidence,
        "ReasoningStep": built.trace.steps[0],
        "TraceHeader": built.trace.header(),
        "ReasoningTrace": built.trace,
        "DeterministicVerdict": built.verdict,
        "Manifest": current_manifest(),
    }


def base_form(name: str, form: str) -> Any:
    """A fresh, mutable CBOR value (``form="cbor"``) or JSON form of sample ``name``."""
    record = samples()[name]
    if form == "cbor":
        return decode(record.to_cbor())
    return copy.deepcopy(record.to_json_obj())


def _parts(path: str) -> list[str | int]:
    return [int(p) if p.isdigit() else p for p in path.split(".")]


def apply_edit(obj: Any, path: str, value: Any) -> Any:
    """Apply one edit in place and return the (possibly replaced) root."""
    if path == "$":
        return value
    *parents, last = _parts(path)
    node = obj
    for part in parents:
        node = node[part]
    if value is DELETE:
        del node[last]
    elif value is APPEND_COPY:
        node[last].append(copy.deepcopy(node[last][0]))
    else:
        node[last] = value
    return obj


def edited(name: str, form: str, edits: tuple[tuple[str, Any], ...]) -> Any:
    """Sample ``name`` in ``form`` with every edit applied."""
    obj = base_form(name, form)
    for path, value in edits:
        obj = apply_edit(obj, path, value)
    return obj
