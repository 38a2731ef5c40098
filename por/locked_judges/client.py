"""The LLM judge client over ``litellm.acompletion`` (SPEC §15.4), imported lazily.

litellm (pinned 1.106.2 in the ``llm`` extra) is the seeds' client.  Its import
fetches a model map over the network unless ``LITELLM_LOCAL_MODEL_COST_MAP`` is
set first, and its errors print a banner on stdout unless
``suppress_debug_info`` is set: :func:`load_litellm` does both.  Before every
call :func:`refuse_silent_degradation` refuses the settings that would change a
call quietly (``drop_params``, fallbacks, alias maps, a cache, ``LITELLM_DROP_PARAMS``).
Every locked parameter is sent explicitly; retries are por's (the batch runner),
never the SDK's (``max_retries=0``; a second request under one attempt id is a
``lock_violation``).  The bytes that count are those the transcript server saw.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import time
import warnings
from importlib.metadata import version
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from por.jsontext import JsonTextError, loads_strict
from por.locked_judges.attempts import retry_after_seconds
from por.locked_judges.errors import JudgeLockError, JudgeUnavailableError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.outcome import Exchange
from por.locked_judges.profiles import profile_of
from por.locked_judges.records import JudgeSubject
from por.locked_judges.transcript import CALL_HEADER, SECRET_HEADER, TranscriptServer
from por.locked_judges.wire import response_format, wire_model_name, wire_number

#: The litellm version the lock was measured with; another is refused.
LITELLM_VERSION = "1.106.2"
#: The Anthropic API version litellm 1.106.2 sends (``anthropic-version`` header).
ANTHROPIC_VERSION = "2023-06-01"
#: What litellm is given as the key: the transcript server drops it and sends the
#: route's credential, read from the environment at the call (SPEC §15.4).
PLACEHOLDER_KEY = "por-transcript-server-adds-the-credential"
#: OpenAI-standard parameters litellm passes itself; the rest go in ``extra_body``.
_STANDARD = frozenset({"temperature", "top_p", "seed", "max_tokens", "presence_penalty",
                       "frequency_penalty"})


def load_litellm() -> ModuleType:
    """Import litellm without network or stdout banner (``lock.client`` if unusable)."""
    os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    try:
        import litellm  # noqa: PLC0415  # heavy: imported only when judging
    except ImportError:
        raise JudgeLockError("lock.client", "the LLM client is not installed; "
                             "pip install 'por[llm]'") from None
    installed = version("litellm")
    if installed != LITELLM_VERSION:
        raise JudgeLockError("lock.client", "litellm is not the pinned version; "
                             "pip install 'por[llm]'",
                             expected=LITELLM_VERSION, actual=installed)
    litellm.suppress_debug_info = True
    # pydantic warns about litellm's own TypedDicts on first use (not about a call).
    warnings.filterwarnings("ignore", message=r"Item .* `ReadOnly` qualifier",
                            category=UserWarning)
    module: ModuleType = litellm  # typed whether or not litellm is installed for mypy
    return module


def refuse_silent_degradation(litellm: Any) -> None:
    """``lock.forbidden_option`` if any litellm setting could change a call quietly."""
    checks = {
        "drop_params": bool(litellm.drop_params),
        "LITELLM_DROP_PARAMS": "LITELLM_DROP_PARAMS" in os.environ,
        "model_fallbacks": bool(litellm.model_fallbacks),
        "fallbacks": bool(getattr(litellm, "fallbacks", None)),
        "default_fallbacks": bool(getattr(litellm, "default_fallbacks", None)),
        "context_window_fallbacks": bool(getattr(litellm, "context_window_fallbacks", None)),
        "content_policy_fallbacks": bool(getattr(litellm, "content_policy_fallbacks", None)),
        "model_alias_map": bool(litellm.model_alias_map),
        "cache": litellm.cache is not None,
        "modify_params": bool(getattr(litellm, "modify_params", False)),
    }
    for name, on in checks.items():
        if on:
            raise JudgeLockError("lock.forbidden_option",
                                 f"litellm {name} is set: it could change a locked call",
                                 expected="unset", actual="set")


def completion_kwargs(manifest: JudgeManifest, messages: list[dict[str, str]],
                      api_base: str, call_id: str, secret: str | None = None) -> dict[str, Any]:
    """The ``acompletion`` arguments on the lock's provider route (SPEC §15.4 profiles):
    every locked parameter, explicitly, and the transcript server's headers (the
    attempt id and the run's secret: headers are never part of the recorded request
    body).  The client never holds a provider credential: the transcript server adds
    it upstream, so litellm gets a placeholder key that the server drops."""
    profile = profile_of(manifest.model.profile)
    headers = {CALL_HEADER: call_id} | ({SECRET_HEADER: secret} if secret else {})
    if profile.route == "anthropic" and api_base.endswith("/v1"):
        api_base = api_base[:-3]  # litellm appends /v1/messages itself
    kwargs: dict[str, Any] = {
        "model": f"{profile.route}/{wire_model_name(manifest)}",
        "messages": messages,
        "api_base": api_base,
        "api_key": PLACEHOLDER_KEY,
        "timeout": manifest.timeout_ms / 1000,
        "max_retries": 0,
        "num_retries": 0,
        "drop_params": False,
        "extra_headers": headers,
    }
    if (wanted := response_format(manifest)) is not None:
        kwargs["response_format"] = wanted
    extra: dict[str, Any] = {}
    standard = _STANDARD if profile.name == "openai-compatible" else profile.honoured
    for name, text in sorted(manifest.parameters.items()):
        (kwargs if name in standard else extra)[name] = wire_number(text)
    if extra:
        kwargs["extra_body"] = extra
    return kwargs


def kind_of(exc: BaseException, litellm: Any) -> str:
    """The seed's error classes as por error kinds (for calls with no HTTP status)."""
    if isinstance(exc, litellm.Timeout | TimeoutError):
        return "timeout"
    if isinstance(exc, litellm.RateLimitError):
        return "rate_limit"
    return "network"


class LiteLLMTransport:
    """A batch transport: litellm -> transcript server -> model (or cassette)."""

    def __init__(self, server: TranscriptServer) -> None:
        self.server = server
        self.litellm = load_litellm()

    async def __call__(self, manifest: JudgeManifest, index: int, subject: JudgeSubject,
                       messages: list[dict[str, str]], attempt: int) -> Exchange:
        del index
        return await self.exchange(manifest, messages, f"{subject.bundle_hash.hex()}-{attempt}")

    async def exchange(self, manifest: JudgeManifest, messages: list[dict[str, str]],
                       call_id: str) -> Exchange:
        """One ``litellm.acompletion`` call under ``call_id``, as the socket saw it."""
        refuse_silent_degradation(self.litellm)
        client_kind: str | None = None
        try:
            await self.litellm.acompletion(**completion_kwargs(
                manifest, messages, self.server.api_base, call_id, self.server.secret))
        except Exception as exc:  # every failure is judged from the recorded bytes
            client_kind = kind_of(exc, self.litellm)
        seen = self.server.take(call_id)
        if not seen:
            return Exchange(b"", 0, b"", client_kind or "network")
        if len(seen) > 1:
            # The SDK retried behind por's back: commit the first, fail closed.
            return Exchange(seen[0].request, 400, b'{"error":"hidden retry"}', None)
        record = seen[0]
        # The clock only sizes the wait before a retry: nothing committed depends on it.
        return Exchange(record.request, record.status, record.response,
                        client_kind if record.status == 0 else None, record.credential,
                        retry_after_seconds(record.retry_after, time.time()))

    async def aclose(self) -> None:
        """Close litellm's cached HTTP sessions (they belong to this event loop)."""
        await self.litellm.close_litellm_async_clients()
        self.litellm.in_memory_llm_clients_cache.flush_cache()


async def preflight(server: TranscriptServer, manifest: JudgeManifest) -> None:
    """Seed ``validate_availability``: the locked model answers ``/v1/models``."""
    parts = urlsplit(server.api_base)

    def get() -> tuple[int, bytes]:
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port or 80, timeout=30)
        try:
            secret = server.secret
            # anthropic-version: Anthropic's model list needs it; others ignore it.
            # Anthropic pages its list (20 by default, 1000 at most); OpenAI ignores it.
            query = "?limit=1000" if manifest.model.profile == "anthropic-messages" else ""
            conn.request("GET", f"{parts.path}/models{query}",
                         headers={"anthropic-version": ANTHROPIC_VERSION}
                         | ({SECRET_HEADER: secret} if secret else {}))
            reply = conn.getresponse()
            return reply.status, reply.read()
        except OSError:
            return 0, b""
        finally:
            conn.close()

    status, body = await asyncio.to_thread(get)
    ids: list[str] = []
    if status == 200:
        try:
            ids = [m.get("id") for m in loads_strict(body.decode("utf-8")).get("data", [])]
        except (JsonTextError, UnicodeDecodeError, AttributeError):
            ids = []
    if status in (401, 403):
        raise JudgeUnavailableError(
            "judgement.auth", "the provider refused the route's credential, or its variable "
            "is not set; fail-closed: judgement aborted", actual=f"HTTP {status}")
    if wire_model_name(manifest) not in ids:
        raise JudgeUnavailableError(
            "judgement.unavailable",
            f"locked judge {manifest.model.version_lock} unavailable; fail-closed: judgement "
            "aborted (wait for the model, or lock another version)",
            expected=wire_model_name(manifest), actual=",".join(map(str, ids)) or f"HTTP {status}")


__all__ = ["LITELLM_VERSION", "LiteLLMTransport", "completion_kwargs", "kind_of", "load_litellm",
           "preflight", "refuse_silent_degradation"]
