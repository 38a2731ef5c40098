"""Known answers for por.encoding from fixtures/vectors/encoding.json.

One parametrized case per vector id.  Valid vectors (RFC 8949 Appendix A
examples inside the profile, width boundaries, key order, BAD_INPUTS group 23
positive controls): ``encode(value)`` gives exactly the hex and ``decode(hex)``
gives back the value with the same types and key order.  Invalid vectors
(BAD_INPUTS groups 1-16, RFC 8949 Appendix A outside the profile, Appendix F.1
not-well-formed inputs): ``decode`` raises ``EncodingError`` with exactly the
vector's check id.  The committed JSON must equal the generator's output.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from por.encoding import decode, encode
from por.errors import EncodingError

VECTOR_DIR = Path(__file__).parents[2] / "fixtures" / "vectors"
VECTORS: dict[str, Any] = json.loads((VECTOR_DIR / "encoding.json").read_text(encoding="utf-8"))
VALID: list[dict[str, Any]] = VECTORS["valid"]
INVALID: list[dict[str, Any]] = VECTORS["invalid"]
CHECK_IDS = {
    "codec.empty", "codec.truncated", "codec.trailing_bytes", "codec.reserved",
    "codec.indefinite", "codec.non_canonical", "codec.key_order", "codec.duplicate_key",
    "codec.key_type", "codec.float", "codec.simple", "codec.tag", "codec.invalid_utf8",
    "codec.depth", "codec.too_large",
}  # fmt: skip


def _generator() -> ModuleType:
    name = "por_fixture_gen_encoding"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, VECTOR_DIR / "gen_encoding.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def typed(value: Any) -> Any:
    """A comparable form that keeps types (True != 1) and dict key order."""
    if isinstance(value, dict):
        return ("map", [(k, typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", [typed(v) for v in value])
    return (type(value).__name__, value)


def test_committed_json_matches_generator() -> None:
    committed = (VECTOR_DIR / "encoding.json").read_text(encoding="utf-8")
    assert committed == _generator().render(), "run: python fixtures/vectors/gen_encoding.py"


def test_vector_file_header() -> None:
    assert VECTORS["format"] == "por-cbor-vectors/1"
    assert set(VECTORS["sources"]) == {"rfc8949-a", "rfc8949-f1", "bad-inputs", "por"}
    groups = {v["group"] for v in INVALID}
    assert groups == set(range(1, 17)), "BAD_INPUTS groups 1-16 all covered"
    assert {v["check_id"] for v in INVALID} == CHECK_IDS
    assert sum(v["source"] == "rfc8949-a" for v in VALID) == 35


@pytest.mark.parametrize("vector", VALID, ids=[v["id"] for v in VALID])
def test_valid_vector(vector: dict[str, Any]) -> None:
    value = _generator().from_json(vector["value"])
    data = bytes.fromhex(vector["hex"])
    assert encode(value).hex() == vector["hex"]
    decoded = decode(data)
    assert typed(decoded) == typed(value)
    assert encode(decoded) == data


@pytest.mark.parametrize("vector", INVALID, ids=[v["id"] for v in INVALID])
def test_invalid_vector(vector: dict[str, Any]) -> None:
    with pytest.raises(EncodingError) as info:
        decode(bytes.fromhex(vector["hex"]), **vector.get("options", {}))
    assert info.value.check_id == vector["check_id"]


def test_nfc_and_nfd_both_accepted_and_hash_differently() -> None:
    # BAD_INPUTS group 23: text is opaque, never normalised (SPEC §2).
    by_id = {v["id"]: bytes.fromhex(v["hex"]) for v in VALID}
    nfc, nfd = by_id["text-nfc-e-acute"], by_id["text-nfd-e-acute"]
    assert decode(nfc) == "caf\u00e9"
    assert decode(nfd) == "cafe\u0301"
    assert hashlib.sha256(nfc).digest() != hashlib.sha256(nfd).digest()


def test_key_order_vector_puts_shorter_key_first() -> None:
    # "b" (61 62) sorts before "aa" (62 61 61): bytewise order of encoded keys.
    by_id = {v["id"]: v for v in VALID}
    assert by_id["key-order-shorter-first"]["hex"] == "a261620262616101"
    assert list(decode(bytes.fromhex("a261620262616101"))) == ["b", "aa"]
