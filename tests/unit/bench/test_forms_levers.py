"""bench/forms_levers.py (ADR 0017, s40 ``levers``, s41 ``layout``): under (a)+v its
encoders give ``por.forms``' bytes (SPEC §5.6 took (a)+v in s41) and with no lever they
do not, so each lever's figure differs from today's by the lever alone;
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
from forms_levers_layouts import (  # noqa: E402
    BOTH,
    EVERY,
    LEVER_A,
    LEVER_B,
    S40,
    TODAY,
    committed,
    same_as_spec,
)
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


def test_a_v_is_spec(caps_text: Bundle) -> None:
    """``today`` ((a)+v) is SPEC §5.6 on the typical market and at the caps; s40's
    layout (no lever) is not, nor (a) alone where a text value is (``one.text``)."""
    typical = scenario(3)
    same_as_spec(typical)
    same_as_spec(caps_text)
    for bundle, lay in ((typical, S40), (caps_text, S40), (caps_text, LEVER_A)):
        with pytest.raises(AssertionError, match=r"differs from por\.forms"):
            same_as_spec(bundle, lay)


def test_split_head_commits_its_parts(caps_text: Bundle) -> None:
    """Under (b) an AGGREGATE's head holds SHA-256 of each part, in field order, and the
    rest of the head is today's form without its fields."""
    for lay in (LEVER_B, BOTH, EVERY):
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
    c = committed(bundle, EVERY)
    wanted = bench.needed_parts(bundle, c, index)
    metric = decode(bundle.prompt_spec)["prediction_semantics"]["metric"]
    position, field = wanted[0]
    step = decode(bundle.steps[index[position] - 1 - c.requirements])
    assert step["output"]["fields"][field]["key"] == metric
    sizes = {lay.name: len(bench.proof(bundle, committed(bundle, lay), "deduce", index).calldata)
             for lay in (TODAY, EVERY, S40, LEVER_A, LEVER_B)}
    assert sizes["today+b"] < sizes["today"] < sizes["s40"]
    assert sizes["s40+b"] < sizes["s40"] and sizes["s40+a"] < sizes["s40"]


def test_bench_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--fill-bytes", "1"]) == 0
    out = capsys.readouterr().out
    for kind in bench.CLASSES:
        assert f"| {kind}, typical (fan-in 3) |" in out
        assert f"| {kind}, caps, fill 1 |" in out
