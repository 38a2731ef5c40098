"""The ``por`` parser builds only the command argv names (issue 16: start-up).

``por verify ...`` must not import the other commands' modules, and nothing a
user sees may change: ``por --help`` lists every command, ``por COMMAND
--help`` is the text the full parser prints, and an argv that could reach the
top level's help or errors gets the full parser.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest
from run_support import por_env

from por.cli import main
from por.cli.app import COMMANDS, build_parser, command_of

ROOT = Path(__file__).resolve().parents[2]

#: Every command, in ``por --help`` order, written out so that losing one fails.
ALL_COMMANDS = ("verify", "build", "inspect", "explain", "demo", "schema", "keygen", "sign",
                "attestation", "chain", "judge", "dispute", "court", "challenge", "check-proof")

#: Modules that parsing ``por verify``'s options must not import.  ``dataclasses``
#: (with ``inspect`` and ``ast``, ~5 ms) came in through ``por.cli.signing_args``.
NOT_FOR_VERIFY = ("por.cli.attestation", "por.cli.chain_cmd", "por.cli.judge_cmd",
                  "por.cli.court_cmd", "por.cli.challenge_cmd", "por.cli.build", "por.cli.inspect",
                  "por.cli.demo", "por.cli.schema", "por.cli.sign", "dataclasses")

#: A lower-case ``--contract``: a mixed-case one is checked against its EIP-55
#: checksum, which rightly imports keccak (``por.signing``) to parse it.
VERIFY_ARGV = ["verify", "--json", "--now", "1800000000", "--chain-id", "8453",
               "--contract", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
               "--key", "k.pub", "--require-signature", "b.cbor"]


def _subparsers(parser: argparse.ArgumentParser) -> argparse._SubParsersAction:  # type: ignore[type-arg]
    return next(action for action in parser._actions
                if isinstance(action, argparse._SubParsersAction))


def _loaded_after(parse: str) -> list[str]:
    """Modules of :data:`NOT_FOR_VERIFY` loaded in a fresh interpreter after ``parse``."""
    code = (
        "import sys\n"
        "from por.cli.app import build_parser, command_of\n"
        f"argv = {VERIFY_ARGV!r}\n"
        f"args = {parse}\n"
        "assert args.command == 'verify' and args.contract is not None, args\n"
        f"print(','.join(m for m in {NOT_FOR_VERIFY!r} if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code],
                          env=por_env(),
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return [name for name in proc.stdout.strip().split(",") if name]


def test_parsing_verify_imports_no_other_command() -> None:
    assert _loaded_after("build_parser(command_of(argv)).parse_args(argv)") == []


def test_import_probe_can_fail() -> None:
    # The full parser imports every command: the probe above would notice.
    loaded = _loaded_after("build_parser().parse_args(argv)")
    assert set(loaded) >= {"por.cli.attestation", "por.cli.judge_cmd",
                           "por.cli.court_cmd", "por.cli.challenge_cmd"}


def test_registry_is_every_command_in_help_order() -> None:
    names = tuple(name for _, _, group in COMMANDS for name in group)
    assert names == ALL_COMMANDS
    assert tuple(_subparsers(build_parser()).choices) == ALL_COMMANDS


def test_top_level_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    listed = _subparsers(build_parser())._choices_actions
    assert [action.dest for action in listed] == list(ALL_COMMANDS)
    for action in listed:
        assert re.search(rf"\n    {action.dest}\s", text), action.dest
        # The help line's first words follow the name (argparse may wrap the rest).
        assert " ".join(str(action.help).split()[:3]) in " ".join(text.split()), action.dest


@pytest.mark.parametrize("name", ALL_COMMANDS)
def test_one_command_parser_is_the_full_parsers_subparser(name: str) -> None:
    alone = _subparsers(build_parser(name)).choices
    full = _subparsers(build_parser()).choices
    assert name in alone
    assert alone[name].format_help() == full[name].format_help()
    assert alone[name].format_usage() == full[name].format_usage()


@pytest.mark.parametrize(("argv", "command"), [
    (["verify", "b.cbor"], "verify"),
    (["court", "rule", "case.cbor"], "court"),
    (["check-proof", "p"], "check-proof"),
    (["verify"], "verify"),
    ([], None),
    (["frobnicate"], None),
    (["VERIFY"], None),
    (["-h", "verify"], None),       # top-level help: every command
    (["--", "verify"], None),
    (["--version"], None),
])
def test_command_of(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


@pytest.mark.parametrize("argv", [["-h", "verify"], ["frobnicate"], []])
def test_top_level_paths_keep_the_full_parser(capsys: pytest.CaptureFixture[str],
                                              argv: list[str]) -> None:
    code = main(argv)
    captured = capsys.readouterr()
    text = captured.out + captured.err
    if argv == ["-h", "verify"]:
        assert code == 0
        assert all(re.search(rf"\n    {name}\s", text) for name in ALL_COMMANDS)
    else:
        assert code == 2 and captured.err.startswith("usage: por")
    if argv == ["frobnicate"]:
        assert "(choose from 'verify', 'build'" in text and "'check-proof')" in text
