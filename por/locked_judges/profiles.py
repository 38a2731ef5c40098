"""Provider profiles (SPEC §15.4 table): what each chat API accepts and answers.

A lock pins one profile (``model.profile``; absent means ``openai-compatible``,
the behaviour of every lock made before profiles existed).  The profile says
which sampler parameters the API honours (a lock may pin only those) and which
it requires, which request fields the client adds beside them, how JSON output
is asked for, what the messages look like on the wire, where the answer's text
is in the response, which response fields are recorded for people, and which
header carries the credential.  :mod:`por.locked_judges.wire` derives the wire
allow-list from it, :mod:`por.locked_judges.client` the litellm route.

Sources (public API references, read 2026-11): OpenAI chat completions
(``POST /v1/chat/completions``: ``model``, ``messages``, ``temperature``,
``top_p``, ``seed``, ``max_tokens``, ``presence_penalty``, ``frequency_penalty``,
``response_format`` ``json_schema`` with ``strict: true``, which needs
``additionalProperties: false`` and every property required (structured
outputs guide, supported schemas); ``Authorization: Bearer``); Anthropic
messages (``POST /v1/messages``: ``model``, ``messages``, ``system`` top level,
``max_tokens`` required, ``temperature``, ``top_p``, ``top_k``; ``x-api-key``
and ``anthropic-version`` headers; ``content[].text``, ``stop_reason``);
llama.cpp's server (OpenAI-compatible, plus ``top_k``, ``min_p``,
``repeat_penalty`` and a ``schema`` in ``response_format``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

#: The profile of a lock that names none (locks made before profiles existed).
DEFAULT_PROFILE = "openai-compatible"
ProfileName = Literal["openai-chat", "anthropic-messages", "openai-compatible"]


@dataclass(frozen=True)
class Profile:
    """One provider API as por uses it."""

    name: str
    #: litellm's route prefix (``openai/`` sends chat completions, ``anthropic/`` messages).
    route: str
    #: Sampler parameters the API honours: a lock may pin only these.
    honoured: frozenset[str]
    #: Parameters a lock MUST pin (server defaults differ from client defaults).
    required: tuple[str, ...]
    #: Top-level request fields the client sends beside the locked parameters.
    request_fields: frozenset[str]
    #: How JSON output is asked for: ``json_object+schema``, ``json_schema`` or ``none``.
    json_mode: str
    #: Messages on the wire: ``chat`` (as rendered) or ``anthropic`` (system top level,
    #: content as text blocks).
    messages: str
    #: Response fields shown to people (the whole response is recorded anyway).
    recorded: tuple[str, ...]
    #: Header that carries the credential upstream (``authorization`` as ``Bearer``).
    credential_header: str
    #: Path of the model list for the pre-flight check.
    models_path: str


PROFILES: dict[str, Profile] = {
    "openai-compatible": Profile(
        name="openai-compatible", route="openai",
        honoured=frozenset({"temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed",
                            "max_tokens", "presence_penalty", "frequency_penalty"}),
        required=("temperature", "top_k", "top_p", "min_p", "repeat_penalty", "seed",
                  "max_tokens"),
        request_fields=frozenset({"model", "messages", "response_format"}),
        json_mode="json_object+schema", messages="chat",
        recorded=("model", "system_fingerprint"), credential_header="authorization",
        models_path="/v1/models"),
    "openai-chat": Profile(
        name="openai-chat", route="openai",
        honoured=frozenset({"temperature", "top_p", "seed", "max_tokens", "presence_penalty",
                            "frequency_penalty"}),
        required=("temperature", "top_p", "seed", "max_tokens"),
        request_fields=frozenset({"model", "messages", "response_format"}),
        json_mode="json_schema", messages="chat",
        recorded=("model", "system_fingerprint"), credential_header="authorization",
        models_path="/v1/models"),
    "anthropic-messages": Profile(
        name="anthropic-messages", route="anthropic",
        honoured=frozenset({"temperature", "top_p", "top_k", "max_tokens"}),
        required=("temperature", "max_tokens"),
        request_fields=frozenset({"model", "messages", "system"}),
        json_mode="none", messages="anthropic",
        recorded=("model", "stop_reason"), credential_header="x-api-key",
        models_path="/v1/models"),
}


def profile_of(name: str | None) -> Profile:
    """The profile a lock names (``openai-compatible`` when it names none)."""
    return PROFILES[name or DEFAULT_PROFILE]


def wire_messages(profile: Profile, messages: list[dict[str, str]]) -> dict[str, Any]:
    """The request fields that carry ``messages`` on this profile's wire."""
    if profile.messages == "chat":
        return {"messages": messages}
    system = [{"type": "text", "text": m["content"]} for m in messages if m["role"] == "system"]
    rest = [{"role": m["role"], "content": [{"type": "text", "text": m["content"]}]}
            for m in messages if m["role"] != "system"]
    return {"messages": rest, "system": system}


def response_format_for(profile: Profile, schema: Any) -> dict[str, Any] | None:
    """The ``response_format`` a lock with output ``schema`` sends (``None``: not sent)."""
    if profile.json_mode == "json_object+schema":
        return {"type": "json_object", "schema": schema}
    if profile.json_mode == "json_schema":
        # OpenAI structured outputs, strict: the API then refuses a schema it cannot
        # enforce instead of ignoring it, and strict mode needs every object closed
        # (``additionalProperties: false``) with every property required (ours are).
        return {"type": "json_schema", "json_schema": {
            "name": "por_vote", "strict": True,
            "schema": schema | {"additionalProperties": False}}}
    return None


def answer_text(profile: Profile, value: Any) -> Any:
    """The answer's text in a decoded response (``KeyError``/``IndexError``/``TypeError``
    when the response has no such place)."""
    if profile.messages == "anthropic":
        texts = [block["text"] for block in value["content"] if block["type"] == "text"]
        return texts[0] if len(texts) == 1 else None
    return value["choices"][0]["message"]["content"]


__all__ = ["DEFAULT_PROFILE", "PROFILES", "Profile", "ProfileName", "answer_text", "profile_of",
           "response_format_for", "wire_messages"]
