"""The FormProof on chain for the MAP family (``contracts/src/forms/PorFormProofMap.sol`` in
``PorFormFamilyMap``, through the envelope ``PorFormProof``; ADR 0017 s41 addendum
``fpmap``, split in s42 ``fpsplit``).

* ``F`` MAP built from a step's CBOR leaf (``PorFormFamilyMap.form``) equals ``por.forms``'
  byte for byte on every fixture market's map step, and on edits of one (``MAP_EDITS``):
  each valid edit has the same form or none on both sides, each invalid one is invalid on
  both.
* ``check(bytes)`` on a ``por.FormProof/1`` file whose record is a map step answers as
  Python's ``verify_form_proof`` (won, check id): honest (lost ``form.match``), the form leaf
  changed (won ``form.mismatch``), the step edited so ``F`` is undefined (won
  ``form.none``), an invalid step (won ``one_step.invalid_record``), tampered proofs.
"""

from __future__ import annotations

from collections import Counter

from bundle_edits import honest, steps_of
from formproof_families import family_form
from scratch_harness import SOLC
from test_forms_formproof import (
    DECIMALS,
    Edit,
    _drop,
    _extra,
    _set,
    _vals,
    edited,
    kind_steps,
    python_form,
    sweep,
    tampered_step,
)

from por.encoding import decode
from por.forms import step_form

pytestmark = SOLC
V = "output.evaluation_variables"
FLAGS = ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok")


def chain_map_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """The MAP family contract's (valid, defined, F) of a map step leaf."""
    return family_form("PorFormFamilyMap", leaf)


def _extra_vars(n: int) -> Edit:
    def edit(step: dict[str, object]) -> None:
        v = step["output"]["evaluation_variables"]  # type: ignore[index]
        for i in range(n):
            v[f"v{i:03d}"] = [i, {"k": "é" * i}]  # type: ignore[index]
    return edit


#: Edits of a map step: (name, edit); the answers are Python's, compared, not assumed.
MAP_EDITS: list[tuple[str, Edit]] = [
    *((f"numeric_value {v!r}", _set(f"{V}.numeric_value", v)) for v in DECIMALS),
    *((f"timestamp {v!r}", _set(f"{V}.timestamp", v))
      for v in _vals(0, 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5")),
    *((f"event_observed {v!r}", _set(f"{V}.event_observed", v))
      for v in _vals(True, False, 1, "true", [])),
    *((f"{flag} {v!r}", _set(f"{V}.{flag}", v))
      for flag in FLAGS for v in _vals(True, False, 0, "true", [])),
    *((f"source_summary {v!r}", _set(f"{V}.source_summary", v))
      for v in _vals([], ["a"], ["s" * 200, "é", "x" * 32], [1], "a", {}, [["a"]])),
    *((f"drop {k}", _drop(f"{V}.{k}"))
      for k in ("event_observed", "numeric_value", "timestamp", *FLAGS, "source_summary")),
    ("drop evaluation_variables", _drop(V)),
    *((f"evaluation_variables {v!r}", _set(V, v)) for v in _vals([], "x", 1, {})),
    ("one extra variable", _extra_vars(1)), ("30 extra variables", _extra_vars(30)),
    ("300 extra variables", _extra_vars(300)),
    ("a 31-byte extra variable", _set(f"{V}." + "k" * 31, -5)),
    ("a long extra variable", _set(f"{V}." + "k" * 40, {"a": [1, "b"]})),
    ("one extra output key", _extra(1)), ("30 extra output keys", _extra(30)),
    ("an extra inputs key", _set("inputs.extra", [1, 2])),
    ("inputs.kind deduce", _set("inputs.kind", "deduce")),
    ("inputs.kind nope", _set("inputs.kind", "nope")), ("inputs.kind 5", _set("inputs.kind", 5)),
    ("inputs.kind absent", _drop("inputs.kind")),
    ("step_type deduce", _set("step_type", "deduce")),
    ("a long description", _set("description", "é€😀 map " * 40)),
    ("an empty description", _set("description", "")),
    ("no prior ids", _set("prior_step_ids", [])),
    ("three evidence ids", _set("evidence_ids", ["a", "é" * 20, "c" * 32])),
    # invalid records
    ("an extra top-level key", _set("extra", 1)), ("an empty step id", _set("step_id", "")),
    ("a byte string in the variables", _set(f"{V}.blob", b"x")),
    ("a description not text", _set("description", 5)),
    ("output not a map", _set("output", [1])), ("step_type bogus", _set("step_type", "guess")),
]


def test_every_fixture_map_form() -> None:
    seen = 0
    for name, bundle, leaf in kind_steps("map"):
        raw = bundle.steps[leaf]
        assert chain_map_form(raw) == (True, True, step_form(decode(raw))), name
        seen += 1
    assert seen >= 40, seen


def test_edited_map_forms() -> None:
    """Every edit of ``MAP_EDITS`` on two markets' map steps: the same (valid, defined, F)."""
    seen: Counter[str] = Counter()
    for name in ("01-boolean-observed", "03-threshold-gt-boundary"):
        bundle = honest(name)
        raw = bundle.steps[steps_of(bundle, "map")[0]]
        for what, edit in MAP_EDITS:
            leaf = edited(raw, edit)
            py = python_form(leaf)
            if what.startswith(("inputs.kind deduce", "step_type deduce")) and py[1]:
                continue  # a valid deduce step: not mapForm's (reverts OtherFamily)
            assert chain_map_form(leaf) == py, (name, what)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    assert seen["form"] > 50 and seen["none"] > 50 and seen["invalid"] >= 10, seen


NONE_EDITS = [e for e in MAP_EDITS if not e[0].startswith(("inputs.kind deduce", "step_type"))]


def test_form_proofs_of_every_fixture_map_step() -> None:
    """Honest, a lied form leaf, ``F`` undefined or not (edits rotating), invalid."""
    seen = sweep(kind_steps("map"), NONE_EDITS)
    print(f"map formproof cases: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 40 and seen["form.mismatch"] >= 120, seen
    assert seen["form.none"] >= 40 and seen["one_step.invalid_record"] >= 5, seen


def test_tampered_map_proofs() -> None:
    """Faults of the proof itself on a map step (not won): each one id, Python's."""
    tampered_step("map")
