"""The court's ruling rule (SPEC §16.4): pure functions of integer votes.

* **Aggregate**: the *upper median*, ``sorted(votes)[len(votes) // 2]`` (Chainlink
  OCR's ``observations[n/2]``).  Over an odd count it is the median; over an even
  count (a quorum below the panel) it takes the upper of the two middle votes,
  i.e. the one more favourable to the worker (ambiguity favours the worker).
  Never an average: no rounding, no floats, and it stays inside the votes' range.
* **Decision**: the challenge is *upheld* iff the aggregate is below 50; at 50
  and above it is *rejected* (the tie goes to the worker, the oracle).
* **Quorum**: fewer than ``quorum`` votes cast is *no ruling* (fail closed).
* **Split**: the panel splits iff the votes on the losing side are at least a
  third of the votes cast (``3 * minority >= cast``); a split first round goes to
  appeal before a panel of ``2N + 1``.
* **Dissent**: every vote on the losing side of 50 dissents.

Breakdown point: with ``n`` votes, moving the result outside the range of the
honest votes takes at least ``n // 2 + 1`` low or ``n - n // 2`` high bad votes,
so an odd panel tolerates ``(n - 1) // 2`` arbitrary votes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: A challenge is upheld iff the aggregate worker_pct is below this.
UPHOLD_BELOW = 50
Decision = Literal["upheld", "rejected"]
Status = Literal["ruled", "no_quorum", "split"]


def aggregate(votes: list[int]) -> int:
    """The upper median of ``votes`` (at least one)."""
    if not votes:
        raise ValueError("no votes to aggregate")
    return sorted(votes)[len(votes) // 2]


def side(worker_pct: int) -> Decision:
    """The decision a worker_pct stands for (a tie at 50 favours the worker)."""
    return "upheld" if worker_pct < UPHOLD_BELOW else "rejected"


@dataclass(frozen=True)
class RoundOutcome:
    """What one round's votes decide."""

    status: Status
    worker_pct: int | None
    decision: Decision | None
    #: Votes on the losing side (they dissent).
    minority: int
    split: bool


def decide(votes: list[int], quorum: int, *, final: bool) -> RoundOutcome:
    """The outcome of a round: no quorum, a split (unless ``final``), or a ruling."""
    if len(votes) < quorum or not votes:
        return RoundOutcome("no_quorum", None, None, 0, False)
    pct = aggregate(votes)
    decision = side(pct)
    minority = sum(1 for v in votes if side(v) != decision)
    split = 3 * minority >= len(votes) and minority > 0
    if split and not final:
        return RoundOutcome("split", pct, decision, minority, True)
    return RoundOutcome("ruled", pct, decision, minority, split)


def check_panel(panel: int, quorum: int) -> None:
    """A panel is odd and its quorum a majority of it (``ValueError`` otherwise)."""
    if panel < 1 or panel % 2 == 0:
        raise ValueError(f"a panel is an odd number of judges, not {panel}")
    if not panel // 2 + 1 <= quorum <= panel:
        raise ValueError(f"a quorum of {panel} seats is {panel // 2 + 1}..{panel}, not {quorum}")


__all__ = ["UPHOLD_BELOW", "Decision", "RoundOutcome", "Status", "aggregate", "check_panel",
           "decide", "side"]
