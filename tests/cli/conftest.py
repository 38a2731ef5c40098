"""Fixtures for the CLI tests: paths of bundles written to ``tmp_path``.

The bundles themselves come from ``cli_support`` (plain helpers, importable
from the test modules).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from cli_support import GARBAGE, built_bytes, hand_bytes, tampered, with_manifest


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, bytes], str]:
    """Write bytes to ``tmp_path/name``; return the path as text."""
    def _write(name: str, data: bytes) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        return str(path)
    return _write


@pytest.fixture
def valid(write: Callable[[str, bytes], str]) -> str:
    """Path of a bundle that verifies."""
    return write("valid.cbor", built_bytes())


@pytest.fixture
def tampered_path(write: Callable[[str, bytes], str]) -> str:
    """Path of a bundle whose evidence changed after commitment (exit 1)."""
    return write("tampered.cbor", tampered(hand_bytes()))


@pytest.fixture
def garbage(write: Callable[[str, bytes], str]) -> str:
    """Path of bytes that are not por-cbor/1 (exit 1)."""
    return write("garbage.cbor", GARBAGE)


@pytest.fixture
def unsupported(write: Callable[[str, bytes], str]) -> str:
    """Path of a consistent bundle naming an unknown auditor version (exit 2)."""
    return write("unsupported.cbor",
                 with_manifest(hand_bytes(), auditor_version="por-auditor/99"))


@pytest.fixture
def missing(tmp_path: Path) -> str:
    """Path of a file that does not exist (exit 2)."""
    return str(tmp_path / "missing.cbor")
