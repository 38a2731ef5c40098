"""Lean trace records: ReasoningStep, TracePolicy, TraceHeader bytes, EvaluationVariables.

Pydantic-free twins of the models in :mod:`por.schemas.trace` (SPEC §4.5), for
the verify hot path (issue 16):

* :class:`Step` -- ``__slots__`` and exactly the attribute names of
  ``ReasoningStep`` (``record_schema``, ``step_id``, ``step_type``,
  ``description``, ``evidence_ids``, ``prior_step_ids``, ``inputs``,
  ``output``), plus two memo slots: ``_claims`` (what
  ``por.auditor.step_io.read_extract`` parsed) and ``_cbor`` (the canonical
  bytes once computed).  :meth:`Step.to_cbor` encodes the same dict
  ``ReasoningStep._cbor_value`` does, so the bytes are identical (pinned on
  every step of every fixture market).  Steps are made only by the auditor,
  from validated inputs, and are treated as immutable.
* :class:`Policy` -- ``TracePolicy``'s fields; :func:`header_cbor` gives the
  bytes ``TraceHeader(...).to_cbor()`` gives.
* :class:`Variables` and :func:`variables_from` -- ``EvaluationVariables``
  and a validator that accepts exactly the dicts
  ``EvaluationVariables.model_validate(raw, strict=True)`` accepts (strict:
  bool is not int; subclasses of str, int, list and dict pass, as in
  pydantic's strict mode), pinned by a differential hypothesis test.

Leaves out: decoding committed steps (the full verifier parses a step with
pydantic only when its bytes differ from the replay) and JSON forms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.encoding import encode
from por.encoding.encoder import Fragments, matches
from por.lean.limits import MAX_ID_LENGTH, MAX_TRACE_STEPS, MAX_UINT63
from por.numbers import is_canonical_decimal

if TYPE_CHECKING:
    from por.schemas.trace import ReasoningStep, TracePolicy

STEP_SCHEMA = "por.ReasoningStep/1"
HEADER_SCHEMA = "por.TraceHeader/1"


class Step:
    """One reasoning step (SPEC §4.5): the attributes of ``ReasoningStep``, no pydantic."""

    __slots__ = ("_cbor", "_claims", "description", "evidence_ids", "inputs", "output",
                 "prior_step_ids", "record_schema", "step_id", "step_type")

    # Positional on the hot path: one call per step (issue 16).
    def __init__(self, step_id: str, step_type: str, description: str,  # noqa: PLR0917
                 evidence_ids: list[str], prior_step_ids: list[str] | Fragments,
                 inputs: dict[str, Any], output: dict[str, Any]) -> None:
        self.record_schema = STEP_SCHEMA
        self.step_id = step_id
        self.step_type = step_type
        self.description = description
        self.evidence_ids = evidence_ids
        self.prior_step_ids = prior_step_ids
        self.inputs = inputs
        self.output = output
        self._claims: Any = None
        self._cbor: bytes | None = None

    def _cbor_value(self) -> dict[str, Any]:
        # The dict ReasoningStep._cbor_value builds, key for key (SPEC §4.5), in
        # canonical key order (by length, then bytewise): the encoder need not copy it.
        return {"inputs": self.inputs, "output": self.output, "schema": self.record_schema,
                "step_id": self.step_id, "step_type": self.step_type,
                "description": self.description, "evidence_ids": self.evidence_ids,
                "prior_step_ids": self.prior_step_ids}

    def to_cbor(self) -> bytes:
        """Canonical ``por-cbor/1`` bytes, equal to the pydantic record's (computed once)."""
        data = self._cbor
        if data is None:
            data = self._cbor = encode(self._cbor_value())
        return data

    def matches(self, data: bytes, start: int = 0, stop: int | None = None) -> bool:
        """``self.to_cbor() == data[start:stop]`` without the copy; a step built
        from :class:`~por.encoding.encoder.Fragments` is compared as it is
        encoded, never held as bytes (issue 16)."""
        cached = self._cbor
        if cached is None:
            return matches(self._cbor_value(), data, start, stop)
        stop = len(data) if stop is None else stop
        return len(cached) == stop - start and data.startswith(cached, start)

    def to_record(self) -> ReasoningStep:
        """The pydantic ``ReasoningStep`` with the same fields (and the cached bytes).

        ``model_construct``: the auditor makes steps from validated inputs only,
        so validating again could prove nothing (tests pin that every step of
        every fixture market validates and equals this record)."""
        from por.schemas.trace import ReasoningStep  # noqa: PLC0415  # public API edge

        record = ReasoningStep.model_construct(
            step_id=self.step_id, step_type=self.step_type,  # type: ignore[arg-type]
            description=self.description,
            evidence_ids=self.evidence_ids, prior_step_ids=list(self.prior_step_ids),
            inputs=self.inputs, output=self.output)
        if self._cbor is not None:
            record.__pydantic_private__["_cbor"] = self._cbor  # type: ignore[index]
        return record

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Step):
            return NotImplemented
        return self._cbor_value() == other._cbor_value()

    __hash__ = None  # type: ignore[assignment]  # holds lists: not hashable

    def __repr__(self) -> str:
        return f"Step({self.step_id!r}, {self.step_type!r}, {self.description!r})"


class Policy:
    """``TracePolicy``'s fields (seed M06 §11); only the auditor makes one."""

    __slots__ = ("allow_external_facts", "decoding_policy", "max_steps")

    def __init__(self, max_steps: int, decoding_policy: str = "deterministic",
                 allow_external_facts: bool = False) -> None:
        if type(max_steps) is not int or not 1 <= max_steps <= MAX_TRACE_STEPS:
            raise ValueError(f"max_steps {max_steps!r} outside 1..{MAX_TRACE_STEPS}")
        self.max_steps = max_steps
        self.decoding_policy = decoding_policy
        self.allow_external_facts = allow_external_facts

    def to_value(self) -> dict[str, Any]:
        """``TracePolicy.model_dump()``: every field, in declaration order."""
        return {"max_steps": self.max_steps, "decoding_policy": self.decoding_policy,
                "allow_external_facts": self.allow_external_facts}

    def same_as(self, other: Any) -> bool:
        """Field equality with a lean or pydantic policy (strict: ``True`` is not ``1``)."""
        return all(type(getattr(other, k, None)) is type(v) and getattr(other, k) == v
                   for k, v in self.to_value().items())

    def to_model(self) -> TracePolicy:
        """The pydantic ``TracePolicy``."""
        from por.schemas.trace import TracePolicy  # noqa: PLC0415  # public API edge

        return TracePolicy(max_steps=self.max_steps,
                           decoding_policy=self.decoding_policy,  # type: ignore[arg-type]
                           allow_external_facts=self.allow_external_facts)


def header_cbor(trace_id: str, market_id: str, policy: Policy, step_count: int) -> bytes:
    """``TraceHeader(trace_id, market_id, policy, step_count).to_cbor()`` (SPEC §4.5)."""
    return encode({"schema": HEADER_SCHEMA, "trace_id": trace_id, "market_id": market_id,
                   "policy": policy.to_value(), "step_count": step_count})


#: ``EvaluationVariables``' fields in declaration order (its ``model_dump`` order).
VARIABLE_NAMES = ("event_observed", "numeric_value", "timestamp", "conflict_detected",
                  "insufficient_evidence", "fallback_used", "provenance_ok",
                  "source_summary")
_FLAGS = ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok")


class Variables:
    """The evaluation variables (seed M06 §6, M07 §5); absent optionals are ``None``."""

    __slots__ = VARIABLE_NAMES

    def __init__(self, *, conflict_detected: bool, insufficient_evidence: bool,
                 fallback_used: bool, provenance_ok: bool, source_summary: list[str],
                 event_observed: bool | None = None, numeric_value: str | None = None,
                 timestamp: int | None = None) -> None:
        self.event_observed = event_observed
        self.numeric_value = numeric_value
        self.timestamp = timestamp
        self.conflict_detected = conflict_detected
        self.insufficient_evidence = insufficient_evidence
        self.fallback_used = fallback_used
        self.provenance_ok = provenance_ok
        self.source_summary = source_summary

    def to_value(self) -> dict[str, Any]:
        """``EvaluationVariables.to_value()``: declaration order, absent optionals omitted."""
        out: dict[str, Any] = {}
        for name in VARIABLE_NAMES:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= MAX_ID_LENGTH


def variables_from(raw: Any) -> Variables | None:
    """``raw`` as :class:`Variables` iff ``EvaluationVariables.model_validate(raw,
    strict=True)`` accepts it, else ``None`` (the rules of the pydantic model:
    closed key set, four required flags and ``source_summary``, strict types,
    canonical decimal, 64-bit Unix time, unique ids of 1..128 characters)."""
    if not isinstance(raw, dict):
        return None
    for key in raw:
        if key not in VARIABLE_NAMES:
            return None
    for name in _FLAGS:
        if type(raw.get(name)) is not bool:  # absent is None: not a bool either
            return None
    summary = raw.get("source_summary")
    if not isinstance(summary, list) or not all(_is_id(e) for e in summary) or \
            len(set(summary)) != len(summary):
        return None
    observed = raw.get("event_observed")
    if observed is not None and type(observed) is not bool:
        return None
    value = raw.get("numeric_value")
    if value is not None and not (isinstance(value, str) and is_canonical_decimal(value)):
        return None
    stamp = raw.get("timestamp")
    if stamp is not None and not (isinstance(stamp, int) and not isinstance(stamp, bool)
                                  and 0 <= stamp <= MAX_UINT63):
        return None
    return Variables(event_observed=observed, numeric_value=value, timestamp=stamp,
                     conflict_detected=raw["conflict_detected"],
                     insufficient_evidence=raw["insufficient_evidence"],
                     fallback_used=raw["fallback_used"], provenance_ok=raw["provenance_ok"],
                     source_summary=summary)


__all__ = [
    "HEADER_SCHEMA",
    "STEP_SCHEMA",
    "VARIABLE_NAMES",
    "Policy",
    "Step",
    "Variables",
    "header_cbor",
    "variables_from",
]
