"""The ``por`` argument parser and dispatcher (DESIGN §4).

``main(argv)`` parses, runs one command and turns every outcome into an exit
code: a ``PorError`` becomes one line ``por: <check-id>: <message>`` on stderr
(exit 1, or 2 for unsupported input and I/O or usage failures); anything
unexpected becomes one line ``por: internal error: ...`` (exit 2, ``-v`` adds
the traceback).  A traceback never reaches a user for bad input.

Only argparse and the standard library are imported here; each command
imports pydantic, cbor2 and the protocol inside its ``run`` function, so
``por --help`` and ``por --version`` stay fast and light.  When the first
argument names a command, only that command's module is imported and only its
subparser built (issue 16: ``por verify`` start-up); anything else (no
command, an option first, an unknown command) builds the full parser, so the
top-level help and usage errors are exactly those of every command.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from por import SPEC_VERSION, __version__
from por.cli.common import (
    EXIT_NO_VERDICT,
    EXIT_TABLE,
    err,
    exit_code_for,
    plain_message,
    print_json,
    safe_text,
)
from por.errors import PorError

#: ``--json`` document printed when a command fails before it could report.
ERROR_SCHEMA = "por/error/1"

_DESCRIPTION = """\
por: proof-of-reasoning bundles for prediction-market verdicts.

A bundle (bundle.cbor) commits a market's PromptSpec, its evidence, the
auditor's reasoning trace and the judge's verdict with RFC 9162 Merkle trees.
`por verify` replays the auditor and the judge from the committed inputs and
says whether the verdict follows from the evidence.  No command uses the
network."""

_EPILOG = f"""\
examples:
  por demo                                  build and verify the sample markets
  por verify por-demo/*.cbor                replay and check bundles
  por verify --json bundle.cbor             one JSON report (schema por/verify-report/1)
  por build --prompt-spec spec.json --evidence evidence.json -o bundle.cbor
  por inspect bundle.cbor                   show what a bundle claims (not verified)
  por keygen -o signer.key                  a signing key pair (signer.key, signer.key.pub)
  por sign bundle.cbor --key signer.key -o signed.cbor
  por verify --key signer.key.pub --require-signature signed.cbor
  por attestation signed.cbor               digest, r, s, v for a contract call
  por schema PromptSpec                     JSON Schema of a record
  por judge batch *.cbor --judge-config C -o DIR   judge bundles with a locked judge
  por dispute open B.cbor --leaf evidence_leaf:0 --claim TEXT -o case.cbor
  por court rule case.cbor --court court.yaml --at UNIX --api-base URL -o DIR

{EXIT_TABLE}

`por COMMAND --help` describes each command."""


#: Every command, in ``por --help`` order: (module, function registering its
#: subparsers, the command names that function registers).
COMMANDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("por.cli.verify", "add_parser", ("verify",)),
    ("por.cli.build", "add_parser", ("build",)),
    ("por.cli.inspect", "add_parser", ("inspect",)),
    ("por.cli.explain", "add_parser", ("explain",)),
    ("por.cli.demo", "add_parser", ("demo",)),
    ("por.cli.schema", "add_parser", ("schema",)),
    ("por.cli.keygen", "add_parser", ("keygen",)),
    ("por.cli.sign", "add_parser", ("sign",)),
    ("por.cli.attestation", "add_parser", ("attestation",)),
    ("por.cli.chain_cmd", "add_parser", ("chain",)),
    ("por.cli.judge_cmd", "add_parser", ("judge",)),
    ("por.cli.court_cmd", "add_parser", ("dispute", "court")),
    ("por.cli.challenge_cmd", "add_challenge_parser", ("challenge",)),
    ("por.cli.challenge_cmd", "add_check_proof_parser", ("check-proof",)),
)


class UsageExit(SystemExit):
    """argparse's usage error (exit 2), with its message kept for ``--json``."""

    def __init__(self, message: str) -> None:
        super().__init__(EXIT_NO_VERDICT)
        self.message = message


class _Parser(argparse.ArgumentParser):
    """argparse's parser whose usage errors keep their message (subparsers are
    made of the same class), so ``--json`` can print it as ``por/error/1``."""

    def error(self, message: str) -> Any:  # argparse's NoReturn hook
        self.print_usage(sys.stderr)
        err(f"{self.prog}: error: {safe_text(message)}")
        raise UsageExit(message)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The global options and one subparser per command; with ``command``
    (a name from :data:`COMMANDS`), only the subparsers its module registers.

    The one-command parser parses that command's arguments exactly as the full
    one does: a subparser's usage, help and errors do not depend on which other
    commands exist.  Only the top level differs (its help and the "invalid
    choice" error list the commands), and :func:`command_of` never picks a
    command when argv could reach the top level's help or errors.
    """
    parser = _Parser(
        prog="por",
        description=_DESCRIPTION,
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version",
                        version=f"por {__version__} (SPEC {SPEC_VERSION})",
                        help="print the version and the SPEC version, then exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module, function, names in COMMANDS:
        if command is None or command in names:
            getattr(importlib.import_module(module), function)(commands)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The command ``argv`` runs if its first argument names one, else ``None``.

    Only the first argument counts: an option before the command (``-h``,
    ``--version``, ``--``) is handled by the top level, which needs every
    command.
    """
    if argv and any(argv[0] in names for _, _, names in COMMANDS):
        return argv[0]
    return None


def main(argv: list[str] | None = None) -> int:
    """Run ``por`` with ``argv`` (default ``sys.argv[1:]``); return the exit code.

    The console script and ``python -m por`` call :func:`entry`, which exits
    with this code.
    """
    return _run(argv)[0]


def _run(argv: list[str] | None) -> tuple[int, argparse.Namespace | None]:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(command_of(argv))
    try:
        args = parser.parse_args(argv)
    except UsageExit as stop:  # usage errors (2): with --json, also the error document
        if _wants_json(argv):
            _print_error_json(command_of(argv) or "", EXIT_NO_VERDICT, "usage.options",
                              plain_message(stop.message))
        return EXIT_NO_VERDICT, None
    except SystemExit as stop:  # --help and --version (0)
        return _code_of(stop), None
    return dispatch(args), args


def entry() -> None:
    """The process entry point: run :func:`main` on ``sys.argv``, then exit.

    A serial ``por verify`` ends with ``os._exit`` once its output is flushed:
    interpreter teardown (freeing every module and pydantic schema) is a sixth
    of a small verification's wall time (issue 16) and does nothing a verifier
    needs.  Every other command, and a verify with a pool or a Dask executor,
    exits normally, so their finalisers and ``atexit`` handlers run.
    """
    code, args = _run(None)
    if (args is not None and args.command == "verify" and args.jobs == 1
            and args.executor is None):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # a closed or broken stream: the normal path
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def dispatch(args: argparse.Namespace) -> int:
    """Run the chosen command and map every failure to one line and an exit code."""
    verbose = bool(getattr(args, "verbose", False))
    as_json = bool(getattr(args, "json", False))
    try:
        code: int = args.run(args)
        sys.stdout.flush()
        return code
    except PorError as exc:
        code = exit_code_for(exc)
        err(f"por: {safe_text(plain_message(exc.diagnostics()))}")
        if as_json:
            _print_error_json(args.command, code, exc.check_id, plain_message(exc.message),
                              values=error_values(exc))
        return code
    except BrokenPipeError:
        # The reader went away (`por verify ... | head`): no report was delivered.
        _silence_stdout()
        return EXIT_NO_VERDICT
    except KeyboardInterrupt:
        err("por: interrupted")
        return EXIT_NO_VERDICT
    except Exception as exc:  # any surprise is "no verdict", in one line
        if verbose:
            import traceback

            traceback.print_exc()
        message = plain_message(f"{type(exc).__name__}: {exc}")
        err(f"por: internal error: {safe_text(message)}"
            + ("" if verbose else " (run with -v for the traceback)"))
        if as_json:
            _print_error_json(args.command, EXIT_NO_VERDICT, "internal.error", message)
        return EXIT_NO_VERDICT


#: The two values of a ``por/error/1`` error, named as ``check-proof`` names them
#: (SPEC §10.6): one pair set, the other null.
ERROR_VALUE_KEYS = ("committed", "recomputed", "required", "found")


def error_values(exc: PorError) -> dict[str, str | None]:
    """``committed``/``recomputed`` when the failed check compares a committed value
    with the one recomputed from its parts (a ``proof.*`` error that says so),
    else ``required``/``found`` (the rule's value, then the input's); the other
    pair null (SPEC §18.9)."""
    def show(value: Any) -> str | None:
        if value is None:
            return None
        return value.hex() if isinstance(value, bytes | bytearray) else str(value)

    pair: tuple[str | None, ...] = (None, None, show(exc.expected), show(exc.actual))
    if getattr(exc, "recomputes", False):
        pair = (show(exc.actual), show(exc.expected), None, None)
    return dict(zip(ERROR_VALUE_KEYS, pair, strict=True))


def _print_error_json(command: str, code: int, check_id: str, message: str, *,
                      values: dict[str, str | None] | None = None) -> None:
    print_json({
        "schema": ERROR_SCHEMA,
        "command": command,
        "exit_code": code,
        "error": {"id": check_id, "message": message,
                  **(values or dict.fromkeys(ERROR_VALUE_KEYS))},
    })


def _wants_json(argv: list[str]) -> bool:
    """``--json`` among the options (before a ``--``): the caller reads stdout as JSON."""
    options = argv[:argv.index("--")] if "--" in argv else argv
    return "--json" in options


def _code_of(stop: SystemExit) -> int:
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    return EXIT_NO_VERDICT


def _silence_stdout() -> None:
    # Python's documented recipe: point stdout at devnull so the interpreter's
    # final flush does not raise a second BrokenPipeError.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


__all__ = ["COMMANDS", "ERROR_SCHEMA", "UsageExit", "build_parser", "command_of", "dispatch",
           "main"]
