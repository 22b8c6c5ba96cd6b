"""Which parts the bundle has, in the order they are written and listed."""

from __future__ import annotations

import importlib

from .parts import Part

# Modules under designer.export that define PARTS: list[Part].
PART_MODULES: list[str] = ["switches", "ppd", "hosts", "aid", "ansible", "monitoring", "clab", "infiniband", "scheduler", "sim"]


def parts() -> list[Part]:
    found: list[Part] = []
    for name in PART_MODULES:
        found.extend(importlib.import_module(f"{__package__}.{name}").PARTS)
    return found
