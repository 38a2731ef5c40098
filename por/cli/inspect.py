"""``por inspect``: show what a bundle claims, decoded but **not verified**.

Strictly decodes the bundle and every record in it (a malformed bundle is one
line with its check id, exit 1) and prints the market, the verdict, the
commitments, each evidence item and each reasoning step in short.  Nothing is
recomputed or replayed: the header says so and points at ``por verify``.

Leaves out: verification (``por verify``) and any write.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from por.cli.bundle_file import open_bundle
from por.cli.common import (
    add_max_size_option,
    out,
    percent_from_bps,
    print_json,
    safe_text,
)

if TYPE_CHECKING:
    from por.bundle import Bundle, Manifest
    from por.schemas import (
        DeterministicVerdict,
        EvidenceItem,
        PromptSpec,
        ReasoningStep,
        TraceHeader,
    )

#: The versioned ``schema`` field of the ``--json`` document.
INSPECT_SCHEMA = "por/inspect/1"

#: Hex digits of a leaf hash shown in the text view.
LEAF_PREFIX = 12

_EPILOG = """\
The bundle is decoded strictly but nothing is recomputed or replayed: what
you see is what the bundle claims.  Run `por verify BUNDLE` to check it.

examples:
  por inspect bundle.cbor
  por inspect --json bundle.cbor | jq .verdict

exit codes:
  0  the bundle decoded and is shown
  1  the bundle is malformed (one line: por: <check-id>: <reason>)
  2  usage error, unreadable file, internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por inspect`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "inspect",
        help="show what a bundle claims (decoded, not verified)",
        description="Decode a PoR bundle and show its market, verdict, commitments, "
                    "evidence and reasoning steps, without verifying anything.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="bundle file; - reads standard input")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({INSPECT_SCHEMA})")
    add_max_size_option(parser, "inputs")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    parser.set_defaults(run=run)
    return parser


class Decoded:
    """Every record of a bundle, decoded strictly, nothing checked across them."""

    def __init__(self, data: bytes, max_size: int) -> None:
        from por.bundle import Bundle, Manifest
        from por.protocol.budget import check_step_budget, decode_bundle
        from por.schemas import (
            DeterministicVerdict,
            EvidenceItem,
            PromptSpec,
            ReasoningStep,
            TraceHeader,
        )

        self.bundle: Bundle = Bundle.from_dict(decode_bundle(data, max_size=max_size))
        b = self.bundle
        self.manifest: Manifest = _located("manifest", Manifest.from_cbor, b.manifest)
        self.spec: PromptSpec = _located("prompt_spec", PromptSpec.from_cbor, b.prompt_spec)
        self.items: list[EvidenceItem] = [
            _located(f"evidence[{i}]", EvidenceItem.from_cbor, blob)
            for i, blob in enumerate(b.evidence)]
        self.header: TraceHeader = _located("trace_header", TraceHeader.from_cbor,
                                            b.trace_header)
        # The work budget before the steps are parsed (SPEC §17.3).
        check_step_budget(len(b.steps), len(b.evidence), len(self.spec.data_requirements))
        self.steps: list[ReasoningStep] = [
            _located(f"steps[{i}]", ReasoningStep.from_cbor, blob)
            for i, blob in enumerate(b.steps)]
        self.verdict: DeterministicVerdict = _located("verdict", DeterministicVerdict.from_cbor,
                                                      b.verdict)


def _located(where: str, parse: Any, blob: bytes) -> Any:
    from por.errors import PorError

    try:
        return parse(blob)
    except PorError as exc:
        raise type(exc)(exc.check_id, f"{where}: {exc.message}", expected=exc.expected,
                        actual=exc.actual) from None


def run(args: argparse.Namespace) -> int:
    """Decode and print; a malformed bundle raises a PorError (exit 1)."""
    bundle = open_bundle(args.bundle, args.max_size)
    decoded = Decoded(bundle.data, bundle.max_size)
    document = view(args.bundle, decoded)
    if args.json:
        print_json(document)
    else:
        for line in text_lines(document):
            out(line)
    return 0


def view(name: str, d: Decoded) -> dict[str, Any]:
    """The inspect document (JSON form; the text view is drawn from it)."""
    from por.merkle import leaf_hash

    market = d.spec.market
    c = d.bundle.commitments
    return {
        "schema": INSPECT_SCHEMA,
        "input": name,
        "verified": False,
        "market": {"market_id": market.market_id, "question": market.question},
        "verdict": {
            "outcome": d.verdict.outcome,
            "confidence_bps": d.verdict.confidence_bps,
            "resolution_rule_id": d.verdict.resolution_rule_id,
        },
        "manifest": d.manifest.to_json_obj(),
        "commitments": c.model_dump(mode="json"),
        "evidence": [{
            "index": i,
            "evidence_id": item.evidence_id,
            "source_id": item.source.source_id,
            "content_type": item.content_type,
            "size": len(item.content),
            "leaf_hash": leaf_hash(blob).hex(),
        } for i, (item, blob) in enumerate(zip(d.items, d.bundle.evidence, strict=True))],
        "steps": [{
            "index": i,
            "step_id": step.step_id,
            "step_type": step.step_type,
            "evidence_ids": list(step.evidence_ids),
            "prior_step_ids": list(step.prior_step_ids),
            "description": step.description,
        } for i, step in enumerate(d.steps)],
        "signature_count": len(d.bundle.signatures),
        "signatures": [_signature(i, blob) for i, blob in enumerate(d.bundle.signatures)],
    }


def _signature(index: int, blob: bytes) -> dict[str, Any]:
    """One signature record as shown (addresses 0x + EIP-55); not verified here."""
    from por.errors import PorError
    from por.signing import VerdictSignature
    from por.signing.display import checksum_address, signer_text

    try:
        record = VerdictSignature.from_cbor(blob)
    except PorError as exc:
        return {"index": index, "error": exc.check_id}
    return {"index": index, "scheme": record.scheme,
            "signer": signer_text(record.scheme, record.signer),
            "chain_id": record.chain_id,
            "verifying_contract": checksum_address(record.verifying_contract),
            "issued_at": record.issued_at, "expires_at": record.expires_at,
            "nonce": record.nonce}


def text_lines(doc: dict[str, Any]) -> list[str]:
    """The readable view of an inspect document."""
    s = safe_text
    name = s(doc["input"])
    verdict = doc["verdict"]
    c = doc["commitments"]
    m = doc["manifest"]
    lines = [
        f"bundle {name}: decoded only, NOT VERIFIED (run: por verify {name})",
        "",
        f"market      {s(doc['market']['market_id'])}",
        f"question    {s(doc['market']['question'])}",
        f"verdict     {verdict['outcome']}, confidence "
        f"{percent_from_bps(verdict['confidence_bps'])}",
        f"rule        {verdict['resolution_rule_id']}",
        f"pipeline    {s(m['auditor_version'])}, {s(m['judge_version'])}, "
        f"{s(m['profile'])}, spec {s(m['spec_version'])}",
        f"signatures  {doc['signature_count']}",
        "",
        "commitments",
        f"  por_root           {c['por_root']}",
        f"  manifest_hash      {c['manifest_hash']}",
        f"  prompt_spec_hash   {c['prompt_spec_hash']}",
        f"  evidence_root      {c['evidence_root']} ({c['evidence_count']} items)",
        f"  trace_header_hash  {c['trace_header_hash']}",
        f"  reasoning_root     {c['reasoning_root']} ({c['reasoning_count']} steps)",
        f"  verdict_hash       {c['verdict_hash']}",
        "",
        f"evidence ({len(doc['evidence'])})",
    ]
    for e in doc["evidence"]:
        lines.append(f"  [{e['index']}] {s(e['evidence_id'])}  source {s(e['source_id'])}  "
                     f"{e['content_type']}  {e['size']} bytes  "
                     f"leaf {e['leaf_hash'][:LEAF_PREFIX]}")
    lines += ["", f"steps ({len(doc['steps'])})"]
    for st in doc["steps"]:
        cites = ", ".join(s(x) for x in [*st["evidence_ids"], *st["prior_step_ids"]]) or "-"
        lines.append(f"  [{st['index']}] {s(st['step_id'])}  {st['step_type']}  "
                     f"cites {cites}  {s(st['description'])}")
    if doc["signatures"]:
        lines += ["", f"signatures ({len(doc['signatures'])}, not verified)"]
    for sig in doc["signatures"]:
        if "error" in sig:
            lines.append(f"  [{sig['index']}] not a signature record: {sig['error']}")
            continue
        lines.append(f"  [{sig['index']}] {sig['scheme']}  signer {sig['signer']}  chain "
                     f"{sig['chain_id']}  contract {sig['verifying_contract']}  valid "
                     f"{sig['issued_at']}..{sig['expires_at']}  nonce {sig['nonce']}")
    return lines


__all__ = ["INSPECT_SCHEMA", "Decoded", "add_parser", "run", "text_lines", "view"]
