"""A scratch harness that reaches a library's private function (s38 review tests).

:func:`embedded` writes the committed ``contracts/src`` files named in ``patches`` into
the harness's own source, each with its replacements applied (a ``private`` function
made ``internal``; each old text must occur exactly once), the harness contract after
them, and deploys it with :func:`scratch_harness.deploy` (the pinned solc-js, the build's
optimizer settings, a fresh revm). The other files the embedded ones import are passed
as they are committed. Only visibility is patched: the code under test is the committed
code, so a scratch edit of ``contracts/src`` (a cut broken on purpose) reaches it.
Tests using it need ``scratch_harness.SOLC`` (the ``contracts-npm`` gate).
"""

from __future__ import annotations

import re
from typing import Any

from scratch_harness import SRC, deploy

IMPORT = re.compile(r'^import \{[^}]*\} from "\./([A-Za-z0-9]+\.sol)";$', re.M)


def _closure(names: list[str], embedded: set[str]) -> tuple[str, ...]:
    """Every file the files ``names`` import, transitively, less the ``embedded`` ones."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        text = (SRC / todo.pop()).read_text(encoding="utf-8")
        for dep in IMPORT.findall(text):
            assert dep not in embedded, f"{dep} is embedded and imported by a committed file"
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return tuple(sorted(seen))


def source(patches: dict[str, tuple[tuple[str, str], ...]], contract: str) -> tuple[str, tuple[str, ...]]:
    """(the harness source, the committed files it imports)."""
    parts = ["// SPDX-License-Identifier: Apache-2.0"]
    for name, edits in patches.items():
        text = (SRC / name).read_text(encoding="utf-8")
        for old, new in edits:
            assert text.count(old) == 1, (name, old)
            text = text.replace(old, new)
        parts.append("\n".join(x for x in text.splitlines() if not x.startswith("// SPDX")))
    parts.append(contract)
    return "\n".join(parts), _closure(list(patches), set(patches))


def embedded(name: str, patches: dict[str, tuple[tuple[str, str], ...]], contract: str) -> tuple[Any, str]:
    """(revm, address) of harness contract ``name`` (``contract``: its text, which may
    import any committed file) after the patched files ``patches``."""
    code, files = source(patches, contract)
    files = tuple(sorted(set(files) | set(IMPORT.findall(contract)) - set(patches)))
    return deploy(name, code, files)
