"""The judge system's data and interface (seed 003, ``base.py``).

:class:`DisputeContext` is everything a judge sees (no other judge's vote is
ever part of it); :class:`JudgeVote` is one judge's answer; :class:`Judge` is
the async interface (LLM calls are I/O-bound).  ``voted_at`` is ISO 8601 text
given by the caller (the court passes ``--at``): the clock never reaches a
committed vote.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


@dataclass(frozen=True)
class JudgeVote:
    """One judge's vote on one case."""

    judge_id: str        # e.g. "judge-0"
    worker_pct: int      # 0-100
    reasoning: str       # written justification
    voted_at: str        # ISO 8601, from the caller's time parameter


@dataclass(frozen=True)
class DisputeContext:
    """All the information a judge needs to evaluate a dispute."""

    task_spec: str           # original task specification
    deliverables: list[str]  # deliverable names and metadata
    claim: str               # poster's (challenger's) rejection reason
    rebuttal: str | None     # worker's (oracle's) response; None if not submitted
    task_title: str          # task title
    reward: int              # task reward amount


class Judge(ABC):
    """A judge: evaluates a dispute and returns a vote."""

    @abstractmethod
    async def evaluate(self, context: DisputeContext) -> JudgeVote:
        """Evaluate a dispute and return a vote."""
        ...


__all__ = ["DisputeContext", "Judge", "JudgeVote"]
