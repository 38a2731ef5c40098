"""Scenario fixtures: fictional markets with their evidence and expected verdict.

A scenario is a folder holding ``prompt_spec.json``, ``evidence.json`` and
``expected.json`` (format: ``fixtures/markets/README.md``).  They ship as
package data under ``por/_scenarios`` (pyproject force-includes
``fixtures/markets`` there); from a source checkout the loader falls back to
``<repo>/fixtures/markets``.

This is the only module of por's core that reads files, and it reads only
these bundled, read-only fixtures: never a user path, never the network.  Every
other core module takes bytes and values.  The JSON is parsed with
:func:`por.schemas.load_json` (numbers with a fraction become ``Decimal``,
never float) and validated strictly.
"""

from __future__ import annotations

import importlib.resources
import re
from importlib.resources.abc import Traversable
from pathlib import Path

from por.errors import PorError, SchemaError
from por.schemas import Bps, EvidenceBundle, Model, Outcome, PromptSpec, load_json
from por.schemas.verdict import RuleId

#: A scenario name: what ``list_scenarios`` returns; no path separators.
_NAME = re.compile(r"[0-9]{2}-[a-z0-9]+(?:-[a-z0-9]+)*")
FILES = ("prompt_spec.json", "evidence.json", "expected.json")


class ExpectedVerdict(Model):
    """What the pipeline must produce for a scenario (``expected.json``)."""

    outcome: Outcome
    resolution_rule_id: RuleId
    confidence_bps: Bps
    description: str


class Scenario(Model):
    """One scenario: its name, inputs and expected verdict."""

    name: str
    prompt_spec: PromptSpec
    evidence: EvidenceBundle
    expected: ExpectedVerdict


def _root() -> Traversable:
    packaged = importlib.resources.files("por") / "_scenarios"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "fixtures" / "markets"


def list_scenarios() -> list[str]:
    """Names of the bundled scenarios, sorted (``01-boolean-observed``, ...)."""
    root = _root()
    if not root.is_dir():
        return []
    return sorted(entry.name for entry in root.iterdir()
                  if entry.is_dir() and _NAME.fullmatch(entry.name)
                  and (entry / "prompt_spec.json").is_file())


def load_scenario(name: str) -> Scenario:
    """Load and validate one scenario; ``PorError('scenario.unknown')`` if absent."""
    if _NAME.fullmatch(name) is None or name not in list_scenarios():
        raise PorError("scenario.unknown", f"no bundled scenario named {name[:80]!r}")
    folder = _root() / name
    raw = {file: load_json(folder.joinpath(file).read_bytes()) for file in FILES}
    expected = raw["expected.json"]
    if not isinstance(expected, dict):
        raise SchemaError("schema.type", f"{name}/expected.json is not an object")
    try:
        expected_model = ExpectedVerdict.model_validate(expected, strict=True)
    except ValueError as exc:
        raise SchemaError("schema.value", f"{name}/expected.json: {exc}") from None
    return Scenario(
        name=name,
        prompt_spec=PromptSpec.from_json_obj(raw["prompt_spec.json"]),
        evidence=EvidenceBundle.from_json_obj(raw["evidence.json"]),
        expected=expected_model,
    )


__all__ = ["ExpectedVerdict", "Scenario", "list_scenarios", "load_scenario"]
