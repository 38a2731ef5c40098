"""``por schema``: export JSON Schemas of the records' JSON forms and of the reports.

The record schemas come from ``Model.model_json_schema(by_alias=True)``
(validation mode: what ``from_json_obj`` accepts), with two corrections so
they describe the JSON form rather than Python's: a 32-byte hash is 64
lower-case hex digits and any other byte string is standard base64; and a
record's ``schema`` field is required (``from_json_obj`` refuses a record
without it).  ``verify-report`` is the shipped schema of ``por verify --json``.

Leaves out: JSON Schema validation (no dependency on a validator).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
from typing import Any

from por.cli.common import (
    CliError,
    add_force_option,
    make_dir,
    out,
    refuse_existing_in,
    write_atomic,
)

#: name -> (module, class); ``verify-report`` is package data, not a model.
MODELS: dict[str, tuple[str, str]] = {
    "PromptSpec": ("por.schemas", "PromptSpec"),
    "EvidenceItem": ("por.schemas", "EvidenceItem"),
    "EvidenceBundle": ("por.schemas", "EvidenceBundle"),
    "ReasoningStep": ("por.schemas", "ReasoningStep"),
    "TraceHeader": ("por.schemas", "TraceHeader"),
    "ReasoningTrace": ("por.schemas", "ReasoningTrace"),
    "DeterministicVerdict": ("por.schemas", "DeterministicVerdict"),
    "Manifest": ("por.bundle", "Manifest"),
    "Bundle": ("por.bundle", "Bundle"),
    "ChallengeRef": ("por.schemas", "ChallengeRef"),
    "CheckResult": ("por.schemas", "CheckResult"),
    "DisputeCase": ("por.court.case", "DisputeCase"),
}
VERIFY_REPORT = "verify-report"
VERIFY_REPORT_FILE = "verify_report.schema.json"
#: Shipped schemas of --json documents: name -> (package, file).
SHIPPED: dict[str, tuple[str, str]] = {
    VERIFY_REPORT: ("por.cli", VERIFY_REPORT_FILE),
    "explain": ("por.explain", "explain.schema.json"),
    "tree": ("por.explain", "tree.schema.json"),
    "proof-check": ("por.cli", "proof_check.schema.json"),
    **{name: ("por.cli", f"schemas/{name}.schema.json") for name in (
        "attestation", "calldata", "build-report", "inspect", "challenge", "keygen",
        "sign-report", "demo-report", "error", "judge-lock", "judgement", "judge-scores",
        "judge-comparison", "judgement-signature", "dispute-case", "court-ruling",
        "judge-preregistration", "judge-preregistration-check", "court-preregistration")},
}
#: A check as ``--json`` reports write it (``$defs/check`` of verify-report).
REPORT_CHECK = "report-check"
NAMES: tuple[str, ...] = (*MODELS, *SHIPPED, REPORT_CHECK)
DIALECT = "https://json-schema.org/draft/2020-12/schema"

_EPILOG = """\
names:
  """ + "\n  ".join(NAMES) + """

examples:
  por schema                      list the names
  por schema PromptSpec           print one schema
  por schema -o schemas/          write every schema as schemas/<name>.schema.json
                                  (existing files: io.exists unless --force)
  por schema verify-report        the schema of `por verify --json`
  por schema explain              the schema of `por explain --json` (tree: --tree)
  por schema proof-check          the schema of `por check-proof --json`

exit codes:
  0  printed or written
  2  unknown name, unwritable directory, a file exists (io.exists), usage error"""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Register ``por schema`` on the subparsers object."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "schema",
        help="print or write JSON Schemas of the records and reports",
        description="Export JSON Schemas (draft 2020-12) for the JSON forms of por's "
                    "records and for the --json reports.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", metavar="NAME",
                        help="schema to print (case-insensitive); omit to list the names")
    parser.add_argument("-o", "--out", metavar="DIR",
                        help="write NAME (or every schema) to DIR/<name>.schema.json")
    add_force_option(parser)
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="show tracebacks of internal errors")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """List, print or write schemas."""
    if args.name is None and args.out is None:
        for name in NAMES:
            out(name)
        return 0
    names = list(NAMES) if args.name is None else [resolve(args.name)]
    if args.out is None:
        for line in render(schema_for(names[0])).split("\n"):
            out(line)
        return 0
    refuse_existing_in(args.out, [f"{name}.schema.json" for name in names], force=args.force)
    make_dir(args.out)
    for name in names:
        path = os.path.join(args.out, f"{name}.schema.json")
        write_atomic(path, (render(schema_for(name)) + "\n").encode("utf-8"))
        out(path)
    return 0


def resolve(name: str) -> str:
    """The canonical spelling of ``name``; ``CliError('usage.unknown_schema')`` if none."""
    for known in NAMES:
        if known.lower() == name.lower():
            return known
    raise CliError("usage.unknown_schema",
                   f"no schema named {name[:80]!r}; known: {', '.join(NAMES)}")


def render(schema: dict[str, Any]) -> str:
    """Stable text: two-space indent, key order as generated."""
    return json.dumps(schema, indent=2, ensure_ascii=True)


def schema_for(name: str) -> dict[str, Any]:
    """The JSON Schema of one name."""
    if name in SHIPPED:
        return shipped_schema(name)
    if name == REPORT_CHECK:
        report = shipped_schema(VERIFY_REPORT)
        return {"$schema": DIALECT, "$id": "urn:por:schema:report-check:1",
                "title": "a check in a --json report",
                "description": "How `por verify --json` writes a CheckResult (SPEC §4.6): "
                               "`id` for check_id, `status` ok/failed for ok.",
                **report["$defs"]["check"], "$defs": report["$defs"]}
    module, attr = MODELS[name]
    model = getattr(importlib.import_module(module), attr)
    schema: dict[str, Any] = model.model_json_schema(by_alias=True)
    _fix(schema, _record_titles())
    return {"$schema": DIALECT, **schema}


def verify_report_schema() -> dict[str, Any]:
    """The shipped schema of ``por verify --json`` (package data)."""
    return shipped_schema(VERIFY_REPORT)


def shipped_schema(name: str) -> dict[str, Any]:
    """A shipped schema of a ``--json`` document (package data, see :data:`SHIPPED`)."""
    from importlib.resources import files

    package, file = SHIPPED[name]
    text = files(package).joinpath(file).read_text(encoding="utf-8")
    value: dict[str, Any] = json.loads(text)
    return value


def _record_titles() -> frozenset[str]:
    # Records (models with a `schema` wire field) are the ones whose JSON form
    # must carry `schema`; nested plain models (SourceRef, ...) do not.
    from por.schemas.base import Record

    return frozenset(cls.__name__ for cls in _subclasses(Record))


def _subclasses(cls: type) -> list[type]:
    found: list[type] = []
    sub: type
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _fix(node: Any, records: frozenset[str]) -> None:
    """Rewrite pydantic's bytes schemas to the JSON form; require ``schema``."""
    if isinstance(node, list):
        for item in node:
            _fix(item, records)
        return
    if not isinstance(node, dict):
        return
    if node.get("type") == "string" and node.get("format") == "binary":
        if node.get("minLength") == 32 and node.get("maxLength") == 32:
            node.clear()
            node.update({"type": "string", "pattern": "^[0-9a-f]{64}$",
                         "description": "SHA-256 value, lower-case hex"})
        else:
            node.pop("format")
            limit = node.pop("maxLength", None)
            node.pop("minLength", None)
            node["contentEncoding"] = "base64"
            if isinstance(limit, int):
                node["maxLength"] = 4 * ((limit + 2) // 3)  # base64 length of `limit` bytes
    props = node.get("properties")
    if node.get("title") == "EvidenceItem" and isinstance(props, dict) and "content" in props:
        # The input form: UTF-8 ``content_text`` may replace base64 ``content`` (SPEC §4).
        props["content_text"] = {"type": "string", "title": "Content Text",
                                 "description": "the body as UTF-8 text, instead of content"}
        node["required"] = [key for key in node.get("required", []) if key != "content"]
        node["oneOf"] = [{"required": ["content"]}, {"required": ["content_text"]}]
    if node.get("title") in records and isinstance(props, dict) and "schema" in props:
        required = node.setdefault("required", [])
        if "schema" not in required:
            required.insert(0, "schema")
    for value in node.values():
        _fix(value, records)


__all__ = ["NAMES", "VERIFY_REPORT", "add_parser", "resolve", "run", "schema_for"]
