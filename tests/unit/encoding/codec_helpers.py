"""Helpers for the por.encoding tests: reference encoder, strategies, comparisons.

The reference encoder is the one in fixtures/vectors/gen_encoding.py (pure
Python, shares no code with por.encoding or cbor2).  ``tokens``/``render``
re-encode a value with one chosen head widened, for non-shortest tests.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

ROOT = Path(__file__).parents[3]
INT_MIN = -(2**64)
INT_MAX = 2**64 - 1
INT_BOUNDARIES = [0, 1, 23, 24, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63, INT_MAX]
INT_BOUNDARIES += [-1 - n for n in INT_BOUNDARIES]


def generator() -> ModuleType:
    """fixtures/vectors/gen_encoding.py, loaded by path (fixtures is not a package)."""
    name = "por_fixture_gen_encoding"
    if name not in sys.modules:
        path = ROOT / "fixtures" / "vectors" / "gen_encoding.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def ref_encode(value: Any) -> bytes:
    result: bytes = generator().ref_encode(value)
    return result


def typed(value: Any) -> Any:
    """A comparable form that keeps types (True != 1) and dict key order."""
    if isinstance(value, dict):
        return ("map", [(k, typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", [typed(v) for v in value])
    return (type(value).__name__, value)


def depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    return 0


# --- Strategies -------------------------------------------------------------------

ints = st.one_of(st.integers(INT_MIN, INT_MAX), st.sampled_from(INT_BOUNDARIES))
texts = st.one_of(st.text(max_size=30), st.sampled_from(["", "a", "b", "aa", "\u00e9", "\x00"]))
keys = st.one_of(st.text(max_size=6), st.sampled_from(["a", "b", "aa", "ab", "\u00e9", "z" * 24]))
scalars = st.one_of(ints, st.binary(max_size=40), texts, st.booleans())
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=5)
    ),
    max_leaves=25,
).filter(lambda v: depth(v) <= 32)
maps = st.dictionaries(keys, values, min_size=2, max_size=6)


# --- Head-level re-encoding ---------------------------------------------------------


def tokens(value: Any) -> Iterator[tuple[int, int] | bytes]:
    """The canonical encoding as (major, argument) heads and raw byte runs, in order."""
    if value is True or value is False:
        yield b"\xf5" if value else b"\xf4"
    elif type(value) is int:
        yield (0, value) if value >= 0 else (1, -1 - value)
    elif type(value) is bytes:
        yield (2, len(value))
        yield value
    elif type(value) is str:
        raw = value.encode("utf-8")
        yield (3, len(raw))
        yield raw
    elif type(value) is list:
        yield (4, len(value))
        for item in value:
            yield from tokens(item)
    else:
        yield (5, len(value))
        for key in sorted(value, key=ref_encode):
            yield from tokens(key)
            yield from tokens(value[key])


def shortest_width(arg: int) -> int:
    return 0 if arg < 24 else 1 if arg < 256 else 2 if arg < 65536 else 4 if arg < 2**32 else 8


def render(toks: list[tuple[int, int] | bytes], widen: int = -1, width: int = 0) -> bytes:
    """Join tokens; head number ``widen`` (0-based) gets ``width`` argument bytes."""
    head = generator().ref_head
    out = []
    count = 0
    for tok in toks:
        if isinstance(tok, bytes):
            out.append(tok)
            continue
        major, arg = tok
        out.append(head(major, arg, width if count == widen else None))
        count += 1
    return b"".join(out)
