"""A component spec bound to its family's pydantic models (SPEC §5.5).

:class:`Container` ties a :class:`~por.container.spec.BundleSpec` to the wire
declarations a family keeps in its own package (its bundle record and its
``*Commitments`` model) and gives every family the same machinery:
commitments from the records' canonical bytes, assembly, strict opening in
one order, and component proofs.  A new family is a spec and two models,
not a copy of this code.

Leaves out: the hashing itself (:mod:`por.container.spec`, pydantic-free for
the fast path) and everything a family checks after opening (manifests,
calls, votes, rulings: each family's ``verify`` module).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Generic, TypeVar

from por.container.proofs import ComponentProof, component_proof, root_from_component_proof
from por.container.spec import BundleSpec, RecordBytes
from por.encoding import decode
from por.errors import PorError, SchemaError
from por.schemas.base import Model, Record

B = TypeVar("B", bound=Record)
C = TypeVar("C", bound=Model)
R = TypeVar("R")


class Container(Generic[B, C]):
    """The committed-bundle machinery of one family.

    ``spec`` is bound to the family's bundle record type ``bundle`` (its field
    ``commitments`` holds a ``commitments`` model, whose fields must be
    ``spec.commitment_fields``, in order) and to the error a commitment
    mismatch raises, ``error(mismatch_id, ...)``; ``mismatch_id`` may name
    ``{field}``, the first commitment that differs (PoR's ``commit.{field}``,
    SPEC §6.2 step 3).  ``noun`` names the bundle in messages."""

    def __init__(self, spec: BundleSpec, bundle: type[B], commitments: type[C], *,
                 noun: str, error: type[PorError], mismatch_id: str) -> None:
        if spec.schema != bundle.SCHEMA or tuple(commitments.model_fields) != \
                spec.commitment_fields:
            raise ValueError(f"{spec.schema}: the models do not match the component spec")
        self.spec = spec
        self.bundle_type = bundle
        self.commitments_type = commitments
        self.noun = noun
        self.error = error
        self.mismatch_id = mismatch_id

    def commit(self, records: Mapping[str, RecordBytes]) -> C:
        """Every commitment from the records' canonical bytes, keyed by bundle field."""
        # Validated through the model: a constructed object never skips its invariants.
        return self.commitments_type.model_validate(self.spec.commitments(records))

    def assemble(self, records: Mapping[str, RecordBytes], **fields: object) -> B:
        """The bundle of ``records`` and their commitments; ``fields`` are the
        bundle's other fields (e.g. ``signatures``)."""
        return self.bundle_type.model_validate(
            {**records, "commitments": self.commit(records), **fields})

    def open(self, data: bytes, *, max_size: int,
             decode_records: Callable[[B], R]) -> tuple[B, R]:
        """Strict opening, in the one order of SPEC §5.5 (that of §6.2 steps 1-3):

        1. ``data`` decodes as canonical por-cbor/1 under ``max_size`` (``codec.*``)
           and is the bundle record in its canonical form (``schema.*``);
        2. ``decode_records`` decodes every record strictly (``codec.*``,
           ``schema.*``, a family's own ids such as ``lock.manifest``);
        3. the commitments recompute from the record bytes (``mismatch_id``).

        Returns the bundle and what ``decode_records`` returned.
        """
        value = decode(data, max_size=max_size)
        bundle = self.bundle_type.from_dict(value)
        if bundle.to_dict() != value:  # as Record.from_cbor, under the caller's size cap
            raise SchemaError("schema.non_canonical_record",
                              f"{self.noun} bytes are not the record's canonical form")
        records = decode_records(bundle)
        self.verify_commitments(bundle)
        return bundle, records

    def verify_commitments(self, bundle: B) -> C:
        """Step 3 of :meth:`open`: the recomputed commitments; raises
        ``error(mismatch_id)`` when they differ from the committed ones."""
        rebuilt = self.commit(self.spec.records(bundle))
        committed: C = getattr(bundle, "commitments")  # noqa: B009 - B's field, by declaration
        if rebuilt != committed:
            first = next(name for name in self.spec.commitment_fields
                         if getattr(rebuilt, name) != getattr(committed, name))
            root = self.spec.root
            raise self.error(self.mismatch_id.format(field=first),
                             "commitments do not match the records",
                             expected=getattr(rebuilt, root), actual=getattr(committed, root))
        return rebuilt

    def component_leaves(self, commitments: C) -> list[bytes]:
        """The component leaves of ``commitments``, in committed order."""
        return self.spec.leaves(commitments)

    def component_proof(self, bundle: B, component: str, position: int) -> ComponentProof:
        """Two-level proof of record ``position`` of ``component`` (0 for a single record)."""
        held = self.spec.records(bundle)[self.spec.component(component).field]
        records = [held] if isinstance(held, bytes) else list(held)
        return component_proof(self.spec, getattr(bundle, "commitments"),  # noqa: B009
                               records, component, position)

    def root_from_component_proof(self, record: bytes, proof: ComponentProof) -> bytes:
        """The top root ``proof`` implies for ``record`` (compare it with a trusted one)."""
        return root_from_component_proof(self.spec, record, proof)


__all__ = ["Container"]
