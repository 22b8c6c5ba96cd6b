"""Drift: compare what switches and hosts run (their dumps) with a bundle."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..drift.findings import DriftReport


def check_drift(bundle: str | os.PathLike, dumps: str | os.PathLike) -> DriftReport:
    """Compare each device's dump with the bundle's files for it. ``bundle``: a folder `export_bundle`
    wrote; ``dumps``: a folder with one sub-folder per device dump (``rail-switch-apply.py dump DIR`` on a
    switch, ``hosts/<host>/rail-dump.sh DIR`` on a host), or one dump folder. Returns a ``DriftReport``:
    ``devices`` (each with ``device``, ``kind``, ``dump``, ``status`` 'clean' / 'drift' / 'not checked' /
    'partly checked', ``findings`` and ``converge()``, the commands to run), ``findings`` (each with
    ``code`` DR000-DR090, ``device``, ``key``, ``message``, ``expected``, ``actual``), ``clean`` (every device
    dumped, nothing differs) and ``owned_tables`` (CONFIG_DB table -> how far the bundle owns it).
    Raises a DesignerError (``DriftInputError``) for a bundle or dump that cannot be compared at all."""
    from ..drift.run import compare
    return compare(Path(bundle), Path(dumps))
