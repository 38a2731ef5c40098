"""The LLM judge (seed 003, ``llm_judge.py``) over litellm, through a locked, recorded call.

``LLMJudge(judge_id, model, temperature)`` is the seed's constructor.  The
call is por's locked one (SPEC §15.4): ``litellm.acompletion`` with every
locked parameter, ``response_format`` JSON with the court vote schema, and the
exact wire bytes recorded by the transcript server on 127.0.0.1.  The lock is
``lock=`` (a ``por.JudgeManifest/1`` with parser ``por-court-parser/1``), or,
when absent, one built from the three seed arguments and the seed's prompts
(:func:`seed_lock`).  The route is ``transport=`` (a running
:class:`~por.locked_judges.client.LiteLLMTransport`'s ``exchange``, or a test
double) or ``route=`` / ``api_base=`` (a transcript server is started for the call; with
neither, an ``openai/`` or ``anthropic/`` model goes to its provider's public
endpoint with the credential from ``OPENAI_API_KEY`` / ``ANTHROPIC_API_KEY``).

Every attempt is kept in :attr:`LLMJudge.attempts` (the court commits them as
``por.JudgeCall/1`` records).  Every failure, after the lock's retries on
transient kinds, raises the seed's ``ServiceError("JUDGE_UNAVAILABLE", ..., 502)``
naming the judge id and the failed check, never the raw response.
``voted_at`` is the caller's time (``voted_at=``), never the clock.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from decimal import Decimal

from por.court.errors import CourtError, judge_unavailable
from por.court.seed003.base import DisputeContext, Judge, JudgeVote
from por.court.seed003.prompts import EVALUATION_TEMPLATE_V2, SYSTEM_PROMPT
from por.court.seed003.render import parse_court_vote, render_messages
from por.errors import PorError
from por.locked_judges.attempts import Sleep, Tried, run_attempts
from por.locked_judges.config import COURT_VOTE_SCHEMA, canonical_json
from por.locked_judges.manifest import COURT_PARSER, JudgeManifest
from por.locked_judges.outcome import Classified, Exchange, classify
from por.locked_judges.profiles import DEFAULT_PROFILE
from por.locked_judges.routes import Route, default_route, transcript_server
from por.numbers import format_decimal

#: (lock, messages, call id) -> what crossed the wire.
CallTransport = Callable[[JudgeManifest, list[dict[str, str]], str], Awaitable[Exchange]]
#: ``voted_at`` when the caller gives no time: the epoch, never the clock.
EPOCH = "1970-01-01T00:00:00Z"


@dataclass(frozen=True)
class Attempt:
    """One recorded attempt of one judge on one case."""

    attempt: int
    messages: list[dict[str, str]]
    exchange: Exchange
    result: Classified


def _prompt(name: str, text: str) -> dict[str, object]:
    data = text.encode("utf-8")
    return {"file": name, "text": data, "hash": hashlib.sha256(data).digest()}


#: The seed constructor's parameters per provider profile (SPEC §16.3), beside
#: ``temperature``: each pins exactly what its API honours and requires.
_SEED_PARAMETERS: dict[str, dict[str, str]] = {
    "openai-chat": {"top_p": "1", "seed": "0", "max_tokens": "512"},
    "anthropic-messages": {"max_tokens": "512"},
    "openai-compatible": {"top_k": "0", "top_p": "1", "min_p": "0", "repeat_penalty": "1",
                          "seed": "0", "max_tokens": "512"},
}
#: The profile of a seed-constructed lock, by the model's provider prefix.
_SEED_PROFILES = {"openai": "openai-chat", "anthropic": "anthropic-messages"}


def seed_lock(judge_id: str, model: str, temperature: float | Decimal | int) -> JudgeManifest:
    """A hosted court lock from the seed's three arguments and prompts.

    The profile follows the provider prefix: ``openai/`` is ``openai-chat``
    (``top_p`` 1, ``seed`` 0, ``max_tokens`` 512), ``anthropic/`` is
    ``anthropic-messages`` (``max_tokens`` 512), anything else is
    ``openai-compatible`` (``top_k`` 0, ``top_p`` 1, ``min_p`` 0,
    ``repeat_penalty`` 1, ``seed`` 0, ``max_tokens`` 512); ``temperature`` as
    given; no retries; ``determinism: none``; the seed's system prompt and
    version 2 of the evaluation template (party text as JSON data, SPEC §16.3).
    """
    provider = model.split("/", 1)[0] if "/" in model else "openai"
    profile = _SEED_PROFILES.get(provider, DEFAULT_PROFILE)
    return JudgeManifest.model_validate({
        "judge_id": judge_id, "judge_version": "1.0",
        "model": {"kind": "hosted", "provider": provider, "model": model,
                  "version_lock": model.split("/", 1)[-1],
                  **({"profile": profile} if profile != DEFAULT_PROFILE else {})},
        "runtime": {"name": provider, "version": model.split("/", 1)[-1],
                    "build_class": "hosted"},
        "parameters": {"temperature": format_decimal(Decimal(str(temperature))),
                       **_SEED_PARAMETERS[profile]},
        "timeout_ms": 60_000,
        "system_prompt": _prompt("system.md", SYSTEM_PROMPT),
        "template": _prompt("template-v2.md", EVALUATION_TEMPLATE_V2),
        "output_schema": canonical_json(COURT_VOTE_SCHEMA), "parser": COURT_PARSER,
        "fail_closed": True, "fail_closed_mode": "strict",
        "retry_policy": {"max_retries": 0, "backoff": "exponential", "base_ms": 0,
                         "retry_on": [], "fail_on": ["auth", "invalid_response",
                                                     "lock_violation", "model_unavailable"]},
        "determinism": "none", "compatible_spec_versions": ["1.0"],
    })


def classify_court(lock: JudgeManifest, messages: list[dict[str, str]],
                   exchange: Exchange) -> Classified:
    """One court attempt classified from its bytes (SPEC §15.4 with the court parser)."""
    return classify(lock, messages, exchange, parse=parse_court_vote)


class LLMJudge(Judge):
    """A locked LLM judge (seed 003) whose every call is recorded."""

    def __init__(self, judge_id: str, model: str, temperature: float | Decimal | int, *,
                 lock: JudgeManifest | None = None, transport: CallTransport | None = None,
                 api_base: str | None = None, route: Route | None = None,
                 voted_at: str = EPOCH,
                 call_prefix: str = "court", sleep: Sleep = asyncio.sleep) -> None:
        self._judge_id = judge_id
        self._model = model
        self._temperature = temperature
        self.lock = lock if lock is not None else seed_lock(judge_id, model, temperature)
        self._check_lock()
        self._transport = transport
        #: ``route=``, else ``api_base=`` without a credential, else the provider's
        #: public endpoint (``openai/``, ``anthropic/``), else none.
        self._route = route or (Route(api_base) if api_base else default_route(self.lock))
        self._voted_at = voted_at
        self._call_prefix = call_prefix
        self._sleep = sleep
        #: Every attempt of the last :meth:`evaluate`, failed ones included.
        self.attempts: list[Attempt] = []

    @property
    def judge_id(self) -> str:
        """The judge's id (the seat's name in votes and errors)."""
        return self._judge_id

    def _check_lock(self) -> None:
        lock = self.lock
        if lock.parser != COURT_PARSER:
            raise CourtError("court.manifest_parser", f"judge {self._judge_id}: not a court "
                             "judge lock", expected=COURT_PARSER, actual=lock.parser)
        temperature = format_decimal(Decimal(str(self._temperature)))
        if (lock.judge_id, lock.model.model, lock.parameters.get("temperature")) != (
                self._judge_id, self._model, temperature):
            raise CourtError("court.lock_mismatch", "the judge's id, model and temperature "
                             "are not its lock's", expected=f"{lock.judge_id} {lock.model.model} "
                             f"{lock.parameters.get('temperature')}",
                             actual=f"{self._judge_id} {self._model} {temperature}")

    async def evaluate(self, context: DisputeContext) -> JudgeVote:
        """Ask the locked model once (plus the lock's retries on transient kinds)."""
        self.attempts = []
        try:
            messages = render_messages(self.lock, context)
        except PorError as exc:
            raise judge_unavailable(self._judge_id, exc.check_id) from None
        return await self.ask(messages)

    async def ask(self, messages: list[dict[str, str]]) -> JudgeVote:
        """Send ``messages`` (already rendered: a court phase's, SPEC §16.9) through
        the lock's call and retries; :attr:`attempts` holds this call's attempts."""
        self.attempts = []
        if self._transport is not None:
            return await self._run(messages, self._transport)
        if self._route is None:
            raise judge_unavailable(self._judge_id, "court.no_route")
        from por.locked_judges.client import LiteLLMTransport  # noqa: PLC0415 - litellm is heavy

        try:
            with transcript_server(self._route, self.lock) as server:
                client = LiteLLMTransport(server)
                try:
                    return await self._run(messages, client.exchange)
                finally:
                    await client.aclose()
        except PorError as exc:
            if exc.check_id == "court.judge_unavailable":
                raise
            raise judge_unavailable(self._judge_id, exc.check_id) from None
        except OSError:  # the route's CA bundle cannot be read
            raise judge_unavailable(self._judge_id, "court.route") from None

    async def _run(self, messages: list[dict[str, str]], transport: CallTransport) -> JudgeVote:
        async def call(attempt: int) -> Exchange:
            try:
                return await transport(self.lock, messages,
                                       f"{self._call_prefix}-{self._judge_id}-{attempt}")
            except PorError as exc:  # e.g. lock.forbidden_option: fail closed, no vote
                raise judge_unavailable(self._judge_id, exc.check_id) from None

        def classify_one(exchange: Exchange) -> Classified:
            return classify_court(self.lock, messages, exchange)

        tried: list[Tried] = []
        try:
            last = await run_attempts(self.lock.retry_policy, call, classify_one, self._sleep,
                                      tried)
        finally:
            self.attempts = [Attempt(t.attempt, messages, t.exchange, t.result) for t in tried]
        if last.result.vote is None:
            raise judge_unavailable(self._judge_id, last.result.check_id)
        reasoning, pct = last.result.vote
        return JudgeVote(judge_id=self._judge_id, worker_pct=pct, reasoning=reasoning,
                         voted_at=self._voted_at)


__all__ = ["EPOCH", "Attempt", "CallTransport", "LLMJudge", "classify_court", "seed_lock"]
