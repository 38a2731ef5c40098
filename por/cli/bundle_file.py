"""Opening a PoR bundle named on the command line: one door for every command.

:func:`open_bundle` reads a bundle file (``-``: standard input) as every
bundle command does: at most ``--max-size`` + 1 bytes, so the decoder reports
``codec.too_large`` without this process holding more, and an unreadable file
is ``io.unreadable`` (exit 2).  The :class:`BundleFile` it returns keeps the
name as given (reports echo it) and the cap, so decoding
(:meth:`BundleFile.bundle`: ``codec.*``/``schema.*``, exit 1) and
verification (:func:`require_verified`: the report's exit code) use the same
cap the bytes were read with.

Leaves out: what a command does with the bundle, and inputs that are not PoR
bundles (proofs, judgements, cases, configurations: ``read_input``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from por.cli.common import CliError, read_input, safe_text

if TYPE_CHECKING:
    from por.bundle.layout import Bundle


class BundleFile:
    """A bundle named on the command line, read: its name as given, its bytes
    (at most ``max_size`` + 1) and the size cap the command was given.

    A plain slotted class, not a dataclass: declaring one costs about a
    millisecond of ``por verify`` start-up (issue 16)."""

    __slots__ = ("data", "max_size", "name")

    def __init__(self, name: str, data: bytes, max_size: int) -> None:
        self.name = name
        self.data = data
        self.max_size = max_size

    def bundle(self) -> Bundle:
        """The bundle map, strictly decoded, records kept as bytes (``codec.*``,
        ``schema.*``: a ``PorError``, exit 1)."""
        from por.challenge import bundle_from_bytes

        return bundle_from_bytes(self.data, max_size=self.max_size)


def open_bundle(name: str, max_size: int) -> BundleFile:
    """Read bundle file ``name`` (``-``: standard input) under the cap ``max_size``.

    Raises ``CliError("io.unreadable")`` (exit 2) when it cannot be read.
    """
    return BundleFile(name, read_input(name, max_size), max_size)


def require_verified(file: BundleFile, *, now: int) -> None:
    """Raise the first failure unless ``check_bundle`` says ``verified`` at ``now``.

    The exit code is the report's: 1 rejected, 2 no verdict (e.g. an
    unsupported version).
    """
    from verifier import check_bundle

    report = check_bundle(file.data, now=now, max_size=file.max_size)
    if report.ok:
        return
    failure = report.first_failure
    check_id = "internal.error" if failure is None else failure.check_id
    message = "no failing check reported" if failure is None else failure.message
    raise CliError(check_id, f"{safe_text(file.name)}: does not verify: {message}",
                   exit_code=report.exit_code,
                   expected=None if failure is None else failure.expected,
                   actual=None if failure is None else failure.actual)


__all__ = ["BundleFile", "open_bundle", "require_verified"]
