"""The plan of a requirement's regex fields (SPEC §12.1.2) and the work budget (§17.5).

Each field's pattern is measured on its text (:mod:`por.auditor.regex_syntax`),
checked against the limits in SPEC's order, and compiled with RE2 (whose
matching semantics the subset keeps); the plan is a pure function of the
patterns, so every item and every one-step re-execution sees the same one.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import re2  # type: ignore[import-untyped]

from por.auditor.regex_syntax import RegexMeasure, RegexSyntaxError, measure

#: Regexes see at most this many leading characters of a text body.
MAX_REGEX_INPUT_CHARS = 1 << 20


def _re2_options() -> re2.Options:
    options = re2.Options()
    options.log_errors = False  # a bad pattern is a warning here, not stderr noise
    return options


_RE2_OPTIONS = _re2_options()


#: Limits on PromptSpec regexes (SPEC §12.1.2).  A pattern is hostile input to a
#: verifier: RE2 matches in time linear in the text, but the constant grows with
#: the pattern.  So: at most this many characters...
MAX_REGEX_CHARS = 256
#: ...in the subset of :mod:`por.auditor.regex_syntax`, whose counted repetitions'
#: bounds add up to at most this...
MAX_REGEX_REPEAT_SUM = 64
#: ...with at most this many positions (SPEC §12.1.2)...
MAX_REGEX_POSITIONS = 512
#: ...and the regex fields of one requirement at most this many in total.
MAX_REGEX_POSITIONS_PER_REQUIREMENT = 1024

#: Regex work an item may cost, in units of (1 + width) x scanned bytes (SPEC §17.5):
#: this many per byte of the item's content, plus :data:`REGEX_WORK_SLACK`.
REGEX_WORK_PER_BYTE = 72
#: Work every item may spend regardless of its size (small items, short bodies).
REGEX_WORK_SLACK = 1 << 16

#: The committed refusal texts, in the order the rules are checked (SPEC §12.1.2).
REGEX_TOO_LONG = f"regex longer than {MAX_REGEX_CHARS} characters"
REGEX_SYNTAX = "regex outside the SPEC 12.1.2 syntax"
REGEX_REPEATS = f"counted repetitions add up to more than {MAX_REGEX_REPEAT_SUM}"
REGEX_NO_GROUP = "regex has no capture group"
REGEX_POSITIONS = f"regex has more than {MAX_REGEX_POSITIONS} positions"
REGEX_REQUIREMENT = (f"regex fields of the requirement exceed "
                     f"{MAX_REGEX_POSITIONS_PER_REQUIREMENT} positions")
REGEX_BUDGET = "regex work budget of the item is spent"


@dataclass(frozen=True, slots=True)
class CompiledField:
    """An admitted pattern: its RE2 program and its cost per scanned byte."""

    program: Any
    measure: RegexMeasure


#: A compiled pattern, or the reason it may not run.
RegexPlan = tuple[CompiledField | str, ...]


def _compile_one(pattern: str) -> CompiledField | str:
    if len(pattern) > MAX_REGEX_CHARS:
        return REGEX_TOO_LONG
    try:
        found = measure(pattern)
    except RegexSyntaxError:
        return REGEX_SYNTAX
    if found.repeat_sum > MAX_REGEX_REPEAT_SUM:
        return REGEX_REPEATS
    if found.groups < 1:
        return REGEX_NO_GROUP
    if found.positions > MAX_REGEX_POSITIONS:
        return REGEX_POSITIONS
    # The subset is RE2 syntax, and at most 512 positions compile well within
    # RE2's default memory; a refusal here would be a bug, and fails closed.
    try:
        return CompiledField(re2.compile(pattern, options=_RE2_OPTIONS), found)
    except re2.error:  # pragma: no cover - the subset always compiles
        return REGEX_SYNTAX


@functools.lru_cache(maxsize=1024)
def regex_plan(patterns: tuple[str | None, ...]) -> RegexPlan:
    """Per field of one requirement (in order): its compiled pattern, or why it may
    not run.  A pure function of the patterns, so every item and every one-step
    re-execution sees the same plan (SPEC §12.1.2)."""
    plan: list[CompiledField | str] = []
    budget = MAX_REGEX_POSITIONS_PER_REQUIREMENT
    for pattern in patterns:
        entry = "" if pattern is None else _compile_one(pattern)
        if not isinstance(entry, str):
            if entry.measure.positions > budget:
                entry = REGEX_REQUIREMENT
            else:
                budget -= entry.measure.positions
        plan.append(entry)
    return tuple(plan)


def window_bytes(text: str) -> int:
    """UTF-8 length of the first :data:`MAX_REGEX_INPUT_CHARS` characters."""
    if len(text) <= MAX_REGEX_INPUT_CHARS and text.isascii():
        return len(text)
    return len(text[:MAX_REGEX_INPUT_CHARS].encode("utf-8"))


__all__ = [
    "MAX_REGEX_INPUT_CHARS",
    "MAX_REGEX_POSITIONS_PER_REQUIREMENT",
    "REGEX_BUDGET",
    "REGEX_SYNTAX",
    "REGEX_TOO_LONG",
    "REGEX_WORK_PER_BYTE",
    "REGEX_WORK_SLACK",
    "CompiledField",
    "regex_plan",
    "window_bytes",
]
