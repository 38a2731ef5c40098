"""Optional DSPy programs (seed M06 §12): a deliberate stub.

The strict pipeline uses no language model: every step of a trace must be
re-executable by a verifier, byte for byte, from committed inputs (SPEC §12.5),
and an LLM cannot promise that.  This module names the extension point so a
future, *non-committed* assistant (for example one that proposes
``FieldSpec.regex`` patterns for a market author to review) has a home that
the auditor never imports.

If a program is ever added here, seed M06 §5.2 applies: temperature 0, a fixed
seed, schema-locked JSON output, and the decoding policy recorded in
``TracePolicy.decoding_policy``; and its output must become part of the
PromptSpec (committed, reviewed) rather than of the trace.

Leaves out: everything else.  :class:`AuditorAgent` works without this module.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The only decoding policy the strict pipeline accepts (``TracePolicy``).
DECODING_POLICY = "deterministic"


@dataclass(frozen=True)
class ProgramSpec:
    """Declares a would-be program: its name and the output schema it is locked to."""

    name: str
    output_schema_ref: str


class DeterministicProgramUnavailableError(NotImplementedError):
    """Raised by every stub: no LLM program is part of the strict pipeline."""


def run_program(spec: ProgramSpec, payload: bytes) -> bytes:
    """Stub: always raises; the auditor never calls it."""
    del payload
    raise DeterministicProgramUnavailableError(
        f"program {spec.name!r} is not available: the strict pipeline uses no LLM")


__all__ = [
    "DECODING_POLICY",
    "DeterministicProgramUnavailableError",
    "ProgramSpec",
    "run_program",
]
