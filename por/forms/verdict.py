"""VERDICT: the chain form of a DeterministicVerdict (SPEC §5.6.12), whole; its integers
in §4.5's ranges (``bps``, ``time``, ``count``), else no form (s39, draft §6 item 22)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from por.forms.words import (
    B32,
    BPS_MAX,
    OUTCOME,
    RULE,
    TIME_MAX,
    VERDICT,
    E,
    H,
    O,
    W,
    amap,
    get,
    ranged,
)


def verdict_form(verdict: Mapping[str, Any]) -> bytes:
    """``F`` VERDICT (tag 9); a rule id outside the five has no form."""
    v = amap(verdict)
    return b"".join((
        W(VERDICT), H(get(v, "market_id")), E(OUTCOME, get(v, "outcome")),
        ranged(get(v, "confidence_bps"), 0, BPS_MAX), E(RULE, get(v, "resolution_rule_id")),
        O(v, "resolution_time", lambda t: ranged(t, 0, TIME_MAX)),
        B32(get(v, "prompt_spec_hash")), B32(get(v, "evidence_root")),
        ranged(get(v, "evidence_count"), 0, TIME_MAX),
        B32(get(v, "reasoning_root")), ranged(get(v, "reasoning_count"), 0, TIME_MAX),
    ))
