"""A scratch harness that reaches a library's private function (s38 review tests).

:func:`patched` copies the committed ``contracts/src`` files to a temporary directory,
applies ``patches`` (per file, (old, new) text replacements, each old text exactly once:
a ``private`` function made ``internal``), and deploys the harness contract ``code``
(which imports them as usual) with :func:`scratch_harness.deploy` reading that directory:
the pinned solc-js, the build's optimizer settings, a fresh revm. Only visibility is
patched, so the code under test is the committed code, and a scratch edit of
``contracts/src`` (a cut broken on purpose) reaches it. Tests using it need
``scratch_harness.SOLC`` (the ``contracts-npm`` gate).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

import scratch_harness

IMPORT = re.compile(r'^import \{[^}]*\} from "\./([A-Za-z0-9]+\.sol)";$', re.M)
Patches = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def _closure(src: Path, code: str) -> tuple[str, ...]:
    """Every file ``code`` imports from ``src``, transitively."""
    seen: set[str] = set()
    todo = IMPORT.findall(code)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += IMPORT.findall((src / name).read_text(encoding="utf-8"))
    return tuple(sorted(seen))


@cache
def patched(name: str, code: str, patches: Patches) -> tuple[Any, str]:
    """(revm, address) of harness contract ``name`` (source ``code``) over the committed
    sources with ``patches`` applied (once a process)."""
    src = Path(tempfile.mkdtemp(prefix="por-s38-"))
    try:
        for path in scratch_harness.SRC.glob("*.sol"):
            shutil.copy(path, src / path.name)
        for file, edits in patches:
            text = (src / file).read_text(encoding="utf-8")
            for old, new in edits:
                assert text.count(old) == 1, (file, old)
                text = text.replace(old, new)
            (src / file).write_text(text, encoding="utf-8")
        committed, scratch_harness.SRC = scratch_harness.SRC, src
        try:
            return scratch_harness.deploy(name, code, _closure(src, code))
        finally:
            scratch_harness.SRC = committed
    finally:
        shutil.rmtree(src)
