"""Builders for the locked-judge tests: the fixture generator's pieces, plus a sleep double."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
JUDGES = ROOT / "fixtures" / "judges"
CANARIES_DIR = JUDGES / "invalid"

_spec = importlib.util.spec_from_file_location("gen_judgements", JUDGES / "generate.py")
assert _spec is not None and _spec.loader is not None
GENERATOR = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(GENERATOR)

SMOLLM2_SHA256 = GENERATOR.SMOLLM2_SHA256
SMOLLM2_SIZE = GENERATOR.SMOLLM2_SIZE
WireDouble = GENERATOR.WireDouble
completion = GENERATOR.completion
config = GENERATOR.config
deterministic_manifest = GENERATOR.deterministic_manifest
llm_manifest = GENERATOR.llm_manifest
prompt_files = GENERATOR.prompt_files
recommit = GENERATOR.recommit
sha = GENERATOR.sha
vote_body = GENERATOR.vote_body
wire_body = GENERATOR.wire_body
lock_from_config_for = GENERATOR.lock_from_config

_SUBJECTS: dict[int, list[object]] = {}


def subjects(count: int = 15) -> list:  # type: ignore[type-arg]
    """Subjects of the first ``count`` example markets (cached: building is the slow part)."""
    if count not in _SUBJECTS:
        _SUBJECTS[count] = GENERATOR.subjects(count)
    return list(_SUBJECTS[count])


class Sleeps:
    """An injected sleep that records the backoff delays instead of sleeping."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def run(manifest, subs, transport, *, max_parallel=1, sleep=None):  # type: ignore[no-untyped-def]
    return GENERATOR.run(manifest, subs, transport, max_parallel=max_parallel,
                         sleep=sleep or Sleeps())
