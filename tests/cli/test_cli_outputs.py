"""Issue 26 items 4 and 5: outputs and inputs a command must refuse up front.

* ``-o -`` writes binary CBOR; to a terminal it is refused (``io.terminal``,
  exit 2, before any work), as gpg and zstd refuse, unless ``--force``.
  Before: ``por build -o -`` wrote the bundle's bytes to the terminal.
* A JSON input over 64 MiB (the decoder's record cap) is ``io.too_large``, exit 2,
  measured before it is read.  Before: an 84 MB evidence file was built.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from por.cli.app import main
from por.cli.build import MAX_JSON_INPUT
from por.encoding.decoder import DEFAULT_MAX_SIZE

ROOT = Path(__file__).resolve().parents[2]
MARKET = ROOT / "fixtures" / "markets" / "01-boolean-observed"
BUNDLE = str(ROOT / "fixtures" / "bundles" / "valid" / "01-boolean-observed.cbor")
SPEC = str(MARKET / "prompt_spec.json")
EVIDENCE = str(MARKET / "evidence.json")


class _Terminal(io.TextIOWrapper):
    """Standard output that says it is a terminal, collecting what is written."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")

    def isatty(self) -> bool:
        return True

    def written(self) -> bytes:
        self.flush()
        buffer = self.buffer
        assert isinstance(buffer, io.BytesIO)
        return buffer.getvalue()


BINARY_TO_STDOUT = [
    ["build", "--prompt-spec", SPEC, "--evidence", EVIDENCE, "-o", "-"],
    ["challenge", BUNDLE, "--verdict", "-o", "-"],
]


@pytest.mark.parametrize("argv", BINARY_TO_STDOUT, ids=lambda argv: argv[0])
def test_binary_output_to_a_terminal_is_refused(argv: list[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main(argv) == 2
    assert terminal.written() == b""
    err = capsys.readouterr().err
    assert "por: io.terminal: -: standard output is a terminal" in err
    assert "--force" in err


def test_force_writes_binary_to_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert main([*BINARY_TO_STDOUT[0], "--force"]) == 0
    assert 0xA0 <= terminal.written()[0] <= 0xB7  # the bundle: a CBOR map
    assert "built -" in capsys.readouterr().err


def test_binary_output_to_a_pipe_is_written(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    assert main(BINARY_TO_STDOUT[1]) == 0
    assert 0xA0 <= capfdbinary.readouterr().out[0] <= 0xB7  # the proof: a CBOR map


def test_the_json_cap_is_the_record_cap() -> None:
    assert MAX_JSON_INPUT == DEFAULT_MAX_SIZE == 64 * 1024 * 1024


@pytest.mark.parametrize("which", ["--evidence", "--prompt-spec"])
def test_json_input_over_64_mib_is_refused_before_reading(
        which: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as handle:  # sparse: 84 MB on paper, nothing on disk
        handle.truncate(84_000_000)
    argv = {"--prompt-spec": SPEC, "--evidence": EVIDENCE, which: str(big)}
    out = tmp_path / "b.cbor"
    code = main(["build", *[part for pair in argv.items() for part in pair], "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"por: io.too_large: {big}: larger than {64 * 1024 * 1024} bytes" in err
    assert not out.exists()


def test_json_input_at_the_cap_is_read(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    padded = tmp_path / "evidence.json"
    text = Path(EVIDENCE).read_bytes()
    padded.write_bytes(text + b" " * (MAX_JSON_INPUT - len(text)))
    assert os.path.getsize(padded) == MAX_JSON_INPUT
    assert main(["build", "--prompt-spec", SPEC, "--evidence", str(padded), "-o",
                 str(tmp_path / "b.cbor")]) == 0
    capsys.readouterr()
