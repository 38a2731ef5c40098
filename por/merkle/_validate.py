"""Argument checks shared by the tree builders and the proof verifiers.

Every check raises :class:`~por.errors.MerkleError` (or the subclass the caller
passes) with one of the stable check ids below, so bad input fails closed with
an id a report can show.  Nothing here hashes.

Policy (transparency-dev/merkle, commit in fixtures/vectors/merkle-rfc6962.json):
indices and sizes are non-negative Python ints below 2**64 (RFC 9162 sizes are
uint64; ``bool`` is refused although it subclasses ``int``), and every hash is
a ``bytes`` object of exactly 32 bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from por.errors import MerkleError
from por.merkle.hashing import HASH_SIZE

CHECK_HASH_LENGTH: Final = "merkle.hash_length"
CHECK_INDEX_RANGE: Final = "merkle.index_range"
CHECK_PROOF_LENGTH: Final = "merkle.proof_length"
CHECK_ROOT_MISMATCH: Final = "merkle.root_mismatch"
CHECK_CONSISTENCY_ROOT_MISMATCH: Final = "merkle.consistency_root_mismatch"
CHECK_SIZE_RANGE: Final = "merkle.size_range"

UINT64_LIMIT: Final = 1 << 64


def require_uint64(
    value: object, name: str, check_id: str, error: type[MerkleError] = MerkleError
) -> int:
    """Return ``value`` if it is an int in [0, 2**64), else raise ``check_id``."""
    if type(value) is not int:  # exact type: refuses bool and int subclasses
        raise error(check_id, f"{name} must be an int, got {type(value).__name__}")
    if not 0 <= value < UINT64_LIMIT:
        raise error(check_id, f"{name} {value} is outside [0, 2**64)")
    return value


def require_hash(value: object, name: str, error: type[MerkleError] = MerkleError) -> bytes:
    """Return ``value`` if it is exactly 32 bytes, else raise ``merkle.hash_length``."""
    if not isinstance(value, bytes):
        raise error(CHECK_HASH_LENGTH, f"{name} must be bytes, got {type(value).__name__}")
    if len(value) != HASH_SIZE:
        raise error(
            CHECK_HASH_LENGTH,
            f"{name} is {len(value)} bytes, want {HASH_SIZE}",
            expected=HASH_SIZE,
            actual=len(value),
        )
    return value


def require_hashes(
    values: Sequence[bytes], name: str, error: type[MerkleError] = MerkleError
) -> None:
    """Raise ``merkle.hash_length`` unless every element is exactly 32 bytes.

    The fast path inspects types and lengths with C-level ``map`` calls, because
    root building over 10**6 leaf hashes must stay within a few percent of a
    bare hashlib loop; the slow path names the first offender.
    """
    if set(map(type, values)) <= {bytes} and set(map(len, values)) <= {HASH_SIZE}:
        return
    for position, value in enumerate(values):
        require_hash(value, f"{name}[{position}]", error)


def require_index(index: object, tree_size: int, error: type[MerkleError] = MerkleError) -> int:
    """Return ``index`` if 0 <= index < tree_size, else raise ``merkle.index_range``.

    Size 0 therefore refuses every index: the empty tree has no leaves.
    """
    checked = require_uint64(index, "leaf index", CHECK_INDEX_RANGE, error)
    if checked >= tree_size:
        raise error(
            CHECK_INDEX_RANGE,
            f"leaf index {checked} is not below tree size {tree_size}",
            expected=f"< {tree_size}",
            actual=checked,
        )
    return checked


def require_proof_length(proof: Sequence[bytes], want: int, error: type[MerkleError]) -> None:
    """Raise ``merkle.proof_length`` unless ``len(proof) == want`` (RFC 9162 §2.1.3.2, §2.1.4.2)."""
    if len(proof) != want:
        raise error(
            CHECK_PROOF_LENGTH,
            f"proof has {len(proof)} hashes, the index and sizes imply {want}",
            expected=want,
            actual=len(proof),
        )
