"""``por challenge`` (write a proof) and ``por check-proof`` (check one without the bundle).

Also :func:`write_challenges_for_report`, which ``por verify --challenges DIR``
calls to write a proof for every ChallengeRef a verification report names.

Exit codes (DESIGN §4, SPEC §10.6): ``check-proof`` exits 0 when the proof
verifies (for a one-step or bundle proof the outcome, ``upheld`` or
``rejected``, is printed, not encoded in the code), 1 when it does not, 2 for
usage errors, unreadable files, unsupported proof versions or a missing
auditor.  ``challenge`` exits 0 when it wrote a proof, 1 when the bundle is
invalid so that no proof can be built, 2 for usage errors (including a leaf
the bundle does not have) and I/O failures.

Only argparse and the standard library are imported at module level; the
protocol is imported inside the ``run_*`` functions (fast ``--help``).
Failures that are not a report (I/O, usage, an undecodable bundle) are raised
as ``PorError`` for the dispatcher, which prints one line and maps the code.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from por.cli.common import (
    EXIT_OK,
    STDIN,
    CliError,
    add_max_size_option,
    make_dir,
    out,
    print_json,
    read_input,
    safe_text,
    write_atomic,
    write_binary_stdout,
)

if TYPE_CHECKING:
    from por.challenge import Proof, ProofReport
    from verifier import VerificationReport

#: ``--json`` schema of ``por challenge``.
CHALLENGE_SCHEMA = "por/challenge/1"
#: ``--json`` schema of ``por check-proof`` (same as por.challenge.REPORT_SCHEMA).
CHECK_PROOF_SCHEMA = "por/proof-check/1"

_CHALLENGE_EPILOG = """\
what is proven:
  --evidence ID    por.InclusionProof/1: the EvidenceItem leaf, its path to the
                   evidence root and the component path to por_root
  --step ID        por.OneStepProof/1: the step and everything it cites, so
                   `por check-proof` can re-execute the step (--inclusion: an
                   InclusionProof of the step leaf only)
  --prompt-spec    por.InclusionProof/1 of the PromptSpec record
  --verdict        por.InclusionProof/1 of the verdict record
  --bundle         por.BundleProof/1: the six component leaves (root, size)
                   under por_root, with the manifest, trace header and verdict

output:
  -o PROOF         where to write the proof (- for standard output); default
                   ./<kind>-<first 16 hex digits of challenge_id>.cbor
  text             OK <proof file>: <kind> proof, <n> bytes, challenge_id <hex>
  --json           one JSON document, schema "por/challenge/1"

exit codes:
  0  the proof was written
  1  the bundle is invalid (malformed, or its records do not hash to its
     committed por_root), so no proof can be built
  2  usage error (e.g. no such evidence id), unreadable or unwritable file"""

_CHECK_EPILOG = """\
output:
  text     OK <proof>: <what is proven>[; outcome <upheld|rejected> (<reason>)]
           FAIL <proof>: <check-id>: <reason>        (exit 1: invalid proof)
           ERROR <proof>: <check-id>: <reason>       (exit 2: no verdict)
  -v       also every level: leaf hash, path with sides, the hashes computed
           at each step, calculated and expected roots
  --json   one JSON document, schema "por/proof-check/1", with every field

one-step and bundle proofs: exit 0 means the proof verifies and the step (or
the bundle's top level) was checked; the outcome says who wins:
  upheld    the committed step is wrong: the challenger wins
  rejected  the committed step is right

exit codes:
  0  the proof verifies (the leaf is in the tree por_root commits to)
  1  the proof is invalid (malformed, wrong path, index, size, root, id)
  2  usage error, unreadable file, unsupported proof version, no auditor"""


def _root_hex(text: str) -> bytes:
    """argparse type: 64 hex digits (a 32-byte por_root)."""
    if len(text) != 64:
        raise argparse.ArgumentTypeError("--por-root takes 64 hex digits (32 bytes)")
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise argparse.ArgumentTypeError("--por-root is not hex") from None


def add_challenge_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``por challenge`` on the subparsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "challenge",
        help="write a proof for one leaf of a bundle (checkable without the bundle)",
        description="Write a challenge proof for one committed leaf of BUNDLE: an "
                    "inclusion proof, a one-step proof for a reasoning step, or a bundle "
                    "proof.  The bundle is only read.",
        epilog=_CHALLENGE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bundle", metavar="BUNDLE", help="bundle.cbor; - reads standard input")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--evidence", metavar="ID", help="an evidence_id")
    target.add_argument("--step", metavar="ID", help="a step_id (step_0001, ...)")
    target.add_argument("--prompt-spec", action="store_true", help="the PromptSpec")
    target.add_argument("--verdict", action="store_true", help="the verdict record")
    target.add_argument("--bundle", dest="whole_bundle", action="store_true",
                        help="the component leaves under por_root (kind por_bundle)")
    parser.add_argument("--inclusion", action="store_true",
                        help="with --step: an InclusionProof instead of a OneStepProof")
    parser.add_argument("-o", "--out", metavar="PROOF", default=None,
                        help="output file (- for standard output)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({CHALLENGE_SCHEMA})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_max_size_option(parser, "bundles")
    parser.set_defaults(run=run_challenge)
    return parser


def add_check_proof_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``por check-proof`` on the subparsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "check-proof",
        help="check a challenge proof without the bundle (exit 0 valid, 1 invalid)",
        description="Check a proof written by `por challenge`: every hash from the leaf "
                    "to por_root; for a one-step proof, re-execute the step.  Give "
                    "--por-root with the root you trust (from a signature or a chain); "
                    "without it the proof is checked against the por_root it carries.",
        epilog=_CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("proof", metavar="PROOF", help="proof file; - reads standard input")
    parser.add_argument("--por-root", type=_root_hex, metavar="HEX", default=None,
                        help="the trusted por_root (64 hex digits)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({CHECK_PROOF_SCHEMA})")
    level = parser.add_mutually_exclusive_group()
    level.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    level.add_argument("-v", "--verbose", action="store_true",
                       help="show every level and every computed hash")
    add_max_size_option(parser, "proofs")
    parser.set_defaults(run=run_check_proof)
    return parser


def run_challenge(args: argparse.Namespace) -> int:
    """Build the proof ``args`` asks for and write it; 0 when written."""
    from por.challenge import (
        build_bundle_proof,
        build_inclusion_proof,
        build_one_step_proof,
        bundle_from_bytes,
        leaf_index_by_id,
        proof_file_name,
    )
    from por.errors import ProofError

    if args.inclusion and args.step is None:
        raise CliError("usage.inclusion", "--inclusion applies to --step only")
    bundle = bundle_from_bytes(read_input(args.bundle, args.max_size), max_size=args.max_size)
    proof: Proof
    try:
        if args.evidence is not None:
            index = leaf_index_by_id(bundle, "evidence_leaf", args.evidence)
            proof = build_inclusion_proof(bundle, "evidence_leaf", index)
        elif args.step is not None:
            index = leaf_index_by_id(bundle, "reasoning_leaf", args.step)
            proof = (build_inclusion_proof(bundle, "reasoning_leaf", index) if args.inclusion
                     else build_one_step_proof(bundle, index))
        elif args.prompt_spec or args.verdict:
            proof = build_inclusion_proof(bundle, "prompt_spec" if args.prompt_spec
                                          else "verdict")
        else:
            proof = build_bundle_proof(bundle)
    except ProofError as exc:
        if exc.check_id == "proof.no_such_leaf":
            raise CliError(exc.check_id, exc.message) from None
        raise
    data = proof.to_cbor()
    target = args.out if args.out is not None else proof_file_name(proof)
    if target == STDIN:
        write_binary_stdout(data)
    else:
        write_atomic(target, data)
    shown = "<stdout>" if target == STDIN else target
    if args.json:
        print_json({"schema": CHALLENGE_SCHEMA, "exit_code": EXIT_OK, "input": args.bundle,
                    "output": shown, "kind": proof.kind, "proof_schema": proof.SCHEMA,
                    "size": len(data), "challenge_id": proof.challenge_id.hex(),
                    "por_root": proof.por_root.hex()})
    elif target != STDIN:
        out(f"OK {safe_text(shown)}: {proof.kind} proof ({proof.SCHEMA}), {len(data)} bytes, "
            f"challenge_id {proof.challenge_id.hex()}")
    return EXIT_OK


def run_check_proof(args: argparse.Namespace) -> int:
    """Check one proof file; print the result; return 0, 1 or 2."""
    from por.challenge import check_proof

    data = read_input(args.proof, args.max_size)
    report = check_proof(data, por_root=args.por_root, max_size=args.max_size)
    if args.json:
        print_json({"schema": CHECK_PROOF_SCHEMA, "input": args.proof,
                    **report.to_json_obj()})
    elif not args.quiet:
        out(summary_line(args.proof, report))
        if args.verbose:
            for line in detail_lines(report):
                out(line)
    return report.exit_code


def summary_line(name: str, report: ProofReport) -> str:
    """``OK <proof>: ...``, ``FAIL <proof>: <id>: ...`` or ``ERROR <proof>: <id>: ...``."""
    shown = safe_text(name)
    if report.status != "verified":
        word = "FAIL" if report.status == "rejected" else "ERROR"
        return f"{word} {shown}: {report.check_id}: {safe_text(report.message)}"
    text = f"OK {shown}: {safe_text(report.message)}"
    if report.por_root is not None:
        text += f" {report.por_root.hex()}"
    if report.outcome is not None:
        o = report.outcome
        text += f"; outcome {o.outcome} ({o.reason}): {safe_text(o.message)}"
    return text


def detail_lines(report: ProofReport) -> list[str]:
    """The ``-v`` listing: every inclusion level and its computed hashes."""
    lines: list[str] = []
    if report.challenge_id is not None:
        lines.append(f"  challenge_id {report.challenge_id.hex()}")
    for check in report.inclusions:
        p = check.proof
        record = "" if check.leaf_record is None else f", leaf record {check.leaf_record}"
        lines.append(f"  {check.role}: {p.kind} leaf {p.leaf_index} of {p.tree_size} in "
                     f"{p.component}{record}")
        for level in check.levels:
            lines.append(f"    level {level.level}: index {level.index} of {level.size}, "
                         f"leaf hash {level.hashes[0].hex()}")
            for j, (sibling, side) in enumerate(zip(level.path, level.sides, strict=True)):
                lines.append(f"      path[{j}] {side:5} {sibling.hex()} -> "
                             f"{level.hashes[j + 1].hex()}")
            lines.append(f"      calculated {level.calculated_root.hex()}  expected "
                         f"{level.expected_root.hex()}  {'ok' if level.ok else 'MISMATCH'}")
    if report.bundle is not None:
        for item in report.bundle.to_json_obj()["components"]:
            lines.append(f"  component {item['name']:12} root {item['root']} size "
                         f"{item['size']}")
        if report.bundle.calculated_root is not None:
            lines.append(f"  calculated por_root {report.bundle.calculated_root.hex()}")
        for finding in report.bundle.findings:
            lines.append(f"  finding {finding.check_id}: {safe_text(finding.message)}")
    if report.outcome is not None:
        o = report.outcome
        if o.cause is not None:
            lines.append(f"  cause {o.cause}")
        if o.differing_fields:
            lines.append(f"  differing fields {', '.join(o.differing_fields)}")
        if o.recomputed_leaf_hash is not None and o.committed_leaf_hash is not None:
            lines.append(f"  committed leaf hash  {o.committed_leaf_hash.hex()}")
            lines.append(f"  recomputed leaf hash {o.recomputed_leaf_hash.hex()}")
    return lines


def write_challenges_for_report(report: VerificationReport, bundle_bytes: bytes,
                                out_dir: str | os.PathLike[str], *,
                                max_size: int | None = None) -> list[Path]:
    """Write a proof for every ChallengeRef in ``report``'s failed checks; return the paths.

    Each ref gets the most specific proof the bundle supports
    (``por.challenge.proof_for_ref``); identical proofs are written once.  A
    bundle that does not decode, or whose records cannot be proven against its
    committed por_root, yields no files.  ``max_size``: the decoder cap used by
    ``por verify --max-size``.  ``CliError('io.write_failed')``
    (exit 2) if the directory or a file cannot be written.
    """
    from por.challenge import bundle_from_bytes, proof_file_name, proof_for_ref
    from por.errors import PorError

    refs = [c.challenge for c in report.checks if not c.ok and c.challenge is not None]
    if not refs:
        return []
    try:
        bundle = bundle_from_bytes(bundle_bytes, max_size=max_size)
    except PorError:
        return []
    written: list[Path] = []
    for ref in refs:
        try:
            proof = proof_for_ref(bundle, ref)
        except PorError:
            continue
        path = Path(out_dir) / proof_file_name(proof)
        if path in written:
            continue
        if not written:
            make_dir(os.fspath(out_dir))
        write_atomic(os.fspath(path), proof.to_cbor())
        written.append(path)
    return written


__all__ = [
    "CHALLENGE_SCHEMA",
    "CHECK_PROOF_SCHEMA",
    "add_challenge_parser",
    "add_check_proof_parser",
    "detail_lines",
    "run_challenge",
    "run_check_proof",
    "summary_line",
    "write_challenges_for_report",
]
