"""Load a Python file that is not on ``sys.path`` (a generator, a bench, a factory
module of another test folder) as a module, for tests (importable from every test
folder: ``tests/`` is on ``sys.path`` through its conftest)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType


def load_file(name: str, path: Path | str) -> ModuleType:
    """The module ``name`` executed from ``path``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
