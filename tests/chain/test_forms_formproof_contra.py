"""The FormProof on chain for the CONTRADICTIONS family (SPEC §5.6.9, tag 6):
``contracts/src/forms/PorFormFamilyContradictions.sol`` (``IPorFormFamily``; the library
``PorFormProofContradictions``), ADR 0017 s42 addendum ``fpcontra``.

* ``F`` CONTRADICTIONS built from a step's CBOR leaf (``form(bytes)``) equals
  ``por.forms.step_form`` byte for byte on every fixture market's contradictions step.
* On edits of one (``CONTRA_EDITS``, two markets): each valid edit has the same form or none
  on both sides, each invalid one is invalid on both, and a valid step of another kind
  (an edited ``inputs.kind``/``step_type``) reverts ``OtherFamily(keccak256(kind))``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from bundle_edits import honest, steps_of
from eth_abi.abi import decode as abi_decode
from eth_abi.abi import encode as abi_encode
from formproof_families import byte_edit
from forms_harness import call, deploy, selector, sizes
from scratch_harness import SOLC
from test_forms_formproof import (
    DECIMALS,
    Edit,
    _drop,
    _extra,
    _set,
    _vals,
    delete,
    edited,
    kind_steps,
    put,
    python_form,
    walk_to,
)

from por.encoding import decode
from por.errors import PorError
from por.forms import step_form
from por.forms.steps import IDENTITY
from por.signing.eip712 import keccak256

pytestmark = SOLC
NAME = "PorFormFamilyContradictions"
OTHER = selector("OtherFamily(bytes32)").hex()
C = "output.conflicts.0"
INTEGERS: tuple[object, ...] = (0, 1, 2**63, 2**64 - 1, -1, -(2**64), True, "5", [])
#: More decimals than the DEDUCE test's: the contradictions writer is its own (one pass).
MORE_DECIMALS = (*DECIMALS, "-0.5", "0.5", "-1", "10", "1.0", "1.01", "00.5", "-.5", "0.",
                 "1..2", "1.2.3", " 1", "1 ", "-00", "0.000", "-0.001", "9" * 63 + ".",
                 "0." + "9" * 62, "-" + "9" * 62 + ".5", "100.001", "1a", "-", "--1", "1-")
IDS: tuple[object, ...] = ([], ["a"], ["s" * 200, "é", "x" * 32], [1], "a", {}, [["a"]], ["a"] * 40)


def chain_form(leaf: bytes) -> tuple[bool, bool, bytes] | str:
    """The contract's (valid, defined, F) of a step leaf, or ``revert:<selector>``."""
    out, _ = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [leaf]))
    if isinstance(out, str):
        return out
    valid, defined, form = abi_decode(["bool", "bool", "bytes"], out)
    return bool(valid), bool(defined), bytes(form) if defined else b""


def expected(leaf: bytes) -> tuple[bool, bool, bytes] | str:
    """Python's answer: ``python_form``, or the revert of a valid step of another kind."""
    py = python_form(leaf)
    if py[0]:
        step = decode(leaf)
        kind = step["inputs"].get("kind")
        if (isinstance(kind, str) and kind != "contradictions" and kind in IDENTITY
                and step["step_type"] == IDENTITY[kind][0]):
            return f"revert:{OTHER}"
    return py


def extra_keys(n: int, path: str = C) -> Edit:
    def edit(step: dict[str, Any]) -> None:
        m, k = walk_to(step, path)
        for i in range(n):
            m[k][f"z{i:03d}"] = [i, {"k": "é" * i}]
    return edit


def copies(n: int) -> Edit:
    """``n`` conflicts, each a copy of the first with its own key."""
    def edit(step: dict[str, Any]) -> None:
        first = step["output"]["conflicts"][0]
        step["output"]["conflicts"] = [{**first, "key": f"k{i}"} for i in range(n)]
    return edit


def flat(pairs: int) -> Edit:
    """The first conflict as an array of its first ``pairs`` key, value pairs (not a map: a
    walk that took it for one would read past it)."""
    def edit(step: dict[str, Any]) -> None:
        first = step["output"]["conflicts"][0]
        step["output"]["conflicts"][0] = [x for k in sorted(first)[:pairs] for x in (k, first[k])]
    return edit


def boolean(values: object, check: str = "contradiction.boolean") -> Edit:
    """The first conflict a boolean one with ``values``."""
    def edit(step: dict[str, Any]) -> None:
        step["output"]["conflicts"][0].update(kind="boolean", check_id=check, values=values)
    return edit


CONFLICT_KEYS = ("check_id", "kind", "key", "claim_ids", "evidence_ids", "values", "claim_count")
#: Edits of a contradictions step whose first conflict is numeric: (name, edit); the
#: answers are Python's, compared, not assumed.
CONTRA_EDITS: list[tuple[str, Edit]] = [
    *((f"claim_count {v!r}", _set("output.claim_count", v)) for v in INTEGERS),
    *((f"numeric_tolerance {v!r}", _set("output.numeric_tolerance", v)) for v in MORE_DECIMALS),
    *((f"drop {k}", _drop(f"output.{k}"))
      for k in ("claim_count", "numeric_tolerance", "conflicts")),
    *((f"conflicts {v!r}", _set("output.conflicts", v))
      for v in _vals([], "x", {}, [1], [[]], [{}], 5)),
    *((f"a conflict as a flat array of {n} pairs", flat(n)) for n in (7, 4, 3)),
    *((f"{n} conflicts", copies(n)) for n in (2, 16, 40, 120)),
    *((f"drop conflict {k}", delete(f"{C}.{k}")) for k in CONFLICT_KEYS),
    *((f"check_id {v!r}", put(f"{C}.check_id", v))
      for v in _vals("contradiction.numeric", "contradiction.boolean", "contradiction.text",
                     "contradiction.numeric ", "Contradiction.numeric", "",
                     "contradiction.numeric" + "x" * 10, 0, [])),
    *((f"kind {v!r}", put(f"{C}.kind", v))
      for v in _vals("numeric", "boolean", "timestamp", "text", "bogus", "", 1, [])),
    *((f"kind {k!r}, no values", lambda s, k=k: s["output"]["conflicts"][0].update(
        kind=k, values=[])) for k in ("timestamp", "text", "bogus", "boolean", "numeric")),
    *((f"boolean values {v!r}", boolean(v))
      for v in _vals(["true", "false"], ["false"], [], ["true"] * 30, ["True"], [True],
                     ["1"], ["true "], ["false", "0.5"], "true")),
    ("boolean values, numeric check", boolean(["true"], "contradiction.numeric")),
    *((f"values [{v!r}]", put(f"{C}.values", ["1", v])) for v in MORE_DECIMALS),
    *((f"values {v!r}", put(f"{C}.values", v))
      for v in _vals([], ["1", "2.5", "-3"] * 10, "1.5", [["1"]], {}, ["1", 5])),
    *((f"key {v!r}", put(f"{C}.key", v))
      for v in _vals("", "k" * 31, "k" * 32, "k" * 40, "é€😀" * 20, 5, [])),
    *((f"claim_ids {v!r}", put(f"{C}.claim_ids", v)) for v in IDS),
    *((f"evidence_ids {v!r}", put(f"{C}.evidence_ids", v)) for v in IDS),
    *((f"conflict claim_count {v!r}", put(f"{C}.claim_count", v)) for v in INTEGERS),
    *((f"{n} extra conflict keys", extra_keys(n)) for n in (1, 30, 300)),
    ("a 31-byte conflict key", put(f"{C}." + "k" * 31, -5)),
    ("a 40-byte conflict key", put(f"{C}." + "k" * 40, {"a": [1, "b"]})),
    ("one extra output key", _extra(1)), ("30 extra output keys", _extra(30)),
    ("300 extra output keys", _extra(300)),
    ("a 31-byte extra output key", _set("output." + "k" * 31, -5)),
    ("a 40-byte extra output key", _set("output." + "k" * 40, {"a": [1, "b"]})),
    ("an extra inputs key", _set("inputs.extra", [1, 2])),
    ("30 extra inputs keys", lambda s: s["inputs"].update({f"i{i}": i for i in range(30)})),
    # identity faults
    *((f"inputs.kind {v!r}", _set("inputs.kind", v))
      for v in _vals("deduce", "map", "check_requirement", "aggregate", "extract_claims",
                     "Contradictions", "nope", 5)),
    ("inputs.kind absent", _drop("inputs.kind")),
    *((f"step_type {v!r}", _set("step_type", v)) for v in _vals("deduce", "aggregate", "map")),
    *((f"a {k} step", lambda s, k=k: s.update(step_type=k, inputs={"kind": k}))
      for k in ("map", "deduce", "aggregate")),
    # texts and lists
    ("a long description", _set("description", "é€😀 contra " * 40)),
    ("an empty description", _set("description", "")),
    ("a 32-byte description", _set("description", "d" * 32)),
    ("no prior ids", _set("prior_step_ids", [])),
    ("many prior ids", _set("prior_step_ids", [f"step_{i:04d}" for i in range(40)])),
    ("three evidence ids", _set("evidence_ids", ["a", "é" * 20, "c" * 32])),
    # invalid records
    ("an extra top-level key", _set("extra", 1)), ("an empty step id", _set("step_id", "")),
    ("a byte string in a conflict", put(f"{C}.blob", b"x")),
    ("a byte string value", put(f"{C}.values", [b"1"])),
    ("a description not text", _set("description", 5)),
    ("another schema", _set("schema", "por.ReasoningStep/2")),
    ("a prior id not text", _set("prior_step_ids", [5])),
    ("output not a map", _set("output", [1])), ("inputs not a map", _set("inputs", [])),
    ("step_type bogus", _set("step_type", "guess")),
    ("2000 conflicts", copies(2000)),
]


def test_every_fixture_contradictions_form() -> None:
    seen = Counter[str]()
    for name, bundle, leaf in kind_steps("contradictions"):
        raw = bundle.steps[leaf]
        assert chain_form(raw) == (True, True, step_form(decode(raw))), name
        seen["with conflicts" if decode(raw)["output"]["conflicts"] else "none"] += 1
    print(f"fixture contradictions steps: {dict(seen)}")
    assert sum(seen.values()) >= 40 and seen["with conflicts"] >= 4, seen


def test_edited_contradictions_forms() -> None:
    """Every edit of ``CONTRA_EDITS`` on two markets' contradictions steps: the same
    (valid, defined, F), or the same ``OtherFamily`` revert."""
    seen: Counter[str] = Counter()
    for name in ("09-conflict-invalid", "67-two-of-three-below"):
        bundle = honest(name)
        raw = bundle.steps[steps_of(bundle, "contradictions")[0]]
        for what, edit in CONTRA_EDITS:
            try:
                leaf = edited(raw, edit)
            except PorError:  # not encodable (an integer outside the model)
                seen["not encodable"] += 1
                continue
            want = expected(leaf)
            assert chain_form(leaf) == want, (name, what)
            seen[want if isinstance(want, str) else
                 "form" if want[1] else "none" if want[0] else "invalid"] += 1
    print(f"contradictions edits: {dict(sorted(seen.items()))}")
    assert seen["form"] > 120 and seen["none"] > 120 and seen["invalid"] >= 20, seen
    assert seen[f"revert:{OTHER}"] >= 6, seen


def random_decimals(n: int, seed: int = 6) -> list[str]:
    """``n`` texts near decimals: digits with a sign, a point, the bytes around the digits
    (``/`` ``:`` ``°`` ``٣``), 1..66 characters, a third of them canonical-shaped, the digit
    runs crossing the 32-byte words."""
    rng = random.Random(seed)  # noqa: S311 (test data, seeded)
    out = []
    for _ in range(n):
        size = rng.choice((1, 2, 3, 31, 32, 33, 34, 63, 64, 65, rng.randint(1, 66)))
        if rng.random() < 0.35:
            whole = rng.choice(("0", str(rng.randint(1, 9)) + "".join(
                rng.choice("0123456789") for _ in range(rng.randint(0, size)))))
            frac = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, size)))
            text = rng.choice(("", "-")) + whole + ("." + frac if rng.random() < 0.7 else "")
            if rng.random() < 0.3:
                text = text.rstrip("0") or "0"
            out.append(text[:size] if rng.random() < 0.3 else text)
        else:
            out.append("".join(rng.choice("0123456789.-/:0090°٣") for _ in range(size)))
    return out


def test_random_decimals() -> None:
    """``D`` on chain (``PorFormProofContradictionsWrite.decimal``, a conflict's value and the
    tolerance) = Python's on 600 texts near decimals."""
    bundle = honest("09-conflict-invalid")
    raw = bundle.steps[steps_of(bundle, "contradictions")[0]]
    seen: Counter[str] = Counter()
    for i, text in enumerate(random_decimals(600)):
        edit = (put(f"{C}.values", ["1", text, "2"]) if i % 2 else
                _set("output.numeric_tolerance", text))
        leaf = edited(raw, edit)
        want = expected(leaf)
        assert chain_form(leaf) == want, text
        seen["form" if want[1] else "none"] += 1
    print(f"random decimals: {dict(seen)}")
    assert seen["form"] >= 150 and seen["none"] >= 300, seen


def test_byte_mutations() -> None:
    """500 leaves a byte changed, dropped or added (seeded) from a step with a conflict: the
    contract answers, never reverts, and equals Python (most are invalid records)."""
    bundle = honest("09-conflict-invalid")
    raw = bundle.steps[steps_of(bundle, "contradictions")[0]]
    rng = random.Random(42)  # noqa: S311 (test data, seeded)
    seen: Counter[str] = Counter()
    for _ in range(500):
        leaf = byte_edit(raw, rng)
        want = expected(leaf)
        assert chain_form(leaf) == want, leaf.hex()
        seen[want if isinstance(want, str) else
             "form" if want[1] else "none" if want[0] else "invalid"] += 1
    print(f"byte mutations: {dict(seen)}")
    assert seen["invalid"] >= 300 and seen["form"] + seen["none"] >= 20, seen


def test_other_family_reverts_with_its_kind() -> None:
    """A valid deduce step: ``OtherFamily(keccak256("deduce"))``, the selector and the word."""
    bundle = honest("09-conflict-invalid")
    raw = bundle.steps[steps_of(bundle, "deduce")[0]]
    out, _ = call(deploy(NAME), selector("form(bytes)") + abi_encode(["bytes"], [raw]))
    assert out == f"revert:{OTHER}"
    from forms_harness import revert_data
    evm, address = deploy(NAME)
    try:
        from proof_check_support import message_call
        message_call(evm, address, selector("form(bytes)") + abi_encode(["bytes"], [raw]))
    except RuntimeError as exc:
        assert revert_data(str(exc))[4:] == keccak256(b"deduce")
    else:
        raise AssertionError("no revert")


def test_a_non_canonical_leaf_is_invalid() -> None:
    bundle = honest("09-conflict-invalid")
    raw = bytearray(bundle.steps[steps_of(bundle, "contradictions")[0]])
    assert raw[0] == 0xA8
    leaf = b"\xb8\x08" + bytes(raw[1:])
    assert python_form(leaf) == (False, False, b"") == chain_form(leaf)
    assert chain_form(b"") == (False, False, b"") == chain_form(b"\xff" * 40)


def test_size() -> None:
    print(f"{NAME} deployed {sizes(NAME):,} B")
    assert sizes(NAME) <= 24_576
