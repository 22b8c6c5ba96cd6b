"""Work spread over forked processes that read the parent's data without copying it (Linux fork).

`sharing(data, workers)` makes ``data`` what `shared()` returns, in this process and in the workers it
forks, and gives an ``imap(function, items)`` that runs ``function`` over ``items`` in order: in
``workers`` forked processes when there are several, else here. The pool is forked at the first
``imap`` call, so whatever the parent computed before it (a part's whole-fabric data, a bundle's parsed
switch configs) is shared by every worker for free. Only ``items`` and the results are pickled. Workers die
with the process that forked them (`swap.die_with_parent`) and are stopped when the block ends.

The bundle's renderers (`bundle`) and the QoS check of a written bundle (`qos.check`) use it.
"""

from __future__ import annotations

import multiprocessing
import os
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from .swap import die_with_parent

PARALLEL_FROM_DEVICES = 500       # forked workers pay off from a few hundred devices
MAX_WORKERS = 4
_SHARED: Any = None


def workers_for(devices: int) -> int:
    """How many processes to fork for work over ``devices`` devices: one for small designs, up to four."""
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS)) if devices >= PARALLEL_FROM_DEVICES else 1


def shared() -> Any:
    """The ``data`` of the `sharing` block this process (or its parent, before forking it) is in."""
    return _SHARED


@contextmanager
def sharing(data: Any, workers: int) -> Iterator[Callable[[Callable, Iterable], Iterator]]:
    global _SHARED
    before, _SHARED, pools = _SHARED, data, []

    def imap(function: Callable, items: Iterable) -> Iterator:
        if workers <= 1:
            return map(function, items)
        pool = multiprocessing.get_context("fork").Pool(workers, initializer=die_with_parent,
                                                        initargs=(os.getpid(),))
        pools.append(pool)
        return pool.imap(function, items)
    try:
        yield imap
    finally:
        _SHARED = before
        for pool in pools:
            pool.terminate()
            pool.join()
