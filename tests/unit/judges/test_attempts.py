"""The one retry loop shared by locked judges and court seats (por.judges.attempts)."""

from __future__ import annotations

import asyncio

import pytest

from por.judges.attempts import Tried, backoff_seconds, run_attempts
from por.judges.manifest import RetryPolicy
from por.judges.outcome import Classified, Exchange

POLICY = RetryPolicy(max_retries=2, backoff="exponential", base_ms=250,
                     retry_on=["rate_limit", "timeout"], fail_on=["auth"])


def exchange(status: int) -> Exchange:
    return Exchange(b"request", status, b"response")


def run(kinds: list[str | None], *, fail_at: int | None = None,
        kept: list[Tried] | None = None) -> tuple[Tried, list[Tried], list[float]]:
    slept: list[float] = []
    kept = [] if kept is None else kept

    async def call(attempt: int) -> Exchange:
        if attempt == fail_at:
            raise RuntimeError("transport down")
        return exchange(200 + attempt)

    def classify(ex: Exchange) -> Classified:
        kind = kinds[ex.status - 201]
        if kind is None:
            return Classified(None, "ok", ("YES", 9000))
        return Classified(kind, f"judgement.{kind}", None)

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    last = asyncio.run(run_attempts(POLICY, call, classify, sleep, kept))
    return last, kept, slept


def test_a_vote_ends_the_loop() -> None:
    last, kept, slept = run(["timeout", None, "timeout"])
    assert [t.attempt for t in kept] == [1, 2] and last is kept[-1]
    assert last.result.vote == ("YES", 9000) and slept == [0.25]


def test_retries_only_listed_kinds_up_to_max_retries() -> None:
    last, kept, slept = run(["rate_limit", "timeout", "timeout", None])
    assert [t.attempt for t in kept] == [1, 2, 3] and last.result.kind == "timeout"
    assert slept == [0.25, 0.5]
    last, kept, slept = run(["auth", None])
    assert (len(kept), last.result.kind, slept) == (1, "auth", [])


def test_attempts_before_a_raising_call_are_kept() -> None:
    kept: list[Tried] = []
    with pytest.raises(RuntimeError):
        run(["timeout", None], fail_at=2, kept=kept)
    assert [(t.attempt, t.result.kind) for t in kept] == [(1, "timeout")]


def test_backoff_is_the_seeds() -> None:
    assert [backoff_seconds(POLICY, a) for a in (1, 2, 3)] == [0.25, 0.5, 1.0]
