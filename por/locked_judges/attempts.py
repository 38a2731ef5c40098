"""The one retry loop of a locked call: attempts until a vote or a final failure.

Locked judges (``por judge batch``, SPEC §15.5) and the court's seats
(``LLMJudge``, SPEC §16.3) ask a model the same way: call, classify the
recorded exchange, keep the attempt, and try again only for a failure kind the
lock's ``retry_policy`` lists in ``retry_on`` while ``attempt <= max_retries``,
after the seed's exponential backoff (``base_ms * 2**(attempt - 1)``),
lengthened to a provider's ``Retry-After`` up to the lock's longest backoff
(:func:`wait_seconds`; waiting is not committed, the attempt numbers are).
What an attempt becomes (a ``por.JudgeCall/1``, a court vote, a failure
record) is the caller's.

Leaves out: the transport (``client``, ``transcript``), the classification
(``outcome``) and the sleep itself (a parameter: tests pass a recorder).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from por.locked_judges.manifest import RetryPolicy
from por.locked_judges.outcome import Classified, Exchange

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


def longest_backoff_seconds(policy: RetryPolicy) -> float:
    """The lock's backoff cap: its last retry's backoff, ``base * 2**(max_retries-1)`` ms."""
    return backoff_seconds(policy, max(1, policy.max_retries))


#: Longest ``Retry-After`` value read (a header is provider-chosen text).
_RETRY_AFTER_CHARS = 64


def retry_after_seconds(value: str | None, now: float) -> float | None:
    """A ``Retry-After`` header (RFC 9110 §10.2.3: delay-seconds or an HTTP-date) as
    seconds from ``now`` (Unix seconds, the caller's clock); ``None`` if absent or
    not one of the two forms.  A date in the past is 0."""
    if value is None or len(value) > _RETRY_AFTER_CHARS:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(int(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # RFC 9110 dates are GMT; a zone-less one is no HTTP-date
        return None
    return max(0.0, when.timestamp() - now)


def wait_seconds(policy: RetryPolicy, tried: Tried) -> float:
    """The wait before the retry after ``tried``: its backoff, or the provider's
    ``Retry-After`` when longer, but never beyond the lock's longest backoff."""
    backoff = backoff_seconds(policy, tried.attempt)
    asked = tried.exchange.retry_after
    if asked is None:
        return backoff
    return max(backoff, min(asked, longest_backoff_seconds(policy)))


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
        await sleep(wait_seconds(policy, tried))
        attempt += 1


__all__ = ["Sleep", "Tried", "backoff_seconds", "longest_backoff_seconds",
           "retries", "retry_after_seconds", "run_attempts", "wait_seconds"]
