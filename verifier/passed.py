"""The messages of the passed checks of SPEC §6.2, shared by both paths.

The full verifier (``verifier.steps``) and the fast path (``verifier.fast``)
must write the same report for a verified bundle; their passed checks take
their messages from here.
"""

from __future__ import annotations

from por.protocol.manifest import AUDITOR_VERSION, JUDGE_VERSION

CODEC_OK = "bundle is canonical por-cbor/1"
COMMIT_OK = "every hash, root, size and por_root matches the records"
MANIFEST_OK = f"locked to {AUDITOR_VERSION} and {JUDGE_VERSION}"
TRACE_OK = "trace policy holds"
JUDGE_OK = "verdict follows from the committed inputs"


def schema_ok(items: int, steps: int) -> str:
    """``schema.ok``: the counts of well-formed items and budgeted steps."""
    return (f"{items} evidence items are well-formed records and "
            f"{steps} steps are within the budget")


def audit_ok(steps: int) -> str:
    """``replay.audit_ok``: every step matched."""
    return f"all {steps} steps match the replay"


__all__ = ["CODEC_OK", "COMMIT_OK", "JUDGE_OK", "MANIFEST_OK", "TRACE_OK", "audit_ok",
           "schema_ok"]
