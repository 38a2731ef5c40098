"""``por chain``: calldata for the optimistic registry's dispute calls (SPEC §14.5).

``por chain challenge CASE --challenger ADDR`` proves a DisputeCase's leaf from the
case's own bundle and prints ``openChallenge(marketId, caseHash, proof)`` with the
registry's challenge id; ``por chain ruling SIG --challenger ADDR`` relays a signed
court ruling (``submitRuling``); ``por chain settle PROOF --market ID`` strikes a
verdict with a won proof the registry checks (SPEC §14.8), no resolver
(``settleByProof``; ``settleByForms`` for a FormStepProof), after ``por chain commit
PROOF --market ID --sender ADDR`` (``commitProof``) in an earlier block; ``por chain
lapse ID`` voids a market whose challenge the court left unruled; ``por chain finalize
MARKET`` and ``por chain withdraw`` are the last two calls of a game (a settle pays its
sender with the strike).  ``settle``, ``commit`` and ``finalize`` name the market by
its id text and ``--prompt-spec-hash``, or by ``--bundle`` (``por.chain.bundle_market``).
Proposing is ``por attestation --calldata`` (a verified bundle's signature).
Nothing is sent: the output goes to any wallet or ``cast send ADDR DATA --value WEI``.

Leaves out: RPC, keys, gas; the bonds are the registry's (``proposerBond()``,
``challengerBond()``), read with ``cast call``.
"""

from __future__ import annotations

import argparse
from typing import Any

from por.cli.common import (
    DEFAULT_MAX_SIZE,
    DOCUMENT_MAX_SIZE,
    EXIT_NO_VERDICT,
    EXIT_REJECTED,
    PROOF_MAX_SIZE,
    CliError,
    add_max_size_option,
    out,
    print_json,
    read_input,
    safe_text,
)
from por.cli.signing_args import contract_address, hash32

_EPILOG = """\
examples:
  por chain challenge case.cbor --challenger 0x70997970c51812dc3a010c7d01b50e0d17dc79c8
  por chain ruling court/ruling.sig.cbor --challenger 0x7099...79c8 --json
  por chain commit challenges/4f0c...citation.cbor --market btc-above-100k-2025-12-31 \
      --prompt-spec-hash 2e76...df2e --sender 0x70997970c51812dc3a010c7d01b50e0d17dc79c8
  por chain settle challenges/4f0c...citation.cbor --market btc-above-100k-2025-12-31 \
      --prompt-spec-hash 2e76...df2e
  por chain settle challenges/4f0c...citation.cbor --bundle signed.cbor
  por chain finalize btc-above-100k-2025-12-31 --prompt-spec-hash 2e76...df2e
  por chain finalize --bundle signed.cbor
  por chain outcome signed.cbor --proposal "$(cast tx 0x9a1c...77e0 input)"
  por chain close-moot 0x5d1c...e2a0
  por chain lapse 0x5d1c...e2a0
  por chain withdraw

output:
  text     the function, the values it binds (market, case hash, leaf, the
           challenge id) and `calldata 0x...`
  --json   one JSON document, schema "por/calldata/1", the call under "calldata"
           (function, selector_hex, data_hex, and the call's fields; uint64
           values as decimal strings)

exit codes:
  0  calldata printed
  1  the case, signed ruling or proof is not valid (its check id), the
     proof is lost (chain.proof_not_won), --bundle is not a bundle (its
     check id) or the proof is about another verdict (proof.por_root)
  2  usage error (neither --bundle nor the market id and --prompt-spec-hash,
     or both: usage.options), unreadable file, the chain extra missing
     (usage.extra), a proof kind the registry does not re-execute
     (chain.proof_kind)"""

_MAX_RULING_SIG = 4096


_SPEC_HASH_HELP = ("the signed promptSpecHash (`por inspect BUNDLE` prints it as "
                   "prompt_spec_hash): with the market id, the registry's market key (SPEC §14.2)")
_BUNDLE_HELP = ("the bundle whose verdict was proposed: its market id and prompt_spec_hash, "
                "instead of the market id and --prompt-spec-hash (a proof's por_root must "
                "be the bundle's)")


def _add_market(parser: argparse.ArgumentParser, *, positional: bool = False) -> None:
    """The market key's two values, or ``--bundle`` that holds them (SPEC §14.5)."""
    if positional:
        parser.add_argument("market", nargs="?", default=None, metavar="MARKET",
                            help="the market id text (or --bundle)")
    else:
        parser.add_argument("--market", default=None, metavar="ID",
                            help="the market id text of the proposed verdict (or --bundle)")
    parser.add_argument("--prompt-spec-hash", type=hash32, default=None, metavar="HEX",
                        help=_SPEC_HASH_HELP)
    parser.add_argument("--bundle", default=None, metavar="BUNDLE", help=_BUNDLE_HELP)


def _market_of(args: argparse.Namespace) -> tuple[str, bytes, bytes | None]:
    """(market id text, promptSpecHash, the bundle's por_root or None) from the options."""
    from por.chain.bundle_market import bundle_market
    from por.errors import PorError

    if args.bundle is not None:
        if args.market is not None or args.prompt_spec_hash is not None:
            raise CliError("usage.options", "--bundle gives the market id and the PromptSpec "
                           "hash: leave out the market id and --prompt-spec-hash")
        data = read_input(args.bundle, DEFAULT_MAX_SIZE)
        try:
            market = bundle_market(data, max_size=DEFAULT_MAX_SIZE)
        except PorError as exc:  # not a bundle: its check id (exit 1), named as --bundle
            raise CliError(exc.check_id, f"--bundle {safe_text(args.bundle)}: {exc.message}",
                           exit_code=EXIT_REJECTED, reason=exc.message,
                           expected=exc.expected, actual=exc.actual) from None
        return market.market, market.prompt_spec_hash, market.por_root
    if args.market is None or args.prompt_spec_hash is None:
        raise CliError("usage.options", "name the market: --bundle BUNDLE, or the market id "
                       "and --prompt-spec-hash HEX (`por inspect BUNDLE` prints both)")
    return args.market, args.prompt_spec_hash, None

def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por chain`` and its subcommands."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "chain", help="calldata for the registry's dispute calls (challenge, ruling, "
                      "settle, finalize, withdraw)",
        description="Print ABI calldata for PorVerdictRegistry's dispute calls (SPEC §14).",
        epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="chain_command", metavar="CALL", required=True)
    challenge = sub.add_parser("challenge", help="openChallenge for a DisputeCase (por dispute "
                                                 "open's case.cbor)")
    challenge.add_argument("case", metavar="CASE", help="a por.DisputeCase/1 file")
    challenge.add_argument("--challenger", type=contract_address, default=None,
                           metavar="ADDR", help="the sending account: prints the challenge id")
    add_max_size_option(challenge, "cases", default=DOCUMENT_MAX_SIZE)
    challenge.set_defaults(run=run_challenge)
    ruling = sub.add_parser("ruling", help="submitRuling for a signed court ruling")
    ruling.add_argument("signature", metavar="SIG", help="ruling.sig.cbor (por court rule --key)")
    ruling.add_argument("--challenger", type=contract_address, required=True, metavar="ADDR",
                        help="the account that opened the challenge on the ruling's case")
    ruling.set_defaults(run=run_ruling)
    settle = sub.add_parser("settle", help="settleByProof (settleByForms for a FormStepProof): "
                                           "strike a proposed verdict with a "
                                           "won proof the registry checks (no bond, no "
                                           "resolver; the sender is paid the proposer's "
                                           "bond)")
    settle.add_argument("proof", metavar="PROOF", help="a CitationProof, JudgeProof, "
                                                       "OmissionProof, FormStepProof or "
                                                       "OneStepProof of a "
                                                       "step kind the chain re-executes (por "
                                                       "verify --challenges)")
    _add_market(settle)
    add_max_size_option(settle, "proofs", default=PROOF_MAX_SIZE)
    settle.set_defaults(run=_settle, sender=None)
    commit = sub.add_parser("commit", help="commitProof: commit to a won proof a block before "
                                           "settling it (its reward is then the sender's)")
    commit.add_argument("proof", metavar="PROOF", help="the proof `por chain settle` will send")
    _add_market(commit)
    commit.add_argument("--sender", type=contract_address, required=True, metavar="ADDR",
                        help="the account that will send the settle")
    add_max_size_option(commit, "proofs", default=PROOF_MAX_SIZE)
    commit.set_defaults(run=_settle)
    outcome = sub.add_parser("outcome", help="settleByForms kind outcome: strike a proposal "
                                             "whose stored outcome, confidence or counts are "
                                             "not its bundle's committed verdict's")
    outcome.add_argument("bundle", metavar="BUNDLE", help="the proposed verdict's bundle")
    outcome.add_argument("--proposal", required=True, metavar="HEX",
                         help="the proposeVerdict calldata as sent (`cast tx HASH input`), "
                              "or @FILE holding it")
    outcome.add_argument("--sender", type=contract_address, default=None, metavar="ADDR",
                         help="print commitProof for this account instead (send it a block "
                              "before the settle)")
    add_max_size_option(outcome, "bundles", default=DEFAULT_MAX_SIZE)
    outcome.set_defaults(run=_outcome)
    finalize = sub.add_parser("finalize", help="finalize(marketKey) of a market id text and "
                                               "PromptSpec hash")
    _add_market(finalize, positional=True)
    finalize.set_defaults(run=_finalize)
    moot = sub.add_parser("close-moot", help="closeMoot(challengeId): refund a challenge on "
                                             "a verdict another challenge struck")
    moot.add_argument("challenge_id", metavar="ID",
                      help="the registry's challenge id (0x + 64 hex)")
    moot.set_defaults(run=_challenge_call, function="closeMoot(bytes32)")
    lapse = sub.add_parser("lapse", help="lapse(challengeId): void a market whose challenge the "
                                         "court left unruled past its timeout")
    lapse.add_argument("challenge_id", metavar="ID",
                       help="the registry's challenge id (0x + 64 hex)")
    lapse.set_defaults(run=_challenge_call, function="lapse(bytes32)")
    withdraw = sub.add_parser("withdraw", help="withdraw(): the caller's credited bonds")
    withdraw.set_defaults(run=_withdraw)
    for each in (challenge, ruling, settle, commit, outcome, finalize, moot, lapse, withdraw):
        each.add_argument("--json", action="store_true",
                          help="print one JSON document (por/calldata/1)")
    return parser


def _print(args: argparse.Namespace, call: dict[str, Any], lines: list[str]) -> int:
    from por.chain.documents import CALLDATA_SCHEMA

    if args.json:
        print_json({"schema": CALLDATA_SCHEMA, "calldata": call})
        return 0
    for line in [call["function"], *lines, f"calldata          {call['data_hex']}"]:
        out(line)
    return 0


def run_challenge(args: argparse.Namespace) -> int:
    """`por chain challenge` (also `por attestation --calldata CASE`)."""
    from por.chain.documents import case_call
    from por.court.case import CASE_MAX_SIZE, DisputeCase

    case = DisputeCase.from_cbor(read_input(args.case, args.max_size), max_size=CASE_MAX_SIZE)
    call = case_call(case, args.challenger)
    lines = [f"market            {safe_text(call['market'])} ({call['market_id_hex']})",
             f"market key        {call['market_key']}",
             f"case hash         {call['case_hash_hex']}",
             f"leaf              {call['kind']} #{call['leaf_index']} of {call['tree_size']}",
             "value             challengerBond() wei"]
    if "challenge_id_hex" in call:
        lines.append(f"challenge id      {call['challenge_id_hex']}")
    return _print(args, call, lines)


def run_ruling(args: argparse.Namespace) -> int:
    """`por chain ruling` (also `por attestation --calldata RULING.sig.cbor`)."""
    from por.chain.documents import ruling_call
    from por.court.eip712 import RulingSignature

    record = RulingSignature.from_cbor(read_input(args.signature, _MAX_RULING_SIG))
    call = ruling_call(record, args.challenger)
    lines = [f"to                {call['to_hex']} on chain {call['chain_id']}",
             f"ruling            {'upheld' if call['upheld'] else 'rejected'} "
             f"(worker_pct {call['worker_pct']})",
             f"market key        {call['market_key']}",
             f"challenge id      {call['challenge_id_hex']}"]
    return _print(args, call, lines)


def _settle(args: argparse.Namespace) -> int:
    from por.chain.documents import settle_call
    from por.documents import not_a_proof
    from por.errors import PorError

    market, spec_hash, por_root = _market_of(args)
    data = read_input(args.proof, args.max_size)
    try:
        call = settle_call(data, market, spec_hash, max_size=args.max_size,
                           commit_by=args.sender)
    except PorError as exc:  # no verdict (exit 2) for no proof at all, as check-proof says
        reason = not_a_proof(data, max_size=args.max_size, check_id=exc.check_id)
        if reason is None:
            raise
        raise CliError("proof.not_a_proof", f"{safe_text(args.proof)}: {reason}",
                       exit_code=EXIT_NO_VERDICT) from None
    if por_root is not None and call["por_root_hex"] != "0x" + por_root.hex():
        # the revert the contract would give (ProofPorRoot, SPEC §14.7): exit 1
        raise CliError("proof.por_root", f"{safe_text(args.proof)}: the proof is about another "
                       f"verdict than {safe_text(args.bundle)}'s", exit_code=EXIT_REJECTED,
                       expected="0x" + por_root.hex(), actual=call["por_root_hex"])
    lines = [f"market            {safe_text(call['market'])} ({call['market_id_hex']})",
             f"market key        {call['market_key']}",
             f"por_root          {call['por_root_hex']} (must be the proposed verdict's)",
             f"won               {call['won']}",
             *([f"kind              form:{call['kind']} ({call['kind_hex']}, settleByForms)"]
               if "kind" in call else []),
             f"challenge id      {call['challenge_id_hex']}",
             "value             0 (no bond: a proof that does not win reverts; pays only a "
             "sender that ran `por chain commit` a block earlier)"]
    if args.sender is not None:
        lines[-1:] = [f"commitment        {call['commitment_hex']} (settle from "
                      f"{call['sender_hex']}, in a later block)"]
    return _print(args, call, lines)


def _outcome(args: argparse.Namespace) -> int:
    from por.chain.outcome import outcome_call

    text = args.proposal
    if text.startswith("@"):
        text = read_input(text[1:], 1 << 20).decode("ascii", "replace")
        if len(text) > 1 << 20:  # read_input's one byte past the cap
            raise CliError("usage.options", "--proposal: the file holds more than 1 MiB",
                           exit_code=EXIT_NO_VERDICT)
    text = text.strip()
    text = text[2:] if text[:2].lower() == "0x" else text
    try:
        proposal = bytes.fromhex(text)
    except ValueError:
        raise CliError("usage.options", "--proposal: not hex (the proposeVerdict calldata, "
                       "`cast tx HASH input`)", exit_code=EXIT_NO_VERDICT) from None
    call = outcome_call(read_input(args.bundle, args.max_size), proposal,
                        max_size=args.max_size, commit_by=args.sender)
    lines = [f"market key        {call['market_key']}",
             f"por_root          {call['por_root_hex']} (the proposal's and the bundle's)",
             f"won               {call['won']}",
             *(f"  {name:<15} stored {d['stored']}, committed {d['committed']}"
               for name, d in call["differences"].items()),
             f"kind              form:outcome ({call['kind_hex']}, settleByForms)",
             f"challenge id      {call['challenge_id_hex']}",
             "value             0 (no bond; pays only a sender that sent this command's "
             "--sender commitProof a block earlier)"]
    if args.sender is not None:
        lines[-1:] = [f"commitment        {call['commitment_hex']} (settle from "
                      f"{call['sender_hex']}, in a later block)"]
    return _print(args, call, lines)


def _finalize(args: argparse.Namespace) -> int:
    from por.chain.calldata import FINALIZE, market_calldata
    from por.chain.documents import call_document, key_of_text
    from por.signing.eip712 import market_id_from_text

    market, spec_hash, _ = _market_of(args)
    market_id = market_id_from_text(market)
    key = key_of_text(market, spec_hash)
    call = call_document(FINALIZE, market_calldata(FINALIZE, key), market=market,
                         market_id_hex="0x" + market_id.hex(),
                         prompt_spec_hash_hex="0x" + spec_hash.hex(),
                         market_key="0x" + key.hex())
    return _print(args, call, [f"market            {safe_text(market)} "
                               f"({call['market_id_hex']})",
                               f"market key        {call['market_key']}"])


def _challenge_call(args: argparse.Namespace) -> int:
    """`por chain close-moot ID` and `por chain lapse ID`: a call on one challenge id."""
    from por.chain.calldata import market_calldata
    from por.chain.documents import call_document

    text = args.challenge_id.removeprefix("0x")
    if len(text) != 64 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise CliError("usage.options", "a challenge id is 0x and 64 hex digits")
    challenge = bytes.fromhex(text)
    call = call_document(args.function, market_calldata(args.function, challenge),
                         challenge_id_hex="0x" + challenge.hex())
    return _print(args, call, [f"challenge id      {call['challenge_id_hex']}"])


def _withdraw(args: argparse.Namespace) -> int:
    from por.chain.calldata import WITHDRAW, withdraw_calldata
    from por.chain.documents import call_document

    return _print(args, call_document(WITHDRAW, withdraw_calldata()), [])


__all__ = ["add_parser", "run_challenge", "run_ruling"]
