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

import json
import re
from typing import Any

from por.court.errors import CourtError
from por.court.seed003.base import DisputeContext
from por.court.seed003.prompts import NO_REBUTTAL
from por.jsontext import JsonTextError, loads_strict
from por.locked_judges.errors import JudgementError
from por.locked_judges.manifest import JudgeManifest
from por.locked_judges.render import content_from_response, require_scalar_text

#: Longest reasoning kept in a committed vote (code points).
MAX_REASONING = 4000
_TOKEN = re.compile(r"\{\{|\}\}|\{([a-z_]+)(!json)?\}")
#: Characters a JSON string keeps as written but a reader may take for a line break.
_LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}


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


def json_fields(context: DisputeContext) -> dict[str, str]:
    """The ``{name!json}`` values of a context: each party text as one line of JSON
    (SPEC §16.3: a string, the deliverables an array, no rebuttal ``null``)."""
    values: dict[str, object] = {
        "task_title": context.task_title, "reward": context.reward,
        "task_spec": context.task_spec, "deliverables": list(context.deliverables),
        "claim": context.claim, "rebuttal": context.rebuttal,
    }
    return {name: json_line(value) for name, value in values.items()}


def json_line(value: object) -> str:
    """JSON text on one line: Python's ``json.dumps`` with non-ASCII kept, and
    U+0085, U+2028, U+2029 escaped too (no character of it breaks a line)."""
    text = json.dumps(value, ensure_ascii=False)
    for char, escaped in _LINE_BREAKS.items():
        text = text.replace(char, escaped)
    return text


def fill(template: str, fields: dict[str, str],
         quoted: dict[str, str] | None = None) -> str:
    """``template`` with ``{name}`` (from ``fields``) and ``{name!json}`` (from
    ``quoted``) replaced and ``{{``/``}}`` unescaped, in one pass."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        table = fields if match.group(2) is None else (quoted or {})
        return table.get(match.group(1), token)

    return _TOKEN.sub(one, template)


def render_messages(manifest: JudgeManifest, context: DisputeContext) -> list[dict[str, str]]:
    """The system prompt and the filled evaluation template of one court call."""
    try:
        system = manifest.system_prompt.text.decode("utf-8")
        template = manifest.template.text.decode("utf-8")
    except UnicodeDecodeError:
        raise JudgementError("judgement.prompt_text", "a locked prompt is not UTF-8") from None
    return [{"role": "system", "content": system},
            {"role": "user", "content": fill(template, context_fields(context),
                                             json_fields(context))}]


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


__all__ = ["MAX_REASONING", "context_fields", "court_vote_from_response", "fill", "json_fields",
           "json_line",
           "parse_court_vote", "render_messages"]
