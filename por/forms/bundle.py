"""A bundle's carried form leaf hashes against its records (SPEC §5.4, §5.6, §6.2 step 5).

The ``forms`` component of ``por.Bundle/2`` carries ``LH(F)`` of every chain form, in
the order of SPEC §5.6's ``forms`` component: COMMON (index 0), one REQUIREMENT per
``data_requirements`` entry (``1 + k``), every reasoning step in trace order
(``1 + r + i``), the VERDICT (``1 + r + s``).  :func:`form_leaves` computes them for
``por build`` (a record with no form is ``form.none``, naming it);
:func:`first_form_failure` compares them with carried hashes for ``por verify``,
lowest index first, each record's form computed once, a step's only when asked for.

Plain Python over decoded values (no pydantic): the fast path imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from por.errors import PorError
from por.forms.spec import common_form, requirement_form
from por.forms.steps import identity
from por.forms.verdict import verdict_form
from por.forms.words import amap, array, get
from por.merkle.hashing import leaf_hash


@dataclass(frozen=True)
class FormSlot:
    """Which record form ``index`` is of: ``kind`` is the ChallengeRef kind
    (``prompt_spec``, ``reasoning_leaf``, ``verdict``); ``leaf_index`` and
    ``step_id`` name a step."""

    index: int
    name: str
    kind: str
    leaf_index: int | None = None
    step_id: str | None = None


@dataclass(frozen=True)
class FormFailure:
    """The first carried hash that is not ``LH(F(record))``: ``check_id`` is
    ``form.none`` (``expected`` None: the record has no form) or ``form.mismatch``."""

    check_id: str
    slot: FormSlot
    expected: bytes | None
    actual: bytes
    reason: str

    def message(self) -> str:
        """One line naming the form and its record."""
        if self.check_id == "form.none":
            return f"form {self.slot.index} ({self.slot.name}) has no chain form: {self.reason}"
        return (f"form {self.slot.index} ({self.slot.name}): the carried leaf hash is not "
                f"LH(F) of its record")


def _step_form(step: Mapping[str, Any]) -> bytes:
    from por.forms.component import STEP_FORMS  # noqa: PLC0415 - no cycle at import

    kind, _ = identity(amap(step))
    return STEP_FORMS[kind](step)


def _slots(r: int, step_id: Callable[[int], Any], s: int) -> list[FormSlot]:
    out = [FormSlot(0, "COMMON of the PromptSpec", "prompt_spec")]
    out += [FormSlot(1 + k, f"REQUIREMENT {k} of the PromptSpec", "prompt_spec")
            for k in range(r)]
    for i in range(s):
        sid = step_id(i)
        sid = sid if isinstance(sid, str) else None
        out.append(FormSlot(1 + r + i, f"reasoning step {i} {sid or '?'}", "reasoning_leaf",
                            leaf_index=i, step_id=sid))
    out.append(FormSlot(1 + r + s, "VERDICT", "verdict"))
    return out


def _form(spec: Mapping[str, Any], slot: FormSlot, step: Any,
          verdict: Mapping[str, Any]) -> bytes:
    """``F`` of the record ``slot`` names; ``step`` is the step's value for a step."""
    if slot.index == 0:
        return common_form(spec)
    if slot.kind == "prompt_spec":
        return requirement_form(amap(array(get(spec, "data_requirements"))[slot.index - 1]))
    if slot.kind == "reasoning_leaf":
        return _step_form(amap(step))
    return verdict_form(verdict)


def first_form_failure(spec: Mapping[str, Any], steps: int, step: Callable[[int], Any],
                       verdict: Mapping[str, Any], carried: Sequence[bytes], *,
                       matched: int = 0) -> FormFailure | None:
    """The lowest-index form whose carried hash is not ``LH(F(record))``, or None.

    ``step(i)`` gives reasoning step ``i``'s decoded value (called once per step,
    in order, for ``i >= matched``: steps ``[0, matched)`` are known to carry their
    form's hash); ``carried`` has ``r + steps + 2`` hashes (the caller checked)."""
    r = len(array(get(amap(spec), "data_requirements")))
    for unnamed in _slots(r, lambda i: None, steps):
        if unnamed.leaf_index is not None and unnamed.leaf_index < matched:
            continue
        value = None if unnamed.leaf_index is None else step(unnamed.leaf_index)
        slot = unnamed if value is None else _named(unnamed, value)
        try:
            form = _form(spec, slot, value, verdict)
        except PorError as exc:
            if exc.check_id != "form.none":
                raise
            return FormFailure("form.none", slot, None, carried[slot.index], exc.message)
        want = leaf_hash(form)
        if want != carried[slot.index]:
            return FormFailure("form.mismatch", slot, want, carried[slot.index], "")
    return None


def _named(slot: FormSlot, value: Any) -> FormSlot:
    sid = _step_id(value)
    if not isinstance(sid, str):
        return slot
    return FormSlot(slot.index, f"reasoning step {slot.leaf_index} {sid}", slot.kind,
                    leaf_index=slot.leaf_index, step_id=sid)


def _step_id(value: Any) -> Any:
    return value.get("step_id") if isinstance(value, dict) else None


def form_leaves(spec: Mapping[str, Any], steps: Sequence[Mapping[str, Any]],
                verdict: Mapping[str, Any], *, missing: bytes | None = None) -> list[bytes]:
    """``LH(F)`` of every form of a bundle, in component order; a record with no
    form raises ``PorError('form.none')`` with one line naming it (``por build``
    refuses what ``por verify`` refuses, SPEC §17.6), or with ``missing`` given
    has that in its place."""
    r = len(array(get(amap(spec), "data_requirements")))
    out: list[bytes] = []
    for slot in _slots(r, lambda i: _step_id(steps[i]), len(steps)):
        value = None if slot.leaf_index is None else steps[slot.leaf_index]
        try:
            out.append(leaf_hash(_form(spec, slot, value, verdict)))
        except PorError as exc:
            if exc.check_id != "form.none":
                raise
            if missing is not None:
                out.append(missing)
                continue
            raise PorError("form.none", f"form {slot.index} ({slot.name}) has no chain "
                           f"form: {exc.message}") from None
    return out


__all__ = ["FormFailure", "FormSlot", "first_form_failure", "form_leaves"]
