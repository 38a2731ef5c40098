"""The deterministic auditor (seed M06, SPEC §12): evidence -> reasoning trace.

``AuditorAgent().audit(prompt_spec, evidence)`` returns a ``ReasoningTrace``
whose final ``map`` step carries the ``evaluation_variables`` the judge reads,
and a ``VerificationResult``.  ``recompute_step`` re-executes one step from
its citations alone (one-step challenge proofs); ``TracePolicyVerifier``
checks a trace's structure and grounding.  ``audit_core`` is the same audit on
duck-typed inputs, without pydantic (issue 16; see ``por.auditor.agent``).

Leaves out: the verdict (``por.judge``), bundles, commitments, any LLM.
"""

from por.auditor.agent import AuditorAgent, AuditRun, audit_core, trace_id_from
from por.auditor.claim_extraction import (
    Claim,
    ClaimExtractor,
    ClaimSet,
    claim_id_from,
)
from por.auditor.contradiction_checks import ContradictionChecker
from por.auditor.logic_sanity import LogicSanityChecker
from por.auditor.steps import recompute_step
from por.auditor.trace_policy import TracePolicyVerifier, trace_policy_for

__all__ = [
    "AuditRun",
    "AuditorAgent",
    "Claim",
    "ClaimExtractor",
    "ClaimSet",
    "ContradictionChecker",
    "LogicSanityChecker",
    "TracePolicyVerifier",
    "audit_core",
    "claim_id_from",
    "recompute_step",
    "trace_id_from",
    "trace_policy_for",
]
