"""Values computed once per state of a fabric: many devices' stage-1 data need the same whole-fabric
answer (every leaf's pins file the leaf index, every host whether its design isolates rails), and
the fabric's next event drops them."""

from __future__ import annotations

import weakref
from typing import Callable, TypeVar

from .fabric import Fabric

T = TypeVar("T")
_ATTR = "_per_state_values"


def per_state(fabric: Fabric, compute: Callable[[Fabric], T]) -> T:
    """``compute(fabric)``, computed once until the fabric changes (``compute`` is the key: pass a
    module-level function). The values live on the fabric itself: a value that refers back to its fabric
    (a cable plan does) then goes with it, where a module-level weak-key map would keep both alive."""
    values = getattr(fabric, _ATTR, None)
    if values is None:
        values = {}
        setattr(fabric, _ATTR, values)

        def forget(event, ref=weakref.ref(fabric)):
            owner = ref()
            if owner is not None:
                setattr(owner, _ATTR, None)
                owner.unsubscribe(forget)

        fabric.subscribe(forget)
    if compute not in values:
        values[compute] = compute(fabric)
    return values[compute]


def forget(fabric: Fabric) -> None:
    """Drop what was computed for ``fabric`` now (a window letting go of a design: a value that refers back
    to its fabric would otherwise wait for the cycle collector, which the window keeps out of a settled
    design's objects)."""
    if getattr(fabric, _ATTR, None) is not None:
        setattr(fabric, _ATTR, None)
