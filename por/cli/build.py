"""``por build``: audit, judge and commit a market into ``bundle.cbor``.

Reads the JSON forms of a PromptSpec and an EvidenceBundle (numbers with a
fraction are parsed as ``Decimal``, never float), runs ``por.bundle.build``
and writes the bundle atomically (temporary file in the same directory, then
``os.replace``).  Prints a one-line summary, or one JSON document with
``--json``.

Signing: with ``--key KEY``, :func:`finish_bundle` appends one signature
over the verdict (``por.bundle.sign_bundle``; options and defaults in
``por.cli.signing_args``, shared with ``por sign``) before the bytes are
written.  Leaves out: the protocol itself (``por.bundle``, ``por.auditor``,
``por.judge``).
"""

from __future__ import annotations

import argparse
import os
import stat
from typing import TYPE_CHECKING, Any, TypeVar

from por.cli.common import (
    RECORD_MAX_SIZE,
    STDIN,
    CliError,
    add_force_option,
    err,
    out,
    percent_from_bps,
    print_json,
    read_input,
    refuse_existing,
    safe_text,
    write_atomic,
    write_binary_stdout,
)
from por.cli.signing_args import SIGNING_HELP, add_signing_options

if TYPE_CHECKING:
    from collections.abc import Sequence

    from por.bundle import BuildResult
    from por.cli.signing_args import SigningParams
    from por.schemas import PromptSpec, Record
    from por.signing import PrivateKey, VerdictSignature

R = TypeVar("R", bound="Record")

#: The versioned ``schema`` field of the ``--json`` document.
BUILD_SCHEMA = "por/build-report/1"

#: Largest JSON input read (a PromptSpec or an EvidenceBundle): the decoder's
#: record cap (64 MiB, SPEC §2), one constant for the records a verifier reads and
#: the JSON they are built from; a regular file is measured before it is read.
MAX_JSON_INPUT = RECORD_MAX_SIZE

_EPILOG = f"""\
input:
  --prompt-spec  JSON form of a por.PromptSpec/1 record
  --evidence     JSON form of a por.EvidenceBundle/1 record; an item may give
                 its body as UTF-8 "content_text" instead of base64 "content"
  Hashes are lower-case hex, other bytes standard base64.  `por schema
  PromptSpec` and `por schema EvidenceBundle` print their JSON Schemas.

{SIGNING_HELP}
  Without --key the bundle is not signed and the other signing options are
  ignored.

output:
  OUT is written atomically (a temporary file, then a rename).  -o - writes
  the bundle to standard output and the summary to standard error.
  Summary: built OUT: OUTCOME CONFIDENCE% RULE por_root HEX
           [; signed by <signer hex> (<scheme>), chain <id>, contract ...]

examples:
  por build --prompt-spec spec.json --evidence evidence.json -o bundle.cbor
  por build --prompt-spec spec.json --evidence evidence.json -o - | por verify -
  por build --prompt-spec spec.json --evidence evidence.json --key signer.key \
      --chain-id 8453 --contract 0x5fbdb2315678afecb367f032d93f642f64180aa3 -o bundle.cbor

exit codes:
  0  the bundle was built (and signed) and written
  1  an input is not valid (not JSON, schema error, evidence for another
     market, the auditor or judge refused it)
  2  usage error, unreadable input, key file error (key.*), unwritable
     output, internal error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por build`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "build",
        help="audit, judge and commit a market into bundle.cbor",
        description="Build a PoR bundle from a PromptSpec and its evidence: run the "
                    "deterministic auditor and judge and commit every record.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--prompt-spec", required=True, metavar="FILE",
                        help="PromptSpec JSON (- reads standard input)")
    parser.add_argument("--evidence", required=True, metavar="FILE",
                        help="EvidenceBundle JSON (- reads standard input)")
    parser.add_argument("-o", "--out", required=True, metavar="OUT",
                        help="where to write bundle.cbor (- for standard output)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({BUILD_SCHEMA})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_signing_options(parser, key_required=False)  # see signer_from_args
    add_force_option(parser)
    parser.set_defaults(run=run)
    return parser


def signer_from_args(args: argparse.Namespace) -> tuple[PrivateKey, SigningParams] | None:
    """With ``--key``: the key and the signing parameters, read before any
    work is done (a key file error is exit 2 and nothing is built)."""
    if args.key is None:
        return None
    from por.cli.signing_args import load_signing_key, signing_params

    return load_signing_key(args.key), signing_params(args)


def finish_bundle(result: BuildResult, signer: tuple[PrivateKey, SigningParams] | None
                  ) -> tuple[bytes, VerdictSignature | None]:
    """The bytes to write and the signature added: with a signer, the bundle
    with one signature over its verdict; without, the built bytes unchanged."""
    if signer is None:
        return result.data, None
    from por.cli.signing_args import sign_data

    data, record, _ = sign_data(result.data, *signer)
    return data, record


def run(args: argparse.Namespace) -> int:
    """Read both inputs, build, write OUT, print the summary."""
    from por.bundle import build
    from por.cli.signing_args import signature_line, signature_summary
    from por.explain import unresolvable
    from por.schemas import EvidenceBundle, PromptSpec

    if args.prompt_spec == STDIN and args.evidence == STDIN:
        raise CliError("usage.stdin_twice", "standard input (-) can be read only once")
    if args.json and args.out == STDIN:
        raise CliError("usage.options", "--json and -o - both need standard output")
    _refuse_overwriting_inputs(args)
    refuse_existing([args.out], force=args.force)
    signer = signer_from_args(args)
    spec = _parse(args.prompt_spec, PromptSpec)
    refusal = unresolvable(spec)
    if refusal is not None:
        raise type(refusal)(refusal.check_id, f"{safe_text(args.prompt_spec)}: "
                            f"{refusal.message}", expected=refusal.expected,
                            actual=refusal.actual)
    evidence = _parse(args.evidence, EvidenceBundle)
    result = build(spec, evidence)
    data, signature = finish_bundle(result, signer)
    if args.out == STDIN:
        write_binary_stdout(data)
    else:
        write_atomic(args.out, data)
    verdict = result.verdict
    por_root_hex = result.commitments.por_root.hex()
    if args.json:
        print_json({
            "schema": BUILD_SCHEMA,
            "output": args.out,
            "size": len(data),
            "market_id": verdict.market_id,
            "outcome": verdict.outcome,
            "confidence_bps": verdict.confidence_bps,
            "resolution_rule_id": verdict.resolution_rule_id,
            "evidence_count": result.commitments.evidence_count,
            "reasoning_count": result.commitments.reasoning_count,
            "por_root": por_root_hex,
            "signature": None if signature is None else signature_summary(signature, 1),
            "why": why_invalid(result, spec, evidence.items),
        })
        return 0
    line = (f"built {safe_text(args.out)}: {verdict.outcome} "
            f"{percent_from_bps(verdict.confidence_bps)} {verdict.resolution_rule_id} "
            f"por_root {por_root_hex}")
    if signature is not None:
        line += f"; {signature_line(signature)}"
    if args.out == STDIN:
        err(line)
    else:
        out(line)
    for reason in why_invalid(result, spec, evidence.items):
        err(f"why {verdict.outcome}: {reason}")
    for note in notes(result, spec, evidence.items):
        err(f"note: {note}")
    return 0


def notes(result: BuildResult, spec: PromptSpec, items: Sequence[Any] = ()) -> list[str]:
    """For a YES/NO verdict: every recorded finding (unreadable or refused sources,
    unselected fields, conflicts), which did not change the verdict but may matter
    to its reader (issue 23); empty for INVALID (``why_invalid`` has them)."""
    if result.verdict.outcome == "INVALID":
        return []
    from por.explain import findings

    return [f.line() for f in findings(spec, list(result.trace.steps), items)]


def why_invalid(result: BuildResult, spec: PromptSpec, items: Sequence[Any] = ()) -> list[str]:
    """For an INVALID verdict: the deciding rule with its values, then every
    recorded finding (``extract.*``, ``sanity.*``... with evidence id and field;
    a value of the wrong form shows what was captured and what is accepted);
    empty for YES/NO."""
    if result.verdict.outcome != "INVALID":
        return []
    from por.explain import deciding_check, findings

    decision = deciding_check(spec, result.verdict.resolution_rule_id,
                              list(result.judge_result.checks))
    lines = [f"{decision.rule_id}: {decision.check_id}: {decision.message}"
             + (f"; {decision.compared}" if decision.compared else "")]
    lines += [f.line() for f in findings(spec, list(result.trace.steps), items)]
    return lines


def _refuse_overwriting_inputs(args: argparse.Namespace) -> None:
    """``-o`` must not name an input: the build would replace what it reads."""
    import os

    if args.out == STDIN:
        return
    for option, name in (("--prompt-spec", args.prompt_spec), ("--evidence", args.evidence)):
        if name == STDIN:
            continue
        try:
            same = os.path.samefile(name, args.out)
        except OSError:
            same = os.path.abspath(name) == os.path.abspath(args.out)
        if same:
            raise CliError("usage.output_is_input", f"-o {safe_text(args.out)} is the "
                           f"{option} input; choose another output file")


def _parse(name: str, record: type[R]) -> R:
    """Read one JSON input and validate it; an error names the file."""
    from por.errors import PorError
    from por.schemas import load_json

    too_large = CliError("io.too_large", f"{safe_text(name)}: larger than "
                                         f"{MAX_JSON_INPUT} bytes (64 MiB)")
    if name != STDIN and _file_size(name) > MAX_JSON_INPUT:
        raise too_large  # refused before a byte is read
    data = read_input(name, MAX_JSON_INPUT)
    if len(data) > MAX_JSON_INPUT:
        raise too_large
    try:
        return record.from_json_obj(load_json(data))
    except PorError as exc:
        raise type(exc)(exc.check_id, f"{safe_text(name)}: {exc.message}",
                        expected=exc.expected, actual=exc.actual) from None


def _file_size(name: str) -> int:
    """Size of a regular file, 0 for anything else (a pipe, a missing file: the
    read that follows reports it)."""
    try:
        status = os.stat(name)
    except OSError:
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


__all__ = ["BUILD_SCHEMA", "add_parser", "finish_bundle", "run", "signer_from_args"]
