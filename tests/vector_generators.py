"""Load a vector generator script of fixtures/vectors/ as a module (its tests
regenerate the committed file and compare)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

VECTORS = Path(__file__).resolve().parents[1] / "fixtures" / "vectors"


def load_generator(name: str) -> ModuleType:
    """``fixtures/vectors/<name>.py``, imported fresh."""
    spec = importlib.util.spec_from_file_location(name, VECTORS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
