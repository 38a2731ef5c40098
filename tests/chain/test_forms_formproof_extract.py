"""The FormProof on chain for the EXTRACT family (``contracts/src/forms/PorFormFamilyExtract.sol``,
an ``IPorFormFamily``; ADR 0017 s42 addendum ``fpextract``: measured, not routed).

* ``F`` EXTRACT built from a step's CBOR leaf (``form(bytes)``) equals ``por.forms``' byte for
  byte on every extract step of every fixture bundle (each scenario's ``por build`` bundle and
  the committed ``fixtures/bundles/**.cbor``), and on edits of one (``EXTRACT_EDITS``, two
  markets): each valid edit has the same form or none on both sides, each invalid one is
  invalid on both.
* A valid step of another kind reverts ``OtherFamily(keccak256(inputs.kind))``; the contract
  fits EIP-170.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bundle_edits import honest, steps_of
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from forms_harness import call, deploy, selector, sizes
from scratch_harness import SOLC
from test_forms_formproof import DECIMALS, Edit, _drop, _extra, _set, _vals, edited, python_form

from por.challenge import bundle_from_bytes
from por.encoding import decode, encode
from por.errors import PorError
from por.forms import step_form
from por.gate import is_blank
from por.scenarios import list_scenarios
from por.signing.eip712 import keccak256

pytestmark = SOLC
NAME = "PorFormFamilyExtract"
ROOT = Path(__file__).resolve().parents[2]
KIND = "extract_claims"
CARD = ("source_id", "status_code", "retrieved_at", "confidence_bps", "provenance_tier")
#: SPEC §12.4's 25 White_Space code points.
SPACES = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + \
    "\u2028\u2029\u202f\u205f\u3000"
NULL = "@@null@@"  # a text value whose encoding :func:`raw_edited` replaces by CBOR null


def chain_extract_form(leaf: bytes) -> tuple[bool, bool, bytes] | str:
    """The contract's (valid, defined, F) of a step leaf, or ``revert:<selector>``."""
    out, _ = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [leaf]))
    if isinstance(out, str):
        return out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form) if defined else b""


def raw_edited(raw: bytes, edit: Edit) -> bytes:
    """``edited``, then each text ``NULL`` encoded as CBOR null (0xf6): a leaf no valid
    record has (por-cbor/1 has no null), which ``encode`` cannot write."""
    return edited(raw, edit).replace(b"\x68" + NULL.encode(), b"\xf6")


def _claims(f: Any) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        f(step["output"]["claims"])
    return edit


def _claim(field: str, value: object, kind: str | None = None) -> Edit:
    """Claim 0's ``field`` set (and its ``kind`` when given)."""
    def edit(step: dict[str, Any]) -> None:
        c = step["output"]["claims"][0]
        if kind is not None:
            c["kind"] = kind
        c[field] = value
    return edit


def _claim_drop(field: str) -> Edit:
    return _claims(lambda cs: cs[0].pop(field))


def _many_claims(n: int) -> Edit:
    kinds = (("numeric", "12.5"), ("boolean", True), ("timestamp", 1_700_000_000), ("text", "é"))

    def edit(step: dict[str, Any]) -> None:
        step["output"]["claims"] = [
            {"claim_id": f"cl_{i:04d}", "key": f"k{i % 7}", "kind": kinds[i % 4][0],
             "path": f"$.x[{i}]", "value": kinds[i % 4][1]} for i in range(n)]
    return edit


def _card_extra(n: int, key: str = "x") -> Edit:
    def edit(step: dict[str, Any]) -> None:
        for i in range(n):
            step["output"]["card"][f"{key}{i:03d}"] = i
    return edit


def _claim_extra(key: str) -> Edit:
    return _claims(lambda cs: cs[0].__setitem__(key, {"a": [1, "b"]}))


CLAIM_VALUES: dict[str, tuple[object, ...]] = {
    "numeric": DECIMALS,
    "boolean": _vals(True, False, 0, 1, "true", [], {}),
    "timestamp": _vals(0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5", "1.5"),
    "text": _vals("", "a", "é€😀" * 30, "x" * 32, 5, True, ["a"]),
}
W_RANGES: dict[str, tuple[object, ...]] = {
    "provenance_tier": _vals(0, 1, 2, 3, 4, 255, 2**64 - 1, -1, True, "1", [1]),
    "status_code": _vals(99, 100, 200, 404, 599, 600, 0, 2**16, -200, True, "200"),
    "retrieved_at": _vals(0, 1, 2**63 - 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5"),
    "confidence_bps": _vals(0, 1, 9999, 10_000, 10_001, 2**32, -1, False, "9000"),
}
SOURCE_IDS = _vals("", " ", "\t\n", "\u00a0", "\u3000 \u2028", SPACES, SPACES * 3, "\u001c",
                   "\u001f", "\ufeff", "\u200b", "\u2000\u200b", " a", "a ", "a b", "é",
                   "\U0001f600", " \U0001f600", "x" * 40, "s" * 200, 5, True, [], {"a": 1})

#: Edits of an extract step: (name, edit); the answers are Python's, compared, not assumed.
EXTRACT_EDITS: list[tuple[str, Edit]] = [
    # the card: each key's values and types, its exact five keys
    *((f"card.{k} {v!r}", _set(f"output.card.{k}", v)) for k, vs in W_RANGES.items() for v in vs),
    *((f"card.source_id {v!r}", _set("output.card.source_id", v)) for v in SOURCE_IDS),
    *((f"drop card.{k}", _drop(f"output.card.{k}")) for k in CARD),
    ("card: one extra key", _card_extra(1)), ("card: 30 extra keys", _card_extra(30)),
    ("card: 300 extra keys", _card_extra(300)),
    ("card: a 31-byte extra key", _set("output.card." + "k" * 31, 1)),
    ("card: a 40-byte extra key", _set("output.card." + "k" * 40, 1)),
    ("card: source_id as sourceid", lambda s: s["output"]["card"].__setitem__(
        "sourceid", s["output"]["card"].pop("source_id"))),
    ("drop card", _drop("output.card")),
    *((f"card {v!r}", _set("output.card", v)) for v in _vals({}, [], "card", 1)),
    # evidence_id and requirement_id
    *((f"evidence_id {v!r}", _set("output.evidence_id", v))
      for v in _vals("", "e", "x" * 32, "é" * 128, "😀" * 129, 5, ["e"])),
    *((f"requirement_id {v!r}", _set("output.requirement_id", v))
      for v in _vals("", "r", "é€😀" * 40, 7, True)),
    ("drop evidence_id", _drop("output.evidence_id")),
    ("drop requirement_id", _drop("output.requirement_id")),
    # the claims list
    *((f"claims {v!r}", _set("output.claims", v))
      for v in _vals([], "x", 1, {}, [1], [[]], ["a"], [{}])),
    ("drop claims", _drop("output.claims")),
    ("one claim", _many_claims(1)), ("30 claims", _many_claims(30)),
    ("200 claims", _many_claims(200)),
    *((f"claim {kind} value {v!r}", _claim("value", v, kind))
      for kind, vs in CLAIM_VALUES.items() for v in vs),
    *((f"claim kind {v!r}", _claim("kind", v))
      for v in _vals("boolean", "numeric", "timestamp", "text", "Numeric", "number", "", "texts",
                     3, [], True)),
    *((f"claim {f} {v!r}", _claim(f, v))
      for f in ("key", "claim_id") for v in _vals("", "k", "k" * 32, "é€😀" * 30, 5, ["k"])),
    *((f"claim path {v!r}", _claim("path", v)) for v in _vals("", 5, [1, "a"])),
    *((f"drop claim {f}", _claim_drop(f)) for f in ("key", "kind", "claim_id", "value", "path")),
    ("claim: an extra key", _claim_extra("zz")), ("claim: a 31-byte key", _claim_extra("c" * 31)),
    ("claim: a 40-byte key", _claim_extra("c" * 40)), ("claim: a key 'a'", _claim_extra("a")),
    # the output's and inputs' other keys (EXTRACT reads neither: no rest word)
    ("warnings", _set("output.warnings", ["w", {"x": 1}])),
    ("drop warnings", _drop("output.warnings")),
    ("one extra output key", _extra(1)), ("30 extra output keys", _extra(30)),
    ("300 extra output keys", _extra(300)),
    ("a 31-byte extra output key", _set("output." + "k" * 31, -5)),
    ("a 40-byte extra output key", _set("output." + "k" * 40, {"a": [1, "b"]})),
    ("an extra inputs key", _set("inputs.extra", [1, 2])),
    ("inputs.requirement_id", _set("inputs.requirement_id", "r")),
    # identity faults
    ("inputs.kind nope", _set("inputs.kind", "nope")), ("inputs.kind 5", _set("inputs.kind", 5)),
    ("inputs.kind absent", _drop("inputs.kind")), ("inputs.kind map", _set("inputs.kind", "map")),
    ("step_type map", _set("step_type", "map")), ("step_type check", _set("step_type", "check")),
    # the step's other fields
    ("a long description", _set("description", "é€😀 extract " * 40)),
    ("an empty description", _set("description", "")),
    ("a prior id", _set("prior_step_ids", ["step_0000"])),
    ("three evidence ids", _set("evidence_ids", ["a", "é" * 20, "c" * 32])),
    ("a long step id", _set("step_id", "s" * 128)),
    # invalid records
    ("an extra top-level key", _set("extra", 1)), ("an empty step id", _set("step_id", "")),
    ("a byte string in the card", _set("output.card.blob", b"x")),
    ("a byte string as a claim value", _claim("value", b"\x01", "text")),
    ("a null claim value", _claim("value", NULL)),
    ("a null tier", _set("output.card.provenance_tier", NULL)),
    ("a description not text", _set("description", 5)),
    ("another schema", _set("schema", "por.ReasoningStep/2")),
    ("a prior id not text", _set("prior_step_ids", [5])),
    ("output not a map", _set("output", [1])), ("step_type bogus", _set("step_type", "guess")),
]


def scenario_steps() -> Iterator[tuple[str, bytes]]:
    """Every extract step leaf of each scenario's ``por build`` bundle."""
    for name in list_scenarios():
        bundle = honest(name)
        for leaf in steps_of(bundle, KIND):
            yield name, bundle.steps[leaf]


def fixture_steps() -> Iterator[tuple[str, bytes]]:
    """Every step leaf of kind ``extract_claims`` (or not decodable) in the committed
    ``fixtures/bundles/**.cbor`` files that decode as bundles."""
    for path in sorted((ROOT / "fixtures" / "bundles").rglob("*.cbor")):
        try:
            bundle = bundle_from_bytes(path.read_bytes())
        except (PorError, ValueError):
            continue
        for raw in bundle.steps:
            try:
                step = decode(raw)
                kind = step.get("inputs", {}).get("kind") if isinstance(step, dict) else None
            except (PorError, ValueError, AttributeError):
                kind = KIND  # not a record: invalid on both sides
            if kind == KIND:
                yield str(path.relative_to(ROOT)), raw


def test_every_fixture_extract_form() -> None:
    """``F`` EXTRACT on chain = ``step_form`` on every fixture extract step."""
    seen: Counter[str] = Counter()
    done: set[bytes] = set()
    for source, steps in (("scenarios", scenario_steps()), ("files", fixture_steps())):
        for name, raw in steps:
            if raw in done:
                continue
            done.add(raw)
            py = python_form(raw)
            if source == "scenarios":
                assert py == (True, True, step_form(decode(raw))), name
            assert chain_extract_form(raw) == py, name
            seen[f"{source} {'form' if py[1] else 'none' if py[0] else 'invalid'}"] += 1
    print(f"fixture extract steps: {dict(sorted(seen.items()))}")
    assert seen["scenarios form"] >= 50, seen


def test_edited_extract_forms() -> None:
    """Every edit of ``EXTRACT_EDITS`` on two markets' extract steps: the same
    (valid, defined, F) on chain as in Python."""
    seen: Counter[str] = Counter()
    for name in ("01-boolean-observed", "08-quorum-agree"):
        bundle = honest(name)
        raw = bundle.steps[steps_of(bundle, KIND)[0]]
        for what, edit in EXTRACT_EDITS:
            leaf = raw_edited(raw, edit)
            py = python_form(leaf)
            assert chain_extract_form(leaf) == py, (name, what, py)
            seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    print(f"extract edits: {dict(sorted(seen.items()))}")
    assert seen["form"] > 100 and seen["none"] > 150 and seen["invalid"] >= 20, seen


def decimals(n: int) -> list[str]:
    """``n`` texts near §3.2's canonical decimals (deterministic): canonical ones of 1 to 64
    characters (signs, ``0.`` fractions with leading zeros, whole parts) and each mutated
    once (a trailing or leading zero, a second dot, a sign, a letter, a 65th character)."""
    rng = random.Random(20_260_042)  # noqa: S311 (test data, reproducible)
    out: list[str] = []
    while len(out) < n:
        sign = "-" if rng.random() < 0.4 else ""
        whole = "0" if rng.random() < 0.3 else str(rng.randrange(1, 10)) + "".join(
            rng.choice("0123456789") for _ in range(rng.randrange(0, 30)))
        frac = "".join(rng.choice("0000123456789") for _ in range(rng.randrange(0, 34)))
        frac = frac + str(rng.randrange(1, 10)) if frac or rng.random() < 0.5 else ""
        text = (sign + whole + ("." + frac if frac else ""))[:64]
        if text in ("-0", "-") or text.endswith((".", "-")):
            continue
        out.append(text)
        i = rng.randrange(0, len(text) + 1)
        out.append(rng.choice((text + "0", "0" + text, text + ".5", "+" + text, text + "e",
                               text[:i] + "." + text[i:], text[:i] + "a" + text[i:],
                               (text + "1" * 65)[:65], "-" + text)))
    return out


def test_claim_decimals() -> None:
    """A numeric claim's value ``D`` (``PorFormProofExtractWrite.decimal``, one assembly
    pass): chain = Python on 600 texts near §3.2's decimals, one leaf each."""
    bundle = honest("08-quorum-agree")
    raw = bundle.steps[steps_of(bundle, KIND)[0]]
    assert decode(raw)["output"]["claims"][0]["kind"] == "numeric"
    seen: Counter[bool] = Counter()
    for text in decimals(600):
        leaf = edited(raw, _claim("value", text))
        py = python_form(leaf)
        assert chain_extract_form(leaf) == py, text
        seen[py[1]] += 1
    print(f"claim decimals: {seen[True]} with a form, {seen[False]} without")
    assert seen[True] >= 300 and seen[False] >= 200, seen


def test_mutated_leaves() -> None:
    """Every byte of an extract leaf flipped (xor 1, xor 0x80) and the leaf cut at every
    16th byte: the contract never reverts (no other kind arises) and answers as Python."""
    bundle = honest("08-quorum-agree")
    raw = bundle.steps[steps_of(bundle, KIND)[0]]
    leaves = [raw[:i] for i in range(0, len(raw), 16)]
    leaves += [raw[:i] + bytes([raw[i] ^ x]) + raw[i + 1:]
               for i in range(len(raw)) for x in (1, 0x80)]
    seen: Counter[str] = Counter()
    for leaf in leaves:
        py = python_form(leaf)
        assert chain_extract_form(leaf) == py, leaf.hex()
        seen["form" if py[1] else "none" if py[0] else "invalid"] += 1
    print(f"mutated leaves: {dict(sorted(seen.items()))}")
    assert seen["invalid"] > 500 and seen["form"] > 50, seen


def test_blank_source_flag() -> None:
    """The last word is 1 exactly for the §12.4 blank ids (Python's ``is_blank``)."""
    bundle = honest("01-boolean-observed")
    raw = bundle.steps[steps_of(bundle, KIND)[0]]
    flags: Counter[bool] = Counter()
    for v in SOURCE_IDS:
        if not isinstance(v, str):
            continue
        got = chain_extract_form(edited(raw, _set("output.card.source_id", v)))
        assert not isinstance(got, str) and got[1], v
        assert got[2][-32:] == int(is_blank(v)).to_bytes(32, "big"), repr(v)
        flags[is_blank(v)] += 1
    assert flags[True] == 7 and flags[False] == 13, flags


def test_other_families_revert() -> None:
    """A valid step of another kind: ``OtherFamily(keccak256(kind))``, not an answer."""
    other = selector("OtherFamily(bytes32)").hex()
    bundle = honest("08-quorum-agree")
    kinds = set()
    for raw in bundle.steps:
        kind = decode(raw)["inputs"]["kind"]
        if kind == KIND:
            continue
        out, _ = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [raw]))
        assert out == f"revert:{other}", (kind, out)
        kinds.add(kind)
    raw = bundle.steps[steps_of(bundle, KIND)[0]]
    step = decode(raw)
    step["inputs"]["kind"], step["step_type"] = "deduce", "deduce"  # F DEDUCE undefined
    out, _ = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [encode(step)]))
    assert out == f"revert:{other}"
    assert kinds == {"check_requirement", "aggregate", "contradictions", "deduce", "map"}, kinds
    assert keccak256(b"deduce") != keccak256(KIND.encode())


def test_size() -> None:
    """Prints the contract's deployed size; EIP-170."""
    print(f"{NAME} {sizes(NAME)} bytes deployed")
    assert sizes(NAME) <= 24_576
