"""Rendering of ``por verify`` results: the JSON document and the text lines.

One plain-dict *result* per input is built first (:func:`result_from_report`,
:func:`error_result`); the ``--json`` document and every text line are drawn
from those dicts, so text and JSON can never disagree.  The document's shape
is fixed by ``por/cli/verify_report.schema.json`` (schema ``por/verify-report/1``):
every key is always present, ``null`` where there is no value.

Leaves out: running the verifier (``por.cli.verify``) and printing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from por.cli.common import EXIT_NO_VERDICT, percent_from_bps, safe_text

if TYPE_CHECKING:
    from por.schemas.verification import CheckResult
    from verifier import VerificationReport

#: The versioned ``schema`` field of the ``--json`` document.
VERIFY_SCHEMA = "por/verify-report/1"

#: Text-mode word per status: ``OK`` exit 0, ``FAIL`` exit 1, ``ERROR`` exit 2.
STATUS_WORD = {"verified": "OK", "rejected": "FAIL", "error": "ERROR"}

_STATUS_EXIT = {"verified": 0, "rejected": 1, "error": 2}


def check_to_json(check: CheckResult) -> dict[str, Any]:
    """One check as a JSON object (``status`` is ``ok`` or ``failed``)."""
    challenge = None
    if check.challenge is not None:
        challenge = check.challenge.model_dump(mode="json", exclude_none=True)
    return {
        "id": check.check_id,
        "status": "ok" if check.ok else "failed",
        "severity": check.severity,
        "message": check.message,
        "expected": check.expected,
        "actual": check.actual,
        "challenge": challenge,
        "details": None if check.details is None else dict(check.details),
    }


def result_from_report(name: str, report: VerificationReport) -> dict[str, Any]:
    """The result for one input that was read and checked.

    For a rejected bundle the verdict fields are what the bundle *claims*
    (when it could be decoded), not a verified verdict.
    """
    return {
        "input": name,
        "status": report.status,
        "exit_code": _STATUS_EXIT[report.status],
        "market_id": report.market_id,
        "outcome": report.outcome,
        "confidence_bps": report.confidence_bps,
        "resolution_rule_id": report.resolution_rule_id,
        "por_root": None if report.por_root is None else report.por_root.hex(),
        "checks": [check_to_json(c) for c in report.checks],
    }


def error_result(name: str, check_id: str, message: str,
                 exit_code: int = EXIT_NO_VERDICT) -> dict[str, Any]:
    """The result for an input that could not be checked at all (e.g. unreadable)."""
    return {
        "input": name,
        "status": "error" if exit_code == EXIT_NO_VERDICT else "rejected",
        "exit_code": exit_code,
        "market_id": None,
        "outcome": None,
        "confidence_bps": None,
        "resolution_rule_id": None,
        "por_root": None,
        "checks": [{
            "id": check_id, "status": "failed", "severity": "error", "message": message,
            "expected": None, "actual": None, "challenge": None, "details": None,
        }],
    }


def verify_document(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The one ``--json`` document: the worst exit code, every result, the summary."""
    return {
        "schema": VERIFY_SCHEMA,
        "exit_code": worst_exit_code(results),
        "results": results,
        "summary": summary(results),
    }


def summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Counts per status and the archive digest (SPEC §6.4) over ``results``."""
    from verifier.archive import summary_digest

    rows = []
    counts = dict.fromkeys(_STATUS_EXIT, 0)
    for result in results:
        failure = first_failure(result)
        root = result["por_root"]
        rows.append((result["input"], result["status"],
                     None if failure is None else failure["id"],
                     None if root is None else bytes.fromhex(root)))
        counts[result["status"]] += 1
    return {"count": len(results), **counts, "digest": summary_digest(rows).hex()}


def summary_text(document_summary: dict[str, Any]) -> str:
    """The last text line when several inputs were checked."""
    return (f"summary: {document_summary['count']} inputs, "
            f"{document_summary['verified']} verified, {document_summary['rejected']} rejected, "
            f"{document_summary['error']} no verdict; digest {document_summary['digest']}")


def worst_exit_code(results: list[dict[str, Any]]) -> int:
    """DESIGN §4: with several inputs the worst code wins (2 > 1 > 0)."""
    return max((int(r["exit_code"]) for r in results), default=0)


def first_failure(result: dict[str, Any]) -> dict[str, Any] | None:
    """The first failed error-severity check: the one to act on."""
    for check in result["checks"]:
        if check["status"] == "failed" and check["severity"] == "error":
            return dict(check)
    return None


def summary_line(result: dict[str, Any]) -> str:
    """``OK <input>``, ``FAIL <input>: <check-id>: <reason>`` or ``ERROR ...``."""
    word = STATUS_WORD[result["status"]]
    name = safe_text(result["input"])
    if result["status"] == "verified":
        return f"{word} {name}"
    failure = first_failure(result)
    if failure is None:  # not produced by the verifier; keep the line well-formed
        return f"{word} {name}: internal.error: no failing check was reported"
    return f"{word} {name}: {failure['id']}: {safe_text(failure['message'])}"


def verbose_lines(result: dict[str, Any]) -> list[str]:
    """``-v``: the summary line, the verdict read, then every check."""
    lines = [summary_line(result)]
    if result["market_id"] is not None:
        lines.append(f"  market     {safe_text(result['market_id'])}")
    if result["outcome"] is not None and result["confidence_bps"] is not None:
        claim = "" if result["status"] == "verified" else "  (claimed, not verified)"
        lines.append(f"  verdict    {result['outcome']} "
                     f"{percent_from_bps(result['confidence_bps'])} "
                     f"{result['resolution_rule_id']}{claim}")
    if result["por_root"] is not None:
        lines.append(f"  por_root   {result['por_root']}")
    for check in result["checks"]:
        status = "FAILED" if check["status"] != "ok" else (
            "warn" if check["severity"] == "warn" else "ok")
        quiet_severity = check["status"] == "ok" or check["severity"] == "error"
        lines.append(f"  {status:<6}  {check['id']}: {safe_text(check['message'])}"
                     + ("" if quiet_severity else f" [{check['severity']}]"))
        if check["expected"] is not None:
            lines.append(f"          expected   {safe_text(check['expected'])}")
        if check["actual"] is not None:
            lines.append(f"          actual     {safe_text(check['actual'])}")
        if check["challenge"] is not None:
            lines.append(f"          challenge  {challenge_text(check['challenge'])}")
    return lines


def challenge_text(challenge: dict[str, Any]) -> str:
    """A ChallengeRef on one line: ``evidence_leaf index=2 evidence_id=ev_0003``."""
    parts = [str(challenge["kind"])]
    for key in ("leaf_index", "evidence_id", "step_id", "reason"):
        if challenge.get(key) is not None:
            parts.append(f"{key}={challenge[key]}")
    return safe_text(" ".join(parts))


__all__ = [
    "STATUS_WORD",
    "VERIFY_SCHEMA",
    "challenge_text",
    "check_to_json",
    "error_result",
    "first_failure",
    "result_from_report",
    "summary",
    "summary_line",
    "summary_text",
    "verbose_lines",
    "verify_document",
    "worst_exit_code",
]
