"""por: proof-of-reasoning verifier with RFC 9162 Merkle challenge support.

This top-level module is deliberately light: it imports nothing heavy so that
``por --help`` and ``por --version`` stay fast (no pydantic, cbor2 or
cryptography).  Import the sub-packages (``por.encoding``, ``por.merkle``,
``por.schemas``, ...) for the protocol itself.
"""

__version__ = "0.1.0"
SPEC_VERSION = "1.0"

__all__ = ["SPEC_VERSION", "__version__"]
