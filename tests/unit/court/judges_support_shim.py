"""A market judge's lock (por-vote-parser/1), to put in a court seat as a canary."""

from __future__ import annotations

from pathlib import Path

from por.cli.judge_run import resolve_config
from por.locked_judges.manifest import JudgeManifest

ROOT = Path(__file__).resolve().parents[3]


def market_lock() -> JudgeManifest:
    """fixtures/judges/smollm2-135m-v0.2.yaml needs the weights; the por-judge/1 lock does not."""
    return resolve_config(str(ROOT / "fixtures" / "judges" / "por-judge-1.yaml"))
