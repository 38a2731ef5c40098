"""The ``por`` command line (DESIGN §4): the only code that touches files,
standard streams and exit codes.

``main(argv)`` returns the exit code (0 verified, 1 rejected, 2 no verdict);
the console script and ``python -m por`` call ``entry()``, which exits with it.
Importing this package is light: pydantic, cbor2 and cryptography are
imported by the commands when they run, never for ``--help`` or ``--version``.
"""

from por.cli.app import entry, main

__all__ = ["entry", "main"]
