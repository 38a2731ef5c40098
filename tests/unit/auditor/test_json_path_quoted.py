"""Properties of json_path quoted names and number/boolean filters (SPEC §12.1.7).

A name quoted as RFC 9535 §2.3.1.1 writes it (either quote mark, control
characters and the quote escaped) reads back as exactly that name; a number
filter selects by value, never a boolean or a string; a boolean filter selects
only the JSON boolean.
"""

from __future__ import annotations

import json
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from por.auditor.claim_extraction import parse_json_path
from por.auditor.json_path import Filter, lookup, parse_filtered_path

NAMES = st.text(st.characters(codec="utf-8"), max_size=20)  # no lone surrogate


def quoted(name: str, quote: str) -> str:
    """``name`` as an RFC 9535 string-literal in ``quote``."""
    out = []
    for char in name:
        if char in ("\\", quote):
            out.append("\\" + char)
        elif ord(char) < 0x20:
            out.append(f"\\u{ord(char):04X}")
        elif ord(char) > 0xFFFF and len(out) % 2:  # sometimes as a surrogate pair
            high, low = divmod(ord(char) - 0x10000, 0x400)
            out.append(f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}")
        else:
            out.append(char)
    return quote + "".join(out) + quote


@given(name=NAMES, quote=st.sampled_from(["'", '"']), tail=st.sampled_from(["", ".v", "[0]"]))
def test_quoted_names_read_back(name: str, quote: str, tail: str) -> None:
    path = f"$.a[{quoted(name, quote)}]{tail}"
    assert parse_json_path(path) is None  # never a §12.1.1 path: no change of meaning
    expected: tuple[object, ...] = ("a", name)
    if tail == ".v":
        expected += ("v",)
    elif tail == "[0]":
        expected += (0,)
    assert parse_filtered_path(path) == expected


@given(values=st.lists(st.one_of(st.integers(-10**6, 10**6), st.booleans(),
                                 st.decimals(-1000, 1000, places=2), st.text(max_size=3)),
                       min_size=1, max_size=6),
       wanted=st.one_of(st.integers(-10**6, 10**6), st.decimals(-1000, 1000, places=2)))
def test_number_filters_select_by_value_never_a_boolean(values: list[object],
                                                        wanted: int | Decimal) -> None:
    literal = str(wanted) if isinstance(wanted, int) else format(wanted, "f")
    tokens = parse_filtered_path(f"$.rows[?(@.id=={literal})].n")
    assert tokens is not None and tokens[1] == Filter("id", Decimal(literal))
    rows = [{"id": v, "n": i} for i, v in enumerate(values)]
    hits = [i for i, v in enumerate(values) if not isinstance(v, (bool, str))
            and Decimal(str(v)) == Decimal(literal)]
    try:
        found, value = lookup({"rows": rows}, tokens)
    except LookupError:
        assert len(hits) > 1
        return
    assert (found, value) == ((True, hits[0]) if hits else (False, None))


@given(values=st.lists(st.one_of(st.booleans(), st.integers(0, 1), st.sampled_from(
    ["true", "false"])), min_size=1, max_size=6), wanted=st.booleans())
def test_boolean_filters_select_only_booleans(values: list[object], wanted: bool) -> None:
    tokens = parse_filtered_path(f"$.rows[?(@.final=={json.dumps(wanted)})].n")
    assert tokens is not None
    rows = [{"final": v, "n": i} for i, v in enumerate(values)]
    hits = [i for i, v in enumerate(values) if v is wanted]
    try:
        found, value = lookup({"rows": rows}, tokens)
    except LookupError:
        assert len(hits) > 1
        return
    assert (found, value) == ((True, hits[0]) if hits else (False, None))
