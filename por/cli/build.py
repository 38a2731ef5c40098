"""``por build``: audit, judge and commit a market into ``bundle.cbor``.

Reads the JSON forms of a PromptSpec and an EvidenceBundle (numbers with a
fraction are parsed as ``Decimal``, never float), runs ``por.bundle.build``
and writes the bundle atomically (temporary file in the same directory, then
``os.replace``).  Prints a one-line summary, or one JSON document with
``--json``.

Signing: :func:`finish_bundle` is the hook where ``--key KEY`` will add a
signature (``por.bundle.with_signatures``) before the bytes are written.
Leaves out: the protocol itself (``por.bundle``, ``por.auditor``, ``por.judge``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, TypeVar

from por.cli.common import (
    DEFAULT_MAX_SIZE,
    STDIN,
    CliError,
    err,
    out,
    percent_from_bps,
    print_json,
    read_input,
    safe_text,
    write_atomic,
    write_binary_stdout,
)

if TYPE_CHECKING:
    from por.bundle import BuildResult
    from por.schemas import Record

R = TypeVar("R", bound="Record")

#: The versioned ``schema`` field of the ``--json`` document.
BUILD_SCHEMA = "por/build-report/1"

#: Largest JSON input read (a PromptSpec or an EvidenceBundle).
MAX_JSON_INPUT = DEFAULT_MAX_SIZE

_EPILOG = """\
input:
  --prompt-spec  JSON form of a por.PromptSpec/1 record
  --evidence     JSON form of a por.EvidenceBundle/1 record; an item may give
                 its body as UTF-8 "content_text" instead of base64 "content"
  Hashes are lower-case hex, other bytes standard base64.  `por schema
  PromptSpec` and `por schema EvidenceBundle` print their JSON Schemas.

output:
  OUT is written atomically (a temporary file, then a rename).  -o - writes
  the bundle to standard output and the summary to standard error.
  Summary: built OUT: OUTCOME CONFIDENCE% RULE por_root HEX

examples:
  por build --prompt-spec spec.json --evidence evidence.json -o bundle.cbor
  por build --prompt-spec spec.json --evidence evidence.json -o - | por verify -

exit codes:
  0  the bundle was built and written
  1  an input is not valid (not JSON, schema error, evidence for another
     market, the auditor or judge refused it)
  2  usage error, unreadable input, unwritable output, internal error"""


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
    # Signing (--key KEY) is added here; see finish_bundle.
    parser.set_defaults(run=run)
    return parser


def finish_bundle(result: BuildResult, args: argparse.Namespace) -> bytes:
    """The bytes to write.  Hook for signing: with ``--key`` this will parse the
    bundle, sign the verdict and return ``with_signatures(bundle, [sig])``."""
    del args  # no build option changes the bytes yet
    return result.data


def run(args: argparse.Namespace) -> int:
    """Read both inputs, build, write OUT, print the summary."""
    from por.bundle import build
    from por.schemas import EvidenceBundle, PromptSpec

    if args.prompt_spec == STDIN and args.evidence == STDIN:
        raise CliError("usage.stdin_twice", "standard input (-) can be read only once")
    if args.json and args.out == STDIN:
        raise CliError("usage.options", "--json and -o - both need standard output")
    spec = _parse(args.prompt_spec, PromptSpec)
    evidence = _parse(args.evidence, EvidenceBundle)
    result = build(spec, evidence)
    data = finish_bundle(result, args)
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
        })
        return 0
    line = (f"built {safe_text(args.out)}: {verdict.outcome} "
            f"{percent_from_bps(verdict.confidence_bps)} {verdict.resolution_rule_id} "
            f"por_root {por_root_hex}")
    if args.out == STDIN:
        err(line)
    else:
        out(line)
    return 0


def _parse(name: str, record: type[R]) -> R:
    """Read one JSON input and validate it; an error names the file."""
    from por.errors import PorError
    from por.schemas import load_json

    data = read_input(name, MAX_JSON_INPUT)
    if len(data) > MAX_JSON_INPUT:
        raise CliError("io.too_large", f"{safe_text(name)}: larger than "
                                       f"{MAX_JSON_INPUT} bytes")
    try:
        return record.from_json_obj(load_json(data))
    except PorError as exc:
        raise type(exc)(exc.check_id, f"{safe_text(name)}: {exc.message}",
                        expected=exc.expected, actual=exc.actual) from None


__all__ = ["BUILD_SCHEMA", "add_parser", "finish_bundle", "run"]
