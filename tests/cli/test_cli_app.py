"""The ``por`` entry point: help, version, usage errors, error mapping, light imports."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest
from run_support import HEAVY, por_env

import por
from por.cli import main
from por.cli.app import dispatch
from por.errors import EncodingError, UnsupportedError

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("verify", "build", "inspect", "demo", "schema")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"por {por.__version__} (SPEC {por.SPEC_VERSION})\n"
    assert por.__version__ == "0.1.0"


@pytest.mark.parametrize("argv", [["--help"], *[[c, "--help"] for c in COMMANDS]])
def test_help_ends_with_examples_and_exit_codes(capsys: pytest.CaptureFixture[str],
                                               argv: list[str]) -> None:
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "examples:\n  por " in text
    assert "exit codes:\n  0  " in text
    assert "\n  2  " in text
    if argv[0] != "schema":  # schema has no "rejected" case
        assert "\n  1  " in text


def test_verify_help_has_the_full_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--help"]) == 0
    text = capsys.readouterr().out
    assert "  0  verified: every input passed every check\n" in text
    assert "  1  rejected: an input is not valid" in text
    assert "  2  no verdict: usage error, unreadable file, unsupported version," in text
    assert "the worst code wins" in text


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["verify", "--bogus", "x"],
                                  ["build", "--evidence", "e.json"], ["inspect"]])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    assert capsys.readouterr().err.startswith("usage: por")


def _args(run: object, **extra: object) -> argparse.Namespace:
    return argparse.Namespace(command="test", run=run, **extra)


def test_por_error_is_one_line_exit_1(capsys: pytest.CaptureFixture[str]) -> None:
    def run(args: argparse.Namespace) -> int:
        raise EncodingError("codec.trailing_bytes", "2 bytes after the item",
                            expected=b"\x01", actual=b"\x02")
    assert dispatch(_args(run)) == 1
    captured = capsys.readouterr()
    assert captured.err == ("por: codec.trailing_bytes: 2 bytes after the item "
                            "(expected 01, actual 02)\n")
    assert captured.out == ""


def test_unsupported_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    def run(args: argparse.Namespace) -> int:
        raise UnsupportedError("manifest.unsupported_judge_version", "judge 9")
    assert dispatch(_args(run, json=True)) == 2
    captured = capsys.readouterr()
    assert captured.err == "por: manifest.unsupported_judge_version: judge 9\n"
    assert json.loads(captured.out) == {
        "schema": "por/error/1", "command": "test", "exit_code": 2,
        "error": {"id": "manifest.unsupported_judge_version", "message": "judge 9",
                  "committed": None, "recomputed": None, "required": None, "found": None}}


@pytest.mark.parametrize("verbose", [False, True])
def test_internal_error_is_one_line_exit_2(capsys: pytest.CaptureFixture[str],
                                           verbose: bool) -> None:
    def run(args: argparse.Namespace) -> int:
        raise ZeroDivisionError("boom")
    assert dispatch(_args(run, verbose=verbose)) == 2
    err = capsys.readouterr().err
    assert "por: internal error: ZeroDivisionError: boom" in err
    assert ("Traceback (most recent call last)" in err) is verbose
    if not verbose:
        assert err.count("\n") == 1


def test_import_and_help_stay_light() -> None:
    code = (
        "import sys\n"
        "from por.cli import main\n"
        "assert main(['--version']) == 0\n"
        "for argv in (['--help'], ['verify', '--help'], ['build', '--help'],"
        " ['schema', '--help']):\n"
        "    assert main(argv) == 0\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "assert heavy == [], heavy\n"
        "assert 'verifier' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=por_env(), capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr


#: Optional stacks (extras) and machinery that verifying one bundle never needs.
OPTIONAL = ("distributed", "dask", "litellm", "llama_cpp", "eth_abi", "pyrevm", "yaml",
            "multiprocessing", "concurrent.futures.process", "asyncio", "coincurve",
            "Crypto", "cryptography")


def test_verify_of_an_unsigned_bundle_loads_no_optional_stack(tmp_path: Path) -> None:
    from cli_support import built_bytes

    path = tmp_path / "b.cbor"
    path.write_bytes(built_bytes())
    code = (
        "import sys\n"
        "from por.cli import main\n"
        f"assert main(['verify', '-q', {str(path)!r}]) == 0\n"
        f"loaded = [m for m in {OPTIONAL!r} if m in sys.modules]\n"
        "assert loaded == [], loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=por_env(), capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("mode", ["-q", "-v", "--json"])
def test_verify_of_an_unsigned_bundle_loads_no_pydantic(tmp_path: Path, mode: str) -> None:
    """Issue 16: the fast path (verifier/fast.py) verifies without the model layer."""
    from cli_support import built_bytes

    path = tmp_path / "b.cbor"
    path.write_bytes(built_bytes())
    code = (
        "import sys, contextlib, io\n"
        "from por.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['verify', {mode!r}, {str(path)!r}]) == 0\n"
        # pydantic, and cbor2's encoder registry (it loads these on any type it does
        # not know: a Fragment must never reach it)
        "loaded = [m for m in sys.modules if m.split('.')[0] in ('pydantic', 'pydantic_core',"
        " 'email', 'uuid', 'ipaddress', 'fractions')]\n"
        "assert loaded == [], loaded\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=por_env(), capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_lightness_probe_can_fail() -> None:
    # The same probe notices a heavy import when there is one.
    code = ("import sys\nfrom por.cli import main\nimport por.schemas\n"
            "assert 'pydantic' not in sys.modules\n")
    proc = subprocess.run([sys.executable, "-c", code], env=por_env(), capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 1


def test_python_dash_m_por(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cbor"
    bad.write_bytes(b"\x00\x00")
    proc = subprocess.run([sys.executable, "-m", "por", "verify", str(bad)], env=por_env(),
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert proc.stdout.startswith(f"FAIL {bad}: codec.")
    proc = subprocess.run([sys.executable, "-m", "por", "--version"], env=por_env(),
                          capture_output=True, text=True, check=False)
    assert (proc.returncode, proc.stdout) == (0, f"por {por.__version__} "
                                                 f"(SPEC {por.SPEC_VERSION})\n")


def test_cli_size_default_is_the_bundle_cap() -> None:
    """por.cli.common repeats the cap so that --help imports no protocol code."""
    from por.bundle import DEFAULT_BUNDLE_MAX_SIZE
    from por.cli.common import DEFAULT_MAX_SIZE

    assert DEFAULT_MAX_SIZE == DEFAULT_BUNDLE_MAX_SIZE


def test_error_document_names_its_values_as_check_proof_does(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``por/error/1`` says ``required``/``found`` for a rule (the input's value
    second) and ``committed``/``recomputed`` for a recomputation, the other pair
    null (SPEC §18.9, §10.6); no ``expected``/``actual``."""
    from por.cli.app import ERROR_VALUE_KEYS
    from por.cli.schema import schema_for
    from por.errors import ProofError

    def rule(args: argparse.Namespace) -> int:
        raise EncodingError("codec.too_large", "too big", expected=64, actual=65)

    def recomputation(args: argparse.Namespace) -> int:
        raise ProofError("proof.leaf_path", "path", committed=b"\x01", recomputed=b"\x02")

    import jsonschema

    schema = schema_for("error")
    documents = []
    for run in (rule, recomputation):
        assert dispatch(_args(run, json=True)) == 1
        documents.append(json.loads(capsys.readouterr().out))
        jsonschema.validate(documents[-1], schema)
    assert [{k: d["error"][k] for k in ERROR_VALUE_KEYS} for d in documents] == [
        {"committed": None, "recomputed": None, "required": "64", "found": "65"},
        {"committed": "01", "recomputed": "02", "required": None, "found": None}]
    old = {**documents[0], "error": {**documents[0]["error"], "expected": "64"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(old, schema)
