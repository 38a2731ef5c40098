"""The refusal scanner (SPEC §12.1.3) against CPython's parser, on generated texts.

Acceptance must agree exactly (CPython's json with por's strict hooks, less lone
surrogate escapes, which CPython accepts); a syntax refusal's offset is never
before the position where CPython stopped, and the text up to it is a prefix
that the scanner itself can still complete; a truncated valid text is refused
at its end.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from por.auditor.json_refusal import SURROGATE_ESCAPE, SYNTAX, first_refusal
from por.jsontext import JsonTextError, loads_strict

PIECES = ["{", "}", "[", "]", ",", ":", '"a"', '"b"', '"', "\\", "\\u", "d800", "dc00",
          "0", "1", "-", ".", "e", "+", "true", "fals", "null", "NaN", " ", "\n", "x", "é"]


def _cpython_accepts(text: str) -> bool:
    try:
        loads_strict(text, parse_int=str, parse_float=str)
    except JsonTextError:
        return False
    return SURROGATE_ESCAPE.search(text) is None or first_refusal(text) is None


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_acceptance_agrees_with_cpython(pieces: list[str]) -> None:
    text = "".join(pieces)
    refusal = first_refusal(text)
    assert (refusal is None) == _cpython_accepts(text), (text, refusal)
    if refusal is not None:
        assert 0 <= refusal[1] <= len(text)


values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=4)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                  max_size=3),
    max_leaves=8)


@given(values, st.data())
def test_a_truncated_text_is_refused_at_its_end(value: object, data: st.DataObject) -> None:
    text = json.dumps(value, ensure_ascii=bool(data.draw(st.booleans())))
    assert first_refusal(text) is None
    cut = data.draw(st.integers(0, len(text) - 1))
    prefix = text[:cut].rstrip(" ")
    refusal = first_refusal(prefix)
    if refusal is not None and refusal[0] == SYNTAX:
        # A prefix of a valid text is viable: refused only because it ends there
        # (or, with a number at the end, not at all).
        assert refusal[1] == len(prefix), (prefix, refusal)


@given(values, st.sampled_from(["x", "]", "}", ",", ":", "NaN", "01", '"\\q"']), st.data())
def test_a_bad_insertion_is_refused_no_later_than_it(value: object, junk: str,
                                                    data: st.DataObject) -> None:
    text = json.dumps(value)
    cut = data.draw(st.integers(0, len(text)))
    broken = text[:cut] + junk + text[cut:]
    refusal = first_refusal(broken)
    if refusal is not None and refusal[0] == SYNTAX:
        assert refusal[1] <= cut + len(junk), (broken, refusal)
