"""Helpers for the signing command tests: keys made by ``por keygen``, signed
bundles made by ``por build --key``, and signature records altered in place.

Every key here is generated into the test's ``tmp_path`` by the CLI itself;
the committed test-only keys are used only by the fixture generator.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from por.cli import main

MARKETS = Path(__file__).resolve().parents[2] / "fixtures" / "markets"
#: A fixed issued_at (2026-01-01T00:00:00Z) for tests that must not read the clock.
T0 = 1_767_225_600
#: The CLI's default validity period (7 days).
WEEK = 7 * 24 * 60 * 60


def keygen(directory: Path, name: str, scheme: str) -> tuple[str, str]:
    """``por keygen --scheme SCHEME -o DIR/NAME``; returns (KEY, KEY.pub) as text."""
    path = directory / name
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert main(["keygen", "--scheme", scheme, "-o", str(path)]) == 0
    assert printed.getvalue().startswith(f"wrote {path} ")
    return str(path), str(path) + ".pub"


def build_argv(scenario: str, out: Path | str, *extra: str) -> list[str]:
    """``por build`` for a bundled scenario, writing ``out``."""
    folder = MARKETS / scenario
    return ["build", "--prompt-spec", str(folder / "prompt_spec.json"),
            "--evidence", str(folder / "evidence.json"), "-o", str(out), *extra]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``main(argv)`` and what it printed: (exit code, stdout, stderr)."""
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def failed_ids(document: dict[str, Any]) -> list[str]:
    """Ids of the failed checks of the one result of a ``verify --json`` document."""
    [result] = document["results"]
    return [c["id"] for c in result["checks"] if c["status"] == "failed"]


def verify_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    """``por verify --json ...``: exit code and the one document, schema-checked."""
    from importlib.resources import files

    from mini_jsonschema import errors

    code = main(["verify", "--json", *argv])
    document = json.loads(capsys.readouterr().out)
    schema = json.loads(files("por.cli").joinpath("verify_report.schema.json")
                        .read_text(encoding="utf-8"))
    assert errors(document, schema) == []
    return code, document


def with_signature_fields(data: bytes, index: int = 0, **changes: Any) -> bytes:
    """The bundle with signature record ``index`` re-encoded with fields changed
    (raw map, no model validation).  Signatures are outside por_root."""
    from por.bundle import Bundle
    from por.encoding import decode, encode

    bundle = Bundle.from_cbor(data)
    sigs = list(bundle.signatures)
    record = decode(sigs[index])
    record.update(changes)
    sigs[index] = encode(record)
    return bundle.model_copy(update={"signatures": sigs}).to_cbor()


def signature_record(data: bytes, index: int = 0) -> Any:
    """The decoded ``VerdictSignature`` ``index`` of a bundle."""
    from por.bundle import Bundle
    from por.signing import VerdictSignature

    return VerdictSignature.from_cbor(Bundle.from_cbor(data).signatures[index])


def struct_of(data: bytes, index: int = 0) -> Any:
    """The ``VerdictStruct`` signature ``index`` signs, rebuilt from the bundle."""
    from por.bundle import Bundle, verdict_struct
    from por.schemas import DeterministicVerdict

    bundle = Bundle.from_cbor(data)
    record = signature_record(data, index)
    return verdict_struct(DeterministicVerdict.from_cbor(bundle.verdict), bundle.commitments,
                          issued_at=record.issued_at, expires_at=record.expires_at,
                          nonce=record.nonce)
