"""The FormProof on chain for the DEDUCE family (``contracts/src/forms/PorFormProof.sol``,
the envelope, and ``PorFormFamilyDeduce``: ADR 0017 s41 spike, split in s42 ``fpsplit``).

* ``F`` DEDUCE built from a step's CBOR leaf (``PorFormFamilyDeduce.form``) equals
  ``por.forms``' byte for byte on every fixture market's deduce steps, and on edits of one
  (``EDITS``): each valid edit has the same form or none on both sides, each invalid one is
  invalid on both.
* ``check(bytes)`` on a ``por.FormProof/1`` file answers as Python's ``verify_form_proof``
  on the ``build_form_proof`` of the same case (won, check id): every fixture market's deduce
  steps honest (lost ``form.match``), the committed form leaf changed (won
  ``form.mismatch``), the step edited so ``F`` is undefined (won ``form.none``), an invalid
  step (won ``one_step.invalid_record``), and proofs tampered after sealing (``proof.*``).
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
from bundle_edits import honest, recommit, steps_of
from formproof_families import ENVELOPE, FAMILIES, check_call, family_form, no_family
from forms_harness import sizes
from scratch_harness import SOLC

from por.bundle.layout import Bundle
from por.challenge.form_proof import build_form_proof, verify_form_proof
from por.challenge.records import FormProof, seal
from por.encoding import decode, encode
from por.errors import PorError
from por.forms import step_form
from por.scenarios import list_scenarios
from por.schemas import ReasoningStep

pytestmark = SOLC
NAME = ENVELOPE
COUNTS: Counter[str] = Counter()
Edit = Callable[[dict[str, Any]], None]


def chain_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """The DEDUCE family contract's (valid, defined, F) of a step leaf."""
    return family_form("PorFormFamilyDeduce", leaf)


def python_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """Python's (valid, defined, F): ``ReasoningStep`` validity, then ``step_form``."""
    try:
        ReasoningStep.from_cbor(leaf)
    except (PorError, ValueError):
        return False, False, b""
    try:
        return True, True, step_form(decode(leaf))
    except PorError as exc:
        assert exc.check_id == "form.none"
        return True, False, b""


def chain_check(proof: bytes) -> tuple[tuple[bool, str], int]:
    """The envelope's (won, check id) of a FormProof file, and its gas."""
    out, gas = check_call(proof)
    assert not isinstance(out, str), out
    return out, gas


def python_check(proof: FormProof) -> tuple[bool, str]:
    """Python's (won, check id): ``verify_form_proof``, a ``proof.*`` fault not won."""
    try:
        outcome = verify_form_proof(proof)
    except PorError as exc:
        return False, exc.check_id
    return outcome.outcome == "won", outcome.reason


def _set(path: str, value: object) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        m = step
        for p in parents:
            m = m[p]
        m[last] = value
    return edit


def _drop(path: str) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        m = step
        for p in parents:
            m = m[p]
        m.pop(last, None)
    return edit


def walk_to(step: dict[str, Any], path: str) -> tuple[Any, Any]:
    """The container holding ``path`` (dotted, list indexes as numbers), and its last key."""
    *parents, last = path.split(".")
    m: Any = step
    for p in parents:
        m = m[int(p)] if isinstance(m, list) else m[p]
    return m, int(last) if isinstance(m, list) else last


def put(path: str, value: object) -> Edit:
    """Set ``path`` (:func:`walk_to`) to ``value``."""
    def edit(step: dict[str, Any]) -> None:
        m, last = walk_to(step, path)
        m[last] = value
    return edit


def delete(path: str) -> Edit:
    """Remove ``path`` (:func:`walk_to`; a map's key may be absent)."""
    def edit(step: dict[str, Any]) -> None:
        m, last = walk_to(step, path)
        m.pop(last, None) if isinstance(m, dict) else m.pop(last)
    return edit


def _extra(n: int, key: str = "x") -> Edit:
    def edit(step: dict[str, Any]) -> None:
        for i in range(n):
            step["output"][f"{key}{i:03d}"] = [i, {"k": "é" * i}]
    return edit


def _vals(*values: object) -> tuple[object, ...]:
    return values


DECIMALS = ("0", "-0.25", "100", "0.005", "1.5", "-12.0001", "10.01", "9" * 64,
            "0." + "0" * 61 + "1", "-" + "1" * 63, "1.50", "-0", "01", "1e5", ".5", "5.", "",
            "+1", "-", "0.0", "00", "1.", "1" * 65, "-0.0", "\u0661", 5, True)
#: Edits of a deduce step: (name, edit); the answers are Python's, compared, not assumed.
EDITS: list[tuple[str, Edit]] = [
    *((f"numeric_value {v!r}", _set("output.numeric_value", v)) for v in DECIMALS),
    *((f"timestamp {v!r}", _set("output.timestamp", v))
      for v in _vals(0, 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5")),
    *((f"event_observed {v!r}", _set("output.event_observed", v))
      for v in _vals(True, False, 1, "true")),
    *((f"predicate {v!r}", _set("output.predicate", v))
      for v in _vals("event_observed", "numeric_threshold", "numeric_range", "field_comparison",
                "text_equals", "timestamp_threshold", "bogus", "Event_observed", 3, [])),
    *((f"metric_status {v!r}", _set("output.metric_status", v))
      for v in _vals("selected", "missing", "insufficient", "no_quorum", "wrong_kind", "absent",
                "precondition_unmet", "value_out_of_range", "votes_undecided", "nope", "")),
    *((f"metric {v!r}", _set("output.metric", v)) for v in _vals("x", "", "é€😀" * 20, 7, [])),
    *((f"uncovered {v!r}", _set("output.uncovered_requirements", v))
      for v in _vals([], ["a", "", "x" * 40, "é"], ["y" * 32], "a", [1], [["a"]])),
    *((f"{flag} {v!r}", _set(f"output.{flag}", v))
      for flag in ("insufficient_evidence", "conflict_detected", "fallback_used",
                   "provenance_ok") for v in _vals(True, False, 0, "true", [])),
    *((f"source_summary {v!r}", _set("output.source_summary", v))
      for v in _vals([], ["a"], ["s" * 200, "é"], [1], "a", {})),
    *((f"drop {k}", _drop(f"output.{k}"))
      for k in ("predicate", "metric", "metric_status", "uncovered_requirements",
                "insufficient_evidence", "conflict_detected", "fallback_used",
                "provenance_ok", "source_summary", "event_observed", "numeric_value",
                "timestamp")),
    ("one extra output key", _extra(1)), ("30 extra output keys", _extra(30)),
    ("300 extra output keys", _extra(300)),
    ("a long extra output key", _set("output." + "k" * 40, {"a": [1, "b"]})),
    ("a 31-byte extra key", _set("output." + "k" * 31, -5)),
    ("an extra inputs key", _set("inputs.extra", [1, 2])),
    ("inputs.kind map", _set("inputs.kind", "map")),
    ("inputs.kind nope", _set("inputs.kind", "nope")), ("inputs.kind 5", _set("inputs.kind", 5)),
    ("inputs.kind absent", _drop("inputs.kind")),
    ("step_type map", _set("step_type", "map")),
    ("a long description", _set("description", "é€😀 deduce " * 40)),
    ("an empty description", _set("description", "")),
    ("a 32-byte description", _set("description", "d" * 32)),
    # invalid records
    ("an extra top-level key", _set("extra", 1)), ("an empty step id", _set("step_id", "")),
    ("a byte string in output", _set("output.blob", b"x")),
    ("a description not text", _set("description", 5)),
    ("another schema", _set("schema", "por.ReasoningStep/2")),
    ("a prior id not text", _set("prior_step_ids", [5])),
    ("output not a map", _set("output", [1])), ("step_type bogus", _set("step_type", "guess")),
]


def edited(raw: bytes, edit: Edit) -> bytes:
    step = decode(raw)
    edit(step)
    return encode(step)


def kind_steps(kind: str) -> Iterator[tuple[str, Bundle, int]]:
    """(scenario, its honest bundle, leaf) of every ``kind`` step of the scenarios' bundles.
    Shared by every family's test."""
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, kind):
            yield name, bundle, leaf


def test_every_fixture_deduce_form() -> None:
    seen = 0
    for name, bundle, leaf in kind_steps("deduce"):
        raw = bundle.steps[leaf]
        assert chain_form(raw) == (True, True, step_form(decode(raw))), name
        seen += 1
    assert seen >= 40


def test_edited_deduce_forms() -> None:
    """Every edit of ``EDITS`` on two markets' deduce steps: the same (valid, defined, F)."""
    seen: Counter[str] = Counter()
    for name in ("01-boolean-observed", "03-threshold-gt-boundary"):
        bundle = honest(name)
        raw = bundle.steps[steps_of(bundle, "deduce")[0]]
        for what, edit in EDITS:
            leaf = edited(raw, edit)
            py = python_form(leaf)
            assert chain_form(leaf) == py, (name, what)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    assert seen["form"] > 50 and seen["none"] > 50 and seen["invalid"] >= 14, seen


def test_a_non_canonical_leaf_is_invalid() -> None:
    """A leaf the §2 reader refuses (an integer in a longer head than it needs)."""
    bundle = honest("01-boolean-observed")
    raw = bytearray(bundle.steps[steps_of(bundle, "deduce")[0]])
    assert raw[0] == 0xA8  # a map of 8: as a 1-byte-argument head, not canonical
    leaf = b"\xb8\x08" + bytes(raw[1:])
    assert python_form(leaf) == (False, False, b"") == chain_form(leaf)


def proof_of(bundle: Bundle, leaf: int) -> FormProof:
    r = len(bundle.forms) - len(bundle.steps) - 2
    return build_form_proof(bundle, 1 + r + leaf)


def agree(bundle: Bundle, leaf: int, tag: str, proof: FormProof | None = None) -> str:
    """Chain and Python answer the FormProof alike; the check id."""
    proof = proof or proof_of(bundle, leaf)
    py = python_check(proof)
    got, _ = chain_check(proof.to_cbor())
    assert got == py, tag
    COUNTS[f"{'won' if py[0] else 'not won'} {py[1]}"] += 1
    return py[1]


NONE_EDITS = [e for e in EDITS if not e[0].startswith(("inputs.kind map", "step_type"))]


def sweep(steps: Iterable[tuple[str, Bundle, int]],
          none_edits: list[tuple[str, Edit]]) -> Counter[str]:
    """Each step's FormProof honest, with three lied form leaves and four record edits
    (rotating through ``none_edits``), chain and Python alike (:func:`agree`): the check
    ids counted. Shared by every family's test."""
    seen: Counter[str] = Counter()
    k = 0
    for name, bundle, leaf in steps:
        seen[agree(bundle, leaf, f"{name} honest")] += 1
        forms = list(bundle.forms)
        j = len(forms) - len(bundle.steps) - 1 + leaf
        for lie in (hashlib.sha256(forms[j]).digest(), forms[j - 1], bytes(32)):
            forms[j] = lie
            seen[agree(recommit(bundle, forms=list(forms)), leaf, f"{name} lied leaf")] += 1
        for _ in range(4):
            what, edit = none_edits[k % len(none_edits)]
            k += 7
            edits = list(bundle.steps)
            edits[leaf] = edited(edits[leaf], edit)
            seen[agree(recommit(bundle, steps=edits), leaf, f"{name} {what}")] += 1
    return seen


def test_form_proofs_of_every_fixture_deduce_step() -> None:
    """Honest, a lied form leaf, ``F`` undefined (two edits a step, rotating), invalid."""
    seen = sweep(kind_steps("deduce"), NONE_EDITS)
    assert seen["form.match"] >= 40 and seen["form.mismatch"] >= 120, seen
    assert seen["form.none"] >= 40 and seen["one_step.invalid_record"] >= 10, seen


def resealed(proof: FormProof, **changes: Any) -> FormProof:
    body = {**proof.to_dict(), **changes}
    body.pop("challenge_id")
    out: FormProof = seal(FormProof, body)
    return out


def tampered_step(kind: str) -> None:
    """Faults of the proof itself on the first ``kind`` step of 08-quorum-agree (not won):
    a flipped form leaf, the next form index, another record's form; each one id, Python's
    (:func:`agree`). Shared by the step families' tests."""
    bundle = honest("08-quorum-agree")
    leaf = steps_of(bundle, kind)[0]
    proof = proof_of(bundle, leaf)
    flip = bytes(x ^ 1 for x in proof.form_leaf)
    other = proof_of(bundle, leaf - 1)
    cases = {
        "form_leaf": resealed(proof, form_leaf=flip),
        "form_index": resealed(proof, form_index=proof.form_index + 1),
        "another record's form": resealed(proof, form_index=other.form_index,
                                          form_leaf=other.form_leaf, form_path=other.form_path),
    }
    ids = {what: agree(bundle, leaf, what, p) for what, p in cases.items()}
    assert ids["form_leaf"] == "proof.leaf_path"
    assert ids["another record's form"] == "proof.form_index"


@pytest.mark.parametrize("market", ["08-quorum-agree", "52-numeric-range"])
def test_tampered_proofs(market: str) -> None:
    """Faults of the proof itself (not won): each one id, Python's."""
    name = next(n for n in list_scenarios() if n.startswith(market[:3]))
    bundle = honest(name)
    leaf = steps_of(bundle, "deduce")[0]
    proof = proof_of(bundle, leaf)
    flip = bytes(x ^ 1 for x in proof.form_leaf)
    other = proof_of(bundle, leaf - 1)  # the form of the step before: a path that holds
    cases = {
        "form_leaf": resealed(proof, form_leaf=flip),
        "form_path": resealed(proof, form_path=[flip, *proof.form_path[1:]]),
        "short form_path": resealed(proof, form_path=proof.form_path[:-1]),
        "forms_root": resealed(proof, forms_root=flip),
        "forms_path": resealed(proof, forms_path=[flip, *proof.forms_path[1:]]),
        "form_index": resealed(proof, form_index=proof.form_index + 1),
        "forms_size": resealed(proof, forms_size=proof.forms_size + 1),
        "por_root": resealed(proof, por_root=flip),
        "another record's form": resealed(proof, form_index=other.form_index,
                                          form_leaf=other.form_leaf, form_path=other.form_path),
        "challenge_id": FormProof.from_dict({**proof.to_dict(), "challenge_id": flip}),
    }
    ids = {what: agree(bundle, leaf, what, p) for what, p in cases.items()}
    assert ids["challenge_id"] == "proof.challenge_id"
    assert ids["form_leaf"] == "proof.leaf_path"
    assert ids["another record's form"] == "proof.form_index"


def test_malformed_proof_bytes() -> None:
    bundle = honest("01-boolean-observed")
    proof = proof_of(bundle, steps_of(bundle, "deduce")[0]).to_cbor()
    assert chain_check(proof[:-1])[0] == (False, "proof.malformed")
    assert chain_check(b"\xa1\x61a\x01")[0] == (False, "proof.schema")


def test_other_families_revert() -> None:
    """A FormProof on a record whose family is not on chain (the PromptSpec's COMMON and
    REQUIREMENT, in a deployment without them: on chain since s43) reverts
    ``NoFamily(tag)`` (no answer)."""
    bundle = honest("08-quorum-agree")
    without = tuple(f for f in FAMILIES if f[0] > 2)
    for index, tag in ((0, 1), (1, 2)):
        assert no_family(build_form_proof(bundle, index).to_cbor(), without) == tag, index


def test_counts_and_size() -> None:
    """Prints the case counts of this module's run and the contracts' sizes."""
    names = (NAME, "PorFormFamilyDeduce", "PorFormFamilyMap", "PorFormFamilyVerdict")
    print(f"formproof cases: {dict(sorted(COUNTS.items()))}; "
          + ", ".join(f"{n} {sizes(n)} bytes" for n in names))
    assert all(sizes(n) <= 24_576 for n in names)
