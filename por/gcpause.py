"""Pause Python's cyclic garbage collector around one large, acyclic job.

Building or verifying a bundle allocates millions of small objects (records,
decoded values, claims) that form no reference cycles, so reference counting
frees them.  The cyclic collector still rescans the growing heap, which made
verification time grow faster than the input (x120 for x100 items, measured
with bench/verify.py).  Pausing it restores linear time.  The previous state is
restored on exit, so a caller that disabled the collector keeps it disabled.
This is process-wide: other threads run without cyclic collection meanwhile.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block; restore its state after."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


__all__ = ["gc_paused"]
