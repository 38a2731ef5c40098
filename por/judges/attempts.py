"""The one retry loop of a locked call: attempts until a vote or a final failure.

Locked judges (``por judge batch``, SPEC §15.5) and the court's seats
(``LLMJudge``, SPEC §16.3) ask a model the same way: call, classify the
recorded exchange, keep the attempt, and try again only for a failure kind the
lock's ``retry_policy`` lists in ``retry_on`` while ``attempt <= max_retries``,
after the seed's exponential backoff (``base_ms * 2**(attempt - 1)``; waiting
is not committed, the attempt numbers are).  What an attempt becomes (a
``por.JudgeCall/1``, a court vote, a failure record) is the caller's.

Leaves out: the transport (``client``, ``transcript``), the classification
(``outcome``) and the sleep itself (a parameter: tests pass a recorder).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from por.judges.manifest import RetryPolicy
from por.judges.outcome import Classified, Exchange

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Tried:
    """One attempt: its number (from 1), what crossed the wire, how it was classified."""

    attempt: int
    exchange: Exchange
    result: Classified


def backoff_seconds(policy: RetryPolicy, attempt: int) -> float:
    """Seed ``calculate_backoff``: ``base * 2**(attempt-1)`` milliseconds, in seconds."""
    delay_ms: int = policy.base_ms * (2 ** (attempt - 1))
    return delay_ms / 1000


def retries(policy: RetryPolicy, tried: Tried) -> bool:
    """Whether the lock's policy tries again after ``tried``."""
    result = tried.result
    return (result.vote is None and result.kind in policy.retry_on
            and tried.attempt <= policy.max_retries)


async def run_attempts(policy: RetryPolicy, call: Callable[[int], Awaitable[Exchange]],
                       classify: Callable[[Exchange], Classified], sleep: Sleep,
                       kept: list[Tried]) -> Tried:
    """Attempt until a vote or a failure ``policy`` does not retry; return the last.

    Every attempt is appended to ``kept`` as soon as it is classified, so a
    caller whose ``call`` raises still holds the attempts before it.
    """
    attempt = 1
    while True:
        exchange = (await call(attempt)).capped()  # what a record can hold (SPEC §15.4)
        tried = Tried(attempt, exchange, classify(exchange))
        kept.append(tried)
        if not retries(policy, tried):
            return tried
        await sleep(backoff_seconds(policy, attempt))
        attempt += 1


__all__ = ["Sleep", "Tried", "backoff_seconds", "retries", "run_attempts"]
