"""Lean EvidenceItem (mirrors ``por.schemas.evidence``, SPEC §4.4).

:class:`EvidenceItem`, :class:`SourceRef` and :class:`RetrievalReceipt` are
generated from the pydantic models into :mod:`por.lean.records_gen.evidence`
(``python -m por.lean.generate``), with the fast path's memory helpers (shared
ids, interned sources and receipts, the body kept as a span of the bundle:
:class:`por.lean.hooks.SpannedContent`).  :class:`Evidence` is what the auditor
and judge read of an EvidenceBundle.
"""

from __future__ import annotations

from por.lean.records_gen.evidence import EvidenceItem, RetrievalReceipt, SourceRef
from por.protocol.limits import MAX_CONTENT_BYTES, MAX_EVIDENCE_ITEMS


class Evidence:
    """What the auditor and judge read of an EvidenceBundle: items and market id.

    ``root``: the evidence root, when the caller has already checked it against
    these items' bytes (the fast path, which hashes them in place), so the judge
    need not copy and hash them again (``judge.deterministic_mapping.evidence_root_of``)."""

    __slots__ = ("items", "market_id", "root")

    def __init__(self, market_id: str, items: list[EvidenceItem],
                 root: bytes | None = None) -> None:
        self.market_id = market_id
        self.items = items
        self.root = root


__all__ = [
    "MAX_CONTENT_BYTES",
    "MAX_EVIDENCE_ITEMS",
    "Evidence",
    "EvidenceItem",
    "RetrievalReceipt",
    "SourceRef",
]
