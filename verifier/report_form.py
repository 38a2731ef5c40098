"""What a verification report is, whichever path made it, and its JSON document.

``check_bundle`` returns a :class:`Report`: the pydantic ``VerificationReport``
(``verifier.report``), the fast path's ``LeanReport`` (``verifier.fast``) or,
for an input that could not be read at all, an :class:`UncheckedReport`.  The
protocols name every attribute a caller reads, so mypy proves each report
gives them.  Each report owns its JSON document (``to_document``): the
``por/verify-report/1`` result of one input (``por/cli/verify_report.schema.json``),
every key always present, ``null`` where there is no value; this module builds
it for the pydantic-free reports and ``VerificationReport`` builds the same.

Leaves out: running the steps (``verifier.steps``, ``verifier.fast``) and
text rendering (``por.cli.output``).  Imports no pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from por.lean.writers_gen import Check

Status = Literal["verified", "rejected", "error"]
#: Exit code per status (SPEC §11): 0 verified, 1 rejected, 2 no verdict.
EXIT_CODES: dict[str, int] = {"verified": 0, "rejected": 1, "error": 2}


class ReportChallenge(Protocol):
    """The leaf a challenger should dispute (``ChallengeRef``, SPEC §10)."""

    @property
    def kind(self) -> str: ...
    @property
    def evidence_id(self) -> str | None: ...
    @property
    def step_id(self) -> str | None: ...
    @property
    def leaf_index(self) -> int | None: ...
    @property
    def reason(self) -> str | None: ...


class ReportCheck(Protocol):
    """One check of a report (``CheckResult``)."""

    @property
    def check_id(self) -> str: ...
    @property
    def ok(self) -> bool: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def expected(self) -> str | None: ...
    @property
    def actual(self) -> str | None: ...
    @property
    def details(self) -> Mapping[str, object] | None: ...
    @property
    def challenge(self) -> ReportChallenge | None: ...

    def to_document(self) -> dict[str, Any]:
        """The check's JSON object in the verify report."""
        ...


class Report(Protocol):
    """What ``check_bundle`` returns: the status, every check, the verdict read."""

    @property
    def status(self) -> Status: ...
    @property
    def exit_code(self) -> int: ...
    @property
    def ok(self) -> bool: ...
    @property
    def checks(self) -> Sequence[ReportCheck]: ...
    @property
    def first_failure(self) -> ReportCheck | None: ...
    @property
    def market_id(self) -> str | None: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def confidence_bps(self) -> int | None: ...
    @property
    def resolution_rule_id(self) -> str | None: ...
    @property
    def por_root(self) -> bytes | None: ...

    def to_document(self, input_name: str) -> dict[str, Any]:
        """The result of input ``input_name`` in the verify report (JSON form)."""
        ...


def report_document(input_name: str, report: Report) -> dict[str, Any]:
    """The one-input result of ``por/verify-report/1``: keys in the schema's order.

    For a rejected bundle the verdict fields are what the bundle *claims* (when
    it could be decoded), not a verified verdict.
    """
    return {
        "input": input_name,
        "status": report.status,
        "exit_code": EXIT_CODES[report.status],
        "market_id": report.market_id,
        "outcome": report.outcome,
        "confidence_bps": report.confidence_bps,
        "resolution_rule_id": report.resolution_rule_id,
        "por_root": None if report.por_root is None else report.por_root.hex(),
        "checks": [check.to_document() for check in report.checks],
        "signatures": signature_documents(report.checks),
    }


#: The keys of a check's ``details`` that make it a signature's status (step 8).
_STATUS_KEYS = ("index", "status", "scheme", "signer", "trust", "check_id", "message")


def signature_documents(checks: Sequence[ReportCheck]) -> list[dict[str, Any]]:
    """One gpg-like status per signature (``por.signing.status``), in signature
    order: the ``details`` step 8 gave each signature's check."""
    found: list[dict[str, Any]] = []
    for check in checks:
        details = check.details
        if details is None or "trust" not in details or "index" not in details:
            continue
        found.append({key: details.get(key) for key in _STATUS_KEYS})
    return found


def plain_check(check_id: str, message: str, *, ok: bool) -> Check:
    """A check with no values, passed (``info``) or failed (``error``): the fast
    path's passed checks, a document's one check, why an input was not checked."""
    return Check(check_id, ok, "info" if ok else "error", message)


class DocumentReport:
    """The report of a por document that is not a PoR bundle (a judgement, a
    court bundle, a proof, a JSON file), checked by its own verifier
    (``por.documents``): its status and one check saying what it was."""

    __slots__ = ("checks", "schema", "status")
    market_id = None
    outcome = None
    confidence_bps = None
    resolution_rule_id = None
    por_root = None

    def __init__(self, schema: str | None, status: Status, check_id: str, message: str) -> None:
        self.schema = schema
        self.status: Status = status
        self.checks = (plain_check(check_id, message, ok=status == "verified"),)

    @property
    def exit_code(self) -> int:
        """0 verified, 1 rejected, 2 no verdict."""
        return EXIT_CODES[self.status]

    @property
    def ok(self) -> bool:
        """True iff the document verified."""
        return self.status == "verified"

    @property
    def first_failure(self) -> Check | None:
        """The one check, when it failed."""
        return None if self.ok else self.checks[0]

    def to_document(self, input_name: str) -> dict[str, Any]:
        """The result of input ``input_name`` (JSON form)."""
        return report_document(input_name, self)


class UncheckedReport:
    """The report of an input the verifier never saw (e.g. an unreadable file):
    no verdict (exit 2), one failed check saying why."""

    __slots__ = ("checks",)
    status: ClassVar[Literal["error"]] = "error"
    exit_code = 2
    ok = False
    market_id = None
    outcome = None
    confidence_bps = None
    resolution_rule_id = None
    por_root = None

    def __init__(self, check_id: str, message: str) -> None:
        self.checks = (plain_check(check_id, message, ok=False),)

    @property
    def first_failure(self) -> Check:
        """The one failed check."""
        return self.checks[0]

    def to_document(self, input_name: str) -> dict[str, Any]:
        """The result of input ``input_name`` (JSON form)."""
        return report_document(input_name, self)


__all__ = ["EXIT_CODES", "DocumentReport", "Report",
           "ReportChallenge", "ReportCheck", "Status", "UncheckedReport", "plain_check",
           "report_document", "signature_documents"]
