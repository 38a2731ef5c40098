"""``por inspect``: a decoded, unverified view; malformed bundles are one line, exit 1."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from cli_support import assemble, hand_bytes, scenario_inputs

from por.bundle import Bundle
from por.cli import main
from por.merkle import leaf_hash


def test_text_view(write: Callable[[str, bytes], str],
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = write("b.cbor", hand_bytes())
    assert main(["inspect", path]) == 0
    lines = capsys.readouterr().out.splitlines()
    bundle = Bundle.from_cbor(hand_bytes())
    c = bundle.commitments
    assert lines[0] == f"bundle {path}: decoded only, NOT VERIFIED (run: por verify {path})"
    assert "market      acme-r3-ships-2026-04" in lines
    assert "verdict     YES, confidence 70.00%" in lines
    assert "rule        R_BINARY_DECISION" in lines
    assert f"  por_root           {c.por_root.hex()}" in lines
    assert (f"  evidence_root      {c.evidence_root.hex()} ({c.evidence_count} items)"
            in lines)
    leaf = leaf_hash(bundle.evidence[0]).hex()[:12]
    [item] = [line for line in lines if line.startswith("  [0] ")
              and "leaf " in line]
    assert item.endswith(f"bytes  leaf {leaf}")
    assert "  [0] step_0001  map  cites " in "\n".join(lines)


def test_json_view(write: Callable[[str, bytes], str],
                   capsys: pytest.CaptureFixture[str]) -> None:
    path = write("b.cbor", hand_bytes())
    assert main(["inspect", "--json", path]) == 0
    doc = json.loads(capsys.readouterr().out)
    bundle = Bundle.from_cbor(hand_bytes())
    assert doc["schema"] == "por/inspect/1"
    assert doc["verified"] is False
    assert doc["verdict"] == {"outcome": "YES", "confidence_bps": 7000,
                              "resolution_rule_id": "R_BINARY_DECISION"}
    assert doc["commitments"]["por_root"] == bundle.commitments.por_root.hex()
    assert [e["size"] for e in doc["evidence"]] == [
        len(x) for x in _contents(bundle)]
    assert doc["steps"][0]["step_id"] == "step_0001"


def _contents(bundle: Bundle) -> list[bytes]:
    from por.schemas import EvidenceItem

    return [EvidenceItem.from_cbor(b).content for b in bundle.evidence]


@pytest.mark.parametrize(("bps", "shown"), [(0, "0.00%"), (5, "0.05%"), (5500, "55.00%"),
                                            (9999, "99.99%"), (10000, "100.00%")])
def test_percent_is_integer_arithmetic(bps: int, shown: str) -> None:
    from por.cli.common import percent_from_bps

    assert percent_from_bps(bps) == shown


def test_garbage_is_one_line_exit_1(garbage: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", garbage]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("por: codec.reserved: ")
    assert captured.err.count("\n") == 1


def test_bad_record_names_its_place(write: Callable[[str, bytes], str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    b = Bundle.from_cbor(hand_bytes())
    broken = b.model_copy(update={"verdict": b"\xa0"}).to_cbor()
    assert main(["inspect", write("b.cbor", broken)]) == 1
    assert capsys.readouterr().err == (
        "por: schema.unknown_schema: verdict: expected schema por.DeterministicVerdict/1 "
        "(expected por.DeterministicVerdict/1, actual None)\n")


def test_missing_file_exit_2(missing: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", missing]) == 2
    assert capsys.readouterr().err == f"por: io.unreadable: {missing}: no such file\n"


def test_json_error_document(garbage: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", garbage]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "por/error/1"
    assert doc["exit_code"] == 1
    assert doc["error"]["id"] == "codec.reserved"


def test_terminal_escapes_in_bundle_text_are_neutralised(
        write: Callable[[str, bytes], str], capsys: pytest.CaptureFixture[str]) -> None:
    spec, evidence = scenario_inputs()
    market = spec.market.model_copy(update={"question": "Q?\x1b[2J\nOK forged"})
    data = assemble(spec.model_copy(update={"market": market}), evidence)
    assert main(["inspect", write("b.cbor", data)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "question    Q?\\x1b[2J\\x0aOK forged\n" in out


def test_tampered_bundle_still_inspects(tampered_path: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    # inspect decodes only: a commitment mismatch is for `por verify` to find.
    assert main(["inspect", tampered_path]) == 0
    assert "NOT VERIFIED" in capsys.readouterr().out


def test_max_size(write: Callable[[str, bytes], str],
                  capsys: pytest.CaptureFixture[str]) -> None:
    path = write("b.cbor", hand_bytes())
    assert main(["inspect", "--max-size", "100", path]) == 1
    assert capsys.readouterr().err.startswith("por: codec.too_large: ")
