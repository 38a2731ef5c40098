"""Builders for the court tests: the fixture generator's pieces (fixtures/court/generate.py:
a case, the fixture locks, a scripted wire double, a court run, re-commitment)."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

from por.locked_judges.manifest import JudgeManifest

ROOT = Path(__file__).resolve().parents[3]
COURT = ROOT / "fixtures" / "court"

_spec = importlib.util.spec_from_file_location("gen_court", COURT / "generate.py")
assert _spec is not None and _spec.loader is not None
GENERATOR = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GENERATOR)

AT = GENERATOR.AT
CLAIM = GENERATOR.CLAIM
REBUTTAL = GENERATOR.REBUTTAL
Wire = GENERATOR.Wire
case = GENERATOR.case
completion = GENERATOR.completion
pcts = GENERATOR.pcts
recommit = GENERATOR.recommit
run_court = GENERATOR.run_court
vote = GENERATOR.vote
wire_body = GENERATOR.wire_body
bundle_bytes = cache(GENERATOR.bundle_bytes)


@cache
def locks() -> tuple[JudgeManifest, ...]:
    """The seven hosted court judges of fixtures/court/court.yaml."""
    return tuple(GENERATOR.court()[1])


__all__ = ["AT", "CLAIM", "COURT", "GENERATOR", "REBUTTAL", "ROOT", "Wire", "bundle_bytes",
           "case", "completion", "locks", "pcts", "recommit", "run_court", "vote", "wire_body"]
