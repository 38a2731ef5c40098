"""Every committed fixture, vector and contract artifact has the digest that
fixtures/DIGESTS.sha256 lists (issue 21: a redesign with no change of bytes).

The generators' own tests prove that each file is what its generator makes
today; this test proves that what they make has not changed, so a refactor
that changes a committed byte fails here even when it changes the generator
too.  A deliberate change regenerates the list:
``python tests/vectors/test_fixture_digests.py`` (and says why in CHANGELOG).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "fixtures" / "DIGESTS.sha256"
TREES = ("fixtures", "contracts/build")
HEADER = (
    "# SHA-256 of every committed fixture, vector and contract artifact (sha256sum format).\n"
    "# tests/vectors/test_fixture_digests.py holds the tree to it: a change of committed\n"
    "# bytes must be deliberate (regenerate: python tests/vectors/test_fixture_digests.py).\n"
)


def committed_files() -> list[str]:
    """Data files of the trees (not code, not prose, not the list itself), sorted."""
    names = []
    for tree in TREES:
        for path in (ROOT / tree).rglob("*"):
            if (path.is_file() and path.suffix not in {".py", ".md", ".pyc"}
                    and path != LIST and "__pycache__" not in path.parts):
                names.append(path.relative_to(ROOT).as_posix())
    return sorted(names)


def listing() -> str:
    lines = [f"{hashlib.sha256((ROOT / name).read_bytes()).hexdigest()}  {name}\n"
             for name in committed_files()]
    return HEADER + "".join(lines)


def test_committed_bytes_are_the_listed_ones() -> None:
    want = [line for line in LIST.read_text().splitlines() if not line.startswith("#")]
    got = [line for line in listing().splitlines() if not line.startswith("#")]
    changed = sorted(set(want) ^ set(got))
    assert not changed, f"{len(changed)} listed/actual lines differ, first: {changed[:4]}"
    assert len(got) > 100  # the list covers the trees, not an empty glob


if __name__ == "__main__":
    LIST.write_text(listing())
    sys.stdout.write(f"wrote {LIST.relative_to(ROOT)}\n")
