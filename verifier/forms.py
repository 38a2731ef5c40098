"""SPEC §6.2 step 5's forms check: every carried form leaf hash is ``LH(F)`` of its record.

ADR 0017 §4's order: invalid records first (a step the replay did not reach is
decoded and validated here, once), then the forms, lowest forms index first
(``form.none``, ``form.mismatch``), then the steps (``replay.*``, the caller).
A step the replay reached holds the committed bytes (they equal the replayed
ones); one it did not reach is decoded from its committed bytes.  So a forged
trace costs the audit up to its first wrong step plus one decode per later step
(SPEC §17.3).

Leaves out: the replay itself (``verifier.steps``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from por.encoding import decode
from por.forms.bundle import first_form_failure
from por.schemas import ChallengeRef
from verifier.context import Context
from verifier.stages import Records


def check_forms(ctx: Context, records: Records, known: int,
                unreached: Callable[[int], Any], matched: int = 0) -> None:
    """Fail with the first form that is not its record's (``form.none``,
    ``form.mismatch``).  Steps ``[0, known)`` equal their replay; step ``i >= known``
    is ``unreached(i)``: its decoded value, validated as a record (the callable
    reports an invalid one).  Every unreached step is validated before any form
    is compared.  ``matched``: steps ``[0, matched)`` whose carried hash the fast
    path found equal to ``LH(F)`` (``Handoff.forms_ok``): not computed again."""
    bundle = records.bundle
    steps: list[bytes] = bundle.steps
    later = {i: unreached(i) for i in range(known, len(steps))}

    def step(i: int) -> Any:
        return later.pop(i) if i in later else decode(steps[i])

    failure = first_form_failure(decode(bundle.prompt_spec), len(steps), step,
                                 decode(bundle.verdict), bundle.forms,
                                 matched=min(matched, known))
    if failure is None:
        return
    slot = failure.slot
    ctx.failed(failure.check_id, failure.message(), expected=failure.expected,
               actual=failure.actual,
               challenge=ChallengeRef(kind=slot.kind,  # type: ignore[arg-type]
                                      leaf_index=slot.leaf_index, step_id=slot.step_id,
                                      reason=failure.check_id),
               details={"form_index": slot.index})


__all__ = ["check_forms"]
