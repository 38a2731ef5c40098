"""Bundle layout, commitments and ``por_root`` (SPEC §5).

``bundle.cbor`` is one por-cbor/1 map (a ``por.Bundle/2`` record).  Records
travel as byte strings holding their canonical encoding, so hashing never
depends on re-encoding; ``forms`` carries each chain form's leaf hash (SPEC
§5.6), the forms tree's leaves as given.  ``por_root`` is the RFC 9162 root over seven fixed-width
*component leaves*, each ``root (32 bytes) || size (8 bytes, big-endian)``, in
the order of :data:`COMPONENTS`.  A contract can check a two-level proof
(record leaf -> component root -> por_root) without parsing CBOR.

This module holds the wire declarations (:class:`Commitments`, :class:`Bundle`);
commitments, leaves and proofs derive from the one component spec
(:data:`por.container.POR_BUNDLE`, SPEC §5.5) through :data:`POR`.  Leaves out:
opening a bundle for verification (``verifier``, SPEC §6.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import FailFast, Field

from por.container import POR_BUNDLE, component_leaf
from por.container.models import Container
from por.errors import BundleError
from por.lean.bundle import DEFAULT_BUNDLE_MAX_SIZE
from por.merkle import root_hash
from por.schemas.base import Blob, Count, Hash32, Model, Record
from por.schemas.evidence import MAX_EVIDENCE_ITEMS

#: Component order and positions in the por_root tree (SPEC §5.4).  Never reorder.
COMPONENTS: tuple[str, ...] = POR_BUNDLE.names
COMPONENT_INDEX = POR_BUNDLE.index


class Commitments(Model):
    """Every hash and size the bundle commits to (SPEC §5.3)."""

    manifest_hash: Hash32
    prompt_spec_hash: Hash32
    evidence_root: Hash32
    evidence_count: Count
    trace_header_hash: Hash32
    reasoning_root: Hash32
    reasoning_count: Count
    verdict_hash: Hash32
    forms_root: Hash32
    forms_count: Count
    por_root: Hash32

    def component(self, name: str) -> tuple[bytes, int]:
        """(root, size) of one component."""
        return POR_BUNDLE.pair(self, name)

    def component_leaves(self) -> list[bytes]:
        """The seven component leaves, in :data:`COMPONENTS` order."""
        return POR_BUNDLE.leaves(self)


class Bundle(Record):
    """The whole bundle: records as canonical bytes, commitments, signatures."""

    SCHEMA: ClassVar[str] = "por.Bundle/2"

    record_schema: Literal["por.Bundle/2"] = Field("por.Bundle/2", alias="schema")
    manifest: Blob
    prompt_spec: Blob
    evidence: Annotated[list[Blob], FailFast(), Field(max_length=MAX_EVIDENCE_ITEMS)]
    trace_header: Blob
    steps: Annotated[list[Blob], FailFast()]
    verdict: Blob
    forms: Annotated[list[Hash32], FailFast()]
    commitments: Commitments
    signatures: Annotated[list[Blob], FailFast()]


def por_root_from_components(leaves: list[bytes]) -> bytes:
    """RFC 9162 root over the component leaves."""
    return root_hash(leaves)


#: The PoR bundle's container: commitments, assembly, opening and component proofs.
#: Its opening reports SPEC §6.2 step 3's ``commit.<field>`` ids; the verifier
#: opens bundles itself, with ChallengeRefs and the work budget (§6.2, §17).
POR: Container[Bundle, Commitments] = Container(
    POR_BUNDLE, Bundle, Commitments, noun="bundle", error=BundleError,
    mismatch_id="commit.{field}")


def honest_forms(prompt_spec: bytes, steps: list[bytes], verdict: bytes, *,
                 strict: bool = True) -> list[bytes]:
    """``LH(F)`` of every chain form of the records (SPEC §5.6), in component order;
    ``PorError('form.none')`` naming a record that has none, or with ``strict=False``
    32 zero bytes in its place (a tool's stand-in: ``por verify`` then reports
    ``form.none`` there, as it would for any carried hash)."""
    from por.encoding import decode  # noqa: PLC0415
    from por.errors import PorError  # noqa: PLC0415
    from por.forms.bundle import form_leaves  # noqa: PLC0415

    if strict:
        return form_leaves(decode(prompt_spec), [decode(s) for s in steps], decode(verdict))

    def value(blob: bytes) -> Any:
        try:
            return decode(blob)
        except PorError:
            return None  # no form: the stand-in

    try:
        return form_leaves(value(prompt_spec), [value(s) for s in steps], value(verdict),
                           missing=bytes(32))
    except PorError:  # no requirement count to order the forms by: none carried
        return []


def with_forms(records: Mapping[str, Any]) -> dict[str, Any]:
    """``records`` (bundle fields) with ``forms``: as given, else the honest ones
    (zero bytes for a record with no form, as :func:`compute_commitments`)."""
    out = dict(records)
    if out.get("forms") is None:
        out["forms"] = honest_forms(out["prompt_spec"], list(out["steps"]), out["verdict"],
                                    strict=False)
    return out


def compute_commitments(
    *,
    manifest: bytes,
    prompt_spec: bytes,
    evidence: list[bytes],
    trace_header: bytes,
    steps: list[bytes],
    verdict: bytes,
    forms: list[bytes] | None = None,
) -> Commitments:
    """All commitments from the canonical record bytes and the carried form
    leaf hashes (SPEC §5.3); ``forms`` None: the honest ``LH(F)`` of the records
    (:func:`honest_forms`, zero bytes for a record with no form)."""
    if forms is None:
        forms = honest_forms(prompt_spec, steps, verdict, strict=False)
    return POR.commit({"manifest": manifest, "prompt_spec": prompt_spec, "evidence": evidence,
                       "trace_header": trace_header, "steps": steps, "verdict": verdict,
                       "forms": forms})


__all__ = [
    "COMPONENTS",
    "COMPONENT_INDEX",
    "DEFAULT_BUNDLE_MAX_SIZE",
    "POR",
    "Bundle",
    "Commitments",
    "component_leaf",
    "compute_commitments",
    "honest_forms",
    "por_root_from_components",
    "with_forms",
]
