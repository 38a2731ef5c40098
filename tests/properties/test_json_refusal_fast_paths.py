"""The refusal scanner's fast paths never change its answer (SPEC §12.1.3, §17.8).

A refused body is walked token by token, except where one regular expression
matches a run of elements (checked by one C parse) or the C parser accepts a
whole container.  On generated texts, nested JSON with duplicate names, lone
and paired surrogate escapes, numbers cut short, truncated and spliced, the
answer with the fast paths (with windows and chunks small enough to cut every
run) equals the plain token walk's.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from por import jsontext
from por.auditor import json_refusal
from por.auditor.json_refusal import _Scanner, first_refusal

SCALARS = ['1', '0', '-2', '1.5e3', '"a"', '"b"', '"\\u0061"', 'true', 'null',
           '"\\ud83d\\ude00"', '"\\ud800"', '123']
NAMES = ['"a"', '"b"', '"c"', '"\\u0061"']
SPLICES = ['1.', '1e', '01', '"\\x"', '"\\u00', 'NaN', 'Infinity', 'nul', '"', '\\', ',',
           ']', '}', ':', 'x', ' ', '\n', '[' * 70, '"\\udc00"']


def _values() -> st.SearchStrategy[str]:
    return st.recursive(
        st.sampled_from(SCALARS),
        lambda inner: st.lists(inner, max_size=5).map(lambda v: "[" + ",".join(v) + "]")
        | st.lists(st.tuples(st.sampled_from(NAMES), inner), max_size=4).map(
            lambda m: "{" + ",".join(f"{k}: {v}" for k, v in m) + "}"),
        max_leaves=40)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    text = draw(_values())
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:at] + draw(st.sampled_from(SPLICES)) + text[at:]
        else:
            text = text[:at]
    return "[" * draw(st.integers(0, 62)) + text


def _token_walk(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int] | None:
    with monkeypatch.context() as patch:
        patch.setattr(_Scanner, "_run", lambda self, i, stack: i)
        patch.setattr(_Scanner, "_accepted", lambda self, j, depth_left: -1)
        return first_refusal(text)


@settings(max_examples=300, deadline=None)
@given(_texts(), st.sampled_from([1, 5, 17, 1 << 16]))
def test_fast_paths_agree_with_the_token_walk(text: str, window: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        expected = _token_walk(text, patch)
        patch.setattr(json_refusal, "RUN_WINDOW", window)
        patch.setattr(jsontext, "_CHUNK", window)
        assert first_refusal(text) == expected, text


def test_a_long_refused_body_takes_the_fast_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    # Like json_tokens of bench/hostile.py: the answer is the token walk's, and
    # the walk itself checks few strings (runs and whole containers are skipped).
    text = "[" + '{"a":1,"b":[1,{"c":[[[2]]]}]},' * 2000 + '{"a":1,"a":2}]'
    expected = ("extract.json_duplicate_key", len(text) - 7)
    assert _token_walk(text, monkeypatch) == expected
    checked: list[int] = []
    monkeypatch.setattr(_Scanner, "_check_string",
                        lambda self, start, end: checked.append(start))
    assert first_refusal(text) == expected
    assert len(checked) < 100
