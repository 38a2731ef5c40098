"""Rule S5 of SPEC §12.5.1 (§10.2.7): a ``contradictions`` step cites the LAST check
chunk of each requirement.

A ``contradictions`` step C that cites an earlier chunk X of requirement R hides R's
later claims from the contradiction check, and re-executing C on what it cites
reproduces it, so no one-step proof wins.  R's ``aggregate`` step A names R's last
chunk as its last prior step (S2, §12.5.3), so C, A and X show the lie: X is a
``check_requirement`` step C cites, A is the ``aggregate`` of X's requirement, and
A's last prior step is not X.  The proof carries A and X as ``prior_steps``
(``[A, X]``) beside ``step`` (C); honest bundles make every such pair lost or invalid.

The decision (:func:`s5_fault`) is a pure function of plain values, shared by the
builder (:func:`s5_leaves`) and the checker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from por.errors import ProofError
from por.schemas import step_id, step_number

#: The won outcome: S5 is a rule of the citation set (SPEC §12.5.1), as S1-S4.
SET = "one_step.citation_set"


@dataclass(frozen=True)
class StepView:
    """What S5 reads of one reasoning step: its id, ``inputs.kind``,
    ``inputs.requirement_id`` and ``prior_step_ids``."""

    step_id: Any
    kind: Any
    requirement_id: Any
    prior_step_ids: Sequence[str]


def _part(view: StepView, leaf_index: int, kind: str, name: str) -> str:
    """The requirement id of a carried ``kind`` step at its own position, else
    ``ProofError('proof.citations')``."""
    if (view.step_id != step_id(leaf_index + 1) or view.kind != kind
            or type(view.requirement_id) is not str
            or (kind == "aggregate" and not view.prior_step_ids)):
        raise ProofError("proof.citations", f"{name} must be a {kind} step at its own leaf "
                         "position, for one requirement"
                         + (", citing at least one prior step" if kind == "aggregate" else ""),
                         required=f"{step_id(leaf_index + 1)} {kind}",
                         found=f"{str(view.step_id)[:80]} {str(view.kind)[:40]}")
    return view.requirement_id


def s5_fault(cited: Sequence[str], aggregate: StepView, aggregate_index: int,
             chunk: StepView, chunk_index: int) -> str | None:
    """Decide S5 for a ``contradictions`` step citing ``cited`` (its prior step ids):
    the message of a won proof, None when A's last prior step is X (lost); raise
    ``ProofError('proof.citations')`` when the parts are not A and X (X a
    ``check_requirement`` step the step cites, A the ``aggregate`` of X's requirement)."""
    rid = _part(chunk, chunk_index, "check_requirement", "prior_steps[1]")
    if chunk.step_id not in cited:
        raise ProofError("proof.citations", "prior_steps[1] must be a step the "
                         "contradictions step cites", required=",".join(cited)[:200],
                         found=str(chunk.step_id)[:80])
    if _part(aggregate, aggregate_index, "aggregate", "prior_steps[0]") != rid:
        raise ProofError("proof.citations", "prior_steps[0] must be the aggregate of the "
                         "cited chunk's requirement", required=rid[:80],
                         found=str(aggregate.requirement_id)[:80])
    last = aggregate.prior_step_ids[-1]
    if last == chunk.step_id:
        return None
    return (f"cites {chunk.step_id}, a check chunk of {rid[:80]!r}, but that requirement's "
            f"aggregate {aggregate.step_id} ends at {last[:80]}: a contradictions step cites "
            "the last chunk of each requirement (S5)")


def aggregates_of(views: Sequence[StepView | None]) -> dict[str, list[int]]:
    """Leaf indexes of the ``aggregate`` steps at their own positions, with a text
    requirement id and a prior step, by requirement (one pass, built once a bundle)."""
    found: dict[str, list[int]] = {}
    for index, view in enumerate(views):
        if (view is not None and view.kind == "aggregate" and type(view.requirement_id) is str
                and view.step_id == step_id(index + 1) and view.prior_step_ids):
            found.setdefault(view.requirement_id, []).append(index)
    return found


def s5_leaves(cited: Sequence[str], views: Sequence[StepView | None],
              aggregates: dict[str, list[int]]) -> list[int] | None:
    """[A, X] leaf indexes of a won S5 proof against the ``contradictions`` step citing
    ``cited``, given every step leaf's view (None for an unreadable leaf) and
    :func:`aggregates_of` them; else None.  Work: at most two aggregates per cited id
    (an honest requirement has one), so O(len(cited))."""
    for sid in cited:
        number = step_number(sid)
        if number is None or not 1 <= number <= len(views):
            continue
        chunk = views[number - 1]
        if chunk is None or type(chunk.requirement_id) is not str:
            continue
        for a in aggregates.get(chunk.requirement_id, [])[:2]:
            aggregate = views[a]
            assert aggregate is not None  # noqa: S101 - indexed by aggregates_of
            try:
                won = s5_fault(cited, aggregate, a, chunk, number - 1)
            except ProofError:
                break
            if won is not None:
                return [a, number - 1]
    return None


__all__ = ["SET", "StepView", "aggregates_of", "s5_fault", "s5_leaves"]
