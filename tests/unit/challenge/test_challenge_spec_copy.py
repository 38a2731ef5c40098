"""docs/spec-challenges.md is SPEC.md §10 word for word under its own title line.

The copy had drifted from SPEC (the chunked omission rule and rule S5 were missing),
so it is now checked; ``python tests/unit/challenge/test_challenge_spec_copy.py
--write`` rewrites it from SPEC.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "spec-challenges.md"
TITLE = "# SPEC §10 Challenges (a copy of SPEC.md §10; SPEC.md is normative)\n"


def expected() -> str:
    """The title line, then SPEC.md §10 without its own heading line."""
    spec = (ROOT / "SPEC.md").read_text(encoding="utf-8")
    start = spec.index("\n## 10. Challenges\n") + 1
    end = spec.index("\n## 11. ", start) + 1
    body = spec[start:end].split("\n", 1)[1]
    return TITLE + body


def test_the_copy_is_spec_section_10() -> None:
    assert DOC.read_text(encoding="utf-8") == expected(), (
        "docs/spec-challenges.md differs from SPEC.md §10: run "
        "python tests/unit/challenge/test_challenge_spec_copy.py --write")


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DOC.write_text(expected(), encoding="utf-8")
