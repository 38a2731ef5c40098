"""``por verify``: replay and check bundles; exit 0 verified, 1 rejected, 2 no verdict.

Reads each input (a file, or ``-`` for standard input), hands the bytes to
``verifier.check_bundle(data, options)`` and reports every input: one text
line each, every check with ``-v``, nothing with ``-q``, or one JSON document
with ``--json``.  The exit code is the worst over all inputs (DESIGN §4).

Extending: a new verifier option is one ``add_argument`` in
:func:`add_parser` plus one entry in :func:`check_options`.  Trust (DESIGN §4:
trust comes only from key files on the command line): ``--key PUB`` adds a
public key file's signer id to the ``TrustPolicy``'s ``trusted``, ``--require-signature``
demands a valid signature from one of them, ``--now`` is the time for expiry
(default: the wall clock, read in ``por.cli.signing_args``), ``--chain-id``
and ``--contract`` pin the EIP-712 domain.  Leaves out: the checks themselves
(``verifier/``).
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from por.cli.common import (
    EXIT_TABLE,
    STDIN,
    CliError,
    add_max_size_option,
    err,
    out,
    positive_int,
    print_json,
    safe_text,
)
from por.cli.signing_args import add_now_option, contract_address, uint64

if TYPE_CHECKING:
    from pathlib import Path

    from verifier.options import VerifyOptions
    from verifier.report_form import Report

_DESCRIPTION = """\
Check PoR bundles: strict decoding, schemas, every hash and Merkle root, the
manifest's version lock, a replay of the auditor (step by step) and of the
judge, and signatures.  The file is only read; nothing is written."""

_EPILOG = f"""\
output:
  text     one line per input, in order:
             OK <input>
             FAIL <input>: <check-id>: <reason>      (exit 1: rejected)
             ERROR <input>: <check-id>: <reason>     (exit 2: no verdict, e.g.
                                                      io.unreadable or an
                                                      unsupported version)
           then, for a signed bundle, one gpg-like line per signature:
             signature 0: good by 0x<EIP-55> (<scheme>), trusted (a given key)
             (good | bad | expired | not yet valid | other domain;
              trusted | NOT trusted | not certified (no key given))
           a judgement, court bundle or proof is checked by its own verifier
           (same exit codes); a JSON file is input.json (exit 2)
  -v       the same line, then the verdict read and every check (id, status,
           message, expected/actual, challenge)
  -q       nothing; only the exit code
  --json   exactly one JSON document, schema "por/verify-report/1"
           (por schema verify-report), on success and on failure alike,
           with the same exit code

trust (signatures, SPEC §8):
  Every signature in a bundle is checked (encoding, low s, v, domain,
  digest of the committed verdict, validity period at --now).
  --key PUB            trust this public key file (from `por keygen`); repeat
                       for several.  A valid signature by any other key is
                       reported (signature.not_trusted) and counts for nothing;
                       an invalid signature rejects the bundle whoever made it.
                       Without a good signature by a --key the bundle is
                       rejected (signature.untrusted_key / signature.missing)
  --require-signature  reject a bundle without a valid signature from a
                       --key (signature.missing: unsigned;
                       signature.untrusted_key: no trusted signer)
  --now UNIX           the time for expiry (default: the wall clock)
  --chain-id N         reject signatures for another chainId (signature.chain_id)
  --contract ADDR      reject signatures for another verifyingContract
                       (signature.contract); 0x + 40 hex digits
  A key file error is one line, por: key.<id>: <reason>, exit 2.

examples:
  por verify bundle.cbor
  por verify -v bundle.cbor
  por verify --key signer.key.pub --require-signature --chain-id 8453 bundle.cbor
  por verify --json por-demo/*.cbor > report.json
  cat bundle.cbor | por verify -
  por verify -q bundle.cbor && echo verified

{EXIT_TABLE}"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por verify`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "verify",
        help="replay and check bundles (exit 0 verified, 1 rejected, 2 no verdict)",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundles", nargs="+", metavar="BUNDLE",
                        help="bundle file to check; - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document (por/verify-report/1)")
    level = parser.add_mutually_exclusive_group()
    level.add_argument("-q", "--quiet", action="store_true",
                       help="print nothing; report through the exit code only")
    level.add_argument("-v", "--verbose", action="store_true",
                       help="list every check; show tracebacks of internal errors")
    add_max_size_option(parser, "inputs")
    parser.add_argument("--challenges", metavar="DIR", default=None,
                        help="write a proof file into DIR for each disputed leaf reported")
    archive = parser.add_argument_group("archives (many bundles)")
    archive.add_argument("--jobs", type=positive_int, default=1, metavar="N",
                         help="check N bundles at a time in a process pool (default 1)")
    archive.add_argument("--executor", default=None, metavar="ADDR",
                         help="check on a Dask cluster, e.g. tcp://10.0.0.5:8786 "
                              "(needs por[dask])")
    archive.add_argument("--progress", action="store_true",
                         help="print [k/N] progress on stderr (default: when stderr "
                              "is a terminal and there are several inputs)")
    # Trust options; check_options maps them to verifier options.
    trust = parser.add_argument_group("trust")
    trust.add_argument("--key", action="append", default=[], metavar="PUB",
                       help="trust this public key file (repeatable)")
    trust.add_argument("--require-signature", action="store_true",
                       help="reject a bundle without a valid signature from a --key")
    add_now_option(trust, "Unix seconds for signature expiry (default: the wall clock)")
    trust.add_argument("--chain-id", type=uint64, default=None, metavar="N",
                       help="reject signatures for another EIP-712 chainId")
    trust.add_argument("--contract", type=contract_address, default=None, metavar="ADDR",
                       help="reject signatures for another verifyingContract (0x + 40 hex)")
    parser.set_defaults(run=run)
    return parser


def check_options(args: argparse.Namespace) -> VerifyOptions:
    """The ``VerifyOptions`` for ``check_bundle`` from the parsed options.

    The one place where command-line options become verifier options.  Each
    ``--key`` file is read here (``key.*`` errors: exit 2 before any bundle is
    checked); without ``--key``, ``trusted`` is ``None`` (no key given: "not certified").
    """
    from por.cli.signing_args import now_from_args
    from por.signing.policy import TrustPolicy
    from verifier.options import VerifyOptions

    trusted: frozenset[bytes] | None = None
    if args.key:
        from por.signing.keyfiles import load_public_key_file

        trusted = frozenset(load_public_key_file(path).signer for path in args.key)
    # A --key names whose signature the caller expects: without a good one by it
    # the bundle is rejected (gpg --verify with a keyring), as --require-signature.
    trust = TrustPolicy(trusted=trusted, require_signature=args.require_signature or bool(trusted),
                        now=now_from_args(args), chain_id=args.chain_id, contract=args.contract)
    return VerifyOptions(trust, max_size=args.max_size)


def run(args: argparse.Namespace) -> int:
    """Check every input; print per the output mode; return the worst exit code."""
    from por.cli.bundle_file import open_bundle
    from por.cli.executors import open_executor
    from por.cli.output import STATUS_WORD, summary_text
    from verifier.archive import ArchiveError, ArchiveReport, check_many
    from verifier.report_form import UncheckedReport

    if args.quiet and args.json:
        raise CliError("usage.options", "-q and --json exclude each other")
    if args.bundles.count(STDIN) > 1:
        raise CliError("usage.stdin_twice", "standard input (-) can be read only once")
    if args.executor is not None and args.jobs > 1:
        raise CliError("usage.options", "--jobs and --executor exclude each other")
    options = check_options(args)
    total = len(args.bundles)
    show_progress = not args.quiet and (args.progress or (total > 1 and sys.stderr.isatty()))
    results: list[tuple[str, Report]] = []
    written: dict[bytes, Path] = {}  # proofs written by --challenges in this run
    # Entries in input order: (name, error or None, bytes kept for --challenges).
    queue: deque[tuple[str, CliError | None, bytes | None]] = deque()

    def readable() -> Iterator[bytes]:
        for name in args.bundles:
            try:
                data = open_bundle(name, args.max_size).data
            except CliError as exc:
                queue.append((name, exc, None))
                continue
            keep = args.challenges is not None or name == STDIN
            queue.append((name, None, data if keep else None))
            yield data

    def emit(name: str, report: Report, data: bytes | None) -> None:
        report = _other_document(args, name, report, data) or report
        results.append((name, report))
        if data is not None and not report.ok:
            _write_challenges(args, name, report, data, written)
        _print_result(args, name, report)
        if show_progress:
            err(f"[{len(results)}/{total}] {STATUS_WORD[report.status]} {safe_text(name)}")

    def flush_errors() -> None:
        while queue and (exc := queue[0][1]) is not None:
            name = queue.popleft()[0]
            emit(name, UncheckedReport(exc.check_id, exc.reason), None)

    with open_executor(args.jobs, args.executor) as (executor, window):
        try:
            for report in check_many(readable(), options, executor=executor,
                                     window=window, lean=True):
                flush_errors()
                name, _, data = queue.popleft()
                emit(name, report, data)
        except ArchiveError as exc:
            raise CliError(exc.check_id, exc.message) from None
    flush_errors()
    archive = ArchiveReport(tuple(results))
    if args.json:
        print_json(archive.to_document())
    elif total > 1 and not args.quiet:
        out(summary_text(archive))
    return archive.exit_code


#: First failures of a PoR check that may mean "another por document" (SPEC §4).
_NOT_A_BUNDLE = ("schema.unknown_schema", "codec.")


def _other_document(args: argparse.Namespace, name: str, report: Report,
                    data: bytes | None) -> Report | None:
    """The report of ``name`` checked as the por document it is, when it is not
    a PoR bundle: JSON (exit 2, a hint), a judgement, a court bundle or a proof
    (its own verifier, its own exit code); ``None`` to keep ``report``.

    Runs only after a bundle failed to decode as one, off the fast path."""
    failure = report.first_failure
    if (failure is None or not failure.check_id.startswith(_NOT_A_BUNDLE)
            or failure.check_id == "codec.too_large"):  # never read a huge input twice
        return None
    from por.cli.bundle_file import open_bundle
    from por.documents import (
        JSON_HINT,
        check_document,
        dispatches,
        document_schema,
        looks_like_json,
    )
    from verifier.report_form import DocumentReport

    if data is None:
        try:
            data = open_bundle(name, args.max_size).data
        except CliError:
            return None
    if looks_like_json(data):
        return DocumentReport(None, "error", "input.json", JSON_HINT)
    schema = document_schema(data, max_size=args.max_size)
    if schema is None or not dispatches(schema):
        return None
    result = check_document(data, schema, max_size=args.max_size)
    return DocumentReport(schema, result.status, result.check_id,
                          f"{schema}: {result.message}")


def _print_result(args: argparse.Namespace, name: str, report: Report) -> None:
    """Text lines stream as inputs are checked; JSON is one document at the end."""
    from por.cli.output import signature_lines, summary_line, verbose_lines

    if args.json or args.quiet:
        return
    if args.verbose:
        for line in verbose_lines(name, report):
            out(line)
    else:
        out(summary_line(name, report))
        for line in signature_lines(report):
            out(line)


def _write_challenges(args: argparse.Namespace, name: str, report: Report, data: bytes,
                      written: dict[bytes, Path]) -> None:
    from por.cli.challenge_files import write_challenges_for_report

    files = write_challenges_for_report(report, data, args.challenges,
                                        max_size=args.max_size, seen=written)
    if not args.quiet and not args.json:
        for item in files:
            err(f"{safe_text(name)}: {item.line}")


__all__ = ["add_parser", "check_options", "run"]
