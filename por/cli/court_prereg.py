"""A court run's published pre-registration (SPEC §16.11): ``por court preregister``,
``court rule --preregistration`` and ``court verify --preregistration``.

The court's pre-registration is the locked judges' record (``por.JudgePreregistration/1``,
SPEC §15.11) over every seat's lock, the one case and the court file's ``run``; it is
signed by the same detached EIP-712 ``Preregistration``.  ``preregister`` writes it
(and signs it) before any call; ``rule --preregistration FILE`` refuses a file that is
not this court's on this case before any judge is asked; ``verify --preregistration
FILE`` checks a ruling against it and shows who signed it.  No model, no network.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import EXIT_OK, out, print_json, read_input
from por.cli.judge_prereg import (
    add_output_options,
    check_output_options,
    read_preregistration,
    read_preregistration_signature,
    signed_suffix,
    write_preregistration,
)


def add_preregister_parser(sub: Any, common: Any) -> None:
    """Register ``por court preregister``; ``common`` adds --json, --max-size, -v."""
    prereg = sub.add_parser("preregister", help="commit a court run's seats, case and run "
                                                "before its first call (SPEC §16.11)")
    prereg.add_argument("case", metavar="CASE", help="a por.DisputeCase/1 (por dispute open)")
    prereg.add_argument("--court", required=True, metavar="COURT.yaml", help="the court file")
    add_output_options(prereg)
    common(prereg)
    prereg.set_defaults(run=run_preregister)


def add_rule_option(rule: argparse.ArgumentParser) -> None:
    """``court rule --preregistration PREREG``."""
    rule.add_argument("--preregistration", metavar="PREREG",
                      help="run under this published pre-registration (por court "
                           "preregister); another court's or case's is refused before "
                           "any call (court.preregistration)")


def add_verify_options(verify: argparse.ArgumentParser) -> None:
    """``court verify --preregistration PREREG [--preregistration-signature SIG
    [--preregistration-key PUB]...]``."""
    group = verify.add_argument_group("a published pre-registration (SPEC §16.11)")
    group.add_argument("--preregistration", metavar="PREREG",
                       help="require the ruling to be this pre-registration's run")
    group.add_argument("--preregistration-signature", metavar="SIG",
                       help="a por.PreregistrationSignature/1 over it, checked and shown")
    group.add_argument("--preregistration-key", action="append", default=[], metavar="PUB",
                       help="trust this public key file for it (repeatable; "
                            "signature.untrusted_key)")


def _court_record(case_path: str, court_path: str, max_size: int) -> tuple[Any, ...]:
    """The case, rule and locks of a court file, and the run's pre-registration."""
    from por.cli.court_run import load_judges
    from por.court.case import CASE_MAX_SIZE, DisputeCase, check_case
    from por.court.chain import court_preregistration
    from por.court.config import court_rule
    from por.court.panel import check_rule

    case = DisputeCase.from_cbor(read_input(case_path, max_size), max_size=CASE_MAX_SIZE)
    check_case(case)
    numbers, locks, _ = load_judges(court_path)
    rule = court_rule(numbers, len(locks), 0)  # the time is not pre-registered
    check_rule(rule, locks)
    return case, rule, locks, court_preregistration(rule, locks, case.case_hash())


def run_preregister(args: argparse.Namespace) -> int:
    """``por court preregister``."""
    from por.locked_judges.chain import preregistration_digest

    check_output_options(args)
    case, rule, locks, record = _court_record(args.case, args.court, args.max_size)
    signed = write_preregistration(record, args)
    digest = preregistration_digest(record).hex()
    if args.json:
        print_json({"schema": "por/court-preregistration/1", "digest": digest,
                    "run": record.run, "case_hash": case.case_hash().hex(),
                    "panel": [d.hex() for d in record.panel], "seats": rule.seats,
                    "output": args.output,
                    "signer": None if signed is None else signed.signer.hex(),
                    "signature_output": args.signature_output})
    else:
        out(f"{digest}  run {record.run}, case {case.case_hash().hex()[:16]}, "
            f"{len(locks)} seat(s) -> {args.output}"
            + signed_suffix(signed, args))
    return EXIT_OK


def check_given(args: argparse.Namespace, case: Any, rule: Any, locks: list[Any]) -> None:
    """``court rule --preregistration``: the file is this court's on this case, or
    ``court.preregistration`` (exit 1) before any judge is asked."""
    from por.court.chain import check_court_preregistration

    if getattr(args, "preregistration", None) is None:
        return
    check_court_preregistration(read_preregistration(args.preregistration), rule, locks,
                                case.case_hash())


def verify_given(args: argparse.Namespace, summary: Any) -> dict[str, Any] | None:
    """``court verify --preregistration``: the ruling is the file's run (else
    ``court.preregistration``); with its signature, the signature's status (a
    bad or untrusted one fails, exit 1).  ``None`` without the option."""
    from por.cli.common import CliError

    if args.preregistration is None:
        if args.preregistration_signature or args.preregistration_key:
            raise CliError("usage.options", "--preregistration-signature and "
                           "--preregistration-key need --preregistration")
        return None
    if args.preregistration_key and not args.preregistration_signature:
        raise CliError("usage.options", "--preregistration-key needs "
                       "--preregistration-signature")
    from por.court.chain import check_court_preregistration
    from por.court.errors import CourtError
    from por.locked_judges.chain import preregistration_digest

    record = read_preregistration(args.preregistration)
    if summary.rule.run is None:
        raise CourtError("court.preregistration", "the ruling was made before "
                         "pre-registration (its rule has no run)",
                         expected=preregistration_digest(record))
    digest = check_court_preregistration(record, summary.rule, summary.panel,
                                         summary.case_hash)
    document: dict[str, Any] = {"file": args.preregistration, "digest": digest.hex(),
                                "run": record.run, "signature": None}
    if args.preregistration_signature:
        document["signature"] = _signature_status(args, record)
    return document


def _signature_status(args: argparse.Namespace, record: Any) -> dict[str, Any]:
    from por.cli.signature_status import detached_status, settle
    from por.locked_judges.prereg_signing import preregistration_signature_failures
    from por.signing.keyfiles import load_public_key_file
    from por.signing.policy import TrustPolicy

    signed = read_preregistration_signature(args.preregistration_signature)
    trusted = [load_public_key_file(p).signer for p in args.preregistration_key] or None
    policy = TrustPolicy.of(trusted, now=args.now)
    failures = preregistration_signature_failures(signed, record, policy)
    return settle(detached_status(failures, signed, policy), failures)


def given_lines(document: dict[str, Any] | None) -> list[str]:
    """The text lines of ``verify_given``'s document."""
    from por.cli.signature_status import status_line

    if document is None:
        return []
    lines = [f"  pre-registration {document['digest'][:16]} run {document['run']}: "
             "this ruling's"]
    if document["signature"] is not None:
        lines.append(status_line(document["signature"]))
    return lines


__all__ = ["add_preregister_parser", "add_rule_option", "add_verify_options", "check_given",
           "given_lines", "run_preregister", "verify_given"]
