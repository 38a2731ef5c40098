"""``python -m por``: the same as the ``por`` console script."""

from por.cli import entry

if __name__ == "__main__":
    entry()
