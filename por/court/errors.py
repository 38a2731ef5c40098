"""Errors of the dispute court (SPEC §16): every one carries a stable check id.

:class:`ServiceError` is the seed's error type (seed 003, "Error Handling":
``ServiceError("JUDGE_UNAVAILABLE", message, 502)``).  Here it is a
:class:`~por.errors.UnsupportedError` too (a judge that cannot vote is "can't
decide", exit 2) with the check id ``court.judge_unavailable``; its message
names the judge id and the failed check, never the raw model response.
"""

from __future__ import annotations

from por.errors import PorError, UnsupportedError

#: The seed's error code for every judge failure.
JUDGE_UNAVAILABLE = "JUDGE_UNAVAILABLE"


class CourtError(PorError):
    """A case, a court config or a court bundle failed a check (``court.*``)."""


class NoRulingError(UnsupportedError):
    """The court could not rule (no quorum, or a split with no appeal panel): exit 2."""


class ServiceError(UnsupportedError):
    """The seed's ``ServiceError(code, message, status)``: a judge is unavailable."""

    def __init__(self, code: str, message: str, status: int, *, judge_id: str,
                 reason: str) -> None:
        super().__init__("court.judge_unavailable", message, expected="a vote", actual=reason)
        self.code = code
        self.status = status
        self.judge_id = judge_id
        #: The check id of the failed attempt (e.g. ``court.vote_range``), never the response.
        self.reason = reason


def judge_unavailable(judge_id: str, reason: str) -> ServiceError:
    """``ServiceError("JUDGE_UNAVAILABLE", ..., 502)`` for ``judge_id`` (no raw response)."""
    return ServiceError(JUDGE_UNAVAILABLE, f"judge {judge_id} unavailable: {reason}", 502,
                        judge_id=judge_id, reason=reason)


__all__ = ["JUDGE_UNAVAILABLE", "CourtError", "NoRulingError", "ServiceError",
           "judge_unavailable"]
