"""Reading and writing key files on disk (SPEC §8.7); only the CLI calls this.

Writing creates ``KEY`` with mode 0600 and ``KEY.pub`` with mode 0644, each
with ``O_CREAT | O_EXCL`` so an existing file (or a symlink planted in its
place) is never overwritten or followed, and there is no window in which the
private key is readable by others.  Reading a private key refuses a file that
the group or others can read or write (``key.permissions``), checked with
``fstat`` on the descriptor that is then read, so the file cannot be swapped
in between.

Out of scope: formats (``keys``), ownership checks, Windows ACLs (POSIX mode
bits only), encrypted private keys.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from por.errors import KeyFileError, PorError
from por.signing.checks import (
    CHECK_KEY_EXISTS,
    CHECK_KEY_FORMAT,
    CHECK_KEY_PERMISSIONS,
    CHECK_KEY_UNREADABLE,
    CHECK_KEY_UNWRITABLE,
)
from por.signing.keys import (
    MAX_KEY_FILE_SIZE,
    KeyScheme,
    PrivateKey,
    PublicKey,
    private_key_from_json,
    private_key_to_json,
    public_key_from_json,
    public_key_from_private_key,
    public_key_to_json,
)

PRIVATE_MODE = 0o600
PUBLIC_MODE = 0o644

StrPath = str | os.PathLike[str]


def public_key_path(path: StrPath) -> Path:
    """``KEY.pub`` for ``KEY``."""
    return Path(os.fspath(path) + ".pub")


def write_key_files(
    path: StrPath, key: PrivateKey, *, comment: str | None = None
) -> tuple[Path, Path]:
    """Write ``path`` (private, 0600) and ``path.pub`` (public, 0644); refuse to
    overwrite either (``key.exists``).  Returns the two paths."""
    private_path, public_path = Path(path), public_key_path(path)
    public = public_key_from_private_key(key)
    _create(private_path, private_key_to_json(key, comment=comment), PRIVATE_MODE)
    try:
        _create(public_path, public_key_to_json(public, comment=comment), PUBLIC_MODE)
    except KeyFileError:
        private_path.unlink()  # leave no private key without its .pub
        raise
    return private_path, public_path


def _create(path: Path, data: bytes, mode: int) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, mode)
    except FileExistsError:
        raise KeyFileError(CHECK_KEY_EXISTS, f"{path} already exists") from None
    except OSError as exc:
        raise KeyFileError(CHECK_KEY_UNWRITABLE, f"cannot create {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            # The umask may only remove bits; set the mode exactly (0644 for .pub).
            os.fchmod(out.fileno(), mode)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise KeyFileError(CHECK_KEY_UNWRITABLE, f"cannot write {path}: {exc.strerror}") from None


def _read(path: StrPath, *, private: bool) -> bytes:
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
        # forever; the type is checked right after, before any read.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise KeyFileError(CHECK_KEY_UNREADABLE, f"cannot open {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(CHECK_KEY_UNREADABLE, f"{path} is not a regular file")
        if private and info.st_mode & 0o077:
            raise KeyFileError(
                CHECK_KEY_PERMISSIONS,
                f"{path} is accessible by group or others; run: chmod 600 {path}",
                expected="0o600", actual=oct(stat.S_IMODE(info.st_mode)),
            )
        if info.st_size > MAX_KEY_FILE_SIZE:
            raise KeyFileError(CHECK_KEY_FORMAT, f"{path} is too large to be a key file")
        with os.fdopen(fd, "rb", closefd=False) as src:
            return src.read(MAX_KEY_FILE_SIZE + 1)
    except OSError as exc:
        raise KeyFileError(CHECK_KEY_UNREADABLE, f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)


def load_private_key_file(path: StrPath, *, expected_scheme: KeyScheme | None = None) -> PrivateKey:
    """Read a private key file: mode must deny group and others (POSIX).

    A *public* key file given where the private one belongs is named as such
    (``key.format``), never answered with advice to ``chmod 600`` a public key.
    """
    try:
        data = _read(path, private=True)
    except KeyFileError as exc:
        if exc.check_id != CHECK_KEY_PERMISSIONS or not _is_public_key_file(path):
            raise
        raise _public_given(path) from None
    if _is_public_key_json(data):
        raise _public_given(path)
    return private_key_from_json(data, expected_scheme=expected_scheme)


def _is_public_key_file(path: StrPath) -> bool:
    try:
        return _is_public_key_json(_read(path, private=False))
    except KeyFileError:
        return False


def _is_public_key_json(data: bytes) -> bool:
    try:
        public_key_from_json(data)
    except PorError:
        return False
    return True


def _public_given(path: StrPath) -> KeyFileError:
    return KeyFileError(CHECK_KEY_FORMAT, f"{path} is a public key file; signing needs the "
                        "private key file (the same name without .pub)",
                        expected="a private key file", actual="a public key file")


def load_public_key_file(path: StrPath, *, expected_scheme: KeyScheme | None = None) -> PublicKey:
    """Read a public key file (any mode)."""
    return public_key_from_json(_read(path, private=False), expected_scheme=expected_scheme)


__all__ = [
    "PRIVATE_MODE",
    "PUBLIC_MODE",
    "load_private_key_file",
    "load_public_key_file",
    "public_key_path",
    "write_key_files",
]
