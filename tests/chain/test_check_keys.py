"""The packed key lists the check chunk's executor walks maps with (SPEC §14.8,
``contracts/src/PorCheckKeys.sol``): ``PorCheckKeys.find`` merges a map's entries with
its list and stops after the list's last key, so a list out of §2 order (SPEC §2 rule
2: the bytewise order of the keys' encodings) would silently miss a key, and a key of
24 bytes or more would not have the one-byte head the walk assumes. Every ``bytes``
constant of ``PorCheck*.sol`` passed to ``find``/``findAfter`` is checked here, read
from the source, with por's own encoder giving the encodings.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from por.encoding import encode

SOURCES = sorted((Path(__file__).resolve().parents[2] / "contracts" / "src").glob("PorCheck*.sol"))
CONSTANT = re.compile(r"bytes (?:internal|private) constant (\w+) =\s*((?:\"[^\"]*\"\s*)+);")
FOUND = re.compile(r"PorCheckKeys\.find(?:After)?\([^;]*?\b(?:PorCheckState\.)?([A-Z_]+)\b, \w+\)")


def packed_lists() -> dict[str, bytes]:
    """Every constant passed to ``find``/``findAfter``, its Solidity escapes decoded."""
    constants: dict[str, bytes] = {}
    used: set[str] = set()
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        for name, literal in CONSTANT.findall(text):
            body = "".join(re.findall(r"\"([^\"]*)\"", literal))
            constants[name] = re.sub(
                r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m[1], 16)), body
            ).encode("latin-1")
        used.update(FOUND.findall(text))
    assert used, "no PorCheckKeys.find call found"
    return {name: constants[name] for name in sorted(used)}


def unpack(packed: bytes) -> list[str]:
    keys, i = [], 0
    while i < len(packed):
        n = packed[i]
        keys.append(packed[i + 1 : i + 1 + n].decode("utf-8"))
        i += 1 + n
    assert i == len(packed), packed
    return keys


@pytest.mark.parametrize("name", sorted(packed_lists()))
def test_key_list_sorted_and_short(name: str) -> None:
    keys = unpack(packed_lists()[name])
    assert keys, name
    assert all(0 < len(k.encode()) <= 23 for k in keys), (name, keys)
    encodings = [encode(k) for k in keys]
    assert encodings == sorted(set(encodings)), (name, keys)


def test_every_find_list_is_checked() -> None:
    """The lists the walks use include the state's and the claim's (the regex finds them)."""
    assert {"STATE_KEYS", "CLAIM_KEYS", "SPEC_KEYS", "OUT_IDS"} <= set(packed_lists())
