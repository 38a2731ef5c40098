"""PromptSpec regex vectors from fixtures/vectors/regex.json (SPEC §12.1.2, §17.5).

Each pattern's measure (groups, repetition sum, positions, width, cost) and plan
is what SPEC's grammar gives; each capture is what the auditor commits; each
budget vector is what an item's fields commit under its regex work budget.  The
committed file must equal the generator's output.  Properties: every admitted
pattern compiles in RE2 with the same number of groups, and never matches part
of a UTF-8 character; the width is the most positions one character can reach.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import re2  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st
from vector_generators import load_generator

from por.auditor import claim_extraction as ce
from por.auditor import regex_plan as rp
from por.auditor.regex_syntax import RegexSyntaxError, measure

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "regex.json").read_text(encoding="utf-8"))


def _generator() -> ModuleType:
    return load_generator("gen_regex")


def test_re2_is_the_pinned_build() -> None:
    assert DATA["re2"] == f"google-re2=={version('google-re2')}"


def test_committed_file_is_the_generators_output() -> None:
    assert (VECTORS / "regex.json").read_text(encoding="utf-8") == _generator().render()


def test_budget_constants() -> None:
    assert (DATA["work_per_byte"], DATA["work_slack"]) == (
        ce.REGEX_WORK_PER_BYTE, ce.REGEX_WORK_SLACK) == (72, 65536)
    assert DATA["window_characters"] == ce.MAX_REGEX_INPUT_CHARS == 1 << 20


@pytest.mark.parametrize("vector", DATA["patterns"], ids=lambda v: v["pattern"][:40])
def test_measure_and_plan(vector: dict[str, Any]) -> None:
    pattern = vector["pattern"]
    entry = ce.regex_plan((pattern,))[0]
    assert (entry if isinstance(entry, str) else "ok") == vector["plan"]
    if vector["positions"] is None:
        assert vector["plan"] in (rp.REGEX_SYNTAX, rp.REGEX_TOO_LONG)
        return
    found = measure(pattern)
    assert [found.groups, found.repeat_sum, found.positions, found.width, found.cost] == [
        vector[k] for k in ("groups", "repeat_sum", "positions", "width", "cost")]
    if vector["plan"] == "ok":  # an admitted pattern is RE2 syntax with the same groups
        assert re2.compile(pattern).groups == found.groups


@pytest.mark.parametrize("vector", DATA["requirements"], ids=str)
def test_requirement_budget_in_field_order(vector: dict[str, Any]) -> None:
    plan = ce.regex_plan(tuple(vector["patterns"]))
    assert [e if isinstance(e, str) else "ok" for e in plan] == vector["plan"]


@pytest.mark.parametrize("vector", DATA["captures"], ids=lambda v: v["pattern"])
def test_capture(vector: dict[str, Any]) -> None:
    gen = _generator()
    text = vector["text"] if vector["text"] is not None else gen.text_from_spec(vector["text_spec"])
    assert gen.regex_capture_text(vector["pattern"], text) == vector["capture"]


@pytest.mark.parametrize("vector", DATA["budgets"], ids=lambda v: str(v["bytes"]))
def test_item_budget(vector: dict[str, Any]) -> None:
    text = _generator().text_from_spec(vector["text_spec"])
    assert len(text.encode()) == vector["bytes"]
    assert _generator().item_outcomes(tuple(vector["patterns"]), text) == vector["outcomes"]


def test_the_200_kb_vector_runs_two_locators() -> None:
    (first, *_) = DATA["budgets"]
    assert first["bytes"] > 200_000 and first["outcomes"][:2] == ["101.5", "1600"]


BOUNDARIES = {0, 2, 3, 5}  # character boundaries of "éaé" in UTF-8
PIECES = ["a", "é", ".", "(", ")", "(?:", "|", "*", "+", "?", "{2}", "{1,3}", "{0,}", "[a-z]",
          "[^a]", "\\d", "\\W", "\\.", "\\C", "\\Q", "\\E", "^", "$", "]", "[", "-", "\\"]


def _spans_on_char_boundaries(pattern: str) -> bool:
    compiled = re2.compile(pattern)
    match = compiled.search("éaé".encode())  # bytes: RE2's own byte offsets
    if match is None:
        return True
    return all(end in BOUNDARIES for i in range(compiled.groups + 1)
               for end in match.span(i) if end >= 0)


@given(st.lists(st.sampled_from(PIECES), max_size=10))
def test_admitted_patterns_compile_in_re2_and_match_whole_characters(pieces: list[str]) -> None:
    """A pattern the subset admits is RE2 syntax with the same groups, and never
    starts or ends a match or group inside a UTF-8 character (no ``\\C``)."""
    pattern = "(" + "".join(pieces) + ")"
    try:
        found = measure(pattern)
    except RegexSyntaxError:
        return
    assert re2.compile(pattern).groups == found.groups
    assert _spans_on_char_boundaries(pattern), pattern


def test_the_property_would_catch_any_byte() -> None:
    assert not _spans_on_char_boundaries(r"(\C)")
    assert not _spans_on_char_boundaries(r"\C(.)")


@given(st.text(alphabet="ab", min_size=1, max_size=6))
def test_width_bounds_the_positions_a_character_reaches(word: str) -> None:
    """A literal word's width is the count of its most frequent character."""
    assert measure("(" + word + ")").width == max(word.count(c) for c in set(word))


def test_the_issue_example_is_refused() -> None:
    """`\\C([0-9])` on `<p>é49</p>`: RE2 matched from inside `é`; refused now."""
    assert ce.regex_plan((r"\C([0-9])",)) == (rp.REGEX_SYNTAX,)
    assert ce.regex_plan((r"\\C([0-9])",))[0] != rp.REGEX_SYNTAX
