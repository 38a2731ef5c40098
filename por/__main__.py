"""``python -m por``: the same as the ``por`` console script."""

import sys

from por.cli import main

if __name__ == "__main__":
    sys.exit(main())
