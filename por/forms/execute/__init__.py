"""Steps re-executed on chain forms (SPEC §10.4.4; ADR 0017 stage 4): Python's twin of
the executors under ``contracts/src/forms/``, which ``por check-proof`` runs on a
``por.FormStepProof/1``. Not on ``por verify``'s path.

:func:`execute` takes the carried forms in the executor's order, their indexes in the
``forms`` tree and its size (inclusion already checked, as the executors' ``_run``
after ``PorForms.included``) and answers as the executor does: an :class:`Answer`
(won, check id, cause), or :class:`FormFault` (``proof.form``: a word read does not
parse, the executors' ``ProofForm()``) or :class:`CitationsFault` (``proof.citations``:
the carried forms are not the ones the step needs, ``Citations(i)``). The same carried
forms give the same answer here and on chain; ``tests/chain/test_forms_*.py`` compare
both with Python's one-step check on the records.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from por.errors import ProofError


@dataclass(frozen=True)
class Answer:
    """An executor's answer: ``won``, its check id (``one_step.*``, ``judge.*``) and the
    cause (a ``step.*`` id, or ``""``)."""

    won: bool
    check_id: str
    cause: str = ""


class FormFault(ProofError):
    """A carried form does not parse where the executor reads it (``proof.form``)."""

    def __init__(self, message: str) -> None:
        super().__init__("proof.form", message)


class CitationsFault(ProofError):
    """Carried form ``position`` is not what the step needs there (``proof.citations``)."""

    def __init__(self, position: int, message: str) -> None:
        super().__init__("proof.citations", message)
        self.position = position


Executor = Callable[[Sequence[bytes], Sequence[int], int], Answer]

#: FormStepProof kind -> its executor; each module registers itself on import.
EXECUTORS: dict[str, Executor] = {}


def execute(kind: str, forms: Sequence[bytes], index: Sequence[int], size: int) -> Answer:
    """The answer of ``kind``'s executor on ``forms`` (SPEC §10.4.4)."""
    from por.forms.execute import (  # noqa: F401, PLC0415
        aggregate,
        check,
        contradictions,
        deduce,
        judge,
        map,
    )

    run = EXECUTORS.get(kind)
    if run is None:
        raise ProofError("proof.schema", f"no executor on forms for kind {kind!r}")
    return run(forms, index, size)


__all__ = ["EXECUTORS", "Answer", "CitationsFault", "Executor", "FormFault", "execute"]
