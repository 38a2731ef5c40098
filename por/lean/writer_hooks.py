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
* :class:`PolicyRecord`, :class:`VerdictRecord` -- their pydantic twins.

Leaves out: field names (generated) and decoding (the full verifier parses
committed records with pydantic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from por.encoding import encode
from por.encoding.encoder import matches

if TYPE_CHECKING:
    from por.schemas.trace import ReasoningStep, TracePolicy
    from por.schemas.verdict import DeterministicVerdict


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


__all__ = ["PolicyRecord", "StepRecord", "VariablesRecord", "VerdictRecord", "Written"]
