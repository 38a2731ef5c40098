"""``por schema``: list, print, write; JSON-form corrections of the model schemas."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mini_jsonschema import errors

from por.cli import main
from por.cli.schema import NAMES, schema_for


def _print(capsys: pytest.CaptureFixture[str], name: str) -> dict[str, Any]:
    assert main(["schema", name]) == 0
    value: dict[str, Any] = json.loads(capsys.readouterr().out)
    return value


def test_lists_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed == list(NAMES)
    for name in ("PromptSpec", "EvidenceItem", "EvidenceBundle", "ReasoningStep",
                 "TraceHeader", "ReasoningTrace", "DeterministicVerdict", "Bundle",
                 "Manifest", "verify-report"):
        assert name in listed


def test_prints_one_case_insensitively(capsys: pytest.CaptureFixture[str]) -> None:
    schema = _print(capsys, "deterministicverdict")
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "DeterministicVerdict"
    assert schema["additionalProperties"] is False


def test_unknown_name_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "Nope"]) == 2
    assert capsys.readouterr().err.startswith("por: usage.unknown_schema: no schema named")


def test_hashes_are_hex_and_bytes_base64(capsys: pytest.CaptureFixture[str]) -> None:
    verdict = _print(capsys, "DeterministicVerdict")
    assert verdict["properties"]["evidence_root"] == {
        "type": "string", "pattern": "^[0-9a-f]{64}$",
        "description": "SHA-256 value, lower-case hex"}
    item = _print(capsys, "EvidenceItem")
    content = item["properties"]["content"]
    assert content["contentEncoding"] == "base64"
    assert "format" not in content
    assert content["maxLength"] == 4 * (4 * 1024 * 1024 // 3 + 1)


def test_records_require_their_schema_field() -> None:
    bundle = schema_for("EvidenceBundle")
    assert bundle["required"][0] == "schema"
    assert bundle["$defs"]["EvidenceItem"]["required"][0] == "schema"
    # Plain nested models have no schema field and do not get one.
    assert "schema" not in bundle["$defs"]["SourceRef"]["required"]


def test_exported_verdict_schema_accepts_a_json_form() -> None:
    from cli_support import hand_bytes

    from por.bundle import Bundle
    from por.schemas import DeterministicVerdict

    verdict = DeterministicVerdict.from_cbor(Bundle.from_cbor(hand_bytes()).verdict)
    schema = schema_for("DeterministicVerdict")
    schema.pop("$schema")
    assert errors(verdict.to_json_obj(), _subset(schema)) == []
    broken = {**verdict.to_json_obj(), "evidence_root": "AB"}
    assert errors(broken, _subset(schema)) != []


def _subset(node: Any) -> Any:
    # Drop annotation-only keywords the mini validator does not know.
    if isinstance(node, dict):
        return {k: _subset(v) for k, v in node.items()
                if k not in {"format", "maxLength", "minLength"} or isinstance(v, dict)}
    if isinstance(node, list):
        return [_subset(v) for v in node]
    return node


def test_writes_all(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "schemas"
    assert main(["schema", "-o", str(out)]) == 0
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted(f"{n}.schema.json" for n in NAMES)
    assert capsys.readouterr().out.count("\n") == len(NAMES)
    report = json.loads((out / "verify-report.schema.json").read_text())
    assert report["properties"]["schema"] == {"const": "por/verify-report/1"}


def test_writes_one(tmp_path: Path) -> None:
    assert main(["schema", "Manifest", "-o", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["Manifest.schema.json"]


def test_output_is_stable(capsys: pytest.CaptureFixture[str]) -> None:
    first = _print(capsys, "PromptSpec")
    assert _print(capsys, "PromptSpec") == first
