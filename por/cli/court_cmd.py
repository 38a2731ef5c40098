"""``por dispute open`` and ``por court rule|verify`` (SPEC §16): thin argparse front ends.

Heavy work lives in :mod:`por.court` and :mod:`por.cli.court_run`; nothing
here imports litellm, pydantic models or the EVM stack at parser build time.
Exit codes: 0 ruled / verified, 1 a check failed (one line with its id), 2 no
ruling (no quorum, an unresolved split, a judge route missing) or bad usage.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from por.cli.bundle_file import open_bundle
from por.cli.common import (
    DOCUMENT_MAX_SIZE,
    EXIT_NO_VERDICT,
    EXIT_OK,
    CliError,
    add_force_option,
    add_max_size_option,
    bundle_cap,
    err,
    out,
    print_json,
    read_input,
    refuse_existing,
    refuse_existing_in,
    write_atomic,
)
from por.cli.court_prereg import (
    add_preregister_parser,
    add_rule_option,
    add_verify_options,
    check_given,
    given_lines,
    verify_given,
)
from por.cli.judge_routes import add_route_options
from por.cli.signing_args import (
    DEFAULT_CHAIN_ID,
    DEFAULT_TTL,
    UNBOUND_CONTRACT,
    contract_address,
    positive_uint64,
    uint64,
)

MAX_TEXT_FILE = 64 * 1024


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por dispute`` and ``por court``; returns the ``court`` parser."""
    dispute: argparse.ArgumentParser = commands.add_parser(
        "dispute", help="open a dispute case about one committed leaf (SPEC §16.2)",
        description="Build a canonical por.DisputeCase/1 from a PoR bundle, the disputed "
                    "leaf, the challenger's claim and the oracle's rebuttal.")
    dsub = dispute.add_subparsers(dest="dispute_command", metavar="SUBCOMMAND", required=True)
    opened = dsub.add_parser("open", help="write CASE.cbor")
    opened.add_argument("bundle", metavar="BUNDLE", help="the disputed bundle.cbor")
    leaf = opened.add_mutually_exclusive_group(required=True)
    leaf.add_argument("--leaf", metavar="KIND[:INDEX]", type=_leaf_spec,
                      help="prompt_spec, verdict, evidence_leaf:N or reasoning_leaf:N")
    leaf.add_argument("--ref", metavar="REF.json", help="a ChallengeRef (por verify --json)")
    leaf.add_argument("--proof", metavar="PROOF", help="an InclusionProof (por challenge)")
    claim = opened.add_mutually_exclusive_group(required=True)
    claim.add_argument("--claim", metavar="TEXT", help="the challenger's claim")
    claim.add_argument("--claim-file", metavar="FILE")
    rebuttal = opened.add_mutually_exclusive_group()
    rebuttal.add_argument("--rebuttal", metavar="TEXT", help="the oracle's rebuttal")
    rebuttal.add_argument("--rebuttal-file", metavar="FILE")
    opened.add_argument("--reward", type=uint64, default=0, metavar="N",
                        help="the amount at stake (an integer; default 0)")
    opened.add_argument("-o", "--out", required=True, metavar="CASE", help="output case file")
    add_force_option(opened)
    _common(opened)
    opened.set_defaults(run=run_open)

    court: argparse.ArgumentParser = commands.add_parser(
        "court", help="rule on a case with a panel of locked judges; verify a ruling",
        description="A court of N locked LLM judges (SPEC §16): each judge once per case, "
                    "concurrently, the upper median of their worker_pct, a quorum that fails "
                    "closed and an appeal to 2N+1 judges when the panel splits.")
    sub = court.add_subparsers(dest="court_command", metavar="SUBCOMMAND", required=True)
    rule = sub.add_parser("rule", help="judge CASE; write a ruling directory")
    rule.add_argument("case", metavar="CASE", help="a por.DisputeCase/1 (por dispute open)")
    rule.add_argument("--court", required=True, metavar="COURT.yaml", help="the court file")
    rule.add_argument("--at", required=True, type=uint64, metavar="UNIX",
                      help="the ruling time (voted_at, ruled_at, issued_at): never the clock")
    route = rule.add_argument_group("judge routes")
    route.add_argument("--api-base", metavar="URL", help="the default route of seats that name "
                       "none in the court file (recorded through por's transcript server)")
    add_route_options(route)
    route.add_argument("--serve-local", action="store_true",
                       help="start a llama-cpp server per local lock (weights checked)")
    route.add_argument("--replay-from", metavar="RULING", help="answer from a ruling's "
                       "recorded calls (HTTP 599 on a miss: the judge is unavailable)")
    sign = rule.add_argument_group("signing the ruling (EIP-712 Ruling, SPEC §16.7)")
    sign.add_argument("--key", metavar="KEY", help="the resolver's secp256k1 key file")
    sign.add_argument("--chain-id", type=uint64, default=DEFAULT_CHAIN_ID, metavar="N")
    sign.add_argument("--contract", type=contract_address, default=UNBOUND_CONTRACT,
                      metavar="0xADDRESS", help="the PorVerdictRegistry address")
    sign.add_argument("--ttl", type=positive_uint64, default=DEFAULT_TTL, metavar="SECONDS")
    add_rule_option(rule)
    rule.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    rule.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    add_force_option(rule)
    _common(rule)
    rule.set_defaults(run=run_rule)
    verify = sub.add_parser("verify", help="check a ruling offline (no model, no network)")
    verify.add_argument("ruling", metavar="RULING", help="ruling.cbor")
    verify.add_argument("--signature", metavar="SIG", help="ruling.sig.cbor to check too")
    verify.add_argument("--resolver", type=contract_address, metavar="0xADDRESS",
                        help="require the signature to be this address's")
    verify.add_argument("--key", action="append", default=[], metavar="PUB",
                        help="trust this public key file (repeatable); the signer must be "
                             "one (signature.untrusted_key)")
    verify.add_argument("--now", type=uint64, default=None, metavar="UNIX",
                        help="check the validity period at this Unix time (default: only "
                             "that it is well formed)")
    add_verify_options(verify)
    _common(verify)
    verify.set_defaults(run=run_verify)
    add_preregister_parser(sub, _common)
    return court


def _leaf_spec(text: str) -> tuple[str, int]:
    """argparse type: ``KIND`` or ``KIND:INDEX`` (the index a uint64)."""
    kind, _, number = text.partition(":")
    return kind, uint64(number) if number else 0


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    add_max_size_option(parser, "inputs", default=DOCUMENT_MAX_SIZE)
    parser.add_argument("-v", "--verbose", action="store_true", help="more detail on failure")


def _text(value: str | None, path: str | None) -> str | None:
    if path is not None:
        try:
            return read_input(path, MAX_TEXT_FILE).decode("utf-8")
        except UnicodeDecodeError:
            raise CliError("usage.court", f"{path} is not UTF-8 text") from None
    return value


def run_open(args: argparse.Namespace) -> int:
    """``por dispute open``."""
    from por.challenge.records import InclusionProof, proof_from_cbor
    from por.challenge.refs import bundle_from_bytes
    from por.court.case import leaf_index_of, open_case
    from por.schemas import load_json
    from por.schemas.verification import ChallengeRef

    refuse_existing([args.out], force=args.force)
    data = open_bundle(args.bundle, bundle_cap(args.max_size)).data
    proof = None
    kind, index = "", 0
    if args.leaf is not None:
        kind, index = args.leaf
    elif args.ref is not None:
        try:
            ref = ChallengeRef.model_validate(load_json(read_input(args.ref, MAX_TEXT_FILE)))
        except ValueError:
            raise CliError("usage.court", "--ref is not a ChallengeRef (kind, leaf_index, "
                           "evidence_id or step_id)") from None
        kind, index = leaf_index_of(bundle_from_bytes(data), ref)
    else:
        loaded = proof_from_cbor(read_input(args.proof, bundle_cap(args.max_size)))
        if not isinstance(loaded, InclusionProof):
            raise CliError("usage.court", "--proof takes an InclusionProof (por challenge "
                           "--inclusion makes one for a step)")
        proof, kind, index = loaded, loaded.kind, loaded.leaf_index
    claim = _text(args.claim, args.claim_file)
    rebuttal = _text(args.rebuttal, args.rebuttal_file)
    case = open_case(data, kind=kind, leaf_index=index, claim=claim or "",
                     rebuttal=rebuttal, reward=args.reward, proof=proof)
    write_atomic(args.out, case.to_cbor())
    if args.json:
        print_json({"schema": "por/dispute-case/1", "output": args.out,
                    "case_hash": case.case_hash().hex(), "market_id": case.market_id,
                    "leaf": {"kind": case.leaf_kind, "index": case.leaf_index,
                             "leaf_hash": case.leaf_hash.hex()},
                    "challenge_id": case.challenge_id.hex(), "por_root": case.por_root.hex(),
                    "context": {"task_title": case.task_title, "task_spec": case.task_spec,
                                "deliverables": case.deliverables, "claim": case.claim,
                                "rebuttal": case.rebuttal, "reward": case.reward}})
    else:
        out(f"case {case.case_hash().hex()}: {case.market_id} {case.leaf_kind} "
            f"#{case.leaf_index}, leaf id {case.challenge_id.hex()}")
    return EXIT_OK


def run_rule(args: argparse.Namespace) -> int:
    """``por court rule``."""
    from por.cli.court_run import (
        OUTPUT_FILES,
        SIGNATURE_FILE,
        load_judges,
        run_panel,
        summary_json,
        transports_for,
        write_ruling,
    )
    from por.court.case import CASE_MAX_SIZE, DisputeCase, check_case
    from por.court.config import court_rule
    from por.court.panel import check_rule
    from por.court.verify import verify_court

    refuse_existing_in(args.out, OUTPUT_FILES, force=args.force)  # before any judge
    key = _key(args)
    case = DisputeCase.from_cbor(read_input(args.case, args.max_size), max_size=CASE_MAX_SIZE)
    check_case(case)
    numbers, locks, seat_routes = load_judges(args.court)
    rule = court_rule(numbers, len(locks), args.at)
    check_rule(rule, locks)
    check_given(args, case, rule, locks)  # before any judge is asked
    err(f"por court: case {case.case_hash().hex()[:16]}, panel {rule.panel} of "
        f"{rule.seats} seat(s), quorum {rule.quorum}")
    with transports_for(locks, seat_routes, args) as (routes, clients):
        data = run_panel(case, rule, locks, routes, clients=clients, args=args)
    # never write what this implementation would reject
    summary = verify_court(data, max_size=DOCUMENT_MAX_SIZE)
    signature = _sign(summary, key, args) if key is not None else None
    document = summary_json(summary, args.out)
    document["signature"] = None if signature is None else {
        "file": os.path.join(args.out, SIGNATURE_FILE), "signer_hex": signature.signer.hex(),
        "chain_id": signature.chain_id, "issued_at": signature.issued_at,
        "expires_at": signature.expires_at}
    write_ruling(args.out, data, None if signature is None else signature.to_cbor(), document)
    return _report(summary, document, args)


def _key(args: argparse.Namespace) -> Any:
    if args.key is None:
        return None
    from por.cli.signing_args import load_signing_key

    key = load_signing_key(args.key)
    if key.scheme != "secp256k1":
        raise CliError("chain.scheme", "a ruling is checked by the registry: secp256k1 only",
                       expected="secp256k1", actual=key.scheme)
    return key


def _sign(summary: Any, key: Any, args: argparse.Namespace) -> Any:
    from por.court.eip712 import ruling_struct, sign_ruling
    from por.signing import Eip712Domain

    if summary.final.status != "ruled":
        return None
    struct = ruling_struct(summary, issued_at=args.at, expires_at=args.at + args.ttl)
    domain = Eip712Domain(chain_id=args.chain_id, verifying_contract=args.contract)
    return sign_ruling(struct, key.secret, domain)


def _report(summary: Any, document: dict[str, Any], args: argparse.Namespace) -> int:
    final = summary.final
    if args.json:
        print_json(document)
    elif final.status == "ruled":
        dissent = [v.seat for v in final.votes if v.dissent]
        out(f"ruled: challenge {final.decision} (worker_pct {final.worker_pct}, "
            f"{final.votes_cast} votes, round {final.round}, dissent seats {dissent or 'none'}); "
            f"court {summary.court_root.hex()}")
    if not args.json:
        for line in phase_lines(summary):
            out(line)
    if final.status != "ruled":
        err(f"court.no_ruling: the court did not rule ({final.status}: "
            f"{final.votes_cast}/{final.seats} votes, quorum {final.quorum}); fail closed, "
            f"no ruling to sign")
        return EXIT_NO_VERDICT
    return EXIT_OK


def phase_lines(summary: Any) -> list[str]:
    """The report's commit-first and canary lines (SPEC §16.9, §16.10)."""
    final = summary.final
    lines = [f"  seat {v.seat}: first answer YES {v.first_pct}%, voted {v.worker_pct}"
             + (" (changed its mind)" if v.changed_mind else "")
             for v in summary.votes if v.first_pct is not None]
    if final.canary_flips is not None:
        lines.append(f"  canaries: {final.canary_flips}/{final.canary_answered} flipped"
                     + (f"; seats that flipped: {final.flipped_seats}"
                        if final.flipped_seats else ""))
    if final.discounted:
        lines.append(f"  canary policy: votes of seats {final.discounted} discounted "
                     f"(more than {summary.rule.canary_policy.max_flips} flip(s))")
    return lines


def run_verify(args: argparse.Namespace) -> int:
    """``por court verify``."""
    from por.cli.court_run import summary_json
    from por.cli.signature_status import detached_status, settle, status_line
    from por.court.eip712 import RulingSignature, ruling_signature_failures
    from por.court.verify import verify_court
    from por.signing.policy import TrustPolicy

    if (args.key or args.resolver is not None) and not args.signature:
        raise CliError("usage.options", "--key and --resolver need --signature")
    summary = verify_court(read_input(args.ruling, args.max_size), max_size=args.max_size)
    given = verify_given(args, summary)
    signed = None
    status: dict[str, Any] | None = None
    if args.signature:
        signed = RulingSignature.from_cbor(read_input(args.signature, MAX_TEXT_FILE))
        policy = TrustPolicy.of(_trusted(args), now=args.now)
        failures = ruling_signature_failures(signed, summary, policy)
        status = settle(detached_status(failures, signed, policy), failures)
    if args.json:
        print_json(summary_json(summary, None) | {
            "verified": True, "signature_verified": signed is not None,
            "signer_hex": None if signed is None else signed.signer.hex(),
            "signatures": [] if status is None else [status],
            "published_preregistration": given})
    else:
        final = summary.final
        out(f"OK court {summary.court_root.hex()}: {final.status}"
            + (f", challenge {final.decision} (worker_pct {final.worker_pct})"
               if final.status == "ruled" else "")
            + f"; {len(summary.votes)} votes, {len(summary.calls)} attempts")
        for line in phase_lines(summary) + given_lines(given):
            out(line)
        if status is not None:
            out(status_line(status))
    return EXIT_OK


def _trusted(args: argparse.Namespace) -> list[bytes] | None:
    """The signers ``--resolver`` and ``--key`` name; ``None`` when neither is given."""
    if not args.key and args.resolver is None:
        return None
    from por.signing.keyfiles import load_public_key_file

    keys = [load_public_key_file(path).signer for path in args.key]
    return keys + ([] if args.resolver is None else [args.resolver])


__all__ = ["add_parser"]
