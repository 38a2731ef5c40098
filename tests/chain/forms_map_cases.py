"""The map executor on chain forms (``contracts/src/forms/PorMapForm.sol``) against
Python's one-step check (s45 ``mapform``): call data and the generated map steps.

A case is a bundle and the leaf of its map step; :func:`agree` compares them as
``forms_deduce_cases.agree`` does (Python's OneStepProof on the records, the chain's
executor on the forms, and Python's executor on the same call data's forms), with the
classes of ``forms_deduce_cases``. :func:`lies` edits one fixture bundle's map step (each
word of MAP, each variable absent/present/wrong, the summary and evidence ids reordered,
extended, cut, the description, the citations, inputs, the step id) and its deduce step
(flags, summary, a repeated id, timestamps 0, 2^63 - 1 and 2^63, edge decimals), the
map step left as it was and rewritten by por's ``recompute_step``.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from bundle_edits import recommit, recomputed, steps_of
from forms_deduce_cases import agree as deduce_agree
from forms_deduce_cases import chain_answer, step_call_data
from forms_harness import Committed, forms_root_of, production_call_data

from por.bundle.layout import Bundle
from por.encoding import decode, encode

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
NAME = "PorMapForm"
VARS = ("event_observed", "numeric_value", "timestamp", "conflict_detected",
        "insufficient_evidence", "fallback_used", "provenance_ok", "source_summary")
#: Edge values of the variables (decimals at 64 characters and 62 fractional digits).
DECIMALS = ("0", "-1", "1.5", "9" * 64, "-" + "9" * 63, "0." + "0" * 61 + "1", "1.50", "abc")
STAMPS = (0, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, -1, True)

Edit = Callable[[dict[str, Any]], None]


def call_data(bundle: Bundle, leaf: int, committed: Committed | None = None) -> bytes:
    """``execute``'s call data: ``por``'s FormStepProof of kind ``map`` when it builds,
    else the case builder's own (MAP, COMMON, the forms of ``prior_step_ids``)."""
    c = committed or forms_root_of(bundle)
    own = production_call_data(bundle, "map", leaf, c.por_root)
    return own if own is not None else step_call_data(bundle, leaf, c, index_of={})


def described(bundle: Bundle, text: str) -> Bundle:
    """``bundle`` with its map step's description ``text``, every commitment (forms
    included) and the verdict's references recomputed (``bench/proofs.with_step``): the
    lie only the map's re-execution shows."""
    from proofs import with_step

    def edit(_step: object) -> dict[str, Any]:
        return {"description": text}

    lie: Bundle = with_step(bundle, map_leaf(bundle), edit)
    return lie


def agree(cases: Iterable[tuple[str, Bundle, int]], counts: Counter[str], tag: str) -> list[str]:
    """``forms_deduce_cases.agree`` on the map executor: the differences."""
    return deduce_agree(cases, counts, tag, NAME, kind="map", call=call_data)


def map_leaf(bundle: Bundle) -> int:
    leaf: int = steps_of(bundle, "map")[0]
    return leaf


def _variables(step: dict[str, Any]) -> dict[str, Any]:
    v = step["output"]["evaluation_variables"]
    assert isinstance(v, dict)
    return v


def map_edits(step: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """Edits of the map step's record (each a function editing a decoded copy)."""
    v = _variables(step)
    summary = list(v["source_summary"])

    def setv(key: str, value: Any) -> Edit:
        return lambda s: _variables(s).__setitem__(key, value)

    def drop(key: str) -> Edit:
        return lambda s: _variables(s).pop(key, None)

    def put(key: str, value: Any) -> Edit:
        return lambda s: s.__setitem__(key, value)

    def both(summary_ids: list[str], evidence: list[str]) -> Edit:
        def edit(s: dict[str, Any]) -> None:
            setv("source_summary", summary_ids)(s)
            put("evidence_ids", evidence)(s)
        return edit

    for text in ("", "map to evaluation variable", "Map to evaluation variables",
                 "map to evaluation variables ", "map to évaluation variables"):
        yield f"description {text!r}", put("description", text)
    for key in VARS:
        yield f"drop {key}", drop(key)
    for key in ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok",
                "event_observed"):
        yield f"flip {key}", setv(key, not v.get(key, False))
    yield "event_observed 1", setv("event_observed", 1)
    for d in rng.sample(DECIMALS, 3):
        yield f"numeric_value {d}", setv("numeric_value", d)
    for t in rng.sample(STAMPS, 3):
        yield f"timestamp {t}", setv("timestamp", t)
    yield "extra variable", setv("note", 1)
    yield "extra output key", lambda s: s["output"].__setitem__("x", 0)
    extra = "item-extra"
    if len(summary) > 1:
        yield "summary reordered", setv("source_summary", summary[::-1])
        yield "evidence reordered", put("evidence_ids", summary[::-1])
        yield "both reordered", both(summary[::-1], summary[::-1])
    if summary:
        yield "summary cut", setv("source_summary", summary[:-1])
        yield "evidence cut", put("evidence_ids", summary[:-1])
        yield "both cut", both(summary[:-1], summary[:-1])
        yield "summary repeated", setv("source_summary", [*summary, summary[0]])
    yield "summary extra", setv("source_summary", [*summary, extra])
    yield "evidence extra", put("evidence_ids", [*step["evidence_ids"], extra])
    yield "both extra", both([*summary, extra], [*summary, extra])
    yield "inputs extra", lambda s: s["inputs"].__setitem__("requirement_id", "r")
    yield "step id", put("step_id", "step_0001")


def cite_edits(bundle: Bundle, leaf: int) -> Iterator[tuple[str, Edit]]:
    """The map step citing other steps: none, twice, an aggregate, the contradictions
    step, itself, a deduce and another step."""
    ids = [decode(s)["step_id"] for s in bundle.steps]
    deduce = ids[steps_of(bundle, "deduce")[0]]
    contra = ids[steps_of(bundle, "contradictions")[0]]
    aggregate = ids[steps_of(bundle, "aggregate")[0]]
    for name, cited in (("none", []), ("twice", [deduce, deduce]), ("aggregate", [aggregate]),
                        ("contradictions", [contra]), ("itself", [ids[leaf]]),
                        ("deduce then contra", [deduce, contra]), ("first", [ids[0]])):
        yield f"cites {name}", _citing(cited)


def _citing(cited: list[str]) -> Edit:
    return lambda s: s.__setitem__("prior_step_ids", cited)


def deduce_edits(step: dict[str, Any], rng: random.Random) -> Iterator[tuple[str, Edit]]:
    """Edits of the deduce step's output the map reads."""
    o = step["output"]
    summary = list(o["source_summary"])

    def seto(key: str, value: Any) -> Edit:
        return lambda s: s["output"].__setitem__(key, value)

    for key in ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok"):
        yield f"deduce flip {key}", seto(key, not o[key])
    yield "deduce event", seto("event_observed", not o.get("event_observed", False))
    yield "deduce no event", lambda s: s["output"].pop("event_observed", None)
    for d in rng.sample(DECIMALS[:-2], 3):
        yield f"deduce numeric {d}", seto("numeric_value", d)
    for t in STAMPS[:4]:
        yield f"deduce timestamp {t}", seto("timestamp", t)
    if summary:
        yield "deduce summary repeated", seto("source_summary", [*summary, summary[0]])
        yield "deduce summary reordered", seto("source_summary", summary[::-1])
        yield "deduce summary cut", seto("source_summary", summary[1:])
    yield "deduce summary extra", seto("source_summary", [*summary, "item-x"])
    yield "deduce extra key", seto("note", "x")


def _edited(bundle: Bundle, at: int, edit: Edit) -> list[bytes]:
    steps = list(bundle.steps)
    step = decode(steps[at])
    edit(step)
    steps[at] = encode(step)
    return steps


def lies(name: str, bundle: Bundle, rng: random.Random) -> Iterator[tuple[str, Bundle, int]]:
    """The honest map step and its lies (module docstring)."""
    leaf = map_leaf(bundle)
    yield f"{name} honest", bundle, leaf
    step = decode(bundle.steps[leaf])
    for label, edit in [*map_edits(step, rng), *cite_edits(bundle, leaf)]:
        yield f"{name} {label}", recommit(bundle, steps=_edited(bundle, leaf, edit)), leaf
    at = steps_of(bundle, "deduce")[0]
    for label, edit in deduce_edits(decode(bundle.steps[at]), rng):
        steps = _edited(bundle, at, edit)
        yield f"{name} {label}", recommit(bundle, steps=steps), leaf
        steps[leaf] = recomputed(bundle, steps, leaf) or steps[leaf]
        yield f"{name} {label} rewritten", recommit(bundle, steps=steps), leaf


__all__ = ["NAME", "agree", "call_data", "chain_answer", "described", "lies", "map_leaf"]
