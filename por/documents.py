"""Which por document a byte string is, and checking it with its own verifier.

``por verify`` checks PoR bundles; a user hands it whatever por wrote: a
judgement bundle, a court bundle, a proof, or the JSON input of ``por build``.
:func:`document_schema` reads the top-level ``schema`` field (SPEC §4: every
record names its schema), :func:`looks_like_json` spots a JSON file, and
:func:`check_document` runs the verifier the schema names, as gpg dispatches on
the packet type: ``por.JudgementBundle/1`` -> ``por.locked_judges.verify_judgement``,
``por.CourtBundle/1`` -> ``por.court.verify.verify_court``,
``por.DisputeCase/1`` -> ``por.court.case.check_case``, a proof ->
``por.challenge.check_proof``.  The result is a status with the exit code of
SPEC §11 (0 verified, 1 rejected, 2 no verdict) and one line of text.

Bytes in, values out: no I/O.  Leaves out: the PoR bundle (``verifier``) and
what a command prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from por.errors import PorError, UnsupportedError

BUNDLE_SCHEMA = "por.Bundle/2"
JUDGEMENT_SCHEMA = "por.JudgementBundle/1"
COURT_SCHEMA = "por.CourtBundle/1"
CASE_SCHEMA = "por.DisputeCase/1"
_PROOF = re.compile(r"por\.[A-Za-z]+Proof/[0-9]+")

#: What a user is told for a JSON file handed to a command that reads CBOR.
JSON_HINT = "this is JSON; did you mean `por build`?"

Status = Literal["verified", "rejected", "error"]


def looks_like_json(data: bytes) -> bool:
    """The first non-space byte opens a JSON object or array."""
    stripped = data.lstrip(b" \t\r\n")
    return stripped[:1] in (b"{", b"[")


def is_proof_schema(schema: str) -> bool:
    """``por.<Kind>Proof/<n>``: a proof record of any kind and version."""
    return _PROOF.fullmatch(schema) is not None


def document_schema(data: bytes, *, max_size: int,
                    max_items: int | None = None) -> str | None:
    """The ``schema`` text of a por-cbor/1 map, or ``None`` (not CBOR, not a map,
    no text schema, or more than ``max_items`` items in its arrays and maps)."""
    from por.encoding import decode  # noqa: PLC0415

    try:
        value = decode(data, max_size=max_size, max_items=max_items)
    except PorError:
        return None
    schema = value.get("schema") if isinstance(value, dict) else None
    return schema if isinstance(schema, str) else None


def dispatches(schema: str | None) -> bool:
    """Whether :func:`check_document` has a verifier for ``schema``."""
    return schema is not None and (schema in (JUDGEMENT_SCHEMA, COURT_SCHEMA, CASE_SCHEMA)
                                   or is_proof_schema(schema))


def _plainly_not_a_proof(data: bytes) -> str | None:
    """Why ``data`` is plainly no proof without decoding it (empty, JSON), or ``None``."""
    if not data.strip():
        return "the file is empty"
    if looks_like_json(data):
        return "this is JSON, not a por-cbor/1 proof"
    return None


def _another_record(data: bytes, *, max_size: int) -> str | None:
    """Why ``data``, which the proof checker refused as no proof record
    (``proof.schema``), is a por record of another kind, or ``None``.  The schema is
    read under the proof item cap (SPEC §10.4 step 0), as the checker read it."""
    from por.challenge.records import proof_max_items  # noqa: PLC0415

    schema = document_schema(data, max_size=max_size, max_items=proof_max_items(len(data)))
    if schema is None or is_proof_schema(schema):
        return None
    hint = "; check it with `por verify`" if dispatches(schema) or schema == BUNDLE_SCHEMA \
        else ""
    return f"this is a {schema[:80]} record, not a proof{hint}"


def not_a_proof(data: bytes, *, max_size: int, check_id: str) -> str | None:
    """Why ``data`` is no proof at all (empty, JSON, a record of another schema), or
    ``None``: a proof that fails its checks is a lost challenge (exit 1); a file that
    is no proof at all is no verdict (exit 2), as gpg's "no valid OpenPGP data".
    ``check_id`` is what the proof checker said of ``data``: only its refusal of the
    record (``proof.schema``) makes the document's own schema worth decoding, so a
    proof is decoded once, by the checker."""
    reason = _plainly_not_a_proof(data)
    if reason is None and check_id == "proof.schema":
        reason = _another_record(data, max_size=max_size)
    return reason


@dataclass(frozen=True, slots=True)
class DocumentResult:
    """The outcome of checking one non-bundle document."""

    schema: str
    status: Status
    check_id: str
    message: str

    @property
    def exit_code(self) -> int:
        """0 verified, 1 rejected, 2 no verdict (SPEC §11)."""
        return {"verified": 0, "rejected": 1, "error": 2}[self.status]


def check_document(data: bytes, schema: str, *, max_size: int) -> DocumentResult:
    """Check ``data`` (whose top-level schema is ``schema``) with its verifier.

    Never raises for bad input: a ``PorError`` is a rejection (an
    ``UnsupportedError`` no verdict), as the document's own command reports it.
    """
    try:
        if schema == JUDGEMENT_SCHEMA:
            from por.locked_judges import verify_judgement  # noqa: PLC0415

            judged = verify_judgement(data, max_size=max_size)
            return DocumentResult(schema, "verified", "judgement.ok",
                                  f"judgement {judged.judgement_root.hex()}: "
                                  f"{len(judged.subjects)} subjects, {len(judged.votes)} votes")
        if schema == COURT_SCHEMA:
            from por.court.verify import verify_court  # noqa: PLC0415

            court = verify_court(data, max_size=max_size)
            return DocumentResult(schema, "verified", "court.ok",
                                  f"court {court.court_root.hex()}: {court.final.status}")
        if schema == CASE_SCHEMA:
            from por.court.case import CASE_MAX_SIZE, DisputeCase, check_case  # noqa: PLC0415

            case = DisputeCase.from_cbor(data, max_size=CASE_MAX_SIZE)
            check_case(case)
            return DocumentResult(schema, "verified", "court.case_ok",
                                  f"case {case.case_hash().hex()}: {case.market_id} "
                                  f"{case.leaf_kind} #{case.leaf_index}")
        if is_proof_schema(schema):
            return _proof(data, schema, max_size)
    except UnsupportedError as exc:
        return DocumentResult(schema, "error", exc.check_id, exc.message)
    except PorError as exc:
        return DocumentResult(schema, "rejected", exc.check_id, exc.message)
    return DocumentResult(schema, "error", "schema.unknown_schema",
                          f"no verifier for schema {schema[:80]}")


def _proof(data: bytes, schema: str, max_size: int) -> DocumentResult:
    """A proof, with ``por check-proof``'s exit code: 0 the challenge is won, 1 it
    is lost or the proof is invalid, 2 no verdict (SPEC §10.6)."""
    from por.challenge import check_proof  # noqa: PLC0415

    report = check_proof(data, max_size=max_size)
    status: Status = ("verified", "rejected", "error")[report.exit_code]
    if report.status != "valid":
        return DocumentResult(schema, status, report.check_id or "proof.invalid",
                              f"proof invalid: {report.message}")
    outcome = report.outcome
    said = "" if outcome is None else f"; challenge {outcome.outcome} ({outcome.reason})"
    return DocumentResult(schema, status, "proof.won" if report.won else "proof.lost",
                          f"proof valid: {report.message}{said}")


__all__ = ["BUNDLE_SCHEMA", "CASE_SCHEMA", "COURT_SCHEMA", "JSON_HINT", "JUDGEMENT_SCHEMA",
           "DocumentResult", "check_document", "dispatches", "document_schema", "is_proof_schema",
           "looks_like_json", "not_a_proof"]
