"""Court prompts from a context, and votes from an answer (SPEC §16.3).

:func:`render_messages` is pure: (lock, context) -> chat messages, so a
verifier re-renders them from the committed case and the committed prompts
(which is also what proves no judge saw another's vote: the messages are a
function of the case alone).  Placeholders are the six context fields in
``{name}`` form, ``{{``/``}}`` are literal braces (``str.format``'s rules,
applied in one pass; an unknown ``{name}`` stays as written).
:func:`parse_court_vote` is the validator (never the grammar: a 135M model
writes ``"worker_pct": 500`` under a schema that says ``maximum: 100``).
"""

from __future__ import annotations

import re
from typing import Any

from por.court.errors import CourtError
from por.court.judges.base import DisputeContext
from por.court.judges.prompts import NO_REBUTTAL
from por.jsontext import JsonTextError, loads_strict
from por.judges.errors import JudgementError
from por.judges.manifest import JudgeManifest
from por.judges.render import content_from_response, require_scalar_text

#: Longest reasoning kept in a committed vote (code points).
MAX_REASONING = 4000
_TOKEN = re.compile(r"\{\{|\}\}|\{([a-z_]+)\}")


def context_fields(context: DisputeContext) -> dict[str, str]:
    """The template variables of a context ("No rebuttal submitted" for none)."""
    return {
        "task_title": context.task_title,
        "reward": str(context.reward),
        "task_spec": context.task_spec,
        "deliverables": "\n".join(f"- {d}" for d in context.deliverables) or "(none)",
        "claim": context.claim,
        "rebuttal": NO_REBUTTAL if context.rebuttal is None else context.rebuttal,
    }


def fill(template: str, fields: dict[str, str]) -> str:
    """``template`` with ``{name}`` replaced and ``{{``/``}}`` unescaped, in one pass."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return fields.get(match.group(1), token)

    return _TOKEN.sub(one, template)


def render_messages(manifest: JudgeManifest, context: DisputeContext) -> list[dict[str, str]]:
    """The system prompt and the filled evaluation template of one court call."""
    try:
        system = manifest.system_prompt.text.decode("utf-8")
        template = manifest.template.text.decode("utf-8")
    except UnicodeDecodeError:
        raise JudgementError("judgement.prompt_text", "a locked prompt is not UTF-8") from None
    return [{"role": "system", "content": system},
            {"role": "user", "content": fill(template, context_fields(context))}]


def parse_court_vote(content: str) -> tuple[str, int]:
    """(reasoning, worker_pct) from an answer, or ``CourtError``.

    The answer must be one JSON object with exactly ``worker_pct`` (an integer
    0..100, no fraction) and ``reasoning`` (text, at most 4000 code points):
    ``court.vote_parse`` otherwise, ``court.vote_range`` for a bad number.
    """
    try:
        value: Any = loads_strict(content.strip(), max_depth=4)
    except JsonTextError:
        raise CourtError("court.vote_parse", "answer is not JSON") from None
    if not isinstance(value, dict) or set(value) != {"worker_pct", "reasoning"}:
        raise CourtError("court.vote_parse",
                         "answer is not an object with exactly worker_pct and reasoning")
    pct, reasoning = value["worker_pct"], value["reasoning"]
    if not isinstance(reasoning, str) or len(reasoning) > MAX_REASONING:
        raise CourtError("court.vote_parse", "reasoning is not text of at most "
                         f"{MAX_REASONING} code points")
    require_scalar_text(reasoning, "the reasoning")
    if isinstance(pct, bool) or not isinstance(pct, int):
        raise CourtError("court.vote_range", "worker_pct is not an integer",
                         expected="0..100", actual=type(pct).__name__)
    if not 0 <= pct <= 100:
        raise CourtError("court.vote_range", "worker_pct out of range", expected="0..100",
                         actual=pct)
    return reasoning, pct


def court_vote_from_response(response: bytes) -> tuple[str, int]:
    """A chat-completions response body all the way to (reasoning, worker_pct)."""
    return parse_court_vote(content_from_response(response))


__all__ = ["MAX_REASONING", "context_fields", "court_vote_from_response", "fill",
           "parse_court_vote", "render_messages"]
