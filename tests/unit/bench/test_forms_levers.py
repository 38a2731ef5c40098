"""bench/forms_levers.py (ADR 0017, s40 ``levers``): with no lever its encoders give
``por.forms``' bytes, so each lever's figure differs from today's by the lever alone;
lever (b)'s head commits every part and deduce carries the parts it reads; the bench
runs and prints its table on the typical market and one caps width."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests" / "chain"), str(ROOT / "tests"), str(ROOT / "bench")]

import forms_levers as bench  # noqa: E402
from forms_levers_layouts import BOTH, LEVER_A, LEVER_B, TODAY, committed, same_as_spec  # noqa: E402
from largest_gas import FILLS  # noqa: E402
from largest_shapes import CAPS, SHAPES, market  # noqa: E402
from proofs import market as scenario  # noqa: E402

from por.bundle.layout import Bundle  # noqa: E402
from por.encoding import decode  # noqa: E402


@pytest.fixture(scope="module")
def caps_text() -> Bundle:
    before = CAPS["fill"]
    CAPS["fill"] = FILLS[4]
    try:
        return market(SHAPES["one.text"])
    finally:
        CAPS["fill"] = before


def test_no_lever_is_spec(caps_text: Bundle) -> None:
    """``today`` is SPEC §5.6 on the typical market and at the caps."""
    same_as_spec(scenario(3))
    same_as_spec(caps_text)


def test_split_head_commits_its_parts(caps_text: Bundle) -> None:
    """Under (b) an AGGREGATE's head holds SHA-256 of each part, in field order, and the
    rest of the head is today's form without its fields."""
    for lay in (LEVER_B, BOTH):
        c = committed(caps_text, lay)
        assert c.parts
        for index, parts in c.parts.items():
            head = c.forms[index]
            for part in parts:
                assert hashlib.sha256(part).digest() in head
    today = committed(caps_text, TODAY)
    assert all(parts == [] for parts in today.parts.values())


def test_deduce_carries_the_parts_it_reads(caps_text: Bundle) -> None:
    """Deduce's proof under (b) carries the metric's part (the first field with its key)
    and is smaller than today's; (a) shrinks every caps proof's bytes."""
    bundle = caps_text
    leaf = bench.leaves_of(bundle, "deduce")[0]
    index = bench.carried(bundle, "deduce", leaf)
    c = committed(bundle, LEVER_B)
    wanted = bench.needed_parts(bundle, c, index)
    metric = decode(bundle.prompt_spec)["prediction_semantics"]["metric"]
    position, field = wanted[0]
    step = decode(bundle.steps[index[position] - 1 - c.requirements])
    assert step["output"]["fields"][field]["key"] == metric
    sizes = {lay.name: len(bench.proof(bundle, committed(bundle, lay), "deduce", index).calldata)
             for lay in (TODAY, LEVER_A, LEVER_B)}
    assert sizes["b"] < sizes["today"] and sizes["a"] < sizes["today"]


def test_bench_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--fill-bytes", "1"]) == 0
    out = capsys.readouterr().out
    for kind in bench.CLASSES:
        assert f"| {kind}, typical (fan-in 3) |" in out
        assert f"| {kind}, caps, fill 1 |" in out
