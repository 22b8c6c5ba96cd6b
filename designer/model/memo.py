"""Values computed once per state of a fabric: many devices' stage-1 data need the same whole-fabric
answer (every leaf's pins file the leaf index, every host whether its design isolates rails), and
the fabric's next event drops them."""

from __future__ import annotations

import weakref
from typing import Callable, TypeVar

from .fabric import Fabric

T = TypeVar("T")
_MEMO: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def per_state(fabric: Fabric, compute: Callable[[Fabric], T]) -> T:
    """``compute(fabric)``, computed once until the fabric changes (``compute`` is the key: pass a
    module-level function)."""
    values = _MEMO.get(fabric)
    if values is None:
        values = _MEMO[fabric] = {}

        def forget(event, ref=weakref.ref(fabric)):
            owner = ref()
            if owner is not None:
                _MEMO.pop(owner, None)
                owner.unsubscribe(forget)

        fabric.subscribe(forget)
    if compute not in values:
        values[compute] = compute(fabric)
    return values[compute]
