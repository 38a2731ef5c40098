"""``por build`` prints findings for a YES/NO verdict too (issue 23 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from por.cli import main

MARKETS = Path(__file__).resolve().parents[2] / "fixtures" / "markets"


def _build(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    folder = MARKETS / name
    code = main(["build", "--prompt-spec", str(folder / "prompt_spec.json"), "--evidence",
                 str(folder / "evidence.json"), "-o", str(tmp_path / "b.cbor")])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out, captured.err


def test_a_yes_names_the_refused_source(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    out, err = _build("60-http-500-primary", tmp_path, capsys)
    assert ": YES " in out
    notes = [line for line in err.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "sanity.http_status: ev-kestrel" in notes[0]
    assert "source kestrel" in notes[0]


def test_a_clean_yes_prints_no_note(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _build("61-range-settle", tmp_path, capsys)
    assert err == ""


def test_an_unused_fallback_is_noted(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _, err = _build("70-fallback-unread-no-conflict", tmp_path, capsys)
    assert err.startswith("note: aggregate.unused_fallback: ev-coastal-wx: admitted for "
                          "req_rain but never read")
