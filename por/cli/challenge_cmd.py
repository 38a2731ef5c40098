"""``por challenge`` (write a proof) and ``por check-proof`` (check one without the bundle).

``por verify --challenges DIR`` writes its proofs through
``por.cli.challenge_files``.

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
from typing import TYPE_CHECKING, Any

from por.cli.bundle_file import open_bundle
from por.cli.common import (
    EXIT_NO_VERDICT,
    EXIT_OK,
    EXIT_REJECTED,
    PROOF_MAX_SIZE,
    STDIN,
    CliError,
    add_force_option,
    add_max_size_option,
    out,
    print_json,
    read_input,
    refuse_existing,
    safe_text,
    write_atomic,
    write_binary_stdout,
)

if TYPE_CHECKING:
    from por.bundle.layout import Bundle
    from por.challenge import Proof, ProofReport

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
                   InclusionProof of the step leaf only; --omission: a
                   por.OmissionProof/2, the check_requirement step and the
                   extract step of a committed item of its requirement it
                   does not cite; --citations: a por.CitationProof/2, the
                   step and the extract steps of the at most two cited
                   items that show its citations are not canonical, SPEC
                   §12.5.1)
  --prompt-spec    por.InclusionProof/1 of the PromptSpec record
  --verdict        por.InclusionProof/1 of the verdict record
  --bundle         por.BundleProof/1: the six component leaves (root, size)
                   under por_root, with the manifest, trace header and verdict
  --judge          por.JudgeProof/1: the verdict, PromptSpec, last step and the
                   summarised items' extract steps, so the judge can be re-run
  --header         por.HeaderProof/1: the trace header, PromptSpec and the seven
                   component leaves, so the header can be recomputed
  --forms          with --step (a check_requirement, aggregate or deduce step)
                   or --judge: por.FormStepProof/1, the chain forms its executor
                   reads, each with its path in the forms tree, and the forms
                   component's path to por_root (SPEC §10.2.9); exit 1 for a
                   step whose kind has no executor on forms

output:
  -o PROOF         where to write the proof (- for standard output); default
                   ./<kind>-<first 16 hex digits of challenge_id>.cbor
  text             OK <proof file>: <kind> proof, <n> bytes, proof id <hex> (the
                   proof's §10.3 challenge_id; the registry's challenge id is what
                   `por chain` prints)
  --json           one JSON document, schema "por/challenge/1"

exit codes:
  0  the proof was written
  1  the bundle is invalid (malformed, or its records do not hash to its
     committed por_root), so no proof can be built
  2  usage error (e.g. no such evidence id), unreadable or unwritable file"""

_CHECK_EPILOG = """\
vocabulary (SPEC §10.6):
  a proof is valid (every hash from the leaf to por_root checks) or invalid;
  a challenge is won (the committed data is wrong: the challenger wins) or
  lost (the committed data is right, or the proof is invalid).
  inclusion proof: won iff the committed leaf is not a valid record
  one-step proof:  won iff the step differs from its re-execution
  bundle proof:    won iff the committed top-level records disagree

output:
  text     WON <proof>: proof valid: <what is proven>; challenge won (<reason>): ...
           LOST <proof>: proof valid: ...; challenge lost (<reason>): ...
           LOST <proof>: proof invalid: <check-id>: <reason>
           ERROR <proof>: <check-id>: <reason>
  -v       also every level (leaf hash, path with sides, every computed hash,
           committed and recomputed roots), an invalid proof's values
           (committed/recomputed, or required/found for a rule it breaks)
           and, for a step, the field-level diffs:
           output.x: committed "1", recomputed "2"
  --json   one JSON document, schema "por/proof-check/1" (por schema
           proof-check): status valid|invalid|error, challenge won|lost

exit codes (who won, from the code alone):
  0  won: the proof is valid and shows the committed data is wrong
  1  lost: the proof is invalid, or valid and the committed data is right
  2  no verdict: usage error, unreadable file, unsupported proof version,
     no auditor, a file that is no proof (empty, JSON, a bundle, a ruling:
     proof.not_a_proof)"""


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _root_hex(text: str) -> bytes:
    """argparse type: a 32-byte por_root as 64 hex digits, with or without ``0x``
    (the form ``por attestation`` prints); surrounding spaces are ignored."""
    digits = text.strip(" \t\r\n")
    if digits[:2] in ("0x", "0X"):
        digits = digits[2:]
    if len(digits) != 64 or not set(digits) <= _HEX_DIGITS:
        raise argparse.ArgumentTypeError("--por-root takes 64 hex digits (32 bytes), "
                                         "optionally prefixed with 0x")
    return bytes.fromhex(digits)


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
    target.add_argument("--judge", action="store_true",
                        help="a JudgeProof: re-run the judge on the committed trace")
    target.add_argument("--header", action="store_true",
                        help="a HeaderProof: recompute the trace header from its inputs")
    parser.add_argument("--inclusion", action="store_true",
                        help="with --step: an InclusionProof instead of a OneStepProof")
    parser.add_argument("--omission", action="store_true",
                        help="with --step: an OmissionProof (an item of the check step's "
                             "requirement that the step does not cite)")
    parser.add_argument("--citations", action="store_true",
                        help="with --step: a CitationProof (citations out of order, "
                             "repeated or not the set the step's kind fixes)")
    parser.add_argument("--forms", action="store_true",
                        help="with --step or --judge: a FormStepProof (the step, or the "
                             "verdict's mapping, re-executed on chain forms)")
    parser.add_argument("-o", "--out", metavar="PROOF", default=None,
                        help="output file (- for standard output)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({CHALLENGE_SCHEMA})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_max_size_option(parser, "bundles")
    add_force_option(parser)
    parser.set_defaults(run=run_challenge)
    return parser


def add_check_proof_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``por check-proof`` on the subparsers object."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "check-proof",
        help="check a challenge proof without the bundle (exit 0 won, 1 lost, 2 no verdict)",
        description="Check a proof written by `por challenge`: every hash from the leaf "
                    "to por_root; for a one-step proof, re-execute the step.  Give "
                    "--por-root with the root you trust (from a signature or a chain); "
                    "without it the proof is checked against the por_root it carries.",
        epilog=_CHECK_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("proof", metavar="PROOF", help="proof file; - reads standard input")
    parser.add_argument("--por-root", type=_root_hex, metavar="HEX", default=None,
                        help="the trusted por_root (64 hex digits, 0x optional)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({CHECK_PROOF_SCHEMA})")
    level = parser.add_mutually_exclusive_group()
    level.add_argument("-q", "--quiet", action="store_true", help="print nothing")
    level.add_argument("-v", "--verbose", action="store_true",
                       help="show every level and every computed hash")
    add_max_size_option(parser, "proofs", default=PROOF_MAX_SIZE)
    parser.set_defaults(run=run_check_proof)
    return parser


def run_challenge(args: argparse.Namespace) -> int:
    """Build the proof ``args`` asks for and write it; 0 when written."""
    from por.challenge import (
        build_bundle_proof,
        build_citation_proof,
        build_header_proof,
        build_inclusion_proof,
        build_judge_proof,
        build_omission_proof,
        build_one_step_proof,
        leaf_index_by_id,
        proof_file_name,
    )
    from por.errors import ProofError

    if (args.inclusion or args.omission or args.citations) and args.step is None:
        raise CliError("usage.inclusion", "--inclusion, --omission and --citations apply to "
                       "--step only")
    if args.inclusion + args.omission + args.citations + args.forms > 1:
        raise CliError("usage.options", "--inclusion, --omission, --citations and --forms "
                       "exclude each other")
    if args.forms and args.step is None and not args.judge:
        raise CliError("usage.forms", "--forms applies to --step and --judge only")
    if args.out is not None:
        refuse_existing([args.out], force=args.force)
    bundle = open_bundle(args.bundle, args.max_size).bundle()
    proof: Proof
    try:
        if args.evidence is not None:
            index = leaf_index_by_id(bundle, "evidence_leaf", args.evidence)
            proof = build_inclusion_proof(bundle, "evidence_leaf", index)
        elif args.step is not None:
            index = leaf_index_by_id(bundle, "reasoning_leaf", args.step)
            if args.omission:
                proof = build_omission_proof(bundle, index)
            elif args.citations:
                proof = build_citation_proof(bundle, index)
            elif args.inclusion:
                proof = build_inclusion_proof(bundle, "reasoning_leaf", index)
            elif args.forms:
                proof = _form_step(bundle, index)
            else:
                proof = build_one_step_proof(bundle, index)
        elif args.judge:
            proof = _form_step(bundle, None) if args.forms else build_judge_proof(bundle)
        elif args.header:
            proof = build_header_proof(bundle)
        elif args.prompt_spec or args.verdict:
            proof = build_inclusion_proof(bundle, "prompt_spec" if args.prompt_spec
                                          else "verdict")
        else:
            proof = build_bundle_proof(bundle)
    except ProofError as exc:
        if exc.check_id in ("proof.no_such_leaf", "proof.no_omission",
                            "proof.no_citation_fault"):
            raise CliError(exc.check_id, exc.message) from None
        raise
    data = proof.to_cbor()
    target = args.out if args.out is not None else proof_file_name(proof)
    refuse_existing([target], force=args.force)  # -o itself was refused before any work
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
            f"proof id {proof.challenge_id.hex()}")
    return EXIT_OK


def _form_step(bundle: Bundle, index: int | None) -> Proof:
    """The FormStepProof of step leaf ``index`` (None: the judge's); a step kind with no
    executor on forms, or a form lie (a FormProof's), is exit 1 with one line."""
    from por.challenge.form_step import build_form_step_proof, form_step_kind
    from por.errors import ProofError

    try:
        if index is None:
            return build_form_step_proof(bundle, "judge")
        return build_form_step_proof(bundle, form_step_kind(bundle, index), index)
    except ProofError as exc:
        if exc.check_id in ("proof.no_form_executor", "form.none", "form.mismatch"):
            raise CliError(exc.check_id, exc.message, exit_code=EXIT_REJECTED) from None
        raise


def run_check_proof(args: argparse.Namespace) -> int:
    """Check one proof file; print the result; return 0, 1 or 2."""
    from por.challenge import check_proof
    from por.documents import not_a_proof

    data = read_input(args.proof, args.max_size)
    report = check_proof(data, por_root=args.por_root, max_size=args.max_size)
    reason = not_a_proof(data, max_size=args.max_size, check_id=report.check_id)
    if reason is not None:  # no verdict (exit 2), never a lost challenge
        raise CliError("proof.not_a_proof", f"{safe_text(args.proof)}: {reason}",
                       exit_code=EXIT_NO_VERDICT)
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
    """One line whose first word says who won (SPEC §10.6).

    ``WON <proof>: proof valid: ...; challenge won (<reason>): ...`` (exit 0),
    ``LOST <proof>: proof valid: ...; challenge lost (<reason>): ...`` or
    ``LOST <proof>: proof invalid: <id>: ...`` (exit 1),
    ``ERROR <proof>: <id>: ...`` (exit 2).  Proof text is escaped.
    """
    shown = safe_text(name)
    if report.status == "error":
        return f"ERROR {shown}: {report.check_id}: {safe_text(report.message)}"
    if report.status == "invalid":
        return (f"LOST {shown}: proof invalid: {report.check_id}: "
                f"{safe_text(report.message)}")
    word = "WON" if report.won else "LOST"
    text = f"{word} {shown}: proof valid: {safe_text(report.message)}"
    if report.por_root is not None:
        text += f" {report.por_root.hex()}"
    if report.outcome is not None:
        o = report.outcome
        text += f"; challenge {o.outcome} ({safe_text(o.reason)}): {safe_text(o.message)}"
    return text


def detail_lines(report: ProofReport) -> list[str]:
    """The ``-v`` listing: every inclusion level, its computed hashes, the diffs.

    Every piece of proof-supplied text goes through ``safe_text``: a proof must
    not be able to print a line of its own (e.g. a forged ``WON``).
    """
    from por.challenge.report import FormCheck

    lines: list[str] = []
    if report.challenge_id is not None:
        lines.append(f"  proof id {report.challenge_id.hex()}")
    for check in report.inclusions:
        if isinstance(check, FormCheck):
            lines.append(f"  {safe_text(check.heading())}")
        else:
            p = check.proof
            record = "" if check.leaf_record is None else f", leaf record {check.leaf_record}"
            lines.append(f"  {safe_text(check.role)}: {p.kind} leaf {p.leaf_index} of "
                         f"{p.tree_size} in {safe_text(p.component)}{safe_text(record)}")
        for level in check.levels:
            lines.append(f"    level {level.level}: index {level.index} of {level.size}, "
                         f"leaf hash {level.hashes[0].hex()}")
            for j, (sibling, side) in enumerate(zip(level.path, level.sides, strict=True)):
                lines.append(f"      path[{j}] {side:5} {sibling.hex()} -> "
                             f"{level.hashes[j + 1].hex()}")
            lines.append(f"      committed {level.expected_root.hex()}  recomputed "
                         f"{level.calculated_root.hex()}  {'ok' if level.ok else 'MISMATCH'}")
    if report.bundle is not None:
        for item in report.bundle.to_json_obj()["components"]:
            lines.append(f"  component {item['name']:12} root {item['root']} size "
                         f"{item['size']}")
        if report.bundle.calculated_root is not None:
            lines.append(f"  recomputed por_root {report.bundle.calculated_root.hex()}")
        for finding in report.bundle.findings:
            lines.append(f"  finding {safe_text(finding.check_id)}: "
                         f"{safe_text(finding.message)}")
    shown = report.to_json_obj()
    for name in ("committed", "recomputed", "required", "found"):
        if (value := shown[name]) is not None:
            lines.append(f"  {name:10} {safe_text(str(value))}")
    if report.outcome is not None:
        o = report.outcome
        if o.cause is not None:
            lines.append(f"  cause {safe_text(o.cause)}")
        if o.differing_fields:
            lines.append(f"  differing fields {', '.join(o.differing_fields)}")
        for diff in o.differences:
            lines.append(f"  diff {safe_text(diff.line())}")
        if o.recomputed_leaf_hash is not None and o.committed_leaf_hash is not None:
            lines.append(f"  committed leaf hash  {o.committed_leaf_hash.hex()}")
            lines.append(f"  recomputed leaf hash {o.recomputed_leaf_hash.hex()}")
    return lines


__all__ = [
    "CHALLENGE_SCHEMA",
    "CHECK_PROOF_SCHEMA",
    "add_challenge_parser",
    "add_check_proof_parser",
    "detail_lines",
    "run_challenge",
    "run_check_proof",
    "summary_line",
]
