"""The hand-written behaviour of the records the core writes (issue 21).

:mod:`por.lean.writers_gen` is generated from the pydantic models
(``python -m por.lean.generate``): each class there has its model's field names
as slots and a constructor taking them.  The auditor and the judge make these
records from values they computed themselves, so nothing here validates; what
they do with a record (its canonical bytes, its step comparison without a
copy, its pydantic twin at the public API) is written here, once per kind:

* :class:`Written` -- the fields after ``schema`` as a dict, absent optionals
  omitted (``to_dict()`` of the model without ``schema``);
* :class:`StepRecord` -- ``ReasoningStep``'s bytes, computed once, and
  :meth:`StepRecord.matches` (issue 16: a step is compared where its leaf lies);
* :class:`PolicyRecord`, :class:`VerdictRecord` -- their pydantic twins;
* :class:`CheckRecord`, :class:`ChallengeRecord` -- a report's findings (SPEC §4.6):
  the auditor, the trace-policy check and the judge describe every finding as a
  generated ``Check``; the pydantic ``CheckResult`` is built from it only where a
  public API returns a ``VerificationResult`` (:func:`results_from`), so a
  replaying verifier that only asks "did an error-severity check fail?"
  (:func:`ok_from`) never builds one.  Reports are not commitments: nothing
  here is hashed.

Leaves out: field names (generated) and decoding (the full verifier parses
committed records with pydantic).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from por.encoding import encode
from por.encoding.encoder import matches

if TYPE_CHECKING:
    from por.schemas.trace import ReasoningStep, TracePolicy
    from por.schemas.verdict import DeterministicVerdict
    from por.schemas.verification import ChallengeRef, CheckResult


class Written:
    """A record the core writes: ``NAMES`` are its fields after ``schema``, in the
    model's declaration order (its ``model_dump`` order)."""

    __slots__ = ()
    NAMES: ClassVar[tuple[str, ...]] = ()

    def values(self) -> dict[str, Any]:
        """Every field but ``schema`` in declaration order, absent (``None``) ones omitted."""
        out: dict[str, Any] = {}
        for name in self.NAMES:
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


class StepRecord(Written):
    """One reasoning step (SPEC §4.5): its bytes equal ``ReasoningStep``'s (pinned on
    every step of every fixture market).  Steps are made only by the auditor, from
    validated inputs, and are treated as immutable."""

    __slots__ = ()
    _cbor: bytes | None  # the canonical bytes once computed
    _claims: Any  # what por.auditor.step_io.read_extract parsed (a memo)

    def _cbor_value(self) -> dict[str, Any]:  # generated: the keys in canonical order
        raise NotImplementedError

    def record_value(self) -> dict[str, Any]:
        """The record's value as its bytes encode it (arrays built from
        :class:`~por.encoding.encoder.Fragments` stay such: not plain lists)."""
        return self._cbor_value()

    def to_cbor(self) -> bytes:
        """Canonical ``por-cbor/1`` bytes, equal to the pydantic record's (computed once)."""
        data = self._cbor
        if data is None:
            data = self._cbor = encode(self._cbor_value())  # type: ignore[misc]  # generated slot
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

        fields = {name: getattr(self, name) for name in self.NAMES}
        fields["prior_step_ids"] = list(fields["prior_step_ids"])  # Fragments: a list
        record = ReasoningStep.model_construct(**fields)
        if self._cbor is not None:
            record.__pydantic_private__["_cbor"] = self._cbor  # type: ignore[index]
        return record

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StepRecord):
            return NotImplemented
        return self._cbor_value() == other._cbor_value()

    __hash__ = None  # type: ignore[assignment]  # holds lists: not hashable

    def __repr__(self) -> str:
        shown = ", ".join(repr(getattr(self, name)) for name in self.NAMES[:3])
        return f"{type(self).__name__}({shown})"


class PolicyRecord(Written):
    """``TracePolicy``'s fields (seed M06 §11); only the auditor makes one."""

    __slots__ = ()

    def to_value(self) -> dict[str, Any]:
        """``TracePolicy.model_dump()``: every field, in declaration order."""
        return self.values()

    def same_as(self, other: Any) -> bool:
        """Field equality with a lean or pydantic policy (strict: ``True`` is not ``1``)."""
        return all(type(getattr(other, k, None)) is type(v) and getattr(other, k) == v
                   for k, v in self.to_value().items())

    def to_model(self) -> TracePolicy:
        """The pydantic ``TracePolicy``."""
        from por.schemas.trace import TracePolicy  # noqa: PLC0415  # public API edge

        return TracePolicy(**self.to_value())


class VariablesRecord(Written):
    """The evaluation variables (seed M06 §6, M07 §5); absent optionals are ``None``."""

    __slots__ = ()

    def to_value(self) -> dict[str, Any]:
        """``EvaluationVariables.to_value()``: declaration order, absent optionals omitted."""
        return self.values()


class VerdictRecord(Written):
    """The judge's verdict and the commitments it was reached over (SPEC §4.6, §5.1)."""

    __slots__ = ()
    record_schema: str

    def fields(self) -> dict[str, Any]:
        """Every field but ``schema``, absent ``resolution_time`` omitted."""
        return self.values()

    def to_cbor(self) -> bytes:
        """Canonical ``por-cbor/1`` bytes, equal to ``DeterministicVerdict.to_cbor()``."""
        return encode({"schema": self.record_schema, **self.fields()})

    def to_model(self) -> DeterministicVerdict:
        """The pydantic ``DeterministicVerdict`` (validated)."""
        from por.schemas.verdict import DeterministicVerdict  # noqa: PLC0415  # API edge

        return DeterministicVerdict(**self.fields())


class ChallengeRecord(Written):
    """What ``ChallengeRef`` holds: the leaf a challenger should dispute (SPEC §10)."""

    __slots__ = ()
    kind: str
    evidence_id: str | None
    step_id: str | None
    leaf_index: int | None
    reason: str | None

    def to_model(self) -> ChallengeRef:
        """The pydantic ``ChallengeRef`` (validated)."""
        from por.schemas.verification import ChallengeRef  # noqa: PLC0415  # report edge only

        return ChallengeRef(kind=self.kind,  # type: ignore[arg-type]
                            evidence_id=self.evidence_id, step_id=self.step_id,
                            leaf_index=self.leaf_index, reason=self.reason)


class CheckRecord(Written):
    """What ``CheckResult`` holds: a stable id, pass/fail, severity and where it failed."""

    __slots__ = ()
    check_id: str
    ok: bool
    severity: str
    message: str
    expected: str | None
    actual: str | None
    details: dict[str, Any] | None
    challenge: ChallengeRecord | None

    @property
    def failed(self) -> bool:
        """True iff this check fails with severity ``error`` (what makes a report not ok)."""
        return not self.ok and self.severity == "error"

    def to_document(self) -> dict[str, Any]:
        """The check's JSON object in a verify report (:func:`check_document`)."""
        challenge = self.challenge
        return check_document(self, None if challenge is None else challenge.values())

    def to_model(self) -> CheckResult:
        """The pydantic ``CheckResult`` (validated)."""
        from por.schemas.verification import CheckResult  # noqa: PLC0415  # report edge only

        challenge = self.challenge
        return CheckResult(check_id=self.check_id, ok=self.ok,
                           severity=self.severity,  # type: ignore[arg-type]
                           message=self.message, expected=self.expected, actual=self.actual,
                           details=self.details,
                           challenge=None if challenge is None else challenge.to_model())


def check_document(check: Any, challenge: dict[str, Any] | None) -> dict[str, Any]:
    """A check's JSON object in a verify report (``por/verify-report/1``), for a
    ``CheckResult`` and a :class:`CheckRecord` alike: ``status`` is ``ok`` or
    ``failed``, every key present, ``null`` if absent; ``committed`` is ``actual``
    (the value the input carries), ``recomputed`` is ``expected`` (the value the
    verifier derives or requires), SPEC §6.3; ``challenge`` is the challenge's
    fields without its absent ones."""
    return {
        "id": check.check_id,
        "status": "ok" if check.ok else "failed",
        "severity": check.severity,
        "message": check.message,
        "committed": check.actual,
        "recomputed": check.expected,
        "challenge": challenge,
        "details": None if check.details is None else dict(check.details),
    }


def results_from(checks: Iterable[CheckRecord]) -> list[CheckResult]:
    """The pydantic ``CheckResult`` of every check, in order."""
    return [c.to_model() for c in checks]


def ok_from(checks: Iterable[CheckRecord]) -> bool:
    """``VerificationResult.ok`` of these checks: no error-severity failure."""
    return not any(c.failed for c in checks)


__all__ = ["ChallengeRecord", "CheckRecord", "PolicyRecord", "StepRecord", "VariablesRecord",
           "VerdictRecord", "Written", "check_document", "ok_from", "results_from"]
