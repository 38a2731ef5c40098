"""The FormProof on chain for the AGGREGATE family
(``contracts/src/forms/PorFormProofAggregate.sol`` in ``PorFormFamilyAggregate``;
ADR 0017 s42 addendum ``fpagg2``).

* ``F`` AGGREGATE built from a step's CBOR leaf (``PorFormFamilyAggregate.form``) equals
  ``por.forms``' byte for byte on every fixture market's aggregate step, and on edits of
  one (``AGG_EDITS``) on two markets (one with a quorum, one with votes): each valid edit
  has the same form or none on both sides, each invalid one is invalid on both.
* A valid step of another family reverts ``OtherFamily(kind)``.
* With the family in ``formproof_families.FAMILIES``, ``check(bytes)`` of the envelope on a
  ``por.FormProof/1`` file whose record is an aggregate step answers as Python's
  ``verify_form_proof`` (won, check id): honest (lost ``form.match``), the form leaf lied
  (won ``form.mismatch``), the step edited (``form.none``, ``form.mismatch`` or
  ``one_step.invalid_record``), tampered proofs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from bundle_edits import honest, steps_of
from eth_abi.abi import encode as abi_encode
from formproof_families import family, family_form
from forms_harness import call, selector, sizes
from scratch_harness import SOLC
from test_forms_formproof import (
    DECIMALS,
    Edit,
    _extra,
    _set,
    _vals,
    delete,
    edited,
    kind_steps,
    put,
    python_form,
    sweep,
    tampered_step,
    walk_to,
)

from por.encoding import decode
from por.forms import step_form

pytestmark = SOLC
NAME = "PorFormFamilyAggregate"
F = "output.fields.0"
OUTPUT = ("requirement_id", "strategy", "covered", "provenance_ok", "item_count", "last_leaf",
          "fallback_used", "fields", "sources_used")
FIELD = ("key", "kind", "status", "candidates", "fallback_used", "value", "quorum",
         "claim_ids", "evidence_ids", "votes")
INTEGERS = (0, 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5")
FLAGS = (True, False, 0, "true", [])
IDS = ([], ["a"], ["s" * 200, "é", "x" * 32], [f"id{i}" for i in range(100)], [1], "a", {},
       [["a"]])


def chain_agg_form(leaf: bytes) -> tuple[bool, bool, bytes]:
    """The AGGREGATE family contract's (valid, defined, F) of a step leaf."""
    return family_form(NAME, leaf)


def _keys(path: str, n: int, width: int = 4) -> Edit:
    """``n`` extra keys (``width`` bytes at least) in the map at ``path``."""
    def edit(step: dict[str, Any]) -> None:
        m, last = walk_to(step, path)
        target = m[last]
        for i in range(n):
            target[f"z{i:0{width - 1}d}"] = [i, {"k": "é" * i}]
    return edit


def _kind_value(kind: str, value: object) -> Edit:
    """Field 0 of kind ``kind`` with value ``value``."""
    def edit(step: dict[str, Any]) -> None:
        f = step["output"]["fields"][0]
        f["kind"], f["value"] = kind, value
    return edit


def _votes(kind: str, values: list[object], extra: dict[str, object] | None = None,
           drop: str | None = None) -> Edit:
    """Field 0 of kind ``kind`` with one vote per value (``extra`` keys in each, ``drop``
    one key of each)."""
    def edit(step: dict[str, Any]) -> None:
        f = step["output"]["fields"][0]
        f["kind"] = kind
        f.pop("value", None)
        votes = []
        for i, v in enumerate(values):
            vote = {"value": v, "source_id": f"src-{i}", "evidence_id": f"ev-{i}é", **(extra or {})}
            if drop:
                vote.pop(drop)
            votes.append(vote)
        f["votes"] = votes
    return edit


def _many_fields(n: int) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        fields = step["output"]["fields"]
        step["output"]["fields"] = [dict(fields[i % len(fields)], key=f"k{i}") for i in range(n)]
    return edit


#: Decimals: the shared list and the edges of the assembly writer (a 23/24-byte head,
#: 64 and 65 characters with a sign, characters around the digits).
AGG_DECIMALS = (*DECIMALS, "1" * 23, "1" * 24, "-0.5", "0.5", "-" + "9" * 64, "-" + "9" * 63,
                "9" * 63 + ".", "0.10", "é", "1.2.3", "1-", "12a", "-a", " 1", "1 ", "0.000",
                "/", ":", "1/", "1:", "0.0/", "-00.5", "10", "1" * 64 + ".5")
QUORUM = {"met": True, "agreeing": 3, "required": 2}
#: A map's entries as an array (a map head of n pairs read over it would run past it).
ENTRIES = ["agreeing", 3, "met", True, "required", 2]


def _as_list(path: str) -> Edit:
    """The map at ``path`` as the array of its keys and values."""
    def edit(step: dict[str, Any]) -> None:
        m, last = walk_to(step, path)
        m[last] = [x for kv in m[last].items() for x in kv]
    return edit


#: Edits of an aggregate step: (name, edit); the answers are Python's, compared, not assumed.
AGG_EDITS: list[tuple[str, Edit]] = [
    # the output's own words
    *((f"strategy {v!r}", _set("output.strategy", v))
      for v in _vals("single_best", "multi_source_quorum", "fallback_chain", "bogus",
                     "Single_best", "", "multi_source_quorum ", 3, [])),
    *((f"{k} {v!r}", _set(f"output.{k}", v))
      for k in ("covered", "provenance_ok", "fallback_used") for v in FLAGS),
    *((f"{k} {v!r}", _set(f"output.{k}", v))
      for k in ("item_count", "last_leaf") for v in INTEGERS),
    *((f"requirement_id {v!r}", _set("output.requirement_id", v))
      for v in _vals("x", "", "é€😀" * 20, "r" * 32, 7, [])),
    *((f"sources_used {v!r}", _set("output.sources_used", v)) for v in IDS),
    *((f"drop output.{k}", delete(f"output.{k}")) for k in OUTPUT),
    *((f"fields {v!r}", _set("output.fields", v))
      for v in _vals([], "x", {}, [1], [[]], [{}], [{"key": "k"}])),
    ("40 fields", _many_fields(40)), ("1 field", _many_fields(1)),
    ("one extra output key", _extra(1)), ("30 extra output keys", _extra(30)),
    ("300 extra output keys", _extra(300)),
    ("a 31-byte extra output key", _set("output." + "k" * 31, -5)),
    ("a 40-byte extra output key", _set("output." + "k" * 40, {"a": [1, "b"]})),
    # inputs, identity
    *((f"inputs.requirement_id {v!r}", _set("inputs.requirement_id", v))
      for v in _vals("x" * 40, "", "é€😀" * 30, "r" * 32, 5, [])),
    ("drop inputs.requirement_id", delete("inputs.requirement_id")),
    ("an extra inputs key", _set("inputs.extra", [1, 2])),
    ("30 extra inputs keys", _keys("inputs", 30)),
    ("inputs.kind deduce", _set("inputs.kind", "deduce")),
    ("inputs.kind check_requirement", _set("inputs.kind", "check_requirement")),
    ("inputs.kind nope", _set("inputs.kind", "nope")), ("inputs.kind 5", _set("inputs.kind", 5)),
    ("inputs.kind absent", delete("inputs.kind")),
    ("step_type deduce", _set("step_type", "deduce")),
    ("step_type check", _set("step_type", "check")),
    ("a long description", _set("description", "é€😀 aggregate " * 40)),
    ("an empty description", _set("description", "")),
    ("a 32-byte description", _set("description", "d" * 32)),
    ("no prior ids", _set("prior_step_ids", [])),
    ("three evidence ids", _set("evidence_ids", ["a", "é" * 20, "c" * 32])),
    # field 0
    *((f"field key {v!r}", put(f"{F}.key", v)) for v in _vals("x", "", "k" * 40, "é" * 50, 5, [])),
    *((f"field kind {v!r}", put(f"{F}.kind", v))
      for v in _vals("boolean", "numeric", "timestamp", "text", "bogus", "Numeric", "", 1, [])),
    *((f"field status {v!r}", put(f"{F}.status", v))
      for v in _vals("selected", "missing", "insufficient", "no_quorum", "wrong_kind", "absent",
                     "votes_undecided", "nope", "", 0)),
    *((f"field candidates {v!r}", put(f"{F}.candidates", v)) for v in INTEGERS),
    *((f"field fallback_used {v!r}", put(f"{F}.fallback_used", v)) for v in FLAGS),
    *((f"numeric value {v!r}", _kind_value("numeric", v)) for v in AGG_DECIMALS),
    *((f"boolean value {v!r}", _kind_value("boolean", v)) for v in _vals(True, False, "true", 1)),
    *((f"timestamp value {v!r}", _kind_value("timestamp", v)) for v in INTEGERS),
    *((f"text value {v!r}", _kind_value("text", v))
      for v in _vals("abc", "", "é€😀" * 30, "t" * 32, 5, True, [])),
    *((f"quorum {v!r}", put(f"{F}.quorum", v))
      for v in _vals(QUORUM, {}, [], "x", {**QUORUM, "extra": 1}, {**QUORUM, "k" * 40: 2},
                     {**QUORUM, "met": 1}, {**QUORUM, "required": -1},
                     {**QUORUM, "agreeing": 2**64 - 1}, {**QUORUM, "required": "2"},
                     {"agreeing": 3, "required": 2}, {"met": True, "required": 2},
                     {"met": True, "agreeing": 3})),
    ("quorum as its entries", put(f"{F}.quorum", ENTRIES)),
    ("quorum as its entries, 6 pairs", put(f"{F}.quorum", ENTRIES * 2)),
    ("field 0 as its entries", _as_list(F)),
    *((f"field {k} {v!r}", put(f"{F}.{k}", v))
      for k in ("claim_ids", "evidence_ids") for v in IDS),
    *((f"drop field {k}", delete(f"{F}.{k}")) for k in FIELD),
    ("one extra field key", _keys(F, 1)), ("30 extra field keys", _keys(F, 30)),
    ("300 extra field keys", _keys(F, 300)),
    ("a 31-byte extra field key", put(f"{F}." + "k" * 31, -5)),
    ("a 40-byte extra field key", put(f"{F}." + "k" * 40, {"a": [1, "b"]})),
    # votes
    *((f"votes {v!r}", put(f"{F}.votes", v)) for v in _vals([], "x", {}, [1], [[]], [{}])),
    ("numeric votes", _votes("numeric", ["1.5", "-0.25", "9" * 64])),
    ("numeric votes, one not canonical", _votes("numeric", ["1.5", "1.50"])),
    *((f"numeric votes {v!r}", _votes("numeric", ["2", v])) for v in AGG_DECIMALS),
    ("boolean votes", _votes("boolean", [True, False])),
    ("boolean votes, one a text", _votes("boolean", [True, "false"])),
    ("timestamp votes", _votes("timestamp", [0, 2**64 - 1, 7])),
    ("timestamp votes, one negative", _votes("timestamp", [0, -1])),
    ("text votes", _votes("text", ["a", "", "é€😀" * 30])),
    ("text votes, one a number", _votes("text", ["a", 5])),
    ("40 numeric votes", _votes("numeric", [f"{i}.5" for i in range(40)])),
    ("votes with an extra key", _votes("numeric", ["1.5", "2"], {"extra": [1]})),
    ("votes with a 40-byte key", _votes("numeric", ["1.5"], {"k" * 40: 1})),
    *((f"votes without {k}", _votes("numeric", ["1.5", "2"], drop=k))
      for k in ("value", "source_id", "evidence_id")),
    ("votes, source_id a number", _votes("numeric", ["1.5"], {"source_id": 5})),
    ("votes of an unknown kind", _votes("bogus", ["1.5"])),
    ("votes as their entries", put(f"{F}.votes", [["value", "1.5", "source_id", "s",
                                                    "evidence_id", "e"]] * 2)),
    # invalid records
    ("an extra top-level key", _set("extra", 1)), ("an empty step id", _set("step_id", "")),
    ("a byte string in a field", put(f"{F}.blob", b"x")),
    ("a description not text", _set("description", 5)),
    ("another schema", _set("schema", "por.ReasoningStep/2")),
    ("a prior id not text", _set("prior_step_ids", [5])),
    ("output not a map", _set("output", [1])), ("step_type bogus", _set("step_type", "guess")),
]


def test_every_fixture_aggregate_form() -> None:
    seen = 0
    for name, bundle, leaf in kind_steps("aggregate"):
        raw = bundle.steps[leaf]
        assert chain_agg_form(raw) == (True, True, step_form(decode(raw))), name
        seen += 1
    assert seen >= 40, seen


def test_edited_aggregate_forms() -> None:
    """Every edit of ``AGG_EDITS`` on two markets' aggregate steps (one with a quorum, one
    with votes): the same (valid, defined, F)."""
    seen: Counter[str] = Counter()
    for name in ("08-quorum-agree", "67-two-of-three-below"):
        bundle = honest(name)
        raw = bundle.steps[steps_of(bundle, "aggregate")[0]]
        for what, edit in AGG_EDITS:
            leaf = edited(raw, edit)
            py = python_form(leaf)
            if what.startswith(("inputs.kind", "step_type")) and py[1]:
                continue  # a valid step of another family: reverts OtherFamily
            assert chain_agg_form(leaf) == py, (name, what)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    print(f"aggregate edits: {dict(seen)}")
    assert seen["form"] > 100 and seen["none"] > 150 and seen["invalid"] >= 14, seen


def test_other_family_reverts() -> None:
    """A valid deduce step: ``OtherFamily(keccak256("deduce"))``."""
    bundle = honest("08-quorum-agree")
    raw = bundle.steps[steps_of(bundle, "deduce")[0]]
    out, _ = call(family(NAME), selector("form(bytes)") + abi_encode(["bytes"], [raw]))
    assert out == "revert:" + selector("OtherFamily(bytes32)").hex(), out


NONE_EDITS = [e for e in AGG_EDITS if not e[0].startswith(("inputs.kind", "step_type"))]


def test_form_proofs_of_every_fixture_aggregate_step() -> None:
    """Honest, a lied form leaf, edits rotating, through the envelope."""
    seen = sweep(kind_steps("aggregate"), NONE_EDITS)
    print(f"aggregate formproof cases: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 40 and seen["form.mismatch"] >= 120, seen
    assert seen["form.none"] >= 40 and seen["one_step.invalid_record"] >= 3, seen


def test_tampered_aggregate_proofs() -> None:
    """Faults of the proof itself on an aggregate step (not won): each one id, Python's."""
    tampered_step("aggregate")


def test_size() -> None:
    print(f"{NAME} {sizes(NAME)} bytes")
    assert sizes(NAME) <= 24_576
