"""Judge configs, court files and answers for the provider stand-in tests."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: A secret no file, record or log may ever contain.
SECRET_OPENAI = "sk-test-OPENAI-must-never-be-written-0123456789"  # noqa: S105  # test-only
SECRET_ANTHROPIC = "sk-ant-test-ANTHROPIC-must-never-be-written-0123"  # noqa: S105
OPENAI_ENV = "POR_TEST_OPENAI_KEY"
ANTHROPIC_ENV = "POR_TEST_ANTHROPIC_KEY"
OPENAI_MODEL = "gpt-4o-2024-08-06"
ANTHROPIC_MODEL = "claude-sonnet-4-5-20250929"
COMPATIBLE_MODEL = "court-judge-2"

#: Each profile's sampler block (what its API honours; SPEC §15.4).
PARAMETERS: dict[str, dict[str, Any]] = {
    "openai-chat": {"temperature": 0, "top_p": 1, "seed": 0, "max_tokens": 256},
    "anthropic-messages": {"temperature": 0, "max_tokens": 256},
    "openai-compatible": {"temperature": 0, "top_k": 0, "top_p": 1, "min_p": 0,
                          "repeat_penalty": 1, "seed": 0, "max_tokens": 256},
}
ROUTES = {"openai-chat": ("openai", OPENAI_MODEL), "anthropic-messages":
          ("anthropic", ANTHROPIC_MODEL), "openai-compatible": ("vllm", COMPATIBLE_MODEL)}


def judge_config(folder: Path, name: str, profile: str, *, court: bool,
                 parameters: dict[str, Any] | None = None, retry_on: list[str] | None = None,
                 mode: str = "strict") -> Path:
    """Write a hosted judge config on ``profile`` (its prompts copied beside it)."""
    prompts = ROOT / "fixtures" / ("court" if court else "judges") / "prompts"
    shutil.copytree(prompts, folder / "prompts", dirs_exist_ok=True)
    provider, model = ROUTES[profile]
    retry = retry_on if retry_on is not None else ["rate_limit", "server_error", "timeout"]
    config = {
        "judge_version": "1.0", "judge_id": name,
        "model_lock": {"kind": "hosted", "provider": provider, "model": f"{provider}/{model}",
                       "version_lock": model, "fallback": None, "profile": profile},
        "parameters": {**(parameters or PARAMETERS[profile]), "timeout_seconds": 5},
        "system_prompt": {"file": "prompts/system.md"},
        "template": {"file": "prompts/template-v2.md" if court else "prompts/template.md"},
        "output": {"parser": "por-court-parser/1" if court else "por-vote-parser/1"},
        "fail_closed": True, "fail_closed_mode": mode,
        "retry_policy": {"max_retries": 2, "backoff": "exponential", "base_ms": 0,
                         "retry_on": sorted(retry),
                         "fail_on": sorted({"auth", "invalid_response", "lock_violation",
                                            "model_unavailable", "rate_limit", "server_error",
                                            "timeout"} - set(retry))},
        "determinism": "none", "compatible_spec_versions": ["1.0"],
    }
    path = folder / f"{name}.json"
    path.write_text(json.dumps(config))
    return path


def court_answer(model: str) -> str:
    """A court judge's answer (each model its own worker_pct)."""
    pct = {OPENAI_MODEL: 70, ANTHROPIC_MODEL: 65, COMPATIBLE_MODEL: 80}[model]
    return json.dumps({"worker_pct": pct, "reasoning": f"{model} weighed the claim"})


def market_answer(model: str) -> str:
    """A market judge's answer."""
    del model
    return '{"outcome": "YES", "confidence": 80}'


def files_holding(folder: Path, needles: list[str]) -> list[str]:
    """Every file under ``folder`` whose bytes contain one of ``needles``."""
    found = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if any(n.encode() in data for n in needles):
                found.append(str(path))
    return found


__all__ = ["ANTHROPIC_ENV", "ANTHROPIC_MODEL", "COMPATIBLE_MODEL", "OPENAI_ENV", "OPENAI_MODEL",
           "PARAMETERS", "SECRET_ANTHROPIC", "SECRET_OPENAI", "court_answer", "files_holding",
           "judge_config", "market_answer"]
