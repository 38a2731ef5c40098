"""Issue 26 item 5: with ``--json`` every error path prints one JSON document.

A usage error (a bad option value, an unknown option, a missing argument) is
argparse's ``usage: ...`` on stderr, exit 2, and with ``--json`` also the
``por/error/1`` document on stdout (``usage.options``).  Before: ``por verify
--json --now abc`` printed nothing on stdout, so a script reading the JSON
failed to parse it.  Every command with ``--json`` is walked from the parser.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import pytest
from jsonschema import Draft202012Validator

from por.cli.app import build_parser, main
from por.cli.schema import schema_for


def _commands(parser: argparse.ArgumentParser,
              path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                            argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))
            return
    yield path, parser


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


JSON_COMMANDS = [path for path, parser in _commands(build_parser())
                 if "--json" in _options(parser)]
NOW_COMMANDS = [path for path, parser in _commands(build_parser())
                if {"--json", "--now"} <= _options(parser)]


def _error_document(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, object]:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert "usage: por " in captured.err
    document: dict[str, object] = json.loads(captured.out)
    assert list(Draft202012Validator(schema_for("error")).iter_errors(document)) == []
    return document


def test_every_command_with_json_is_walked() -> None:
    assert len(JSON_COMMANDS) >= 17 and ("verify",) in JSON_COMMANDS
    assert ("court", "verify") in NOW_COMMANDS


@pytest.mark.parametrize("path", JSON_COMMANDS, ids=" ".join)
def test_unknown_option_with_json_prints_the_error_document(
        path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    document = _error_document(capsys, [*path, "--json", "--no-such-option", "x"])
    assert document["command"] == path[0]
    assert document["exit_code"] == 2
    error = document["error"]
    assert isinstance(error, dict) and error["id"] == "usage.options"
    assert error["message"]  # argparse's sentence (a missing argument comes first)


@pytest.mark.parametrize("path", NOW_COMMANDS, ids=" ".join)
def test_bad_now_with_json_prints_the_error_document(
        path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    document = _error_document(capsys, [*path, "--json", "--now", "abc", "x"])
    error = document["error"]
    assert isinstance(error, dict) and "--now" in str(error["message"])


def test_without_json_stdout_stays_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--now", "abc", "x"]) == 2
    assert capsys.readouterr().out == ""
    # a literal "--json" after "--" is an input name, not the option
    assert main(["verify", "--now", "abc", "--", "--json"]) == 2
    assert capsys.readouterr().out == ""
