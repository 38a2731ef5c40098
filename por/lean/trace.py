"""Lean trace records: ReasoningStep, TracePolicy, TraceHeader bytes, EvaluationVariables.

Pydantic-free twins of the models in :mod:`por.schemas.trace` (SPEC §4.5), for
the verify hot path (issue 16).  :class:`Step`, :class:`Policy`,
:class:`Variables` and the header's fields are generated from the models into
:mod:`por.lean.writers_gen` (``python -m por.lean.generate``), their behaviour
in :mod:`por.lean.writer_hooks`:

* :class:`Step` -- ``__slots__`` and exactly the attribute names of
  ``ReasoningStep``, plus two memo slots: ``_claims`` (what
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
  pydantic's strict mode), pinned by a differential hypothesis test.  It stays
  hand-written: its ``isinstance`` rules are pydantic's strict mode, which the
  generated lean checks (exact types) are stricter than.

Leaves out: decoding committed steps (the full verifier parses a step with
pydantic only when its bytes differ from the replay) and JSON forms.
"""

from __future__ import annotations

from typing import Any

from por.encoding import encode
from por.lean.writers_gen import Header, Policy, Step, Variables
from por.numbers import is_canonical_decimal
from por.protocol.limits import MAX_ID_LENGTH, MAX_UINT63

STEP_SCHEMA = Step.SCHEMA
HEADER_SCHEMA = Header.SCHEMA


def header_cbor(trace_id: str, market_id: str, policy: Policy, step_count: int) -> bytes:
    """``TraceHeader(trace_id, market_id, policy, step_count).to_cbor()`` (SPEC §4.5)."""
    header = Header(trace_id, market_id, policy.to_value(), step_count)
    return encode({"schema": header.record_schema, **header.values()})


#: ``EvaluationVariables``' fields in declaration order (its ``model_dump`` order).
VARIABLE_NAMES = Variables.NAMES
_FLAGS = ("conflict_detected", "insufficient_evidence", "fallback_used", "provenance_ok")


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
