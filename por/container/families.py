"""The committed bundle families of por-cbor/1, declared once (SPEC §5.5).

Each table is the committed component order of its family: never reorder it
(docs/adr/0003).  The order and the names equal SPEC §5.4 (PoR bundles),
§15.2.5 (judgement bundles) and §16.5 (court bundles); a test pins every
family's pydantic ``*Commitments`` model to :attr:`BundleSpec.commitment_fields`.
Plain data, no pydantic: the fast path reads :data:`POR_BUNDLE`.

Leaves out: the wire models and their binding (each family's package).
"""

from __future__ import annotations

from por.container.spec import BundleSpec, hashes, many, one

#: ``por.Bundle/2`` (SPEC §5.4): the reasoning steps live in the field ``steps``;
#: ``forms`` holds each chain form's leaf hash ``LH(F)`` (SPEC §5.6), not the forms.
POR_BUNDLE = BundleSpec("por.Bundle/2", "por_root", (
    one("manifest"),
    one("prompt_spec"),
    many("evidence"),
    one("trace_header"),
    many("reasoning", field="steps"),
    one("verdict"),
    hashes("forms"),
))

#: ``por.JudgementBundle/1`` (SPEC §15.2.5).
JUDGEMENT_BUNDLE = BundleSpec("por.JudgementBundle/1", "judgement_root", (
    one("manifest"),
    many("subjects"),
    many("calls"),
    many("votes"),
    one("report"),
))

#: ``por.CourtBundle/1`` (SPEC §16.5).
COURT_BUNDLE = BundleSpec("por.CourtBundle/1", "court_root", (
    one("case"),
    one("rule"),
    many("panel"),
    many("calls"),
    many("votes"),
    many("rulings"),
))

__all__ = ["COURT_BUNDLE", "JUDGEMENT_BUNDLE", "POR_BUNDLE"]
