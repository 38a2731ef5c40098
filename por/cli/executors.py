"""Where ``por verify`` runs its checks: here, a process pool, or a Dask cluster.

``--jobs N`` (N > 1) opens a ``ProcessPoolExecutor`` with the ``spawn`` start
method (no state inherited from this process); ``--executor ADDR`` connects to
a Dask scheduler and uses ``distributed.Client.get_executor()``, a standard
``concurrent.futures.Executor``.  Dask is an extra (``pip install 'por[dask]'``)
imported only here and only when asked for; no scheduler is written here.

The bytes of each bundle travel to the workers, so workers need no shared file
system; they need the same por version installed (checked per result by
``verifier.archive``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from por.cli.common import CliError

if TYPE_CHECKING:
    from concurrent.futures import Executor

#: Inputs in flight per worker: enough to keep workers busy, bounded memory.
WINDOW_PER_WORKER = 4


@contextmanager
def open_executor(jobs: int, address: str | None) -> Iterator[tuple[Executor | None, int]]:
    """``(executor or None, window)`` for the options; closes what it opened."""
    if address is not None:
        with _dask_executor(address) as (executor, workers):
            yield executor, max(1, workers) * WINDOW_PER_WORKER
        return
    if jobs <= 1:
        yield None, 1
        return
    # Imported here: a serial run (the common case) pays nothing for the pool.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        yield pool, jobs * WINDOW_PER_WORKER


@contextmanager
def _dask_executor(address: str) -> Iterator[tuple[Executor, int]]:
    try:
        # Imported by name: Dask is an optional extra and untyped.
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise CliError("usage.executor",
                       "--executor needs Dask: pip install 'por[dask]'") from None
    try:
        client = distributed.Client(address, timeout=10, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise CliError("archive.executor_unavailable",
                       f"cannot reach the Dask scheduler at {address}: "
                       f"{type(exc).__name__}") from None
    try:
        workers = len(client.scheduler_info().get("workers", {}))
        yield client.get_executor(), workers
    finally:
        client.close()


__all__ = ["WINDOW_PER_WORKER", "open_executor"]
