"""AgentResult and Hypothesis: what one agent hands to the admission gate (seed 001).

Wire objects, so pydantic models; :mod:`por.gate` re-exports them lazily (PEP
562) so that importing the gate -- and the auditor that runs it -- does not
import pydantic (issue 16).  The gate itself reads only their attributes.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from por.schemas.base import Bps, Id, Model


class Hypothesis(Model):
    """One interpretation an agent offers, grounded in evidence ids."""

    statement: str
    supporting_evidence_ids: Annotated[list[Id], Field(max_length=1024)]
    confidence_bps: Bps


class AgentResult(Model):
    """What one agent (here: one source's claim set) hands to the aggregator."""

    agent_name: str
    hypotheses: list[Hypothesis]


__all__ = ["AgentResult", "Hypothesis"]
