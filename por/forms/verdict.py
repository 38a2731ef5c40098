"""VERDICT: the chain form of a DeterministicVerdict (draft §2.10), whole."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from por.forms.words import B32, OUTCOME, RULE, VERDICT, E, H, O, W, amap, get


def verdict_form(verdict: Mapping[str, Any]) -> bytes:
    """``F`` VERDICT (tag 9); a rule id outside the five has no form."""
    v = amap(verdict)
    return b"".join((
        W(VERDICT), H(get(v, "market_id")), E(OUTCOME, get(v, "outcome")),
        W(get(v, "confidence_bps")), E(RULE, get(v, "resolution_rule_id")),
        O(v, "resolution_time"),
        B32(get(v, "prompt_spec_hash")), B32(get(v, "evidence_root")), W(get(v, "evidence_count")),
        B32(get(v, "reasoning_root")), W(get(v, "reasoning_count")),
    ))
