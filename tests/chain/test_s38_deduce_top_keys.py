"""Deduce's two PromptSpec top-level keys found by their head byte (ADR 0013 "s38, deduce8").

``PorDeduceRead.specTop`` reads the PromptSpec's top-level keys from the §2 pass's offsets
and compares a key's word only when its head is 0x71 or 0x74 (a 17- or 20-byte text:
``data_requirements``, ``prediction_semantics``), masking the key's bytes to that length.
Each market's PromptSpec gets a twin of each read key with the value 7, next to the real
one or in its place: the real key's bytes with the last byte changed (sorting before and
after it), the first byte changed, a NUL byte in front, the last byte dropped. The chain
reads only the real keys, so with a twin next to the real key its answer is its answer
without the twin; with the twin in the real key's place its answer is its answer with the
key removed.
"""

from __future__ import annotations

from typing import Any

import pytest
from bundle_edits import honest
from exec_support import ExecChecker
from test_onchain_deduce import _deduce
from test_onchain_judge import _with_spec

from por.bundle.layout import Bundle
from por.challenge.one_step import build_one_step_proof

#: Every predicate, one and several requirements (test_s37_short_keys' markets).
MARKETS = ("01-boolean-observed", "53-economics-csv-release-absent", "61-range-settle",
           "62-field-comparison-home-win", "64-text-equals-award", "66-deadline-launch",
           "67-two-of-three-below", "68-precondition-no")
READ = ("data_requirements", "prediction_semantics")


def _twins(key: str) -> list[str]:
    """Keys that are not ``key`` but share its length, head, or all but one byte."""
    return [key[:-1] + "a", key[:-1] + "z", "X" + key[1:], "\x00" + key, key[:-1],
            key[:-1] + "\x00"]


def _answer(chain: ExecChecker, bundle: Bundle, index: int) -> tuple[Any, ...]:
    return tuple(chain.execute(build_one_step_proof(bundle, index).to_cbor())[:2])


def _edited(bundle: Bundle, key: str, twin: str, keep: bool) -> Bundle:
    def edit(spec: dict[str, Any]) -> None:
        value = spec[key] if keep else spec.pop(key)
        spec[twin] = 7 if keep else value
        if keep:
            spec[key] = value
    out = _with_spec(edit, valid=False)(bundle)
    assert out is not None
    return out


@pytest.mark.parametrize("market", MARKETS)
def test_deduce_top_key_twins(deduce: ExecChecker, market: str) -> None:
    """A twin next to a read key changes nothing; in its place, it is not read."""
    bundle = honest(market)
    index = _deduce(bundle)
    want = _answer(deduce, bundle, index)
    assert want[1] is not None
    for key in READ:
        removed = _with_spec(lambda spec, k=key: spec.pop(k), valid=False)(bundle)
        assert removed is not None
        without = _answer(deduce, removed, index)
        assert without != want, f"{market}: {key} removed decides the same"
        for twin in _twins(key):
            got = _answer(deduce, _edited(bundle, key, twin, keep=True), index)
            assert got == want, f"{market} {twin!r} next to {key}"
            got = _answer(deduce, _edited(bundle, key, twin, keep=False), index)
            assert got == without, f"{market} {twin!r} in place of {key}"
