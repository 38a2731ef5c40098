"""Reading the outputs of cited prior steps, strictly (SPEC §12.5, §10.2).

A step is re-executed from its citations alone, so every value it reads from a
prior step is checked here first: a prior step of the wrong type or kind, or
an output of the wrong shape, raises :class:`~por.errors.AuditError`:

* ``step.citation_mismatch`` -- the cited step is not the one this step reads
  (wrong type, kind, requirement or evidence);
* ``step.bad_prior_output`` -- the cited step's output is malformed.

A cited step is a lean :class:`~por.lean.trace.Step` (the auditor's own) or a
pydantic ``ReasoningStep`` (``recompute_step``'s callers): only attributes are
read, and the :func:`read_extract` memo lives in the step's ``_claims`` slot or
private attribute respectively.  No pydantic is imported (issue 16).

A streaming audit (``audit_core(..., retain=False)``) releases a step once it
has been checked and keeps only what its later readers read: the claims of
its extract steps in one :class:`~por.auditor.extract_store.ExtractStore`
(read through :class:`~por.auditor.extract_store.ExtractMemo`), the last check
chunk of each requirement (bounded, SPEC §12.5.3) and :class:`ReadMemo` (an
aggregate or contradictions step's id and reading).
The ``read_*`` functions return from them exactly what they return from the
step they were made from.

Leaves out: computing anything (``steps``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, cast

from por.auditor.claim_extraction import Claim, ClaimValue
from por.auditor.extract_store import (
    CITATION_MISMATCH,
    ExtractMemo,
    ExtractMemos,
    ExtractStore,
    StepIds,
    StoredClaim,
    step_ids,
)
from por.errors import AuditError
from por.lean.trace import VARIABLE_NAMES, Step, Variables, variables_from
from por.numbers import is_canonical_decimal
from por.protocol.limits import FieldKind

if TYPE_CHECKING:
    from por.schemas import EvidenceItem, ReasoningStep

    #: A step whose fields can be read: the auditor's own or a pydantic record.
    StepLike: TypeAlias = "Step | ReasoningStep"
    #: What a cited extract or check step may be in a streaming audit.
    ExtractLike: TypeAlias = "Step | ReasoningStep | ExtractMemo"
    AggregateLike: TypeAlias = "Step | ReasoningStep | ReadMemo"
    ConflictsLike: TypeAlias = "Step | ReasoningStep | ReadMemo"

BAD_PRIOR_OUTPUT = "step.bad_prior_output"

KIND_EXTRACT = "extract_claims"
KIND_CHECK = "check_requirement"
KIND_AGGREGATE = "aggregate"
KIND_CONTRADICTIONS = "contradictions"
KIND_DEDUCE = "deduce"
KIND_MAP = "map"

#: inputs["kind"] -> the step_type it must have.
STEP_TYPE_OF_KIND = {
    KIND_EXTRACT: "extract",
    KIND_CHECK: "check",
    KIND_AGGREGATE: "aggregate",
    KIND_CONTRADICTIONS: "check",
    KIND_DEDUCE: "deduce",
    KIND_MAP: "map",
}

T = TypeVar("T")
_MAX_UNIX = 2**63 - 1


def kind_of(step: StepLike) -> str | None:
    """The step's declared computation, if well formed."""
    kind = step.inputs.get("kind")
    if isinstance(kind, str) and STEP_TYPE_OF_KIND.get(kind) == step.step_type:
        return kind
    return None


def expect_kind(step: StepLike, kind: str, requirement_id: str | None = None) -> None:
    """Raise ``step.citation_mismatch`` unless ``step`` computes ``kind`` (for the requirement)."""
    if kind_of(step) != kind or (
            requirement_id is not None and step.inputs.get("requirement_id") != requirement_id):
        raise AuditError(CITATION_MISMATCH,
                         f"cited step {step.step_id} is not a {kind} step"
                         + (f" for {requirement_id}" if requirement_id else ""),
                         expected=kind, actual=str(step.inputs.get("kind")))


def field(step: StepLike, data: Any, key: str, kind: type[T]) -> T:
    """``data[key]`` of exactly type ``kind`` (bool is not int), else ``step.bad_prior_output``."""
    if not isinstance(data, dict) or key not in data:
        raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: output lacks {key!r}")
    value = data[key]
    if type(value) is not kind:
        raise AuditError(BAD_PRIOR_OUTPUT,
                         f"step {step.step_id}: {key!r} is not {kind.__name__}")
    return value


def str_list(step: StepLike, data: Any, key: str) -> list[str]:
    """``data[key]`` as a list of text, else ``step.bad_prior_output``."""
    values = field(step, data, key, list)
    if not all(type(x) is str for x in values):
        raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: {key!r} is not a text list")
    return values


def _claim_value_ok(kind: str, value: Any) -> bool:
    if kind == "numeric":
        return type(value) is str and is_canonical_decimal(value)
    if kind == "boolean":
        return type(value) is bool
    if kind == "timestamp":
        return type(value) is int and 0 <= value <= _MAX_UNIX
    return kind == "text" and type(value) is str


def read_extract(step: ExtractLike, item: EvidenceItem) -> tuple[Claim, ...]:
    """The claims an ``extract`` step found in ``item``.

    A pure function of the (immutable) step and of the item's id and
    confidence: the result is memoised on the step, so the three readers of an
    extract step in one audit parse it once."""
    if isinstance(step, ExtractMemo):
        return step.claims_for(item)
    key = (item.evidence_id, item.confidence_bps)
    if isinstance(step, Step):
        memo = step._claims
    else:  # the private-attribute dict directly: pydantic's __getattr__ is slow
        private = step.__pydantic_private__
        memo = private.get("_claims") if private is not None else None
    if memo is not None and memo[0] == key:
        return memo[1]  # type: ignore[no-any-return]
    claims = _read_extract(step, item)
    step._claims = (key, claims)
    return claims


def forget_claims(step: ExtractLike) -> None:
    """Drop the memo :func:`read_extract` keeps on ``step`` (its last reader is done)."""
    if isinstance(step, ExtractMemo):
        return  # the store's claims go with the audit
    if isinstance(step, Step):
        step._claims = None
        return
    private = step.__pydantic_private__
    if private is not None:
        private["_claims"] = None


def _read_extract(step: StepLike, item: EvidenceItem) -> tuple[Claim, ...]:
    expect_kind(step, KIND_EXTRACT)
    if step.evidence_ids != [item.evidence_id] or \
            field(step, step.output, "evidence_id", str) != item.evidence_id:
        raise AuditError(CITATION_MISMATCH,
                         f"extract step {step.step_id} is not about {item.evidence_id}",
                         expected=item.evidence_id, actual=",".join(step.evidence_ids))
    claims: list[Claim] = []
    for raw in field(step, step.output, "claims", list):
        kind = field(step, raw, "kind", str)
        value = raw.get("value") if isinstance(raw, dict) else None
        if not _claim_value_ok(kind, value):
            raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: bad claim value")
        claims.append(Claim(claim_id=field(step, raw, "claim_id", str),
                            kind=cast(FieldKind, kind), key=field(step, raw, "key", str),
                            path=field(step, raw, "path", str), value=cast(ClaimValue, value),
                            evidence_id=item.evidence_id, confidence_bps=item.confidence_bps))
    return tuple(claims)


#: ``output.card`` of an extract step (SPEC §12.5.2): the item's fields later steps
#: read, each with the range ``por.EvidenceItem/1`` allows it.
CARD_RANGES = {
    "source_id": None, "status_code": (100, 599), "retrieved_at": (0, _MAX_UNIX),
    "confidence_bps": (0, 10_000), "provenance_tier": (0, 3),
}


def card_of(item: Any) -> dict[str, Any]:
    """The card of ``item``: exactly its values of the :data:`CARD_RANGES` fields."""
    receipt = item.retrieval_receipt
    return {"source_id": item.source.source_id, "status_code": receipt.status_code,
            "retrieved_at": receipt.retrieved_at, "confidence_bps": item.confidence_bps,
            "provenance_tier": item.provenance_tier}


class _Source:
    __slots__ = ("source_id",)

    def __init__(self, source_id: str) -> None:
        self.source_id = source_id


class _Receipt:
    __slots__ = ("retrieved_at", "status_code")

    def __init__(self, retrieved_at: int, status_code: int) -> None:
        self.retrieved_at = retrieved_at
        self.status_code = status_code


class Card:
    """An item as later steps read it: its extract step's ``evidence_id``,
    ``requirement_id`` and ``card``, under ``EvidenceItem``'s attribute names."""

    __slots__ = ("confidence_bps", "evidence_id", "provenance_tier", "requirement_id",
                 "retrieval_receipt", "source")

    def __init__(self, evidence_id: str, requirement_id: str, card: dict[str, Any]) -> None:
        self.evidence_id = evidence_id
        self.requirement_id = requirement_id
        self.source = _Source(card["source_id"])
        self.retrieval_receipt = _Receipt(card["retrieved_at"], card["status_code"])
        self.confidence_bps: int = card["confidence_bps"]
        self.provenance_tier: int = card["provenance_tier"]


def read_card(step: StepLike) -> Card:
    """The item an ``extract`` step read, as its card (``step.bad_prior_output``
    unless ``output.card`` holds exactly the card's keys with values in range)."""
    expect_kind(step, KIND_EXTRACT)
    card = field(step, step.output, "card", dict)
    if sorted(card) != sorted(CARD_RANGES):
        raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: card keys are not "
                         + ", ".join(sorted(CARD_RANGES)))
    for key, bounds in CARD_RANGES.items():
        if bounds is None:
            if type(card[key]) is not str:
                raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: card {key!r} "
                                 "is not text")
        elif type(card[key]) is not int or not bounds[0] <= card[key] <= bounds[1]:
            raise AuditError(BAD_PRIOR_OUTPUT, f"step {step.step_id}: card {key!r} is not "
                             f"an integer in {bounds[0]}..{bounds[1]}")
    return Card(field(step, step.output, "evidence_id", str),
                field(step, step.output, "requirement_id", str), card)


def read_cards(steps: Sequence[StepLike], evidence_ids: Sequence[str]) -> list[Card]:
    """The cards of the cited extract steps, the k-th standing for the k-th cited
    evidence id (SPEC §12.5.1 S3): ``step.citation_mismatch`` unless there is one
    per id and its ``output.evidence_id`` is that id."""
    if len(steps) != len(evidence_ids):
        raise AuditError(CITATION_MISMATCH, "cited extract steps do not match cited evidence",
                         expected=str(len(evidence_ids)), actual=str(len(steps)))
    cards = [read_card(s) for s in steps]
    for card, eid in zip(cards, evidence_ids, strict=True):
        if card.evidence_id != eid:
            raise AuditError(CITATION_MISMATCH, f"cited extract step of {card.evidence_id} "
                             f"stands where {eid} is cited", expected=eid,
                             actual=card.evidence_id)
    return cards


def read_extract_keys(step: ExtractLike, item: EvidenceItem) -> list[tuple[str, str]]:
    """``(key, kind)`` of each claim :func:`read_extract` gives, in order (for a
    streaming audit's memo, without making the claims)."""
    if isinstance(step, ExtractMemo):
        return [(key, kind) for kind, key, _path in step.store.shape(step.position, item)]
    return [(c.key, c.kind) for c in read_extract(step, item)]


def same_count(steps: Sequence[ExtractLike], items: Sequence[EvidenceItem]) -> None:
    """Raise ``step.citation_mismatch`` unless there is one extract step per item."""
    if len(steps) != len(items):
        raise AuditError(CITATION_MISMATCH, "cited extract steps do not match cited evidence",
                         expected=str(len(items)), actual=str(len(steps)))


def read_extracts(steps: Sequence[ExtractLike],
                  items: Sequence[EvidenceItem]) -> Iterable[tuple[Claim, ...]]:
    """Claims per item, in order; ``steps`` and ``items`` must correspond one to
    one (checked now).  A streaming audit's claims are made as they are read, so
    a reader that goes item by item never holds them all at once."""
    same_count(steps, items)
    if isinstance(steps, ExtractMemos):
        return (read_extract(s, i) for s, i in zip(steps, items, strict=True))
    return [read_extract(s, i) for s, i in zip(steps, items, strict=True)]


@dataclass(frozen=True)
class AggregateView:
    """What ``deduce`` reads from an ``aggregate`` step."""

    covered: bool
    provenance_ok: bool
    fields: list[dict[str, Any]]
    evidence_ids: Sequence[str]

    def positions_of(self, ids: set[str]) -> dict[str, int]:
        """Where each of ``ids`` is among the step's evidence ids (the last place,
        if cited twice); an id it does not cite is absent."""
        return {e: n for n, e in enumerate(self.evidence_ids) if e in ids}


def read_aggregate(step: AggregateLike, requirement_id: str) -> AggregateView:
    """Coverage, provenance and field selections of an ``aggregate`` step."""
    if isinstance(step, ReadMemo):
        return step.read(KIND_AGGREGATE, requirement_id)  # type: ignore[no-any-return]
    expect_kind(step, KIND_AGGREGATE, requirement_id)
    fields = field(step, step.output, "fields", list)
    for raw in fields:
        field(step, raw, "key", str)
        field(step, raw, "kind", str)
        field(step, raw, "status", str)
        field(step, raw, "fallback_used", bool)
        str_list(step, raw, "evidence_ids")
    return AggregateView(field(step, step.output, "covered", bool),
                         field(step, step.output, "provenance_ok", bool), fields,
                         step.evidence_ids)


def read_conflict_keys(step: ConflictsLike) -> list[tuple[str, str]]:
    """``(kind, key)`` of every conflict a ``contradictions`` step reported."""
    if isinstance(step, ReadMemo):
        return list(step.read(KIND_CONTRADICTIONS, None))
    expect_kind(step, KIND_CONTRADICTIONS)
    return [(field(step, raw, "kind", str), field(step, raw, "key", str))
            for raw in field(step, step.output, "conflicts", list)]


class ReadMemo:
    """An ``aggregate`` or ``contradictions`` step of a streaming audit once
    compared: its ``step_id`` and what :func:`read_aggregate` or
    :func:`read_conflict_keys` gave for it (its per-item lists go with the step)."""

    __slots__ = ("kind", "reading", "requirement_id", "step_id")

    def __init__(self, step: Step, requirement_id: str | None = None) -> None:
        self.step_id = step.step_id
        self.requirement_id = requirement_id
        self.reading: Any
        if requirement_id is None:
            self.kind, self.reading = KIND_CONTRADICTIONS, read_conflict_keys(step)
        else:
            self.kind = KIND_AGGREGATE
            self.reading = read_aggregate(step, requirement_id)

    def read(self, kind: str, requirement_id: str | None) -> Any:
        """The reading, if the step computed ``kind`` (for ``requirement_id``)."""
        if kind != self.kind or requirement_id != self.requirement_id:
            raise AuditError(CITATION_MISMATCH,
                             f"cited step {self.step_id} is not a {kind} step"
                             + (f" for {requirement_id}" if requirement_id else ""),
                             expected=kind, actual=self.kind)
        return self.reading


def read_variables(step: StepLike) -> Variables:
    """The evaluation variables a ``deduce`` step derived (validated as
    ``EvaluationVariables`` would, by :func:`por.lean.trace.variables_from`)."""
    expect_kind(step, KIND_DEDUCE)
    picked = {k: step.output[k] for k in VARIABLE_NAMES if k in step.output}
    variables = variables_from(picked)
    if variables is None:
        raise AuditError(BAD_PRIOR_OUTPUT,
                         f"step {step.step_id}: evaluation variables malformed")
    return variables


__all__ = [
    "BAD_PRIOR_OUTPUT",
    "CARD_RANGES",
    "CITATION_MISMATCH",
    "KIND_AGGREGATE",
    "KIND_CHECK",
    "KIND_CONTRADICTIONS",
    "KIND_DEDUCE",
    "KIND_EXTRACT",
    "KIND_MAP",
    "STEP_TYPE_OF_KIND",
    "AggregateView",
    "Card",
    "ExtractMemo",
    "ExtractMemos",
    "ExtractStore",
    "ReadMemo",
    "StepIds",
    "StoredClaim",
    "card_of",
    "expect_kind",
    "field",
    "kind_of",
    "read_aggregate",
    "read_card",
    "read_cards",
    "read_conflict_keys",
    "read_extract",
    "read_extract_keys",
    "read_extracts",
    "read_variables",
    "same_count",
    "step_ids",
    "str_list",
]
