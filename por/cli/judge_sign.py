"""``por judge sign`` and ``por judge verify --signature`` (SPEC §15.10).

A judgement is signed detached: an EIP-712 ``Judgement`` in the domain of SPEC
§8.2, written as ``por.JudgementSignature/1`` next to the judgement.  Only
argparse and the CLI helpers are imported at parser build time.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import (
    EXIT_OK,
    CliError,
    add_force_option,
    out,
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

#: A signature record is small; refuse anything bigger before decoding.
MAX_SIGNATURE_FILE = 4096
#: Record integers are at most 2^63-1 (``Count``).
MAX_TIME = 2**63 - 1


def add_sign_parser(sub: Any, common: Any) -> None:
    """Register ``por judge sign``; ``common`` adds --json, --max-size, -v."""
    sign = sub.add_parser("sign", help="sign a judgement (detached EIP-712 Judgement)",
                          description="Verify JUDGEMENT, then sign its EIP-712 Judgement "
                                      "struct with a secp256k1 key (SPEC §15.10).")
    sign.add_argument("judgement", metavar="JUDGEMENT", help="judgement.cbor")
    sign.add_argument("--key", required=True, metavar="KEY",
                      help="secp256k1 private key file (from `por keygen`)")
    sign.add_argument("--chain-id", type=uint64, default=DEFAULT_CHAIN_ID, metavar="N",
                      help=f"EIP-712 chainId (default {DEFAULT_CHAIN_ID})")
    sign.add_argument("--contract", type=contract_address, default=UNBOUND_CONTRACT,
                      metavar="ADDR", help="EIP-712 verifyingContract (default: unbound, "
                                           "20 zero bytes)")
    sign.add_argument("--at", type=uint64, default=None, metavar="UNIX",
                      help="issued_at in Unix seconds (default: the wall clock, as `por "
                           "sign --now`)")
    sign.add_argument("--expires-at", type=uint64, metavar="UNIX",
                      help=f"expires_at (default issued_at + {DEFAULT_TTL}, 7 days)")
    sign.add_argument("-o", "--output", required=True, metavar="SIG",
                      help="write the por.JudgementSignature/1 here (judgement.sig.cbor)")
    add_force_option(sign)
    common(sign)
    sign.set_defaults(run=run_sign)


def add_verify_options(verify: argparse.ArgumentParser) -> None:
    """``--signature``, ``--key``, ``--now``, ``--chain-id``, ``--contract`` of verify."""
    group = verify.add_argument_group("a detached signature (SPEC §15.10)")
    group.add_argument("--signature", metavar="SIG", help="judgement.sig.cbor to check too")
    group.add_argument("--key", action="append", default=[], metavar="PUB",
                       help="trust this public key file; repeat; the signer must be one "
                            "(signature.untrusted_key)")
    add_now_option(group, "check the validity period at this Unix time (default: the "
                          "wall clock)")
    group.add_argument("--chain-id", type=uint64, metavar="N",
                       help="require this EIP-712 chainId (signature.chain_id)")
    group.add_argument("--contract", type=contract_address, metavar="ADDR",
                       help="require this verifyingContract (signature.contract)")


def run_sign(args: argparse.Namespace) -> int:
    """``por judge sign``."""
    from por.cli.signing_args import load_signing_key, wall_clock
    from por.locked_judges import verify_judgement
    from por.locked_judges.signing import judgement_struct, sign_judgement
    from por.signing import Eip712Domain

    refuse_existing([args.output], force=args.force)
    key = load_signing_key(args.key)
    if key.scheme != "secp256k1":
        raise CliError("key.scheme", "a judgement is signed with EIP-712: secp256k1 only",
                       expected="secp256k1", actual=key.scheme)
    issued_at = wall_clock() if args.at is None else int(args.at)
    expires_at = issued_at + DEFAULT_TTL if args.expires_at is None else args.expires_at
    if not issued_at <= expires_at <= MAX_TIME:
        raise CliError("usage.options", f"--expires-at must be in issued_at..2^63-1 "
                                        f"({issued_at}..{MAX_TIME}): {expires_at}")
    summary = verify_judgement(read_input(args.judgement, args.max_size),
                               max_size=args.max_size)
    domain = Eip712Domain(chain_id=args.chain_id, verifying_contract=args.contract)
    record = sign_judgement(judgement_struct(summary, issued_at=issued_at,
                                             expires_at=expires_at), key.secret, domain)
    write_atomic(args.output, record.to_cbor())
    if args.json:
        print_json({"schema": "por/judgement-signature/1", **signature_json(record),
                    "output": args.output})
    else:
        out(f"signed judgement {record.judgement_root.hex()} by 0x{record.signer.hex()} "
            f"(chain {record.chain_id}, valid {record.issued_at}..{record.expires_at}) "
            f"-> {args.output}")
    return EXIT_OK


def signature_json(record: Any) -> dict[str, Any]:
    """The JSON view of a ``por.JudgementSignature/1`` (hex without ``0x``)."""
    return {"judgement_id": record.judgement_root.hex(),
            "manifest_digest": record.manifest_digest.hex(),
            "subject_count": record.subject_count, "vote_count": record.vote_count,
            "chain_id": record.chain_id,
            "verifying_contract": record.verifying_contract.hex(),
            "signer": record.signer.hex(), "issued_at": record.issued_at,
            "expires_at": record.expires_at}


def check_signature(args: argparse.Namespace,
                    summary: Any) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """Check ``--signature`` against the verified ``summary``: its JSON view and
    its gpg-like status object, or None without ``--signature``.  A signature
    that does not count (bad, out of its period or domain, or not by a
    ``--key``) raises its failure after its status line (exit 1)."""
    if not args.signature:
        if args.key:
            raise CliError("usage.options", "--key needs --signature")
        return None
    from por.cli.signature_status import detached_status, settle
    from por.cli.signing_args import now_from_args
    from por.encoding import decode
    from por.locked_judges.signing import JudgementSignature, judgement_signature_failures
    from por.signing.keyfiles import load_public_key_file
    from por.signing.policy import TrustPolicy

    trusted = [load_public_key_file(p).signer for p in args.key] if args.key else None
    data = read_input(args.signature, MAX_SIGNATURE_FILE)
    decode(data, max_size=MAX_SIGNATURE_FILE)  # codec.too_large before anything else
    record = JudgementSignature.from_cbor(data)
    policy = TrustPolicy.of(trusted, now=now_from_args(args), chain_id=args.chain_id,
                            contract=args.contract)
    failures = judgement_signature_failures(record, summary, policy)
    status = settle(detached_status(failures, record, policy), failures)
    return signature_json(record) | {"trusted": trusted is not None}, status


__all__ = ["add_sign_parser", "add_verify_options", "check_signature", "run_sign",
           "signature_json"]
