"""The FormProof on chain for the CHUNK family (``contracts/src/forms/PorFormProofChunk.sol``
and ``PorFormProofChunkLists.sol`` in ``PorFormFamilyChunk``, form tag 4; ADR 0017 s42
addendum ``fpchunk2``).

* ``F`` CHUNK built from a ``check_requirement`` step's CBOR leaf
  (``PorFormFamilyChunk.form``) equals ``por.forms``' byte for byte on every fixture
  market's CHUNK step, and on edits of one (``CHUNK_EDITS``) in two markets (a numeric
  group, a boolean group with a gate reason): each valid edit has the same form or none on
  both sides, each invalid one is invalid on both; a valid step of another kind reverts
  ``OtherFamily``.
* ``check(bytes)`` of the envelope on a ``por.FormProof/1`` file whose record is a CHUNK
  step answers as Python's ``verify_form_proof`` (honest, lied form leaves, rotating edits).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from typing import Any

from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from formproof_families import family
from forms_harness import call, selector, sizes
from scratch_harness import SOLC
from test_forms_formproof import DECIMALS, Edit, edited, kind_steps, python_form, sweep

from por.encoding import decode, encode
from por.errors import PorError
from por.forms import step_form
from por.forms.steps import identity

pytestmark = SOLC
NAME = "PorFormFamilyChunk"
OTHER_FAMILY = selector("OtherFamily(bytes32)").hex()
OUT = "output"
OUTPUT = ("requirement_id", "window", "chunk", "items", "item_count", "admitted_count",
          "covered", "provenance_ok", "claim_count", "sources", "groups", "last_leaf",
          "from_leaf")
ITEM = ("evidence_id", "source_id", "admitted", "reasons", "observed_at", "observed_from",
        "gate_reason")
REASONS = ("sanity.allowed_source", "sanity.source_target", "sanity.time_window",
           "sanity.provenance", "sanity.confidence", "sanity.http_status", "gate.agent_name")
INTEGERS = (0, 1, 1023, 1024, 2**63 - 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5", [], {})
#: Decimals besides ``DECIMALS`` (the chunk's own decimal writer, ``PorFormProofChunkLists``).
MORE_DECIMALS = ("-0.5", "0.10", "-.5", "0.", "1.05", "-100.001", "7", "-7", "0.05", "-0.00",
                 "9" * 63 + ".", "1." + "0" * 61 + "1", "1" + "0" * 63, "0" * 64, "-" + "0" * 63,
                 "1" * 32 + "." + "2" * 31, "1a", "1.2.3", "1 ", " 1", "--1", "1-", "0x1",
                 "12345678901234567890.1234567890123456789012345678901234567890123")
TEXTS = ("", "x", "x" * 31, "x" * 32, "é€😀" * 30, 5, [], b"x")


def chain_chunk_form(leaf: bytes) -> tuple[bool, bool, bytes] | str:
    """The CHUNK family contract's (valid, defined, F) of a step leaf, or ``revert:<sel>``."""
    out, _ = call(family(NAME), selector("form(bytes)") + abi_encode(["bytes"], [leaf]))
    if isinstance(out, str):
        return out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form) if defined else b""


def _walk(step: dict[str, Any], path: str) -> tuple[Any, str | int] | None:
    """The container holding ``path``'s last part, and that part (list indices as
    numbers); None when a parent is missing (the edit then leaves the step as it is)."""
    *parents, last = path.split(".")
    m: Any = step
    for p in parents:
        key: str | int = int(p) if p.isdigit() else p
        try:
            m = m[key]
        except (KeyError, IndexError, TypeError):
            return None
    return m, int(last) if last.isdigit() else last


def put(path: str, value: object) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        found = _walk(step, path)
        if found is not None and isinstance(found[0], (dict, list)):
            with contextlib.suppress(IndexError, TypeError):
                found[0][found[1]] = value
    return edit


def drop(path: str) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        found = _walk(step, path)
        if found is not None and isinstance(found[0], dict):
            found[0].pop(found[1], None)
    return edit


def extra(path: str, n: int, key: str = "x") -> Edit:
    def edit(step: dict[str, Any]) -> None:
        found = _walk(step, path + ".z")
        if found is not None and isinstance(found[0], dict):
            for i in range(n):
                found[0][f"{key}{i:03d}"] = [i, {"k": "é" * i}]
    return edit


def repeat(path: str, n: int) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        found = _walk(step, path + ".0")
        if found is not None and isinstance(found[0], list) and found[0]:
            found[0][:] = [found[0][i % len(found[0])] for i in range(n)]
    return edit


def _group_of_flags(kind: str) -> Edit:
    """A numeric group turned to ``kind`` with boolean values (no form: only numeric and
    boolean groups have one)."""
    def edit(step: dict[str, Any]) -> None:
        for g in step["output"]["groups"][:1]:
            if g["kind"] == "numeric":
                g.update(kind=kind)
                g["min"]["value"] = g["max"]["value"] = True
    return edit


def _many(paths: tuple[str, ...], values: tuple[object, ...]) -> list[tuple[str, Edit]]:
    return [(f"{p} {v!r}", put(p, v)) for p in paths for v in values]


_MAPS = (OUT, f"{OUT}.window", f"{OUT}.items.0", f"{OUT}.sources.0", f"{OUT}.groups.0",
         f"{OUT}.groups.0.min", f"{OUT}.groups.0.first", f"{OUT}.groups.0.other", "inputs")
#: Edits of a CHUNK step: (name, edit); the answers are Python's, compared, not assumed.
CHUNK_EDITS: list[tuple[str, Edit]] = [
    # every field dropped
    *((f"drop {OUT}.{k}", drop(f"{OUT}.{k}")) for k in OUTPUT),
    *((f"drop window.{k}", drop(f"{OUT}.window.{k}")) for k in ("start", "end")),
    *((f"drop items.0.{k}", drop(f"{OUT}.items.0.{k}")) for k in ITEM),
    *((f"drop sources.0.{k}", drop(f"{OUT}.sources.0.{k}"))
      for k in ("step_id", "evidence_id", "source_id")),
    *((f"drop groups.0.{k}", drop(f"{OUT}.groups.0.{k}"))
      for k in ("kind", "key", "claim_count", "min", "max", "first", "other")),
    *((f"drop groups.0.{r}.{k}", drop(f"{OUT}.groups.0.{r}.{k}"))
      for r in ("min", "max", "first") for k in ("claim_id", "evidence_id", "value")),
    ("drop inputs.requirement_id", drop("inputs.requirement_id")),
    # integers, timestamps 0..2^64 and negative, wrong types
    *_many(tuple(f"{OUT}.{k}" for k in ("chunk", "item_count", "admitted_count", "claim_count",
                                      "last_leaf", "from_leaf")), INTEGERS),
    *_many((f"{OUT}.window.start", f"{OUT}.window.end", f"{OUT}.items.0.observed_at",
            f"{OUT}.groups.0.claim_count"), INTEGERS),
    # flags
    *_many((f"{OUT}.covered", f"{OUT}.provenance_ok", f"{OUT}.items.0.admitted",
            f"{OUT}.groups.0.first.value", f"{OUT}.groups.0.other.value"),
           (True, False, 0, 1, "true", [], {})),
    # enumerations: every code and others
    *((f"reasons [{r!r}]", put(f"{OUT}.items.0.reasons", [r]))
      for r in (*REASONS, "sanity.bogus", "", "Sanity.provenance", 3, [])),
    ("reasons all seven", put(f"{OUT}.items.0.reasons", list(REASONS))),
    ("reasons 300", put(f"{OUT}.items.0.reasons", [REASONS[i % 7] for i in range(300)])),
    *((f"reasons {v!r}", put(f"{OUT}.items.0.reasons", v)) for v in ([], "x", {}, [[]])),
    *_many((f"{OUT}.items.0.observed_from",), ("claim", "receipt", "Claim", "", 0, True)),
    *_many((f"{OUT}.groups.0.kind",), ("numeric", "boolean", "timestamp", "text", "bogus", 1)),
    *((f"a {k} group of flags", _group_of_flags(k)) for k in ("timestamp", "text")),
    # decimals at and past §3.2 (a numeric group's values)
    *_many((f"{OUT}.groups.0.min.value", f"{OUT}.groups.0.max.value"), DECIMALS),
    *_many((f"{OUT}.groups.0.min.value",), MORE_DECIMALS),
    # texts (hashed or read), long and empty, wrong types
    *_many((f"{OUT}.requirement_id", "inputs.requirement_id", f"{OUT}.items.0.evidence_id",
            f"{OUT}.items.0.source_id", f"{OUT}.items.0.gate_reason", f"{OUT}.sources.0.step_id",
            f"{OUT}.sources.0.evidence_id", f"{OUT}.sources.0.source_id", f"{OUT}.groups.0.key",
            f"{OUT}.groups.0.min.claim_id", f"{OUT}.groups.0.first.evidence_id"), TEXTS),
    *((f"description {v!r}", put("description", v)) for v in ("", "é€😀 chunk " * 40, "d" * 32)),
    # optional entries present
    ("a boolean group's other", put(f"{OUT}.groups.0.other",
                                    {"claim_id": "c", "evidence_id": "e", "value": False})),
    ("a boolean group's other not a map", put(f"{OUT}.groups.0.other", [1])),
    ("a numeric group's first (rest)", put(f"{OUT}.groups.0.first", {"value": True})),
    # maps wrong, lists empty and long
    *_many((f"{OUT}.window", f"{OUT}.items.0", f"{OUT}.sources.0", f"{OUT}.groups.0",
            f"{OUT}.groups.0.min", f"{OUT}.groups.0.first"), ({}, [], "x", 0)),
    *_many((f"{OUT}.items", f"{OUT}.sources", f"{OUT}.groups"), ([], {}, "x", [1], [[]])),
    *((f"{k} x{n}", repeat(f"{OUT}.{k}", n)) for k in ("items", "sources", "groups")
      for n in (2, 40)),
    ("prior_step_ids []", put("prior_step_ids", [])),
    ("evidence_ids three", put("evidence_ids", ["a", "é" * 20, "c" * 32])),
    # extra keys (1, 30, 300), keys of 31 and 40 bytes
    *((f"{m} +{n}", extra(m, n)) for m in _MAPS for n in (1, 30)),
    *((f"{m} +300", extra(m, 300)) for m in (OUT, f"{OUT}.items.0", f"{OUT}.groups.0.min")),
    *((f"{m} key {n}", put(f"{m}.{'k' * n}", {"a": [1, "b"]})) for m in _MAPS for n in (31, 40)),
    # identity faults
    *((f"inputs.kind {v!r}", put("inputs.kind", v))
      for v in ("contradictions", "aggregate", "deduce", "nope", 5)),
    ("inputs.kind absent", drop("inputs.kind")),
    *((f"step_type {v!r}", put("step_type", v)) for v in ("deduce", "extract")),
    # invalid records
    ("an extra top-level key", put("extra", 1)), ("an empty step id", put("step_id", "")),
    ("a byte string in an item", put(f"{OUT}.items.0.blob", b"x")),
    ("a description not text", put("description", 5)),
    ("a prior id not text", put("prior_step_ids", [5])),
    ("output not a map", put(OUT, [1])), ("step_type bogus", put("step_type", "guess")),
    ("another schema", put("schema", "por.ReasoningStep/2")),
]


def test_every_fixture_chunk_form() -> None:
    seen: Counter[str] = Counter()
    for name, bundle, leaf in kind_steps("check_requirement"):
        raw = bundle.steps[leaf]
        step = decode(raw)
        assert chain_chunk_form(raw) == (True, True, step_form(step)), (name, leaf)
        seen["steps"] += 1
        seen.update(f"group {g['kind']}" for g in step["output"]["groups"])
        seen["items"] += len(step["output"]["items"])
    print(f"fixture chunk steps: {dict(sorted(seen.items()))}")
    assert seen["steps"] >= 40 and seen["group boolean"] >= 1 and seen["group numeric"] >= 1


def _market(kind: str) -> bytes:
    """The first fixture CHUNK step with a group of ``kind`` (a boolean one also gets an
    item's gate reason and a reason, so the optional parts are written)."""
    for _, bundle, leaf in kind_steps("check_requirement"):
        step = decode(bundle.steps[leaf])
        if any(g["kind"] == kind for g in step["output"]["groups"]):
            if kind == "boolean":
                step["output"]["items"][0].update(gate_reason="gate", reasons=[REASONS[2]])
                return encode(step)
            return bytes(bundle.steps[leaf])
    raise AssertionError(kind)


def _family(leaf: bytes) -> str | None:
    """The kind of a valid step's family (``identity``), None when it has none."""
    try:
        return identity(decode(leaf))[0]
    except PorError:
        return None


def test_edited_chunk_forms() -> None:
    """Every edit of ``CHUNK_EDITS`` on two markets' CHUNK steps: the same (valid, defined,
    F); a valid step of another recomputed kind reverts ``OtherFamily``."""
    seen: Counter[str] = Counter()
    for kind in ("numeric", "boolean"):
        raw = _market(kind)
        for what, edit in CHUNK_EDITS:
            leaf = edited(raw, edit)
            py = python_form(leaf)
            got = chain_chunk_form(leaf)
            if py[0] and _family(leaf) not in ("check_requirement", None):
                assert got == "revert:" + OTHER_FAMILY, (kind, what)
                seen["other family"] += 1
                continue
            assert got == py, (kind, what)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    print(f"chunk edits: {dict(sorted(seen.items()))} of {len(CHUNK_EDITS)} x 2")
    assert seen["form"] > 150 and seen["none"] > 250 and seen["invalid"] >= 20, seen


NONE_EDITS = [e for e in CHUNK_EDITS if not e[0].startswith(("inputs.kind", "step_type"))]


def test_form_proofs_of_every_fixture_chunk_step() -> None:
    """The envelope with the CHUNK family: honest, lied form leaves, rotating edits."""
    seen = sweep(kind_steps("check_requirement"), NONE_EDITS)
    print(f"chunk formproof cases: {dict(sorted(seen.items()))}")
    assert seen["form.match"] >= 40 and seen["form.mismatch"] >= 120, seen
    assert seen["form.none"] >= 20 and seen["one_step.invalid_record"] >= 1, seen


def test_size() -> None:
    print(f"{NAME} {sizes(NAME)} bytes")
    assert sizes(NAME) <= 24_576
