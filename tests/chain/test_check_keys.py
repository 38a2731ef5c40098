"""The packed key lists the check chunk's executor walks maps with (SPEC §14.8,
``contracts/src/PorCheckKeys.sol``): ``PorCheckKeys.find`` merges a map's entries with
its list and stops after the list's last key, so a list out of §2 order (SPEC §2 rule
2: the bytewise order of the keys' encodings) would silently miss a key, and a key of
24 bytes or more would not have the one-byte head the walk assumes. Every ``bytes``
constant of ``PorCheck*.sol`` and ``PorContradictions*.sol`` passed to ``find``,
``findAfter``, ``findFrom``, ``findAll`` (or ``PorContradictionsState.three``) is checked
here, read from the source, with por's own encoder giving the encodings. A list may end
with ``PorCheckKeys.ALL`` (23 bytes 0xff, sorting after every such key), and a list
passed to ``findAll`` must (it walks the whole map to tell its end). The key encodings
``PorContradictionsMaps`` compares a fixed-key map's entries with (``uint256`` constants)
are each the encoding of the word they are named for, and each of its fixed key sets is
in §2 order.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from por.encoding import encode

SRC = Path(__file__).resolve().parents[2] / "contracts" / "src"
SOURCES = sorted([*SRC.glob("PorCheck*.sol"), *SRC.glob("PorContradictions*.sol")])
CONSTANT = re.compile(r"bytes (?:internal|private) constant (\w+) =\s*((?:\"[^\"]*\"\s*)+);")
FOUND = re.compile(
    r"(?:PorCheckKeys\.find(After|All|From)?|\bthree)\("
    r"[^;]*?\b((?:PorCheckState\.)?[A-Z_]+)\b, \w+\)"
)
#: PorCheckKeys.ALL.
ALL = b"\x17" + b"\xff" * 23


def _constants(text: str) -> dict[str, bytes]:
    out = {}
    for name, literal in CONSTANT.findall(text):
        body = "".join(re.findall(r"\"([^\"]*)\"", literal))
        out[name] = re.sub(r"\\x([0-9a-fA-F]{2})", lambda m: chr(int(m[1], 16)), body).encode(
            "latin-1"
        )
    return out


def packed_lists() -> dict[str, bytes]:
    """Every constant passed to a walk, as ``File.NAME`` (``+all`` when ``findAll``
    walks it), its Solidity escapes decoded."""
    files = {source.stem: source.read_text(encoding="utf-8") for source in SOURCES}
    constants = {stem: _constants(text) for stem, text in files.items()}
    used: dict[str, bytes] = {}
    for stem, text in files.items():
        for walk, name in FOUND.findall(text):
            owner, _, bare = name.rpartition(".")
            packed = constants[owner or stem][bare]
            used[f"{owner or stem}.{bare}{'+all' if walk == 'All' else ''}"] = packed
    assert used, "no PorCheckKeys.find call found"
    return dict(sorted(used.items()))


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
    packed = packed_lists()[name]
    if name.endswith("+all"):
        assert packed.endswith(ALL), name
    if packed.endswith(ALL):
        packed = packed[: -len(ALL)]
    keys = unpack(packed)
    assert keys, name
    assert all(0 < len(k.encode()) <= 23 for k in keys), (name, keys)
    encodings = [encode(k) for k in keys]
    assert encodings == sorted(set(encodings)), (name, keys)


def test_every_find_list_is_checked() -> None:
    """The lists the walks use include the state's and the claim's (the regex finds them)."""
    assert {
        "PorCheckState.STATE_KEYS",
        "PorCheckClaim.CLAIM_KEYS",
        "PorCheckSpec.MARKET_KEYS+all",
        "PorCheckSpec.ENTRY_HEAD",
        "PorCheckSpec.ENTRY_TAIL",
        "PorCheckSpec.TAIL_KEYS",
        "PorCheckStep.OUT_IDS",
        "PorContradictionsState.HEAD_KEYS",
        "PorContradictionsState.TAIL_KEYS",
        "PorContradictionsStep.TOP_KEYS",
    } <= set(packed_lists())


MAPS = SRC / "PorContradictionsMaps.sol"
WORD = re.compile(r"uint256 private constant (\w+) = 0x([0-9a-f]+);")
#: ``PorContradictionsMaps``'s fixed key sets, in the order its readers compare them.
FIXED_SETS = (
    ("VALUE", "CLAIM_ID", "EVIDENCE_ID"),
    ("STEP_ID", "SOURCE_ID", "EVIDENCE_ID"),
    ("KEY", "MAX", "MIN", "KIND", "CLAIM_COUNT"),
    ("KEY", "KIND", "FIRST", "OTHER", "CLAIM_COUNT"),
)


def test_fixed_map_encodings() -> None:
    words = {name: bytes.fromhex(hexed) for name, hexed in WORD.findall(MAPS.read_text())}
    assert len(words) == 14, words
    for name, enc in words.items():
        assert enc == encode(name.lower()), (name, enc)
    for keys in FIXED_SETS:
        encodings = [words[k] for k in keys]
        assert encodings == sorted(encodings), keys
