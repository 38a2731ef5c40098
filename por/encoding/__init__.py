"""Canonical encoding ``por-cbor/1`` (SPEC §2): RFC 8949 §4.2.1 deterministic CBOR.

Data model: ``int`` in [-2^64, 2^64-1], ``bytes``, ``str``, ``list``, ``dict``
with ``str`` keys, ``True`` and ``False``.  :func:`encode` produces the one
canonical encoding of such a value; :func:`decode` accepts exactly those bytes
and raises :class:`~por.errors.EncodingError` (``codec.*`` check ids) for
anything else.

Leaves out: schemas, hashing and Unicode normalisation.
"""

from por.encoding.decoder import (
    DEFAULT_MAX_CONTAINERS,
    DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_SIZE,
    decode,
)
from por.encoding.encoder import encode

__all__ = ["DEFAULT_MAX_CONTAINERS", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_SIZE", "decode", "encode"]
