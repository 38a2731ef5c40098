"""Lean PromptSpec and its parts (mirror ``por.schemas.prompt`` and ``.market``).

The records are generated from the pydantic models into
:mod:`por.lean.records_gen.prompt` (``python -m por.lean.generate``); their cross-field
rules are in :mod:`por.lean.hooks`.  This module names them where the fast path
has always imported them (SPEC §4.2, §4.3).
"""

from __future__ import annotations

from por.lean.records_gen.prompt import (
    COMPARISONS,
    CONTENT_TYPES,
    FIELD_KINDS,
    ConfidencePolicy,
    ConflictPolicy,
    DataRequirement,
    DisputePolicy,
    FieldSpec,
    MarketSpec,
    PredictionSemantics,
    PromptSpec,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    SelectionPolicy,
    SourceTarget,
)

__all__ = [
    "COMPARISONS",
    "CONTENT_TYPES",
    "FIELD_KINDS",
    "ConfidencePolicy",
    "ConflictPolicy",
    "DataRequirement",
    "DisputePolicy",
    "FieldSpec",
    "MarketSpec",
    "PredictionSemantics",
    "PromptSpec",
    "ResolutionRule",
    "ResolutionRules",
    "ResolutionWindow",
    "SelectionPolicy",
    "SourceTarget",
]
