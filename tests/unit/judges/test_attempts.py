"""The one retry loop shared by locked judges and court seats (por.locked_judges.attempts)."""

from __future__ import annotations

import asyncio

import pytest

from por.locked_judges.attempts import (
    Tried,
    backoff_seconds,
    longest_backoff_seconds,
    retry_after_seconds,
    run_attempts,
    wait_seconds,
)
from por.locked_judges.manifest import RetryPolicy
from por.locked_judges.outcome import Classified, Exchange

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


# Retry-After (SPEC §15.4): a longer wait when a provider asks, never beyond the lock's cap.
NOW = 1_767_225_600.0  # 2026-01-01T00:00:00Z


@pytest.mark.parametrize(("header", "seconds"), [
    ("3", 3.0), (" 12 ", 12.0), ("0", 0.0),
    ("Thu, 01 Jan 2026 00:00:30 GMT", 30.0),
    ("Wed, 31 Dec 2025 23:59:00 GMT", 0.0),  # a date in the past: no wait
    (None, None), ("soon", None), ("-3", None), ("1.5", None), ("٣", None),
    ("Thu, 01 Jan 2026 00:00:30", None),  # no zone: not an HTTP-date
    ("9" * 65, None),  # longer than any honest header
])
def test_retry_after_is_delay_seconds_or_an_http_date(header: str | None,
                                                      seconds: float | None) -> None:
    assert retry_after_seconds(header, NOW) == seconds


def _tried(retry_after: float | None, attempt: int = 1) -> Tried:
    return Tried(attempt, Exchange(b"request", 429, b"", retry_after=retry_after),
                 Classified("rate_limit", "judgement.rate_limited", None))


def test_retry_after_lengthens_the_wait_up_to_the_locks_longest_backoff() -> None:
    assert longest_backoff_seconds(POLICY) == 0.5  # 250 ms * 2**(2-1)
    assert wait_seconds(POLICY, _tried(None)) == 0.25
    assert wait_seconds(POLICY, _tried(0.4)) == 0.4
    assert wait_seconds(POLICY, _tried(3600.0)) == 0.5  # capped: a provider cannot stall a run
    assert wait_seconds(POLICY, _tried(0.0, attempt=2)) == 0.5  # never shorter than backoff


def test_the_loop_waits_what_the_provider_asked() -> None:
    slept: list[float] = []
    answers = iter([Exchange(b"r", 429, b"", retry_after=0.4), Exchange(b"r", 200, b"")])

    async def call(attempt: int) -> Exchange:
        del attempt
        return next(answers)

    def classify(ex: Exchange) -> Classified:
        if ex.status == 429:
            return Classified("rate_limit", "judgement.rate_limited", None)
        return Classified(None, "ok", ("YES", 9000))

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    asyncio.run(run_attempts(POLICY, call, classify, sleep, []))
    assert slept == [0.4]
