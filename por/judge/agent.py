"""JudgeAgent (seed M07 §9): the judge as the pipeline calls it.

A thin, pure wrapper over :func:`~por.judge.deterministic_mapping.map_to_verdict`:
the mapping runs the schema lock first (a failed lock is INVALID under
``R_VALIDITY``), then the four stages, and fills the verdict's commitments
itself (``prompt_spec_hash``, ``evidence_root``/``evidence_count``,
``reasoning_root``/``reasoning_count``, SPEC §5.1) and ``resolution_time``
(the end of the market's resolution window, never the clock).

No LLM, no clock, no I/O: the same inputs give the same verdict bytes.  The
``VerificationResult`` is a report, not a commitment; its ``ok`` is true iff the
verdict is YES or NO, and its ``challenge`` is the first failing check's hint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from por.judge.deterministic_mapping import map_to_verdict

if TYPE_CHECKING:
    from por.schemas import (
        DeterministicVerdict,
        EvidenceBundle,
        PromptSpec,
        ReasoningTrace,
        VerificationResult,
    )


class JudgeAgent:
    """Deterministic judge: (PromptSpec, EvidenceBundle, ReasoningTrace) -> verdict."""

    #: Version the bundle manifest locks (SPEC §5.2); a change to any rule,
    #: formula or check that can change a verdict needs a new version.
    VERSION: ClassVar[str] = "por-judge/1"
    role: ClassVar[str] = "judge"

    def __init__(self, name: str | None = None) -> None:
        self.name = name if name is not None else "judge"

    def judge(self, prompt_spec: PromptSpec, evidence: EvidenceBundle,
              trace: ReasoningTrace) -> tuple[DeterministicVerdict, VerificationResult]:
        """The verdict and the checks that decided it (seed M07 §9 steps 1-4)."""
        from por.schemas import VerificationResult  # noqa: PLC0415  # public API edge

        verdict, checks = map_to_verdict(prompt_spec, evidence, trace)
        return verdict, VerificationResult.from_checks(checks)


__all__ = ["JudgeAgent"]
