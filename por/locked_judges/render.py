"""Prompts from a committed subject, and votes from an answer (SPEC §15.3).

:func:`render_messages` is pure: (manifest, subject) -> chat messages, so a
verifier re-renders them from the committed subject and templates.  The
template's ``{{name}}`` placeholders are replaced in one pass from a fixed set.
:func:`parse_vote` is the validator (never the grammar: a 135M model writes
``"confidence": 500`` under a schema that says ``maximum: 100``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from por.bundle.layout import DEFAULT_BUNDLE_MAX_SIZE, Bundle
from por.encoding import encode
from por.errors import PorError
from por.jsontext import JsonTextError, loads_strict
from por.locked_judges.errors import JudgementError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.profiles import DEFAULT_PROFILE, PROFILES, Profile, answer_text
from por.locked_judges.records import JudgeSubject
from por.predicates.describe import predicate_lines
from por.schemas import EvidenceItem, PromptSpec

#: Characters of one evidence item's text shown to the model.
MAX_EVIDENCE_CHARS = 600
#: Evidence items shown to the model.
MAX_EVIDENCE_ITEMS = 8
_PLACEHOLDER = re.compile(r"\{\{([a-z_]+)\}\}")


def subject_fields(subject: JudgeSubject) -> dict[str, str]:
    """The template variables of a subject (decoded from its committed bundle)."""
    bundle = Bundle.from_cbor(subject.bundle, max_size=DEFAULT_BUNDLE_MAX_SIZE)  # §15.2.1
    spec = PromptSpec.from_cbor(bundle.prompt_spec)
    lines = []
    for raw in bundle.evidence[:MAX_EVIDENCE_ITEMS]:
        item = EvidenceItem.from_cbor(raw)
        text = item.content.decode("utf-8", errors="replace")[:MAX_EVIDENCE_CHARS]
        lines.append(f"- [{item.source.source_id}] {text}")
    market = spec.market
    rule = predicate_lines(spec.prediction_semantics)
    return {
        "market_id": market.market_id,
        "question": market.question,
        "event_definition": "\n".join([market.event_definition, *rule]),
        "window_start": str(market.resolution_window.start),
        "window_end": str(market.resolution_window.end),
        "evidence": "\n".join(lines) if lines else "(no evidence)",
    }


def render_messages(manifest: JudgeManifest, subject: JudgeSubject) -> list[dict[str, str]]:
    """The chat messages of one call: the system prompt and the filled template."""
    fields = subject_fields(subject)
    try:
        template = manifest.template.text.decode("utf-8")
        system = manifest.system_prompt.text.decode("utf-8")
    except UnicodeDecodeError:
        raise JudgementError("judgement.prompt_text", "a locked prompt is not UTF-8") from None

    def fill(match: re.Match[str]) -> str:
        return fields.get(match.group(1), match.group(0))

    return [{"role": "system", "content": system},
            {"role": "user", "content": _PLACEHOLDER.sub(fill, template)}]


def messages_hash(messages: list[dict[str, str]]) -> bytes:
    """SHA-256 of the messages' por-cbor/1 encoding."""
    return hashlib.sha256(encode([dict(m) for m in messages])).digest()


def parse_vote(content: str) -> tuple[str, int]:
    """(outcome, confidence_bps) from an answer, or ``JudgementError``.

    The answer must be one JSON object with exactly ``outcome`` (YES/NO/INVALID)
    and ``confidence`` (integer 0..100, no fraction): ``judgement.vote_parse``
    otherwise, ``judgement.vote_range`` for a number out of range.
    """
    try:
        value: Any = loads_strict(content.strip(), max_depth=4)
    except JsonTextError as exc:
        raise JudgementError("judgement.vote_parse", f"answer is not JSON: {exc}") from None
    if not isinstance(value, dict) or set(value) != {"outcome", "confidence"}:
        raise JudgementError("judgement.vote_parse",
                             "answer is not an object with exactly outcome and confidence")
    outcome, confidence = value["outcome"], value["confidence"]
    if outcome not in ("YES", "NO", "INVALID"):
        raise JudgementError("judgement.vote_parse", "outcome is not YES, NO or INVALID",
                             actual=str(outcome)[:40])
    if isinstance(confidence, bool) or not isinstance(confidence, int):
        raise JudgementError("judgement.vote_range", "confidence is not an integer",
                             expected="0..100", actual=str(confidence)[:40])
    if not 0 <= confidence <= 100:
        raise JudgementError("judgement.vote_range", "confidence out of range",
                             expected="0..100", actual=confidence)
    return outcome, confidence * 100


#: Largest answer (response body) a judge may give, in bytes (SPEC §15.4): the
#: transcript server reads at most ``MAX_RESPONSE + 1`` bytes of a body, so a
#: recorded response of ``MAX_RESPONSE + 1`` bytes is the prefix of a longer one.
MAX_RESPONSE = (1 << 20) - 1


def require_scalar_text(text: str, what: str) -> str:
    """``text`` if it is Unicode scalar values only, else ``judgement.response_surrogate``
    (a JSON ``\\ud800`` escape decodes to a lone surrogate, which no record can hold)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise JudgementError("judgement.response_surrogate",
                             f"{what} holds a lone surrogate code point") from None
    return text


def content_from_response(response: bytes, profile: Profile = PROFILES[DEFAULT_PROFILE]) -> str:
    """The answer's text: ``choices[0].message.content`` of a chat-completions body,
    the one ``text`` block of ``content`` of an Anthropic messages body (``profile``).

    Classified in this order (SPEC §15.4): over :data:`MAX_RESPONSE` bytes
    (``judgement.response_too_large``), not UTF-8 (``judgement.response_utf8``),
    not a chat completion (``judgement.response_parse``), content with a lone
    surrogate (``judgement.response_surrogate``).
    """
    if len(response) > MAX_RESPONSE:
        raise JudgementError("judgement.response_too_large", "the answer is over the cap",
                             expected=f"<= {MAX_RESPONSE} bytes", actual=len(response))
    try:
        text = response.decode("utf-8")
    except UnicodeDecodeError:
        raise JudgementError("judgement.response_utf8", "the answer is not UTF-8") from None
    try:
        value = loads_strict(text)
        content = answer_text(profile, value)
    except (JsonTextError, KeyError, IndexError, TypeError):
        raise JudgementError("judgement.response_parse",
                             f"response has no {profile.name} answer text") from None
    if not isinstance(content, str):
        raise JudgementError("judgement.response_parse", "response content is not text")
    return require_scalar_text(content, "the answer's content")


def vote_from_response(response: bytes) -> tuple[str, int]:
    """Parse a response body all the way to a vote (both steps above)."""
    return parse_vote(content_from_response(response))


def is_judgement_error(exc: PorError) -> bool:
    """True for the errors that make an attempt ``invalid_response``."""
    return exc.check_id in {"judgement.vote_parse", "judgement.vote_range",
                            "judgement.response_parse", "judgement.response_too_large",
                            "judgement.response_utf8", "judgement.response_surrogate"}


__all__ = ["MAX_RESPONSE", "content_from_response", "messages_hash", "parse_vote",
           "render_messages", "require_scalar_text", "subject_fields", "vote_from_response"]
