"""The deduce executor on chain forms (SPEC §10.4.4): a stub until it is written."""

from __future__ import annotations

from collections.abc import Sequence

from por.errors import UnsupportedError
from por.forms.execute import EXECUTORS, Answer


def run(forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """Not written yet: exit 2 (this implementation cannot decide)."""
    raise UnsupportedError("proof.unsupported",
                           "the deduce executor on forms is not written yet")


EXECUTORS["deduce"] = run
