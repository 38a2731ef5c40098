"""Text rendering of ``por verify`` results, drawn from the typed reports.

Each input's report (a ``verifier.Report``: the verifier's, or an
``UncheckedReport`` for an input that could not be read) renders as one text
line (:func:`summary_line`) or, with ``-v``, as the verdict read and every
check (:func:`verbose_lines`).  The ``--json`` document is not built here: the
reports own it (``Report.to_document``, ``verifier.archive.ArchiveReport``),
so text and JSON read the same values and cannot disagree.

Leaves out: running the verifier and printing (``por.cli.verify``), the JSON
document (``verifier``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from por.cli.common import percent_from_bps, safe_text

if TYPE_CHECKING:
    from verifier.archive import ArchiveReport
    from verifier.report_form import Report, ReportChallenge

#: Text-mode word per status: ``OK`` exit 0, ``FAIL`` exit 1, ``ERROR`` exit 2.
STATUS_WORD = {"verified": "OK", "rejected": "FAIL", "error": "ERROR"}


def summary_line(name: str, report: Report) -> str:
    """``OK <input>``, ``FAIL <input>: <check-id>: <reason>`` or ``ERROR ...``."""
    word = STATUS_WORD[report.status]
    shown = safe_text(name)
    if report.status == "verified":
        if report.por_root is None and report.checks and report.checks[0].check_id in {
                "judgement.ok", "court.ok", "court.case_ok", "proof.won"}:  # another document
            return f"{word} {shown}: {safe_text(report.checks[0].message)}"
        return f"{word} {shown}"
    failure = report.first_failure
    if failure is None:  # not produced by the verifier; keep the line well-formed
        return f"{word} {shown}: internal.error: no failing check was reported"
    return f"{word} {shown}: {failure.check_id}: {safe_text(failure.message)}"


def signature_lines(report: Report) -> list[str]:
    """One gpg-like line per signature (``por.signing.status``), indented under
    the input's line; none for an unsigned bundle."""
    from verifier.report_form import signature_documents

    documents = signature_documents(report.checks)
    if not documents:
        return []
    from por.signing.status import status_text

    return ["  " + safe_text(status_text(document)) for document in documents]


def verbose_lines(name: str, report: Report) -> list[str]:
    """``-v``: the summary line, the verdict read, then every check.

    For a rejected bundle the verdict is what the bundle *claims* (when it
    could be decoded), and says so."""
    lines = [summary_line(name, report), *signature_lines(report)]
    if report.market_id is not None:
        lines.append(f"  market     {safe_text(report.market_id)}")
    if report.outcome is not None and report.confidence_bps is not None:
        claim = "" if report.status == "verified" else "  (claimed, not verified)"
        lines.append(f"  verdict    {report.outcome} "
                     f"{percent_from_bps(report.confidence_bps)} "
                     f"{report.resolution_rule_id}{claim}")
    if report.por_root is not None:
        lines.append(f"  por_root   {report.por_root.hex()}")
    for check in report.checks:
        status = "FAILED" if not check.ok else ("warn" if check.severity == "warn" else "ok")
        quiet_severity = check.ok or check.severity == "error"
        lines.append(f"  {status:<6}  {check.check_id}: {safe_text(check.message)}"
                     + ("" if quiet_severity else f" [{check.severity}]"))
        if check.actual is not None:
            lines.append(f"          committed  {safe_text(check.actual)}")
        if check.expected is not None:
            lines.append(f"          recomputed {safe_text(check.expected)}")
        if check.challenge is not None:
            lines.append(f"          challenge  {challenge_text(check.challenge)}")
    return lines


def challenge_text(challenge: ReportChallenge) -> str:
    """A ChallengeRef on one line: ``evidence_leaf leaf_index=2 evidence_id=ev_0003``."""
    parts = [str(challenge.kind)]
    for key, value in (("leaf_index", challenge.leaf_index),
                       ("evidence_id", challenge.evidence_id),
                       ("step_id", challenge.step_id), ("reason", challenge.reason)):
        if value is not None:
            parts.append(f"{key}={value}")
    return safe_text(" ".join(parts))


def summary_text(archive: ArchiveReport) -> str:
    """The last text line when several inputs were checked."""
    counts = archive.counts()
    return (f"summary: {len(archive.results)} inputs, "
            f"{counts['verified']} verified, {counts['rejected']} rejected, "
            f"{counts['error']} no verdict; digest {archive.digest().hex()}")


__all__ = ["STATUS_WORD", "challenge_text", "signature_lines", "summary_line", "summary_text",
           "verbose_lines"]
