"""The extract card read in one straight pass (ADR 0013 "Addendum (s38, agg8)") agrees
with ``por check-proof``.

``PorAggregateEntries.card`` reads a cited extract step's ``output.card`` without a key
walk: the map head (exactly five entries), each key's bytes compared in its §2 place,
source_id a text, the four integers in range (``step_io.CARD_RANGES``) read from their
heads; ``PorAggregateRead.next`` reads ``card`` and ``claims`` in place when each is the
next entry's key. New ways to be wrong: a bound off by one (99/100, 599/600, 2^63-1/2^63,
10000/10001, 3/4, at every head width), a value of another major type (a negative
integer, a text, a bool, a byte string, containers), a card key missing,
renamed one byte off or added, a card of another shape, and output keys sorting between
``card`` and ``claims``. Each edit is written into one cited extract step, the aggregate
recomputed from it (lost) or left: the chain and Python must agree every time.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from aggregate_lies import aggregates
from bundle_edits import honest

# the edited steps written, the aggregate compared as is and recomputed (`_compare`), its
# counts in that module's COUNTS (shared: each test here counts its own by differences)
from test_s37_aggregate_seek import _CHAIN, COUNTS, _compare

from por.encoding import decode

CARD = ["source_id", "status_code", "retrieved_at", "confidence_bps", "provenance_tier"]
#: Values of another type than an integer (or a text, for source_id).
OTHER: list[Any] = [-1, -200, "200", True, False, b"\x01", [], [200], {}, {"a": 1}]
#: Per integer key: values at and past its bounds, and at each head width.
EDGES: dict[str, list[Any]] = {
    "status_code": [0, 23, 24, 99, 100, 255, 256, 599, 600, 65535, 65536, 2**32, 2**63],
    "retrieved_at": [0, 23, 24, 255, 256, 65536, 2**32, 2**63 - 1, 2**63, 2**64 - 1],
    "confidence_bps": [0, 23, 24, 255, 256, 9999, 10000, 10001, 65536, 2**32],
    "provenance_tier": [0, 1, 2, 3, 4, 23, 24, 256, 2**32],
}


def _cases() -> list[tuple[str, Any]]:
    """(name, edit of one output) pairs."""
    cases: list[tuple[str, Any]] = []

    def setter(key: str, value: Any) -> Any:
        return lambda out: out["card"].__setitem__(key, value)

    for key in CARD:
        for value in EDGES.get(key, ["", "x" * 23, "x" * 24, "é" * 40]) + OTHER:
            cases.append((f"{key}={value!r}"[:60], setter(key, value)))
        cases.append((f"pop.{key}", lambda out, k=key: out["card"].pop(k)))
        for near in (key[:-1] + chr(ord(key[-1]) - 1), key[:-1] + chr(ord(key[-1]) + 1), key + "_",
                     key[:-1]):
            def rename(out: dict[str, Any], k: str = key, n: str = near) -> None:
                out["card"][n] = out["card"].pop(k)
            cases.append((f"rename.{key}.{near}", rename))
    for extra in ("a", "source_ic", "source_ie", "status_cod", "zz", "z" * 30):
        cases.append((f"extra.{extra}", lambda out, x=extra: out["card"].__setitem__(x, 1)))
    for shape in ([], [1, 2, 3, 4, 5], "card", 1, {}, True):
        cases.append((f"card={shape!r}", lambda out, s=shape: out.__setitem__("card", s)))
    cases.append(("pop.card", lambda out: out.pop("card")))
    cases.append(("pop.claims", lambda out: out.pop("claims")))
    # output keys sorting before card, between card and claims, and after claims
    for extra in ("a", "cap", "care", "carda", "cards", "clai", "claimr", "claimt", "ca" * 2):
        for value in (0, "x", [1, {"a": [2]}]):
            cases.append((f"output.{extra}={value!r}",
                          lambda out, x=extra, v=value: out.__setitem__(x, v)))
    return cases


@pytest.mark.parametrize("scenario", ["08-quorum-agree"])
def test_card_read_straight(scenario: str) -> None:
    bundle = honest(scenario)
    index = aggregates(bundle)[0]
    before = Counter(COUNTS)
    _CHAIN.compare(bundle, index, "honest", COUNTS)
    for n, (name, edit) in enumerate(_cases()):
        steps = [decode(s) for s in bundle.steps]
        cited = [s for s in steps[:index] if s["step_type"] == "extract"]
        edit(cited[n % len(cited)]["output"])
        _compare(bundle, steps, name)
    seen = COUNTS - before
    assert seen["id:one_step.match"] > 20 and seen["id:one_step.unexecutable"] > 50, seen


def _input_cases() -> list[tuple[str, Any]]:
    """(name, edit of one step's inputs) pairs: ``PorAggregateRead.isKind`` reads a cited
    step's inputs.kind in place when it is the first key of a map of 1-23 entries, and
    ``PorAggregateEntries.requirementId`` the check step's and the aggregate's own
    inputs.requirement_id when it is the second key after a short-text kind, else by a walk."""
    cases: list[tuple[str, Any]] = [("pop.kind", lambda i: i.pop("kind")),
                                    ("pop.requirement_id", lambda i: i.pop("requirement_id", None))]
    extras = ("a", "id", "kin", "kinc", "kine", "kind_", "kinda", "l", "requirement_i",
              "requirement_ic", "requirement_ie", "requirement_id_", "y" * 23, "x" * 24,
              "z" * 30, "w" * 31, "v" * 32)
    #: extra keys' values: texts of 22-25 bytes (a walk's short-text skip and its edge)
    values: list[Any] = ["extract_claims", "v" * 22, "v" * 23, "v" * 24, "v" * 25,
                         [1, "v" * 23], 24]
    for n, extra in enumerate(extras):
        for value in (values[n % len(values)], values[(n + 3) % len(values)]):
            cases.append((f"extra.{extra}={value!r}"[:50],
                          lambda i, x=extra, v=value: i.__setitem__(x, v)))
    for value in ("extract_claim", "extract_claimsx", "check_requirement", "check_requiremenu",
                  "extract_claims" * 3, 1, ["extract_claims"], b"extract_claims"):
        cases.append((f"kind={value!r}"[:40], lambda i, v=value: i.__setitem__("kind", v)))
    for n in (22, 23, 24):  # entries after kind: 23 and 24 in all, and 25
        cases.append((f"wide.{n}", lambda i, n=n: i.update({f"zz{j:02d}": j for j in range(n)})))
    return cases


def test_step_inputs_read_in_place() -> None:
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    before = Counter(COUNTS)
    seen: Counter[str] = Counter()
    for n, (name, edit) in enumerate(_input_cases()):
        for which in ("extract", "check", "aggregate"):
            steps = [decode(s) for s in bundle.steps]
            cited = [s for s in steps[:index + 1] if s["step_type"] == which]
            target = cited[n % len(cited)] if which == "extract" else cited[-1]
            edit(target["inputs"])
            _compare(bundle, steps, f"inputs.{which}.{name}")
            seen[which] += 1
    for n, shape in enumerate([[], "kind", {}, 0, ["kind", "extract_claims"]]):
        steps = [decode(s) for s in bundle.steps]
        cited = [s for s in steps[:index] if s["step_type"] == "extract"]
        cited[n % len(cited)]["inputs"] = shape
        _compare(bundle, steps, f"inputs={shape!r}")
    assert seen["check"] == seen["aggregate"] == len(_input_cases()), seen
    assert (COUNTS - before)["id:one_step.match"] > 20, COUNTS - before


@pytest.mark.parametrize("edit", ["as_of", "claim_id", "both"])
def test_output_values_at_head_edges(edit: str) -> None:
    """``PorAggregateStep.expectRaw`` takes a short text's or a small integer's length from
    its head: values at the edges (integers 0, 23, 24, 255, 256; claim ids of 22-25 bytes)
    copied into the recomputed output (rewritten: Python's answer is a match, which the
    chain reaches only when every value's bytes are compared in full, and the committed
    one left: a mismatch)."""
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    before = COUNTS["id:one_step.match"]
    for n, value in enumerate([0, 23, 24, 255, 256, 2**32]):
        steps = [decode(s) for s in bundle.steps]
        cited = [s for s in steps[:index] if s["step_type"] == "extract"]
        for j, s in enumerate(cited):
            for c in s["output"]["claims"]:
                if edit != "claim_id" and c["kind"] == "timestamp":
                    c["value"] = value
                if edit != "as_of":
                    c["claim_id"] = (c["claim_id"] + "x" * 30)[:22 + (n + j) % 4]
        _compare(bundle, steps, f"edges.{edit}.{value}")
    assert COUNTS["id:one_step.match"] - before == 6, COUNTS


def _state_cases() -> list[tuple[str, Any]]:
    """(name, edit of the cited check chunk's output) pairs: ``PorAggregateChunk.count``
    reads an integer's head in place (0..2^63-1; a group's claim_count from 1), and
    ``named`` tells groups apart by (kind, key) as one hash of the kind's bit and the key."""
    cases: list[tuple[str, Any]] = []
    for key in ("chunk", "claim_count", "item_count", "admitted_count", "last_leaf"):
        for value in (0, 1, 23, 24, 255, 256, 2**32, 2**63 - 1, 2**63, 2**64 - 1, -1, "1",
                      True, [1]):
            cases.append((f"{key}={value!r}", lambda o, k=key, v=value: o.__setitem__(k, v)))
    for value in (0, 1, 2, 24, 2**63 - 1, 2**63, -1, "3"):
        def claims(o: dict[str, Any], v: Any = value) -> None:
            o["groups"][0]["claim_count"] = v
        cases.append((f"group.claim_count={value!r}", claims))

    def twice(o: dict[str, Any]) -> None:
        o["groups"].append(dict(o["groups"][0]))

    def other_kind(o: dict[str, Any]) -> None:  # a boolean group of the numeric one's key
        g = o["groups"][0]
        first = {"value": True, "claim_id": g["min"]["claim_id"],
                 "evidence_id": g["min"]["evidence_id"]}
        o["groups"].append({"key": g["key"], "kind": "boolean", "first": first, "claim_count": 1})

    def other_key(o: dict[str, Any]) -> None:  # the same kind, a key one byte off
        o["groups"].append({**o["groups"][0], "key": o["groups"][0]["key"] + "x"})

    def both(o: dict[str, Any]) -> None:
        other_kind(o)
        o["groups"].append(dict(o["groups"][-1]))

    cases += [("groups.twice", twice), ("groups.other_kind", other_kind),
              ("groups.other_key", other_key), ("groups.boolean_twice", both)]
    return cases


def test_chunk_counts_and_groups() -> None:
    bundle = honest("08-quorum-agree")
    index = aggregates(bundle)[0]
    before = Counter(COUNTS)
    for name, edit in _state_cases():
        steps = [decode(s) for s in bundle.steps]
        check = [s for s in steps[:index] if s["step_type"] == "check"][-1]
        edit(check["output"])
        _compare(bundle, steps, f"state.{name}")
    seen = COUNTS - before
    assert seen["id:one_step.match"] > 10 and seen["id:one_step.unexecutable"] > 20, seen
