"""The ``por`` command line (DESIGN §4): the only code that touches files,
standard streams and exit codes.

``main(argv)`` returns the exit code (0 verified, 1 rejected, 2 no verdict);
the console script wrapper and ``python -m por`` pass it to ``sys.exit``.
Importing this package is light: pydantic, cbor2 and cryptography are
imported by the commands when they run, never for ``--help`` or ``--version``.
"""

from por.cli.app import main

__all__ = ["main"]
