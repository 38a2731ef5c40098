"""MarketSpec and its parts (SPEC §4.2): what a market asks and how it resolves.

The natural-language ``event_definition`` is kept for people; the judge never
parses it.  The machine-checkable predicate lives in
``PromptSpec.prediction_semantics`` (SPEC §4.3).
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, model_validator

from por.protocol.limits import CANONICAL_RULE_IDS  # one definition (issue 16)
from por.schemas.base import Count, Id, Model, UnixTime


class ResolutionWindow(Model):
    """Closed interval [start, end] of Unix seconds in which evidence must fall."""

    start: UnixTime
    end: UnixTime

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.start > self.end:
            raise ValueError("resolution_window.start is after end")
        return self


class ResolutionRule(Model):
    """One resolution rule: an id the judge reports and a priority (lower runs first)."""

    rule_id: Id
    description: str
    priority: Count


class ResolutionRules(Model):
    """Ordered rules; ids unique, list sorted by (priority, rule_id)."""

    rules: Annotated[list[ResolutionRule], Field(min_length=1, max_length=64)]

    @model_validator(mode="after")
    def _sorted_unique(self) -> Self:
        keys = [(r.priority, r.rule_id) for r in self.rules]
        if keys != sorted(keys):
            raise ValueError("rules must be sorted by (priority, rule_id)")
        if len({r.rule_id for r in self.rules}) != len(self.rules):
            raise ValueError("rule ids must be unique")
        return self


class DisputePolicy(Model):
    """How long a verdict can be challenged and who may challenge it."""

    dispute_window_seconds: Count
    challengers: Literal["anyone", "bonded"] = "anyone"


class MarketSpec(Model):
    """The market: question, event definition, window, rules, sources, disputes."""

    market_id: Id
    question: str
    event_definition: str
    resolution_window: ResolutionWindow
    resolution_rules: ResolutionRules
    allowed_sources: Annotated[list[Id], Field(max_length=256)]
    dispute_policy: DisputePolicy

    @model_validator(mode="after")
    def _sources_sorted(self) -> Self:
        if self.allowed_sources != sorted(set(self.allowed_sources)):
            raise ValueError("allowed_sources must be sorted and unique")
        return self


__all__ = [
    "CANONICAL_RULE_IDS",
    "DisputePolicy",
    "MarketSpec",
    "ResolutionRule",
    "ResolutionRules",
    "ResolutionWindow",
]
