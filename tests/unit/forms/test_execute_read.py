"""``por.forms.execute.read``: Python's twin of ``PorForms.sol``'s readers, on the reader
probe's cases (``tests/forms_reader_cases.py``; ``tests/chain/test_forms_reader.py``
runs the same on the EVM). Every honest encoding reads back, every malformation raises
``FormFault`` where Solidity reverts ``ProofForm()``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import pytest
from forms_reader_cases import BAD_DECIMALS, BAD_TEXTS, DECIMALS, FAULT, TEXTS, WORD_CASES

from por.forms.execute import FormFault
from por.forms.execute import read as r
from por.forms.words import D, T, W


@pytest.mark.parametrize("text", DECIMALS)
def test_honest_decimals_read(text: str) -> None:
    form = D(text)
    dec, nxt = r.read_d(form, 0)
    digits = text.lstrip("-").replace(".", "").lstrip("0") or "0"
    assert (dec.negative, dec.digits, dec.magnitude, nxt) == (
        text.startswith("-"), digits.encode(), int(digits), len(form))
    assert dec.scale == (len(text.split(".")[1]) if "." in text else 0)
    assert r.skip_v(form, 0, r.NUMERIC) == len(form)


@pytest.mark.parametrize("name", sorted(BAD_DECIMALS))
def test_malformed_decimals_are_proof_form(name: str) -> None:
    with pytest.raises(FormFault) as info:
        r.read_d(BAD_DECIMALS[name], 0)
    assert info.value.check_id == FAULT


@pytest.mark.parametrize("text", TEXTS)
def test_texts_read(text: str) -> None:
    form = T(text)
    assert r.read_t(form, 0) == (text.encode(), len(form))
    assert r.skip_t(form, 0) == r.skip_v(form, 0, r.TEXT) == len(form)


@pytest.mark.parametrize("form", BAD_TEXTS)
def test_malformed_texts_are_proof_form(form: bytes) -> None:
    with pytest.raises(FormFault):
        r.read_t(form, 0)


_READERS: dict[str, Callable[..., Any]] = {
    "word": r.word, "read_o": lambda f, high: r.read_o(f, 0, high), "read_l": r.read_l,
    "read_e": lambda f, n: r.read_e(f, 0, n), "read_w": r.read_w, "open_form": r.open_form,
}


@pytest.mark.parametrize("case", WORD_CASES, ids=lambda c: f"{c[0]}-{c[1].hex()[-8:]}")
def test_words_options_lists_enums(case: tuple[str, bytes, int | None, object]) -> None:
    reader, form, extra, answer = case
    run = _READERS[reader]
    args: tuple[int, ...] = () if extra is None else (extra,)
    if reader in ("read_l", "read_w"):
        args = (0,)
    if answer == FAULT:
        with pytest.raises(FormFault):
            run(form, *args)
        return
    got = run(form, *args)
    assert (got if isinstance(got, tuple) else (got,)) == answer


def test_small_readers() -> None:
    assert r.read_b(W(1), 0) == (True, 32)
    assert r.read_p(W(0), 0) == (False, 32)
    assert r.read_z(W(7), 0) == (7, 32)
    assert r.read_h(b"\x01" * 32, 0) == (b"\x01" * 32, 32)
    assert r.skip_v(W(1), 0, r.BOOLEAN) == r.skip_v(W(9), 0, r.TIMESTAMP) == 32
    assert r.tag_of(W(9)) == 9
    assert r.span(W(1) + W(2), 32, 32) == W(2)
    r.end(W(1), 32)
    for bad in (lambda: r.read_b(W(2), 0), lambda: r.skip_v(W(0), 0, 4),
                lambda: r.read_h(W(0), 8), lambda: r.span(W(1), 16, 32),
                lambda: r.end(W(1), 0), lambda: r.tag_of(bytes(33))):
        with pytest.raises(FormFault):
            bad()


def test_step_ids() -> None:
    assert r.step_index(3, 5) == 9
    for n, text in ((0, "step_0000"), (42, "step_0042"), (9999, "step_9999"),
                    (12345, "step_12345")):
        assert r.step_id_hash(n) == hashlib.sha256(text.encode()).digest()
