"""Random patterns for the cross-language regex checks (tests/xregex): pieces of
SPEC §12.1.2's grammar and of what it refuses, joined at random, measured by the
Python auditor into a vectors file that each other language must reproduce."""

from __future__ import annotations

import json
import random
from pathlib import Path

from vector_generators import load_generator

PIECES = ["a", "b", "é", ".", "(", ")", "(?:", "(?i)", "|", "*", "+", "?", "{2}", "{1,3}",
          "{0,}", "{,2}", "{01}", "[a-z]", "[^a]", "[ab]", "[\\d.]", "[a-]", "[]", "\\d", "\\W",
          "\\.", "\\C", "\\Q", "\\pL", "\\<", "\\_", "\\\"", "\\n", "^", "$", "]", "{", "}", "\\"]


def write_random_vectors(path: Path, count: int = 600, seed: int = 12) -> Path:
    """``count`` random patterns (reproducible from ``seed``) with the Python measure and
    plan of each, in regex.json's layout, written to ``path``."""
    gen = load_generator("gen_regex")
    rng = random.Random(seed)  # noqa: S311 - reproducible patterns, not a secret
    patterns = ["(" + "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 9))) + ")"
                for _ in range(count)]
    path.write_text(json.dumps({"patterns": [gen._measured(p) for p in patterns],
                                "requirements": []}), encoding="utf-8")
    return path


def closing_counts(stdout: str) -> tuple[int, int]:
    """(passed, failed) from a checker's closing ``N passed, N failed`` line."""
    lines = stdout.strip().splitlines()
    words = lines[-1].split() if lines else []
    if len(words) != 4 or words[1] != "passed," or words[3] != "failed":
        raise AssertionError(f"no closing line: {stdout[-2000:]!r}")
    return int(words[0]), int(words[2])
