"""What a streaming audit keeps of its trace: the count, the root, the last step.

``audit_core(..., retain=False)`` (issue 16: verification memory per
evidence item) hands each step to its ``on_step`` callback and then appends
it to a :class:`StepWindow`, which hashes the step's bytes into the
reasoning root (SPEC §5.1: leaf *i* is ``steps[i].to_cbor()``, in trace
order) and keeps only the latest ``map`` step.  The judge's
``final_step_index`` looks for the last ``map`` step, else the last
``aggregate`` one; an audit's trace always ends with its one ``map`` step
(SPEC §12.5, ``trace_length``), so that is the step it finds, and all the
judge reads once every step has been checked one at a time (the trace
policy by ``por.auditor.trace_policy.PolicyState``).  Keeping no other step
means a ``check_requirement`` or ``aggregate`` step's per-item lists are gone
while the next steps are computed (an ``aggregate`` step is never the final
step of a finished audit: reading it raises, it is never mistaken).

A window answers ``len()`` and indexing of the step it kept, as the judge's
``final_step_index`` and ``read_variables`` use a trace's ``steps``; any
other index raises :class:`ReleasedStepError` and iterating raises
``TypeError``, so a reader that needs every step fails loudly instead of
seeing a short trace.  :meth:`StepWindow.reasoning_root` is what
``root_hash([s.to_cbor() for s in steps])`` gives over the full list.

Leaves out: checking steps (the caller's ``on_step``) and the report checks
of the steps (a streaming run has none: the replaying verifier never asks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

from por.merkle.compact import RootAccumulator

if TYPE_CHECKING:
    from por.lean.trace import Step

#: The step type ``por.judge.schema_lock.final_step_index`` finds in an audit's trace.
_FINAL_TYPE = "map"


class ReleasedStepError(LookupError):
    """A streaming audit released this step after its ``on_step`` (not an IndexError:
    the old iteration protocol must not mistake it for the end of the trace)."""


class StepWindow:
    """The steps of a streaming audit as the judge reads them (module docstring)."""

    __slots__ = ("_kept", "_kept_at", "_known_root", "_root", "_size")

    def __init__(self, reasoning_root: bytes | None = None) -> None:
        # ``reasoning_root``: known to the caller (every step it is given was
        # compared with a leaf under that root): the steps are counted, not hashed.
        self._root = RootAccumulator() if reasoning_root is None else None
        self._known_root = reasoning_root
        self._size = 0
        self._kept: Step | None = None
        self._kept_at = -1

    def append(self, step: Step) -> None:
        """Add the next step: hash its bytes; keep it instead of the kept one if it
        is a ``map`` step (module docstring)."""
        position = self._size
        if self._root is not None:
            self._root.append(step.to_cbor())
        self._size = position + 1
        if step.step_type == _FINAL_TYPE:
            self._kept, self._kept_at = step, position

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, index: int) -> Step:
        size = self._size
        position = index + size if index < 0 else index
        if not 0 <= position < size:
            raise IndexError(f"step index {index} outside a trace of {size} steps")
        if position != self._kept_at or self._kept is None:
            raise ReleasedStepError(f"step {position} was released by the streaming audit")
        return self._kept

    def __iter__(self) -> NoReturn:
        raise TypeError("a streaming audit keeps one step; feed steps to "
                        "PolicyState as they are made instead of iterating")

    def reasoning_root(self) -> bytes:
        """MTH over every appended step's bytes (SPEC §5.1), as ``root_hash`` gives
        (or the root the caller vouched for)."""
        if self._root is None:
            return self._known_root  # type: ignore[return-value]
        return self._root.root()


__all__ = ["ReleasedStepError", "StepWindow"]
