"""``por attestation``: what a contract call needs for one signature of a bundle.

Verifies the bundle first (``verifier.check_bundle`` at ``--now``, trusting
no key: every signature must be well-formed, unexpired and over the committed
verdict), then prints ``por.signing.attestation`` for signature ``--index``:
the twelve ``Verdict`` struct values, the EIP-712 domain, type hash, domain
separator, struct hash and digest, and for secp256k1 the signature split
into ``r``, ``s`` and ``v`` for ``ecrecover(digest, v, r, s)`` (SPEC §8.8).
Bytes are ``0x``-prefixed lower-case hex (the EVM display edge).

With ``--calldata`` it also prints the ABI-encoded ``proposeVerdict`` call of
``contracts/`` (SPEC §14.5); given an InclusionProof file, ``--market`` and
``--case-hash`` instead of a bundle, it prints the ``openChallenge`` call
(``por.chain``; ``por chain challenge CASE`` does the same from a DisputeCase).

Leaves out: trust (whether the signer is the one a contract expects is the
contract's check, or ``por verify --key``), any chain access.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import (
    CliError,
    add_max_size_option,
    out,
    print_json,
    safe_text,
)
from por.cli.signing_args import UNBOUND_CONTRACT, add_now_option, contract_address, hash32

#: The versioned ``schema`` field of the ``--json`` document.
ATTESTATION_SCHEMA = "por/attestation/1"
#: Documents whose contract call ``--calldata`` prints as ``por chain <verb>`` does.
_DISPUTE_CALLS = {"por.RulingSignature/1": "ruling", "por.DisputeCase/1": "challenge"}

_OUTCOME_NAMES = {1: "YES", 2: "NO", 3: "INVALID"}

_EPILOG = """\
The bundle is verified first (as `por verify --now UNIX`, trusting no key);
a bundle that does not verify prints its failing check id and exit 1.  The
signer is shown, not trusted: the contract must compare it with the signer
it expects (or run `por verify --key KEY.pub --require-signature`).

output:
  text     the Verdict struct (EIP-712 member names, SPEC §8.1), the domain,
           typeHash, domainSeparator, structHash, digest, signature, and for
           secp256k1 r, s, v; bytes as 0x + lower-case hex
  --json   one JSON document, schema "por/attestation/1", with the
           por.VerdictAttestation/1 object under "attestation" (typed_data
           for eth_account/wallets, type_hash_hex, domain_separator_hex,
           struct_hash_hex, digest_hex, signer_hex, signature_hex, and r_hex,
           s_hex, v for secp256k1)

  --calldata  also the ABI-encoded proposeVerdict(verdict, promptSpecPath,
           signer, signature) call (the path binds promptSpecHash to porRoot;
           the market key keccak256(abi.encode(marketId, promptSpecHash))
           printed) for the PorVerdictRegistry contract (contracts/, SPEC §14),
           to send with the registry's proposerBond() as value (`cast send
           ADDR DATA --value WEI`); given an InclusionProof file (`por
           challenge --evidence ID`, --verdict, --prompt-spec, or --step ID
           --inclusion), --market, --prompt-spec-hash and --case-hash, the
           openChallenge(marketKey, caseHash, proof) call instead (`por chain
           challenge` takes a case);
           given a signed ruling (ruling.sig.cbor) and --challenger, the
           submitRuling call, and given a DisputeCase the openChallenge call,
           as `por chain ruling` / `por chain challenge` print them

examples:
  por attestation signed.cbor
  por attestation --calldata signed.cbor
  por attestation --calldata --market btc-above-100k --prompt-spec-hash HEX \
      --case-hash HEX proof.cbor
  por attestation --calldata --challenger 0x7099...79c8 court/ruling.sig.cbor
  por attestation --index 1 --json signed.cbor | jq .attestation.digest_hex
  por attestation --now 1767225600 signed.cbor

exit codes:
  0  the bundle verified and the attestation is printed
  1  the bundle is not valid, or carries no signature (signature.missing)
  2  usage error (e.g. no signature with that index: usage.index),
     unreadable file, unsupported version, internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por attestation`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "attestation",
        help="print what a contract call needs for one signature (digest, r, s, v)",
        description="Verify BUNDLE and print, for one of its signatures, the EIP-712 "
                    "struct values, type hash, domain separator, digest and signature "
                    "parts a contract call needs.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="bundle.cbor; - reads standard input")
    parser.add_argument("--index", type=int, default=0, metavar="N",
                        help="which signature, counting from 0 (default 0)")
    add_now_option(parser, "Unix seconds for the expiry check (default: the wall clock)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({ATTESTATION_SCHEMA})")
    parser.add_argument("--calldata", action="store_true",
                        help="also print the contract call's ABI calldata (needs the "
                             "chain extra: pip install 'por[chain]')")
    parser.add_argument("--market", metavar="TEXT", default=None,
                        help="with a proof file: the market id text (marketId = "
                             "keccak256 of it)")
    parser.add_argument("--prompt-spec-hash", type=hash32, metavar="HEX", default=None,
                        help="with a proof file: the signed promptSpecHash; with --market, "
                             "the registry's market key (SPEC §14.2)")
    parser.add_argument("--case-hash", metavar="HEX", default=None,
                        help="with a proof file: SHA-256 of the challenger's DisputeCase "
                             "(64 hex digits; SPEC §16.2)")
    parser.add_argument("--challenger", type=contract_address, default=None, metavar="ADDR",
                        help="with --calldata and a signed ruling: the account that opened "
                             "the challenge (submitRuling); with a DisputeCase: the sending "
                             "account (prints the challenge id)")
    add_max_size_option(parser, "bundles")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    parser.set_defaults(run=run)
    return parser


def attestation_of(data: bytes, index: int,
                   now: int | None = None) -> tuple[dict[str, Any], int]:
    """``por.signing.attestation`` for signature ``index`` of a well-formed bundle,
    and the bundle's signature count."""
    from por.signing import attestation

    record, struct, count = signed_verdict(data, index, now)
    return attestation(record, struct), count


def signed_verdict(data: bytes, index: int, now: int | None = None) -> tuple[Any, Any, int]:
    """Signature record ``index`` of a well-formed bundle, the ``Verdict`` struct
    it signs, and the bundle's signature count.

    ``por verify`` sets an expired good signature aside (SPEC §6.2 step 8), but
    a contract call with it would fail: with ``now``, a signature outside its
    validity period is refused here (``signature.expired``/``not_yet_valid``).
    """
    from por.bundle import Bundle, verdict_struct
    from por.errors import SignatureError
    from por.schemas import DeterministicVerdict
    from por.signing import VerdictSignature
    from por.signing.policy import period_failures

    bundle = Bundle.from_cbor(data)
    count = len(bundle.signatures)
    if count == 0:
        raise SignatureError("signature.missing", "the bundle carries no signature")
    if not 0 <= index < count:
        raise CliError("usage.index", f"--index {index}: the bundle has {count} "
                       f"signature{'s' if count != 1 else ''} (0..{count - 1})")
    record = VerdictSignature.from_cbor(bundle.signatures[index])
    for failure in period_failures(record.issued_at, record.expires_at, now):
        raise SignatureError(failure.check_id, f"signature {index}: {failure.message}",
                             expected=failure.expected, actual=failure.actual)
    verdict = DeterministicVerdict.from_cbor(bundle.verdict)
    struct = verdict_struct(verdict, bundle.commitments, issued_at=record.issued_at,
                            expires_at=record.expires_at, nonce=record.nonce)
    return record, struct, count


def run(args: argparse.Namespace) -> int:
    """Read, verify, print the attestation of signature ``--index``."""
    from por.cli.bundle_file import open_bundle, require_verified
    from por.cli.signing_args import now_from_args

    bundle = open_bundle(args.bundle, args.max_size)
    data = bundle.data
    if args.calldata and _is_proof(data):
        return _proof_calldata(args, data)
    if args.calldata:
        from por.documents import document_schema

        verb = _DISPUTE_CALLS.get(document_schema(data, max_size=args.max_size) or "")
        if verb is not None:
            return _dispute_calldata(args, verb)
    if args.challenger is not None:
        raise CliError("usage.options", "--challenger goes with --calldata and a signed "
                       "ruling or a DisputeCase")
    if args.market is not None or args.case_hash is not None \
            or args.prompt_spec_hash is not None:
        raise CliError("usage.options", "--market, --prompt-spec-hash and --case-hash go with "
                       "--calldata and a proof file")
    now = now_from_args(args)
    require_verified(bundle, now=now)
    att, count = attestation_of(data, args.index, now)
    call = None
    if args.calldata:
        from por.bundle import Bundle
        from por.chain.documents import prompt_spec_path, verdict_call

        record, struct, _count = signed_verdict(data, args.index, now)
        call = verdict_call(record, struct, prompt_spec_path(Bundle.from_cbor(data).commitments))
    if args.json:
        document = {"schema": ATTESTATION_SCHEMA, "input": args.bundle, "index": args.index,
                    "signature_count": count, "verified_at": now, "attestation": att}
        if call is not None:
            document["calldata"] = call
        print_json(document)
        return 0
    for line in text_lines(args.bundle, args.index, count, now, att):
        out(line)
    if call is not None:
        out("")
        out(f"proposeVerdict    to {call['to_hex']} on chain {call['chain_id']}, "
            f"round {call['round']}, value proposerBond() wei")
        out(f"market key        {call['market_key']}")
        out(f"calldata          {call['data_hex']}")
    return 0


def _is_proof(data: bytes) -> bool:
    """Whether ``data`` names a proof schema (a bundle never does)."""
    from por.encoding import decode
    from por.errors import EncodingError

    try:
        value = decode(data)
    except EncodingError:
        return False  # the bundle path reports the codec failure
    schema = value.get("schema") if isinstance(value, dict) else None
    return isinstance(schema, str) and schema.startswith("por.") and "Proof/" in schema


def _proof_calldata(args: argparse.Namespace, data: bytes) -> int:
    from por.chain.documents import CALLDATA_SCHEMA, proof_call

    if args.market is None or args.prompt_spec_hash is None or args.case_hash is None:
        raise CliError("usage.options", "a proof file needs --market TEXT and "
                       "--prompt-spec-hash HEX (the market key whose stored por_root the "
                       "contract checks it against) and --case-hash HEX (the DisputeCase "
                       "the challenge commits)")
    case_hash = _case_hash(args.case_hash)
    call = proof_call(data, args.market, args.prompt_spec_hash, case_hash,
                      max_size=args.max_size)
    if args.json:
        print_json({"schema": CALLDATA_SCHEMA, "input": args.bundle, "calldata": call})
        return 0
    out(f"openChallenge {safe_text(args.bundle)}: {call['kind']} leaf {call['leaf_index']} "
        f"of {call['tree_size']}, market {safe_text(call['market'])}")
    out(f"marketId          {call['market_id_hex']}")
    out(f"market key        {call['market_key']}")
    out(f"por_root          {call['por_root_hex']}  (must be the one the contract stored)")
    out(f"case hash         {call['case_hash_hex']}")
    out(f"calldata          {call['data_hex']}")
    return 0


def _dispute_calldata(args: argparse.Namespace, verb: str) -> int:
    """``submitRuling`` for a signed ruling, ``openChallenge`` for a DisputeCase: the
    same call and output as ``por chain ruling`` / ``por chain challenge``."""
    from por.cli import chain_cmd

    if args.bundle == "-":
        raise CliError("usage.options", f"a {verb} document is read from a file: "
                       f"`por attestation --calldata FILE` or `por chain {verb} FILE`")
    if verb == "ruling":
        if args.challenger is None:
            raise CliError("usage.options", "a signed ruling's submitRuling call needs "
                           "--challenger ADDR (the account that opened the challenge on "
                           "the ruling's case)")
        return chain_cmd.run_ruling(argparse.Namespace(
            signature=args.bundle, challenger=args.challenger, json=args.json))
    return chain_cmd.run_challenge(argparse.Namespace(
        case=args.bundle, challenger=args.challenger, json=args.json,
        max_size=args.max_size))


def _case_hash(text: str) -> bytes:
    digits = text[2:] if text.startswith("0x") else text
    try:
        value = bytes.fromhex(digits)
    except ValueError:
        value = b""
    if len(value) != 32 or len(digits) != 64:
        raise CliError("usage.options", "--case-hash is 64 hex digits (SHA-256 of the case)")
    return value


def text_lines(name: str, index: int, count: int, now: int, att: dict[str, Any]) -> list[str]:
    """The readable view: struct, domain, hashes, signature parts."""
    typed = att["typed_data"]
    domain = typed["domain"]
    message = typed["message"]
    contract = domain["verifyingContract"]
    if contract == "0x" + UNBOUND_CONTRACT.hex():
        contract += " (unbound)"
    lines = [
        f"attestation {safe_text(name)}: signature {index} of {count} ({att['scheme']}); "
        f"bundle verified at {now}",
        f"signer            {att['signer_hex']}  (not trusted here: the contract checks it)",
        "",
        "domain (EIP712Domain)",
        f"  name            {safe_text(domain['name'])}",
        f"  version         {safe_text(domain['version'])}",
        f"  chainId         {domain['chainId']}",
        f"  verifyingContract {contract}",
        "",
        "Verdict struct",
    ]
    for member in typed["types"]["Verdict"]:
        value = message[member["name"]]
        note = ""
        if member["name"] == "outcome":
            note = f"  ({_OUTCOME_NAMES.get(value, '?')})"
        lines.append(f"  {member['name']:<15} {value}{note}")
    lines += [
        "",
        f"typeHash          {att['type_hash_hex']}",
        f"domainSeparator   {att['domain_separator_hex']}",
        f"structHash        {att['struct_hash_hex']}",
        f"digest            {att['digest_hex']}",
        f"signature         {att['signature_hex']}",
    ]
    if "v" in att:
        lines += [
            f"r                 {att['r_hex']}",
            f"s                 {att['s_hex']}",
            f"v                 {att['v']}",
            "",
            "contract call     ecrecover(digest, v, r, s) == signer "
            "(require s <= n/2, v in {27, 28}, result != address(0))",
        ]
    else:
        lines += ["", "contract call     Ed25519 verify(signer, digest, signature) "
                      "(RFC 8032; the digest is the message)"]
    return lines


__all__ = ["ATTESTATION_SCHEMA", "add_parser", "attestation_of", "run", "text_lines"]
