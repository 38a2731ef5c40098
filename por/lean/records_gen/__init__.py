"""The lean records, generated from the pydantic models: do not edit (issue 21).

One module per domain, written by ``python -m por.lean.generate``; this one
names every generated record and literal set from its module.
"""

from __future__ import annotations

from por.lean.records_gen.bundle import Bundle, Commitments
from por.lean.records_gen.evidence import EvidenceItem, RetrievalReceipt, SourceRef
from por.lean.records_gen.prompt import (
    COMPARISONS,
    CONTENT_TYPES,
    FIELD_KINDS,
    PREDICATES,
    ConfidencePolicy,
    ConflictPolicy,
    DataRequirement,
    DisputePolicy,
    FieldSpec,
    MarketSpec,
    NumberFormat,
    Precondition,
    PredictionSemantics,
    PromptSpec,
    ResolutionRule,
    ResolutionRules,
    ResolutionWindow,
    SelectionPolicy,
    SourceLocator,
    SourceTarget,
    Term,
    ValueMap,
    ValueMapEntry,
)

__all__ = [
    "COMPARISONS",
    "CONTENT_TYPES",
    "FIELD_KINDS",
    "PREDICATES",
    "Bundle",
    "Commitments",
    "ConfidencePolicy",
    "ConflictPolicy",
    "DataRequirement",
    "DisputePolicy",
    "EvidenceItem",
    "FieldSpec",
    "MarketSpec",
    "NumberFormat",
    "Precondition",
    "PredictionSemantics",
    "PromptSpec",
    "ResolutionRule",
    "ResolutionRules",
    "ResolutionWindow",
    "RetrievalReceipt",
    "SelectionPolicy",
    "SourceLocator",
    "SourceRef",
    "SourceTarget",
    "Term",
    "ValueMap",
    "ValueMapEntry",
]
