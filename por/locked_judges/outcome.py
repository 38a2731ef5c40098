"""Classify one attempt from its wire bytes (SPEC §15.4), the same way when judging
and when verifying: the recorded bytes decide, never the client's opinion.

An attempt is a vote iff the server answered 200, the wire request honours the
lock, the answer is a chat completion within the size cap (UTF-8, JSON, no lone
surrogate), a hosted answer names the locked snapshot, and its content parses
to a vote.  Otherwise its error kind follows from
the HTTP status; only a call that never got a status (0) carries the kind the
client saw (``timeout`` or ``network``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from por.encoding import encode
from por.errors import PorError
from por.jsontext import JsonTextError, loads_strict
from por.locked_judges.errors import JudgementError
from por.locked_judges.manifest import DETERMINISTIC_JUDGE, JudgeManifest
from por.locked_judges.profiles import profile_of
from por.locked_judges.records import MAX_WIRE_BYTES
from por.locked_judges.render import content_from_response, parse_vote
from por.locked_judges.wire import check_wire

#: Kinds a call without an HTTP status may carry.
NO_STATUS_KINDS = frozenset({"timeout", "network"})


@dataclass(frozen=True)
class Exchange:
    """What one attempt put on and got from the wire."""

    wire_request: bytes
    status: int
    response: bytes
    #: The client's kind when no status came back (0), else ``None``.
    client_kind: str | None = None
    #: ``<header>: <redacted:NAME>`` when the transcript server sent a credential upstream.
    credential: str | None = None
    #: Seconds the provider asked to wait (``Retry-After``); never recorded or classified.
    retry_after: float | None = None

    def capped(self) -> Exchange:
        """The exchange as it is recorded: each body cut to ``MAX_RESPONSE + 1`` bytes
        (SPEC §15.4), so a longer one is kept as the prefix that proves it was longer,
        and a record can always hold it (what the transcript server buffers, too)."""
        if len(self.wire_request) <= MAX_WIRE_BYTES and len(self.response) <= MAX_WIRE_BYTES:
            return self
        return Exchange(self.wire_request[:MAX_WIRE_BYTES], self.status,
                        self.response[:MAX_WIRE_BYTES], self.client_kind, self.credential,
                        self.retry_after)


@dataclass(frozen=True)
class Classified:
    """An attempt's result: a vote, or an error kind and the check that failed."""

    kind: str | None
    check_id: str
    vote: tuple[str, int] | None
    #: What a failed *wire* check said, for diagnostics (empty for answers: a
    #: parser's message may quote the response, and errors never do).
    detail: str = ""


def kind_from_status(status: int) -> tuple[str, str]:
    """(error kind, check id) of a non-200 HTTP status."""
    if status == 429:
        return "rate_limit", "judgement.rate_limited"
    if status in (401, 403):
        return "auth", "judgement.auth"
    if status in (404, 599):
        return "model_unavailable", "judgement.unavailable"
    if 500 <= status <= 598:
        return "server_error", "judgement.server_error"
    return "invalid_response", "judgement.http_status"


def classify(manifest: JudgeManifest, messages: list[dict[str, str]], exchange: Exchange, *,
             parse: Callable[[str], tuple[str, int]] = parse_vote) -> Classified:
    """The result of one LLM attempt, from its recorded bytes alone.  ``parse`` turns
    the answer's text into the vote (the court passes its own parser, SPEC §16.3)."""
    if exchange.status == 0:
        kind = exchange.client_kind if exchange.client_kind in NO_STATUS_KINDS else "network"
        return Classified(kind, f"judgement.{kind}", None)
    if exchange.status != 200:
        kind, check_id = kind_from_status(exchange.status)
        return Classified(kind, check_id, None)
    try:
        check_wire(manifest, exchange.wire_request, messages)
    except JudgementError as exc:
        return Classified("lock_violation", exc.check_id, None, exc.message)
    try:  # the envelope first: a body that is no chat completion names no model
        content = content_from_response(exchange.response, profile_of(manifest.model.profile))
    except PorError as exc:
        return Classified("invalid_response", exc.check_id, None)
    try:
        if manifest.model.kind == "hosted":
            check_response_model(manifest, exchange.response)
    except JudgementError as exc:
        return Classified("lock_violation", exc.check_id, None, exc.message)
    try:
        vote = parse(content)
    except PorError as exc:
        return Classified("invalid_response", exc.check_id, None)
    return Classified(None, "ok", vote)


def check_response_model(manifest: JudgeManifest, response: bytes) -> None:
    """A hosted answer names the locked snapshot (``judgement.version_mismatch``):
    the seed's check 1, from the response bytes.  (A local lock is proven by its
    weights hash when por starts the server.)"""
    try:
        named = loads_strict(response.decode("utf-8")).get("model")
    except (JsonTextError, UnicodeDecodeError, AttributeError):
        named = None
    if named != manifest.model.version_lock:
        raise JudgementError("judgement.version_mismatch",
                             "the answer names another model version",
                             expected=manifest.model.version_lock, actual=str(named)[:80])


def deterministic_request(subject_hash: bytes) -> bytes:
    """The 'wire request' of a por-judge/1 call: what is judged, by which judge."""
    return encode({"judge": DETERMINISTIC_JUDGE, "subject_hash": subject_hash})


def sha256(data: bytes) -> bytes:
    """SHA-256 (a helper so the records' hashes read alike)."""
    return hashlib.sha256(data).digest()


__all__ = ["NO_STATUS_KINDS", "Classified", "Exchange", "classify", "deterministic_request",
           "kind_from_status", "sha256"]
