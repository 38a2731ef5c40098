"""PromptSpec regex vectors from fixtures/vectors/regex.json (SPEC §12.1.2).

The pinned RE2 build gives exactly the committed program sizes; ``regex_plan``
admits or refuses each pattern with exactly the committed text; each capture is
what the auditor commits.  The committed file must equal the generator's output.
A property test checks the ``\\C`` scan against RE2 itself: a pattern the scan
admits never matches a lone byte of a multi-byte character.
"""

from __future__ import annotations

import importlib.util
import json
from importlib.metadata import version
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import re2  # type: ignore[import-untyped]
from hypothesis import given
from hypothesis import strategies as st

from por.auditor import claim_extraction as ce

VECTORS = Path(__file__).resolve().parents[2] / "fixtures" / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "regex.json").read_text(encoding="utf-8"))


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_regex", VECTORS / "gen_regex.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_re2_is_the_pinned_build() -> None:
    assert DATA["re2"] == f"google-re2=={version('google-re2')}"


def test_committed_file_is_the_generators_output() -> None:
    assert (VECTORS / "regex.json").read_text(encoding="utf-8") == _generator().render()


@pytest.mark.parametrize("vector", DATA["patterns"], ids=lambda v: v["pattern"][:40])
def test_program_size_and_plan(vector: dict[str, Any]) -> None:
    pattern = vector["pattern"]
    try:
        size = re2.compile(pattern, options=ce._RE2_OPTIONS).programsize
    except re2.error:
        size = None
    assert size == vector["programsize"]
    entry = ce.regex_plan((pattern,))[0]
    assert (entry if isinstance(entry, str) else "ok") == vector["plan"]


@pytest.mark.parametrize("vector", DATA["requirements"], ids=str)
def test_requirement_budget_in_field_order(vector: dict[str, Any]) -> None:
    plan = ce.regex_plan(tuple(vector["patterns"]))
    assert [e if isinstance(e, str) else "ok" for e in plan] == vector["plan"]


@pytest.mark.parametrize("vector", DATA["captures"], ids=lambda v: v["pattern"])
def test_capture(vector: dict[str, Any]) -> None:
    gen = _generator()
    text = vector["text"] if vector["text"] is not None else gen.text_from_spec(vector["text_spec"])
    assert gen.regex_capture_text(vector["pattern"], text) == vector["capture"]


def test_window_is_characters_not_bytes() -> None:
    assert DATA["window_characters"] == ce.MAX_REGEX_INPUT_CHARS == 1 << 20


BOUNDARIES = {0, 2, 3, 5}  # character boundaries of "éaé" in UTF-8


def _spans_on_char_boundaries(pattern: str) -> bool:
    try:
        compiled = re2.compile(pattern, options=ce._RE2_OPTIONS)
    except re2.error:
        return True
    match = compiled.search("éaé".encode())  # bytes: RE2's own byte offsets
    if match is None:
        return True
    return all(end in BOUNDARIES for i in range(compiled.groups + 1)
               for end in match.span(i) if end >= 0)


@given(st.text(alphabet="\\CQE[]().a", max_size=12))
def test_admitted_patterns_match_whole_characters(body: str) -> None:
    """A pattern the scan admits never starts or ends a match or group inside a
    UTF-8 character, whatever RE2 makes of the text (``\\Q``, ``\\\\``, classes)."""
    pattern = "(" + body + ")"
    if not ce.uses_any_byte(pattern):
        assert _spans_on_char_boundaries(pattern), pattern


def test_the_property_would_catch_any_byte() -> None:
    assert not _spans_on_char_boundaries(r"(\C)")
    assert not _spans_on_char_boundaries(r"\C(.)")


def test_the_issue_example_is_refused() -> None:
    """`\\C([0-9])` on `<p>é49</p>`: RE2 matched from inside `é`; refused now."""
    assert ce.regex_plan((r"\C([0-9])",)) == ("regex uses \\C (any byte)",)
    assert ce.regex_plan((r"\\C([0-9])",))[0] != "regex uses \\C (any byte)"
