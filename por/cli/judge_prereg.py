"""``por judge preregister`` and ``check-preregistration`` (SPEC §15.11).

``preregister`` writes the ``por.JudgePreregistration/1`` of one lock over PoR
bundles (its subjects, sorted as a batch sorts them) and a run number, prints
its digest and, with ``--key``, signs it (detached EIP-712 ``Preregistration``):
what an operator publishes before ``por judge batch --preregistration`` runs
under it.  ``check-preregistration`` verifies a judgement and a signature over
its pre-registration.  No model, no network.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import (
    EXIT_OK,
    CliError,
    add_force_option,
    out,
    positive_int,
    print_json,
    read_input,
    refuse_existing,
    write_atomic,
)
from por.cli.signing_args import (
    DEFAULT_CHAIN_ID,
    DEFAULT_TTL,
    UNBOUND_CONTRACT,
    add_now_option,
    contract_address,
    uint64,
)

#: Largest pre-registration file read (15 digests and a root: a few hundred bytes).
MAX_PREREGISTRATION_FILE = 4096


def add_preregister_parser(sub: Any, common: Any, manifest_options: Any) -> None:
    """Register ``por judge preregister``; ``common`` adds --json, --max-size, -v."""
    prereg = sub.add_parser("preregister", help="commit a run's judge and subjects before "
                                                "its first call (SPEC §15.11)")
    prereg.add_argument("bundles", metavar="BUNDLE", nargs="+", help="PoR bundle files")
    manifest_options(prereg)
    add_run_option(prereg)
    add_output_options(prereg)
    common(prereg)
    prereg.set_defaults(run=run_preregister)

    check = sub.add_parser("check-preregistration",
                           help="verify a judgement and a signature over its "
                                "pre-registration (SPEC §15.11)")
    check.add_argument("judgement", metavar="JUDGEMENT", help="judgement.cbor")
    check.add_argument("--signature", required=True, metavar="SIG",
                       help="a por.PreregistrationSignature/1")
    check.add_argument("--key", action="append", default=[], metavar="PUB",
                       help="trust this public key file; repeat (signature.untrusted_key)")
    add_now_option(check, "check the validity period at this Unix time (default: the clock)")
    check.add_argument("--chain-id", type=uint64, metavar="N")
    check.add_argument("--contract", type=contract_address, metavar="ADDR")
    common(check)
    check.set_defaults(run=run_check)


def add_output_options(parser: argparse.ArgumentParser) -> None:
    """``-o PREREG``, the signing options (EIP-712 ``Preregistration``) and ``--force``:
    ``por judge preregister`` and ``por court preregister`` write the same files."""
    parser.add_argument("-o", "--output", required=True, metavar="PREREG",
                        help="write the por.JudgePreregistration/1 here")
    group = parser.add_argument_group("a detached signature (EIP-712 Preregistration)")
    group.add_argument("--key", metavar="KEY", help="sign with this secp256k1 key file")
    group.add_argument("--signature-output", metavar="SIG",
                       help="write the por.PreregistrationSignature/1 here (with --key)")
    group.add_argument("--at", type=uint64, metavar="UNIX",
                       help="issued_at (required with --key: never the clock)")
    group.add_argument("--expires-at", type=uint64, metavar="UNIX",
                       help=f"expires_at (default --at + {DEFAULT_TTL})")
    group.add_argument("--chain-id", type=uint64, default=DEFAULT_CHAIN_ID, metavar="N")
    group.add_argument("--contract", type=contract_address, default=UNBOUND_CONTRACT,
                       metavar="ADDR")
    add_force_option(parser)


def check_output_options(args: argparse.Namespace) -> None:
    """The signing options go together; the outputs do not exist (or ``--force``)."""
    if (args.key is None) != (args.signature_output is None) or \
            (args.key is not None and args.at is None):
        raise CliError("usage.options", "--key, --signature-output and --at go together")
    refuse_existing([p for p in (args.output, args.signature_output) if p], force=args.force)


def write_preregistration(record: Any, args: argparse.Namespace) -> Any:
    """Write the record (and, with ``--key``, its signature); the signature or None."""
    signed = _sign(record, args) if args.key is not None else None
    write_atomic(args.output, record.to_cbor())
    if signed is not None:
        write_atomic(args.signature_output, signed.to_cbor())
    return signed


def add_run_option(parser: argparse.ArgumentParser) -> None:
    """``--run N``: the operator's run number (stored as ``run_number``)."""
    parser.add_argument("--run", dest="run_number", type=positive_int, default=None,
                        metavar="N", help="the run number for these judges and subjects "
                                          "(default 1; a re-run needs the next)")


def run_preregister(args: argparse.Namespace) -> int:
    """``por judge preregister``."""
    from por.cli.judge_run import load_manifest, load_subjects
    from por.locked_judges.batch import order_subjects
    from por.locked_judges.chain import preregister, preregistration_digest

    check_output_options(args)
    manifest = load_manifest(args)
    subjects, _ = load_subjects(args.bundles, args.max_size)
    ordered = order_subjects(subjects)
    record = preregister([manifest], [s.bundle_hash for s in ordered], args.run_number or 1)
    signed = write_preregistration(record, args)
    digest = preregistration_digest(record).hex()
    if args.json:
        print_json({"schema": "por/judge-preregistration/1", "digest": digest,
                    "run": record.run, "panel": [d.hex() for d in record.panel],
                    "subjects_root": record.subjects_root.hex(),
                    "subjects_count": record.subjects_count, "output": args.output,
                    "signer": None if signed is None else signed.signer.hex(),
                    "signature_output": args.signature_output})
    else:
        out(f"{digest}  run {record.run}, {record.subjects_count} subjects, judge "
            f"{manifest.judge_id} -> {args.output}"
            + signed_suffix(signed, args))
    return EXIT_OK


def signed_suffix(signed: Any, args: argparse.Namespace) -> str:
    """The text line's tail naming the signer and the signature file, if signed."""
    if signed is None:
        return ""
    return f"; signed by 0x{signed.signer.hex()} -> {args.signature_output}"


def _sign(record: Any, args: argparse.Namespace) -> Any:
    from por.cli.judge_sign import MAX_TIME
    from por.cli.signing_args import load_signing_key
    from por.locked_judges.prereg_signing import preregistration_struct, sign_preregistration
    from por.signing import Eip712Domain

    key = load_signing_key(args.key)
    if key.scheme != "secp256k1":
        raise CliError("key.scheme", "a pre-registration is signed with EIP-712: secp256k1 "
                       "only", expected="secp256k1", actual=key.scheme)
    expires_at = args.at + DEFAULT_TTL if args.expires_at is None else args.expires_at
    if not args.at <= expires_at <= MAX_TIME:
        raise CliError("usage.options", f"--expires-at must be in --at..2^63-1: {expires_at}")
    domain = Eip712Domain(chain_id=args.chain_id, verifying_contract=args.contract)
    return sign_preregistration(preregistration_struct(record, issued_at=args.at,
                                                       expires_at=expires_at),
                                key.secret, domain)


def run_check(args: argparse.Namespace) -> int:
    """``por judge check-preregistration``: the judgement verifies (§15.6), then the
    signature is over its pre-registration, in its domain, by a trusted key, in its
    period (the first failure, exit 1)."""
    from por.cli.signing_args import now_from_args
    from por.locked_judges import verify_judgement
    from por.locked_judges.chain import preregistration_digest
    from por.locked_judges.prereg_signing import preregistration_signature_failures
    from por.signing.keyfiles import load_public_key_file
    from por.signing.policy import TrustPolicy, raise_first

    summary = verify_judgement(read_input(args.judgement, args.max_size),
                               max_size=args.max_size)
    signed = read_preregistration_signature(args.signature)
    trusted = [load_public_key_file(p).signer for p in args.key] if args.key else None
    policy = TrustPolicy.of(trusted, now=now_from_args(args), chain_id=args.chain_id,
                            contract=args.contract)
    record = summary.preregistration
    raise_first(preregistration_signature_failures(signed, record, policy))
    digest = preregistration_digest(record).hex()
    if args.json:
        print_json({"schema": "por/judge-preregistration-check/1", "digest": digest,
                    "run": record.run, "judgement_id": summary.judgement_root.hex(),
                    "signer": signed.signer.hex(), "trusted": trusted is not None,
                    "issued_at": signed.issued_at, "expires_at": signed.expires_at})
    else:
        out(f"OK pre-registration {digest[:16]} run {record.run} of judgement "
            f"{summary.judgement_root.hex()[:16]} signed by 0x{signed.signer.hex()}"
            + ("" if trusted is not None else " (no --key: signer not checked)"))
    return EXIT_OK


def read_preregistration_signature(path: str) -> Any:
    """A ``por.PreregistrationSignature/1`` file (``codec.too_large`` past the
    signature cap before anything else is read)."""
    from por.cli.judge_sign import MAX_SIGNATURE_FILE
    from por.encoding import decode
    from por.locked_judges.prereg_signing import PreregistrationSignature

    data = read_input(path, MAX_SIGNATURE_FILE)
    decode(data, max_size=MAX_SIGNATURE_FILE)
    return PreregistrationSignature.from_cbor(data)


def read_preregistration(path: str) -> Any:
    """A ``por.JudgePreregistration/1`` file, under its cap."""
    from por.locked_judges.records import JudgePreregistration

    return JudgePreregistration.from_cbor(read_input(path, MAX_PREREGISTRATION_FILE))


def load_preregistration(args: argparse.Namespace) -> Any:
    """``--preregistration FILE`` as a record (None without it); with ``--run`` too:
    ``usage.judge`` (the file names its run)."""
    path = getattr(args, "preregistration", None)
    if path is None:
        return None
    if getattr(args, "run_number", None) is not None:
        raise CliError("usage.judge", "--preregistration names its run: do not give --run")
    return read_preregistration(path)


__all__ = ["add_output_options", "add_preregister_parser", "add_run_option",
           "check_output_options", "load_preregistration", "read_preregistration",
           "read_preregistration_signature", "run_check", "run_preregister",
           "write_preregistration"]
