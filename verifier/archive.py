"""Verifying many bundles: fan-out over any ``concurrent.futures.Executor``.

``check_many`` hands each input's bytes to ``check_bundle`` serially (no
executor) or on an executor (a process pool, or a Dask cluster through
``distributed.Client.get_executor()``; this module never imports either) and
yields the reports **in input order**, whatever order the workers finish in.
At most ``window`` inputs are in flight, so memory is bounded by the window,
not by the archive.

A worker answers with the por version it ran (:func:`check_one`); a report
made by another version is refused with :class:`ArchiveError`
(``archive.version_mismatch``), since a verifier of another version may apply
other rules (SPEC §6.4).  ``summary_digest`` is the SHA-256 of the canonical
summary of an archive (SPEC §6.4): the same serially, in a pool and on Dask.
:class:`ArchiveReport` holds the reports of a run in input order and owns its
``por/verify-report/1`` document (``por verify --json``).

Leaves out: reading files, printing, choosing the executor (``por.cli``).
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from por import __version__
from por.encoding import encode
from por.errors import PorError
from verifier.api import check_bundle
from verifier.options import VerifyOptions
from verifier.report_form import EXIT_CODES

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from verifier.report import VerificationReport
    from verifier.report_form import Report

#: The ``schema`` of the summary record that :func:`summary_digest` hashes.
SUMMARY_SCHEMA = "por.ArchiveSummary/1"
#: The versioned ``schema`` field of the verify report document (``por verify --json``).
VERIFY_SCHEMA = "por/verify-report/1"


class ArchiveError(PorError):
    """A worker could not be trusted to give the answer this process would."""


def check_one(data: bytes, options: VerifyOptions) -> tuple[str, VerificationReport]:
    """Run on a worker: ``(por version, check_bundle(data, options))``."""
    return __version__, check_bundle(data, options)


def check_chunk(chunk: list[bytes], options: VerifyOptions,
                lean: bool = False) -> tuple[str, list[Report]]:
    """Run on a worker: ``(por version, [check_bundle(data, options) ...])`` for
    several inputs at once (one task, one message each way per chunk)."""
    return __version__, [check_bundle(data, options, lean=lean) for data in chunk]


def check_many(
    inputs: Iterable[bytes],
    options: VerifyOptions,
    *,
    executor: Executor | None = None,
    window: int = 1,
    lean: bool = False,
) -> Iterator[Report]:
    """Reports for ``inputs`` in input order; at most ``window`` in flight.

    Without an executor every input is checked here, one after another; with
    one, inputs travel in chunks (:data:`CHUNK_COUNT` bundles, at most
    :data:`CHUNK_BYTES` but for a single large one) and ``window`` counts
    chunks.  With ``lean=True`` a verified report may be a ``LeanReport`` (as
    ``check_bundle``).  Raises :class:`ArchiveError` if a worker runs another
    por version.
    """
    if executor is None:
        for data in inputs:
            yield check_bundle(data, options, lean=lean)
        return
    if window < 1:
        raise ValueError("window must be at least 1")
    pending: deque[Future[tuple[str, list[Report]]]] = deque()
    for chunk in _chunks(inputs):
        pending.append(executor.submit(check_chunk, chunk, options, lean))
        if len(pending) >= window:
            yield from _results(pending.popleft())
    while pending:
        yield from _results(pending.popleft())


#: A task carries at most this many bundles and, past the first, this many bytes:
#: small bundles share a task (a task costs a round trip), large ones go alone.
CHUNK_COUNT = 16
CHUNK_BYTES = 4 * 1024 * 1024


def _chunks(inputs: Iterable[bytes]) -> Iterator[list[bytes]]:
    chunk: list[bytes] = []
    size = 0
    for data in inputs:
        if chunk and (len(chunk) >= CHUNK_COUNT or size + len(data) > CHUNK_BYTES):
            yield chunk
            chunk, size = [], 0
        chunk.append(data)
        size += len(data)
    if chunk:
        yield chunk


def _results(future: Future[tuple[str, list[Report]]]) -> list[Report]:
    version, reports = future.result()
    if version != __version__:
        raise ArchiveError(
            "archive.version_mismatch",
            f"a worker runs por {version}, this process runs por {__version__}; "
            "install the same version on every worker",
        )
    return reports


def summary_digest(rows: Iterable[tuple[str, str, str | None, bytes | None]]) -> bytes:
    """SHA-256 of the canonical summary (SPEC §6.4).

    ``rows`` are, in input order, ``(input name, status, first failed check id
    or None, por_root or None)``.  The summary is the por-cbor/1 encoding of
    ``{"schema": SUMMARY_SCHEMA, "results": [...]}`` with one map per row and
    absent values omitted; it depends on nothing but the inputs' names and
    their verification outcomes.
    """
    results: list[dict[str, Any]] = []
    for name, status, check_id, por_root in rows:
        row: dict[str, Any] = {"input": name, "status": status}
        if check_id is not None:
            row["check_id"] = check_id
        if por_root is not None:
            row["por_root"] = por_root
        results.append(row)
    return hashlib.sha256(encode({"schema": SUMMARY_SCHEMA, "results": results})).digest()


class ArchiveReport:
    """The reports of a run over several inputs, as ``(input name, report)`` in
    input order; the one ``por/verify-report/1`` document of ``por verify --json``
    (``por/cli/verify_report.schema.json``: every key always present)."""

    __slots__ = ("results",)

    def __init__(self, results: tuple[tuple[str, Report], ...]) -> None:
        self.results = results

    @property
    def exit_code(self) -> int:
        """DESIGN §4: with several inputs the worst code wins (2 > 1 > 0)."""
        return max((EXIT_CODES[report.status] for _, report in self.results), default=0)

    def counts(self) -> dict[str, int]:
        """How many inputs have each status (``verified``, ``rejected``, ``error``)."""
        counts = dict.fromkeys(EXIT_CODES, 0)
        for _, report in self.results:
            counts[report.status] += 1
        return counts

    def digest(self) -> bytes:
        """:func:`summary_digest` of the results (SPEC §6.4)."""
        rows = []
        for name, report in self.results:
            failure = report.first_failure
            rows.append((name, report.status, None if failure is None else failure.check_id,
                         report.por_root))
        return summary_digest(rows)

    def to_document(self) -> dict[str, Any]:
        """The JSON document: the worst exit code, every result, the summary."""
        return {
            "schema": VERIFY_SCHEMA,
            "exit_code": self.exit_code,
            "results": [report.to_document(name) for name, report in self.results],
            "summary": {"count": len(self.results), **self.counts(),
                        "digest": self.digest().hex()},
        }


__all__ = ["CHUNK_BYTES", "CHUNK_COUNT", "SUMMARY_SCHEMA", "VERIFY_SCHEMA", "ArchiveError",
           "ArchiveReport", "check_chunk", "check_many", "check_one", "summary_digest"]
