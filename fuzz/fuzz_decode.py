"""Fuzz the strict por-cbor/1 decoder (SPEC §2): only ``EncodingError``, and
every accepted input re-encodes to exactly itself.

Run: python fuzz/fuzz_decode.py [CORPUS_DIR ...] [libFuzzer flags]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fuzzlib


def check(data: bytes) -> None:
    from por.encoding import decode, encode
    from por.errors import EncodingError

    try:
        value = decode(data, max_size=1 << 20)
    except EncodingError:
        return
    assert encode(value) == data, "decode accepted a non-canonical encoding"


def main() -> None:
    import atheris

    with atheris.instrument_imports(include=["por"]):
        import por.encoding  # noqa: F401
    fuzzlib.run_atheris(check)


if __name__ == "__main__":
    main()
