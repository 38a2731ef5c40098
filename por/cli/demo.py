"""``por demo``: build, write and verify a bundle for every bundled scenario.

For each scenario of :mod:`por.scenarios` (fictional markets shipped with
por): build the bundle, write it to ``DIR/<scenario>.cbor``, verify it with
``verifier.check_bundle`` and compare the verdict with the scenario's
expected outcome, rule and confidence.  Prints a table and the ``por verify``
command to run next.  Exit 0 only if every bundle verified and matched.

Leaves out: any network access (the evidence is canned) and signing.
"""

from __future__ import annotations

import argparse
import os
import shlex
from typing import Any

from por.cli.common import (
    EXIT_NO_VERDICT,
    EXIT_OK,
    EXIT_REJECTED,
    add_force_option,
    make_dir,
    out,
    percent_from_bps,
    print_json,
    refuse_existing_in,
    safe_text,
    write_atomic,
)

#: The versioned ``schema`` field of the ``--json`` document.
DEMO_SCHEMA = "por/demo-report/1"
DEFAULT_OUT = "por-demo"
#: Hex digits of por_root shown in the table.
ROOT_PREFIX = 12

_EPILOG = """\
Each scenario is a fictional market with canned evidence (no network).  The
table shows the verdict, the first 12 hex digits of por_root, whether
`por verify` accepted the bundle and whether the verdict matched the
scenario's expected outcome, rule and confidence.

examples:
  por demo
  por demo --out /tmp/bundles && por verify /tmp/bundles/*.cbor

exit codes:
  0  every bundle was built, verified and matched its expected verdict
  1  a bundle failed to build or verify, or its verdict was unexpected
  2  usage error, unwritable directory, unsupported version, internal error"""

_COLUMNS = ("scenario", "outcome", "confidence", "rule", "por_root", "verified", "expected")


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por demo`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "demo",
        help="build and verify a bundle for every sample market",
        description="Build, write and verify a PoR bundle for every bundled scenario.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"directory for <scenario>.cbor (default ./{DEFAULT_OUT}; "
                             "created if absent)")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON document ({DEMO_SCHEMA})")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    add_force_option(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """Build, write and verify every scenario; print the table."""
    from por.scenarios import list_scenarios

    names = list_scenarios()
    refuse_existing_in(args.out, [f"{name}.cbor" for name in names], force=args.force)
    make_dir(args.out)
    rows = [_one(name, args.out) for name in names]
    code = max((r["exit_code"] for r in rows), default=EXIT_OK)
    if not names:
        code = EXIT_NO_VERDICT
    directory = args.out.rstrip("/") or "/"
    next_command = f"por verify {shlex.quote(directory)}/*.cbor"
    if args.json:
        print_json({"schema": DEMO_SCHEMA, "out_dir": args.out, "exit_code": code,
                    "results": rows, "next_command": next_command})
        return code
    if not names:
        out("no scenarios found (is por installed with its fixtures?)")
        return code
    for line in table(rows):
        out(line)
    verified = sum(1 for r in rows if r["verified"])
    matched = sum(1 for r in rows if r["matched"])
    out("")
    out(f"{len(rows)} bundles in {safe_text(directory)}/: {verified} verified, "
        f"{matched} matched their expected verdict.")
    out(f"next: {safe_text(next_command)}")
    return code


def _one(name: str, directory: str) -> dict[str, Any]:
    """Build, write and verify one scenario; a PorError is reported in the row."""
    from por.bundle import build
    from por.errors import PorError
    from por.scenarios import load_scenario
    from verifier import check_bundle

    path = os.path.join(directory, f"{name}.cbor")
    row: dict[str, Any] = {
        "scenario": name, "path": path, "status": "build_failed", "exit_code": EXIT_REJECTED,
        "outcome": None, "confidence_bps": None, "resolution_rule_id": None,
        "por_root": None, "verified": False, "matched": False, "mismatches": [],
        "error": None,
    }
    try:
        scenario = load_scenario(name)
        result = build(scenario.prompt_spec, scenario.evidence)
    except PorError as exc:
        row["error"] = {"id": exc.check_id, "message": exc.message}
        return row
    write_atomic(path, result.data)
    report = check_bundle(result.data)
    verdict, expected = result.verdict, scenario.expected
    mismatches = [field for field in ("outcome", "resolution_rule_id", "confidence_bps")
                  if getattr(verdict, field) != getattr(expected, field)]
    failure = report.first_failure
    row.update({
        "status": report.status,
        "outcome": verdict.outcome,
        "confidence_bps": verdict.confidence_bps,
        "resolution_rule_id": verdict.resolution_rule_id,
        "por_root": result.commitments.por_root.hex(),
        "verified": report.ok,
        "matched": not mismatches,
        "mismatches": mismatches,
        "error": None if failure is None else {"id": failure.check_id,
                                               "message": failure.message},
    })
    row["exit_code"] = max(report.exit_code, EXIT_OK if not mismatches else EXIT_REJECTED)
    return row


def table(rows: list[dict[str, Any]]) -> list[str]:
    """The demo table: one row per scenario, columns padded to fit."""
    cells = [list(_COLUMNS)]
    for r in rows:
        if r["por_root"] is None:
            error = r["error"] or {"id": "?", "message": ""}
            cells.append([r["scenario"], "-", "-", "-", "-", "no",
                          f"build failed: {error['id']}"])
            continue
        expected = "yes" if r["matched"] else "NO (" + ", ".join(r["mismatches"]) + ")"
        cells.append([
            r["scenario"], r["outcome"], percent_from_bps(r["confidence_bps"]),
            r["resolution_rule_id"], r["por_root"][:ROOT_PREFIX],
            "yes" if r["verified"] else f"NO ({r['error']['id']})", expected,
        ])
    widths = [max(len(row[i]) for row in cells) for i in range(len(_COLUMNS))]
    return ["  ".join(safe_text(cell).ljust(w) for cell, w in zip(row, widths, strict=True))
            .rstrip() for row in cells]


__all__ = ["DEFAULT_OUT", "DEMO_SCHEMA", "add_parser", "run", "table"]
