"""Random patterns for the cross-language regex checks (tests/xregex): pieces of
SPEC §12.1.2's grammar and of what it refuses, joined at random, measured by the
Python auditor into a vectors file that each other language must reproduce."""

from __future__ import annotations

import json
import random
from pathlib import Path

import re2  # type: ignore[import-untyped]
from vector_generators import load_generator

from por.auditor.regex_plan import regex_plan

PIECES = ["a", "b", "é", ".", "(", ")", "(?:", "(?i)", "|", "*", "+", "?", "{2}", "{1,3}",
          "{0,}", "{,2}", "{01}", "[a-z]", "[^a]", "[ab]", "[\\d.]", "[a-]", "[]", "\\d", "\\W",
          "\\.", "\\C", "\\Q", "\\pL", "\\<", "\\_", "\\\"", "\\n", "^", "$", "]", "{", "}", "\\"]


#: Atoms, quantifiers and text characters of the random match vectors: the classes
#: whose meaning differs between engines' defaults, and every quantifier form.
ATOMS = ["a", "b", "é", ".", "\\d", "\\D", "\\s", "\\S", "\\w", "\\W", "[ab]", "[^a]",
         "[a-c\\n]", "[\\s\\d]", "\\n", "\\.", "\\_", "\\v", "[^\\w]", "[\\^a]"]
QUANTIFIERS = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{2}", "{0,2}", "{1,}", "{1,2}?"]
TEXT = ["a", "b", "c", "é", "1", "\u0663", " ", "\n", "\u000b", "\u00a0", "_", ".", "^", "x"]


def _random_regex(rng: random.Random, depth: int = 0) -> str:
    out = []
    for _ in range(rng.randrange(0, 4)):
        if rng.random() < 0.08:
            out.append(rng.choice("^$"))
            continue
        atom = (rng.choice(["(", "(?:"]) + _random_regex(rng, depth + 1) + ")"
                if depth < 3 and rng.random() < 0.25 else rng.choice(ATOMS))
        out.append(atom + rng.choice(QUANTIFIERS))
    text = "".join(out)
    if depth < 3 and rng.random() < 0.3:
        text += "|" + _random_regex(rng, depth + 1)
    return text


def random_matches(count: int, seed: int) -> list[dict[str, object]]:
    """``count`` admitted random patterns, each on a random text, with RE2's groups of
    the leftmost-first match (regex.json's ``matches`` layout)."""
    rng = random.Random(seed)  # noqa: S311 - reproducible patterns, not a secret
    out: list[dict[str, object]] = []
    while len(out) < count:
        pattern = "(" + _random_regex(rng) + ")"
        if isinstance(regex_plan((pattern,))[0], str):
            continue
        text = "".join(rng.choice(TEXT) for _ in range(rng.randrange(0, 10)))
        match = re2.search(pattern, text)
        out.append({"pattern": pattern, "text": text,
                    "groups": None if match is None else list(match.groups())})
    return out


def write_random_vectors(path: Path, count: int = 600, seed: int = 12, matches: int = 0) -> Path:
    """``count`` random patterns (reproducible from ``seed``) with the Python measure and
    plan of each, and ``matches`` random match vectors, in regex.json's layout."""
    gen = load_generator("gen_regex")
    rng = random.Random(seed)  # noqa: S311 - reproducible patterns, not a secret
    patterns = ["(" + "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 9))) + ")"
                for _ in range(count)]
    path.write_text(json.dumps({"patterns": [gen._measured(p) for p in patterns],
                                "requirements": [], "matches": random_matches(matches, seed)}),
                    encoding="utf-8")
    return path


def closing_counts(stdout: str) -> tuple[int, int]:
    """(passed, failed) from a checker's closing ``N passed, N failed`` line."""
    lines = stdout.strip().splitlines()
    words = lines[-1].split() if lines else []
    if len(words) != 4 or words[1] != "passed," or words[3] != "failed":
        raise AssertionError(f"no closing line: {stdout[-2000:]!r}")
    return int(words[0]), int(words[2])
