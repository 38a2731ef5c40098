"""Shared pieces of the command line: exit codes, file I/O, safe text, JSON output.

This module is the CLI's only door to the file system and the standard
streams (DESIGN §4: the CLI alone touches files, stdin/stdout and exit codes).
It imports nothing heavy, so ``por --help`` stays fast.  It leaves out
everything protocol-specific: commands call the core with bytes and values.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from collections.abc import Iterable
from typing import Any, BinaryIO

from por.errors import KeyFileError, PorError, UnsupportedError
from por.protocol.limits import DOCUMENT_MAX_SIZE

#: The input verified (or the command did what it was asked).
EXIT_OK = 0
#: The input is not valid: malformed, non-canonical, tampered, replay mismatch.
EXIT_REJECTED = 1
#: No verdict: usage error, unreadable file, unsupported version, internal error.
EXIT_NO_VERDICT = 2

#: The exit-code table every verifying command's help ends with (DESIGN §4).
EXIT_TABLE = """\
exit codes:
  0  verified: every input passed every check
  1  rejected: an input is not valid (malformed, non-canonical, tampered,
     replay mismatch, bad signature)
  2  no verdict: usage error, unreadable file, unsupported version,
     internal error
  With several inputs the worst code wins (2 over 1 over 0)."""

#: ``--max-size`` default: the bundle cap (por.bundle.DEFAULT_BUNDLE_MAX_SIZE, 256 MiB),
#: repeated here so that building the parser does not import the protocol.
DEFAULT_MAX_SIZE = 256 * 1024 * 1024
#: ``--max-size`` default of the commands that read a proof: the proof cap
#: (por.protocol.limits.PROOF_MAX_SIZE, 72 MiB, SPEC §10.7), repeated for the same
#: reason; tests/unit/challenge/test_challenge_proof_cap.py pins the two together.
PROOF_MAX_SIZE = 72 * 1024 * 1024
#: The decoder's record cap (por.encoding.decoder.DEFAULT_MAX_SIZE, 64 MiB), repeated
#: for the same reason; tests/cli/test_cli_outputs.py pins the two together.
RECORD_MAX_SIZE = 64 * 1024 * 1024

def positive_int(text: str) -> int:
    """argparse type: a decimal integer >= 1."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {text!r}")
    return value


def add_max_size_option(parser: argparse.ArgumentParser, what: str = "bundles", *,
                        default: int = DEFAULT_MAX_SIZE) -> None:
    """``--max-size BYTES``: the decoder's size cap for the command's input (the
    judge, court and chain commands: ``DOCUMENT_MAX_SIZE``, SPEC §16.2)."""
    parser.add_argument("--max-size", type=positive_int, default=default,
                        metavar="BYTES",
                        help=f"reject {what} larger than BYTES (default {default})")


def bundle_cap(max_size: int) -> int:
    """The cap a bundle is read under by a command whose ``--max-size`` is a
    document's: never past the bundle cap (SPEC §5.1)."""
    return min(max_size, DEFAULT_MAX_SIZE)


STDIN = "-"


class CliError(PorError):
    """A command-line failure (I/O, usage) with the exit code it maps to."""

    def __init__(self, check_id: str, message: str, *, exit_code: int = EXIT_NO_VERDICT,
                 reason: str | None = None, expected: Any = None, actual: Any = None) -> None:
        super().__init__(check_id, message, expected=expected, actual=actual)
        self.exit_code = exit_code
        #: The message without the file name, for reports that name the input already.
        self.reason = message if reason is None else reason


#: Check ids of a machine that lacks something the command needs (SPEC §15.9,
#: §16.8): an extra (``pip install 'por[llm]'``), the pinned client or runtime,
#: the model weights.  No verdict, exit 2: the input may be fine; the message
#: names the command that installs what is missing.
SETUP_CHECK_IDS = frozenset({"lock.client", "lock.runtime", "lock.weights_missing",
                             "usage.extra", "usage.executor"})


def exit_code_for(exc: PorError) -> int:
    """1 for bad input; 2 for unsupported input, CLI (I/O, usage) failures,
    key files (``key.*``: the operator's setup, not the input, is at fault) and
    a missing extra, runtime or weights (:data:`SETUP_CHECK_IDS`)."""
    if isinstance(exc, CliError):
        return exc.exit_code
    if isinstance(exc, UnsupportedError | KeyFileError) or exc.check_id in SETUP_CHECK_IDS:
        return EXIT_NO_VERDICT
    return EXIT_REJECTED


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or type(exc).__name__


def read_input(name: str, limit: int) -> bytes:
    """Bytes of file ``name`` (``-``: standard input), reading at most ``limit + 1``.

    Reading one byte past the cap lets the decoder report ``codec.too_large``
    without this process ever holding more than ``limit + 1`` bytes.
    Raises ``CliError("io.unreadable")`` (exit 2) when the file cannot be read.
    """
    try:
        if name == STDIN:
            if sys.stdin is None:  # started with standard input closed
                raise CliError("io.unreadable", "-: no standard input", reason="no standard input")
            return _read_capped(sys.stdin.buffer, limit)
        with _open_nonblocking(name) as handle:
            return _read_capped(handle, limit)
    except OSError as exc:
        reason = _os_reason(exc)
        raise CliError("io.unreadable", f"{safe_text(name)}: {reason}", reason=reason) from None


def _open_nonblocking(name: str) -> BinaryIO:
    """Open ``name`` for reading without waiting for a FIFO's writer.

    A plain ``open`` of a FIFO blocks until some process opens it for writing,
    possibly forever.  Opened with ``O_NONBLOCK`` it returns at once; blocking
    mode is then restored, so a pipe with a writer (``<(...)``) is read whole
    and one without a writer reads as empty (``codec.empty``), never a hang.
    """
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    try:
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _read_capped(stream: BinaryIO, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit + 1
    while left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically: a temporary file in the same
    directory, flushed and fsynced, then ``os.replace`` (POSIX rename).

    A reader sees the old file or the new one, never half of one.  The file is
    created with mode 0666 minus the umask, like any other output file.
    Raises ``CliError("io.write_failed")`` (exit 2).
    """
    directory, base = os.path.split(os.path.abspath(path))
    if not base:
        raise CliError("io.write_failed", f"{safe_text(path)}: not a file name")
    try:
        fd, tmp = _create_temp(directory, base)
    except OSError as exc:
        raise CliError("io.write_failed", f"{safe_text(path)}: {_os_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise CliError("io.write_failed", f"{safe_text(path)}: {_os_reason(exc)}") from None


def _create_temp(directory: str, base: str) -> tuple[int, str]:
    # O_EXCL with a per-process name: never clobber another writer's temp file.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for attempt in range(1000):
        tmp = os.path.join(directory, f".{base}.{os.getpid()}.{attempt}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name next to {base}")


def add_force_option(parser: argparse.ArgumentParser) -> None:
    """``--force``: replace output files that exist (default: refuse, io.exists)."""
    parser.add_argument("--force", action="store_true",
                        help="replace output files that exist (default: refuse them, "
                             "io.exists, exit 2, before any work)")


def refuse_existing(paths: Iterable[str], *, force: bool) -> None:
    """Refuse outputs that exist (``io.exists``, exit 2) unless ``force``.

    Called before any expensive work, so a refused run costs nothing; a
    directory is never replaced, with or without ``force``.  ``-`` (standard
    output) never exists, but every output named by ``-o`` is binary CBOR: to
    a terminal it is refused (``io.terminal``, as gpg and zstd do) unless
    ``force``."""
    for path in paths:
        if path == STDIN:
            if not force and _stdout_is_terminal():
                raise CliError("io.terminal", "-: standard output is a terminal; binary "
                               "CBOR is not written to it (redirect it to a file or a pipe; "
                               "--force writes it anyway)")
            continue
        if not os.path.lexists(path):
            continue
        if force and not os.path.isdir(path):
            continue
        raise CliError("io.exists", f"{safe_text(path)}: exists; nothing was written"
                       + ("" if os.path.isdir(path) else " (--force replaces it)"))


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout is not None and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream: not a terminal
        return False


def refuse_existing_in(directory: str, names: Iterable[str], *, force: bool) -> None:
    """``refuse_existing`` for the files ``names`` a command writes into
    ``directory``; a ``directory`` that is a file is refused whatever ``force``."""
    if os.path.lexists(directory) and not os.path.isdir(directory):
        raise CliError("io.exists", f"{safe_text(directory)}: exists and is not a directory; "
                       "nothing was written")
    refuse_existing([os.path.join(directory, name) for name in names], force=force)


def remove_stale(path: str) -> None:
    """Remove ``path`` if present (a file a new output makes stale, e.g. the
    signature of a replaced judgement); ``io.write_failed`` if it cannot be."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CliError("io.write_failed", f"{safe_text(path)}: {_os_reason(exc)}") from None


def make_dir(path: str) -> None:
    """Create ``path`` (and parents) if absent; ``CliError("io.write_failed")`` if not."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise CliError("io.write_failed", f"{safe_text(path)}: {_os_reason(exc)}") from None


#: Validator wording that must never reach a user (issue 26 item 5): pydantic's
#: ``[type=..., input_value=..., input_type=...]`` and its documentation link.
_VALIDATOR_TEXT = re.compile(r"\s*\[type=[^\]]*\]?|\s*For further information visit \S*"
                             r"|\s*For further inform\S*| after validation")


def plain_message(text: str) -> str:
    """``text`` without validator wording, for the one error line every command
    prints: ``por: <check id>: <one plain sentence>``.  The sources give plain
    sentences (``por.errors.value_error_text``); this is the edge's guarantee
    for any that do not."""
    return _VALIDATOR_TEXT.sub("", text)


def safe_text(text: str) -> str:
    """Text from an input, fit for a terminal: control characters escaped.

    Bundle contents are attacker-chosen; an ESC or a newline must not move the
    cursor or forge an ``OK`` line.  Printable text (any script) is kept.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def percent_from_bps(bps: int) -> str:
    """Basis points as a percent with two decimals, by integer arithmetic only."""
    return f"{bps // 100}.{bps % 100:02d}%"


def out(line: str = "") -> None:
    """One line of normal output on stdout; control characters escaped.

    The last guard for "one call, one line": whatever a command forgot to pass
    through :func:`safe_text`, no newline or ESC from an input reaches the
    terminal, so an input can never print a line of its own.
    """
    print(line if line.isprintable() else safe_text(line))


def err(line: str) -> None:
    """One line of diagnostics on stderr; control characters escaped."""
    print(line if line.isprintable() else safe_text(line), file=sys.stderr)


def write_binary_stdout(data: bytes) -> None:
    """Raw bytes on stdout (``-o -``)."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def dump_json(document: Any) -> str:
    """A JSON document as printed by ``--json``: ASCII-only, two-space indent.

    ``ensure_ascii`` escapes every control character, so input-derived text
    cannot break the document or a terminal.
    """
    return json.dumps(document, indent=2, ensure_ascii=True)


def print_json(document: Any) -> None:
    """Print exactly one JSON document on stdout."""
    print(dump_json(document))


__all__ = [
    "DEFAULT_MAX_SIZE",
    "DOCUMENT_MAX_SIZE",
    "EXIT_NO_VERDICT",
    "EXIT_OK",
    "EXIT_REJECTED",
    "EXIT_TABLE",
    "PROOF_MAX_SIZE",
    "RECORD_MAX_SIZE",
    "SETUP_CHECK_IDS",
    "STDIN",
    "CliError",
    "add_force_option",
    "add_max_size_option",
    "bundle_cap",
    "dump_json",
    "err",
    "exit_code_for",
    "make_dir",
    "out",
    "percent_from_bps",
    "plain_message",
    "positive_int",
    "print_json",
    "read_input",
    "refuse_existing",
    "refuse_existing_in",
    "remove_stale",
    "safe_text",
    "write_atomic",
    "write_binary_stdout",
]
