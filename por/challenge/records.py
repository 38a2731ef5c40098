"""Challenge proof records (SPEC §10.2): the wire form of a challenge.

Three ``por-cbor/1`` records, each with a ``schema`` field and a ``challenge_id``:

* ``por.InclusionProof/1`` -- one record leaf, its RFC 9162 path to its
  component root, and the component leaf's path to ``por_root`` (two levels);
* ``por.BundleProof/1`` -- the seven component leaves that ``por_root`` is the
  root of, with the manifest, trace-header and verdict records;
* ``por.OneStepProof/1`` -- a reasoning step's inclusion proof plus the
  inclusion proofs of everything it cites and of the PromptSpec.

``challenge_id`` is SHA-256 over the canonical encoding of the record with the
``challenge_id`` key removed (SPEC §10.3); :func:`challenge_id_from_body`.

This module holds the models, the id rule and decoding of proof bytes; it
neither builds nor verifies proofs (see ``proofs`` and ``one_step``).
"""

from __future__ import annotations

import hashlib
import re
from typing import Annotated, Any, ClassVar, Final, Literal, Self

from pydantic import FailFast, Field, model_validator

from por.encoding import decode
from por.encoding.encoder import hash_encoded
from por.errors import EncodingError, ProofError, SchemaError, UnsupportedError
from por.protocol import limits
from por.schemas.base import Blob, Count, Hash32, Id, Record

#: The largest proof file anyone checks (SPEC §10.7, ``por.protocol.limits``):
#: ``check_proof``'s default, ``verify --challenges`` (which checks every candidate
#: with ``check_proof``) and ``por check-proof --max-size``
#: (``por.cli.common.PROOF_MAX_SIZE``, the same number, kept there so that building
#: the parser imports no protocol code) all use it, so "lost" never means "too large
#: for this checker's own default".
PROOF_MAX_SIZE: Final = limits.PROOF_MAX_SIZE

#: A proof of ``n`` bytes holds at most :func:`proof_max_items` items in its
#: arrays and maps together (SPEC §10.4 step 0, §17.1), charged at each container's head:
#: every item of an honest proof is a hash, a leaf or a map entry of an
#: InclusionProof (39 or more bytes per item in every proof the fixtures give), so
#: a list of one-byte items is refused before it is built (issue 22 item 5).
PROOF_BYTES_PER_ITEM: Final = 4


def proof_max_items(size: int) -> int:
    """``16 + floor(size / 4)``: the items a proof of ``size`` bytes may hold in its
    arrays and maps together (SPEC §10.4 step 0; 16 so that a tiny non-proof
    still reaches the schema check)."""
    return 16 + size // PROOF_BYTES_PER_ITEM

#: ChallengeRef kinds answered by an InclusionProof, and the component each names.
KIND_COMPONENT: Final[dict[str, str]] = {
    "prompt_spec": "prompt_spec",
    "evidence_leaf": "evidence",
    "reasoning_leaf": "reasoning",
    "verdict": "verdict",
}
#: The record schema a leaf of each kind holds in a valid bundle.
LEAF_SCHEMA: Final[dict[str, str]] = {
    "prompt_spec": "por.PromptSpec/1",
    "evidence_leaf": "por.EvidenceItem/1",
    "reasoning_leaf": "por.ReasoningStep/1",
    "verdict": "por.DeterministicVerdict/1",
}
#: Width of a component leaf: 32-byte root || 8-byte big-endian size (SPEC §5.4).
COMPONENT_LEAF_SIZE: Final = 40
#: A path in a tree of fewer than 2**64 leaves has at most 64 elements.
MAX_PATH: Final = 64
#: A FormStepProof carries at most this many forms (SPEC §10.2.9): the disputed form,
#: COMMON, a REQUIREMENT and what the step cites (at most 64 prior steps or items, §4).
MAX_FORMS: Final = 67

LeafKind = Literal["prompt_spec", "evidence_leaf", "reasoning_leaf", "verdict"]
Path = Annotated[list[Hash32], Field(max_length=MAX_PATH)]
ComponentLeaf = Annotated[bytes, Field(min_length=COMPONENT_LEAF_SIZE,
                                       max_length=COMPONENT_LEAF_SIZE)]


class InclusionProof(Record):
    """A record leaf, proven to be in the tree that ``por_root`` commits (SPEC §10.2.1)."""

    SCHEMA: ClassVar[str] = "por.InclusionProof/1"

    record_schema: Literal["por.InclusionProof/1"] = Field("por.InclusionProof/1",
                                                           alias="schema")
    challenge_id: Hash32
    kind: LeafKind
    component: Id
    leaf: Blob
    leaf_index: Count
    tree_size: Count
    leaf_path: Path
    component_root: Hash32
    component_path: Path
    por_root: Hash32


class BundleProof(Record):
    """The component leaves under ``por_root`` and the bundle-level records (SPEC §10.2.2)."""

    SCHEMA: ClassVar[str] = "por.BundleProof/1"

    record_schema: Literal["por.BundleProof/1"] = Field("por.BundleProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["por_bundle"]
    component_leaves: Annotated[list[ComponentLeaf], Field(min_length=7, max_length=7)]
    manifest: Blob
    trace_header: Blob
    verdict: Blob
    por_root: Hash32


class OneStepProof(Record):
    """Everything needed to re-execute one reasoning step (SPEC §10.2.3)."""

    SCHEMA: ClassVar[str] = "por.OneStepProof/1"

    record_schema: Literal["por.OneStepProof/1"] = Field("por.OneStepProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["reasoning_leaf"]
    por_root: Hash32
    step: InclusionProof
    prompt_spec: InclusionProof
    evidence: Annotated[list[InclusionProof], FailFast()]
    prior_steps: Annotated[list[InclusionProof], FailFast()]


class OmissionProof(Record):
    """A requirement's item that its ``check_requirement`` step does not cite, shown by
    the item's extract step (SPEC §10.2.4); an item itself only for the position rule."""

    SCHEMA: ClassVar[str] = "por.OmissionProof/2"

    record_schema: Literal["por.OmissionProof/2"] = Field("por.OmissionProof/2",
                                                          alias="schema")
    challenge_id: Hash32
    kind: Literal["reasoning_leaf"]
    por_root: Hash32
    step: InclusionProof
    #: The item's extract step (``reasoning_leaf``) or, for the position rules 2-3,
    #: the evidence item (``evidence_leaf``).
    evidence: InclusionProof


class JudgeProof(Record):
    """What the judge reads, to re-run it on the committed trace (SPEC §10.2.5)."""

    SCHEMA: ClassVar[str] = "por.JudgeProof/1"

    record_schema: Literal["por.JudgeProof/1"] = Field("por.JudgeProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["verdict"]
    por_root: Hash32
    verdict: InclusionProof
    prompt_spec: InclusionProof
    final_step: InclusionProof
    extract_steps: list[InclusionProof]


class HeaderProof(Record):
    """The trace header with everything it is derived from (SPEC §10.2.6)."""

    SCHEMA: ClassVar[str] = "por.HeaderProof/1"

    record_schema: Literal["por.HeaderProof/1"] = Field("por.HeaderProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["por_bundle"]
    por_root: Hash32
    component_leaves: Annotated[list[ComponentLeaf], Field(min_length=7, max_length=7)]
    trace_header: Blob
    prompt_spec: InclusionProof


#: The extract steps of at most two cited items show a citation fault (SPEC §10.2.7):
#: a schema rule, so a longer list is refused before any part is checked (SPEC §17.2).
MAX_CITATION_ITEMS: Final = 2
#: Rule S5 (SPEC §10.2.7): the aggregate of a requirement and the check chunk of it
#: that the ``contradictions`` step cites, in this order.
S5_PRIOR_STEPS: Final = 2


class CitationProof(Record):
    """A step whose citations break SPEC §12.5.1, with the extract steps of the 0-2
    items that show it, or (rule S5) a requirement's aggregate and the check chunk of it
    that a ``contradictions`` step cites (SPEC §10.2.7)."""

    SCHEMA: ClassVar[str] = "por.CitationProof/2"

    record_schema: Literal["por.CitationProof/2"] = Field("por.CitationProof/2",
                                                          alias="schema")
    challenge_id: Hash32
    kind: Literal["reasoning_leaf"]
    por_root: Hash32
    step: InclusionProof
    extract_steps: Annotated[list[InclusionProof], Field(max_length=MAX_CITATION_ITEMS)]
    #: Present only for rule S5: [aggregate A, cited check chunk X] (SPEC §10.2.7).
    prior_steps: Annotated[list[InclusionProof], Field(min_length=S5_PRIOR_STEPS,
                                                       max_length=S5_PRIOR_STEPS)] | None = None


class FormProof(Record):
    """A committed chain form leaf hash and the record it is the form of (SPEC §10.2.8):
    the record's inclusion proof, the carried ``LH(F)`` at ``form_index`` with its path
    in the ``forms`` tree, and the ``forms`` component leaf's path to ``por_root``."""

    SCHEMA: ClassVar[str] = "por.FormProof/1"

    record_schema: Literal["por.FormProof/1"] = Field("por.FormProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["prompt_spec", "reasoning_leaf", "verdict"]
    por_root: Hash32
    record: InclusionProof
    form_index: Count
    forms_size: Count
    form_leaf: Hash32
    form_path: Path
    forms_root: Hash32
    forms_path: Path


class FormStepProof(Record):
    """A step (or the verdict's mapping) re-executed on chain forms (SPEC §10.2.9; ADR
    0017 §3): the carried forms in the executor's order (SPEC §10.4.4), each with its
    index and RFC 9162 path in the ``forms`` tree, and the ``forms`` component leaf's path
    to ``por_root``. ``kind`` names the executor: ``check``, ``aggregate``, ``deduce``, ``map`` (the
    disputed step's kind) or ``judge`` (the verdict). Its on-chain call is the executor's
    ABI (SPEC §14.8), converted by ``por chain settle``; no CBOR is read on chain."""

    SCHEMA: ClassVar[str] = "por.FormStepProof/1"

    record_schema: Literal["por.FormStepProof/1"] = Field("por.FormStepProof/1", alias="schema")
    challenge_id: Hash32
    kind: Literal["check", "aggregate", "deduce", "map", "judge", "contradictions"]
    por_root: Hash32
    forms: Annotated[list[bytes], Field(min_length=1, max_length=MAX_FORMS)]
    index: Annotated[list[Count], Field(min_length=1, max_length=MAX_FORMS)]
    forms_size: Count
    paths: Annotated[list[Path], Field(min_length=1, max_length=MAX_FORMS)]
    forms_path: Path

    @model_validator(mode="after")
    def _one_entry_per_form(self) -> Self:
        """``forms``, ``index`` and ``paths`` have one entry per carried form
        (SPEC §10.4.4: else ``proof.schema``)."""
        if not len(self.forms) == len(self.index) == len(self.paths):
            raise ValueError("forms, index and paths must have the same length")
        return self


Proof = (InclusionProof | BundleProof | OneStepProof | OmissionProof | JudgeProof | HeaderProof
         | CitationProof | FormProof | FormStepProof)
PROOF_TYPES: Final[dict[str, type[InclusionProof] | type[BundleProof] | type[OneStepProof]
                        | type[OmissionProof] | type[JudgeProof] | type[HeaderProof]
                        | type[CitationProof] | type[FormProof]
                        | type[FormStepProof]]] = {
    cls.SCHEMA: cls for cls in (InclusionProof, BundleProof, OneStepProof, OmissionProof,
                                JudgeProof, HeaderProof, CitationProof, FormProof,
                                FormStepProof)
}
_PROOF_SCHEMA = re.compile(r"por\.(?:InclusionProof|BundleProof|OneStepProof|OmissionProof"
                           r"|JudgeProof|HeaderProof|CitationProof|FormProof|FormStepProof)/[0-9]{1,9}")


def challenge_id_from_body(body: dict[str, Any]) -> bytes:
    """SHA-256 of ``encode(body)``, where ``body`` is a proof map without ``challenge_id``.

    The ``schema`` field inside the body separates this hash from every other
    SHA-256 in the protocol (SPEC §10.3).  Nested proofs keep their own ids.
    """
    if "challenge_id" in body:
        raise ValueError("the body of a proof excludes challenge_id")
    digest = hashlib.sha256()
    hash_encoded(body, digest)  # encode(body), without a copy of a long leaf
    return digest.digest()


def body_of(proof: Proof) -> dict[str, Any]:
    """The proof as a plain map without its ``challenge_id`` (what the id covers)."""
    body = proof.to_dict()
    del body["challenge_id"]
    return body


def seal(cls: type[Any], body: dict[str, Any]) -> Any:
    """Validate ``body`` plus its computed ``challenge_id`` as a record of ``cls``."""
    return cls.from_dict({**body, "challenge_id": challenge_id_from_body(body)})


def proof_from_cbor(data: bytes, *, max_size: int | None = None) -> Proof:
    """Decode proof bytes into the record their ``schema`` names.

    Raises ``ProofError('proof.malformed')`` for bytes that are not exactly
    ``por-cbor/1`` (the codec check id is kept in the message),
    ``ProofError('proof.schema')`` for a map that is not a valid proof record,
    and ``UnsupportedError('proof.unsupported')`` for a proof schema of an
    unknown version (exit 2: this implementation cannot decide it).
    """
    try:
        value = decode(data, max_size=PROOF_MAX_SIZE if max_size is None else max_size,
                       max_items=proof_max_items(len(data)))
    except EncodingError as exc:
        raise ProofError("proof.malformed", f"{exc.check_id}: {exc.message}") from None
    if not isinstance(value, dict):
        raise ProofError("proof.schema", "a proof is a map with a schema field")
    schema = value.get("schema")
    cls = PROOF_TYPES.get(schema) if isinstance(schema, str) else None
    if cls is None:
        if isinstance(schema, str) and _PROOF_SCHEMA.fullmatch(schema):
            raise UnsupportedError("proof.unsupported",
                                   f"proof schema {schema} is not supported",
                                   expected=", ".join(PROOF_TYPES), actual=schema)
        shown = schema[:80] if isinstance(schema, str) else repr(schema)[:80]
        raise ProofError("proof.schema", f"not a proof record (schema {shown})",
                         required=", ".join(PROOF_TYPES), found=shown)
    try:
        proof: Proof = cls.from_dict(value)
        # decode() proved the bytes canonical; they are the record's canonical form
        # iff the model dumps back to the same value (as Record.from_cbor), so the
        # proof is not encoded a second time (a forged leaf may be tens of MB).
        same = proof.to_dict() == value
    except (SchemaError, EncodingError) as exc:
        raise ProofError("proof.schema", f"{exc.check_id}: {exc.message}") from None
    if not same:  # SPEC §4.1: one record, one encoding
        raise ProofError("proof.schema", f"{cls.SCHEMA}: bytes are not the canonical form")
    proof._cbor = bytes(data)
    return proof


__all__ = [
    "COMPONENT_LEAF_SIZE",
    "KIND_COMPONENT",
    "LEAF_SCHEMA",
    "MAX_CITATION_ITEMS",
    "PROOF_BYTES_PER_ITEM",
    "PROOF_MAX_SIZE",
    "PROOF_TYPES",
    "BundleProof",
    "CitationProof",
    "FormProof",
    "FormStepProof",
    "HeaderProof",
    "InclusionProof",
    "JudgeProof",
    "LeafKind",
    "OmissionProof",
    "OneStepProof",
    "Proof",
    "body_of",
    "challenge_id_from_body",
    "proof_from_cbor",
    "proof_max_items",
    "seal",
]
