"""Changes: what differs between two designs or two bundles, device by device, and whether it is
additive (a running fabric takes it without an outage) or disruptive."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..changes.report import ChangeReport
    from ..model.fabric import Fabric

DESIGN, BUNDLE = "design", "bundle"


def diff(old: Fabric | str | os.PathLike, new: Fabric | str | os.PathLike, *,
         catalogs: Iterable[str | os.PathLike] = ()) -> ChangeReport:
    """What changed from ``old`` to ``new``: two designs (design files, or loaded `Fabric`s) or two bundle
    folders written by `export_bundle`.

    Returns a `ChangeReport`: ``devices`` (every device of either side, with ``status`` added, removed,
    unchanged, additive or disruptive and the ``changes`` that earned it: ``kind``, ``key``, ``old``,
    ``new``, ``disruptive``), ``fabric`` (design-wide settings, or bundle-wide files), ``counts`` and
    ``disruptive`` (what a CI gate stops on). ``catalogs``: hardware catalog files the designs use, as
    for `load`. Raises a DesignerError (``ChangeInputError``) for a missing path, a design beside a
    bundle, a bundle whose MANIFEST.sha256 is missing or malformed, or a file it reads that no longer
    matches its manifest line, and ``FileFormatError`` for a design file that cannot be loaded."""
    from ..changes.bundle_diff import diff_bundles
    from ..changes.design_diff import diff_designs
    from ..changes.errors import ChangeInputError
    from .design import load
    kinds = [_kind(old), _kind(new)]
    if kinds[0] != kinds[1]:
        raise ChangeInputError(f"cannot compare {_shown(old, kinds[0])} with {_shown(new, kinds[1])}: give two "
                               "design files or two bundle folders")
    if kinds[0] == BUNDLE:
        return diff_bundles(Path(old), Path(new))
    fabrics = [side if not isinstance(side, (str, os.PathLike)) else load(side, catalogs=catalogs)
               for side in (old, new)]
    return diff_designs(*fabrics, _name(old, "old design"), _name(new, "new design"))


def _kind(side) -> str:
    from ..changes.errors import ChangeInputError
    if not isinstance(side, (str, os.PathLike)):
        from ..model.fabric import Fabric
        if isinstance(side, Fabric):
            return DESIGN
        raise ChangeInputError(f"cannot compare a {type(side).__name__}: give a design file, a bundle folder "
                               "or a Fabric")
    path = Path(side)
    if path.is_dir():
        return BUNDLE
    if path.is_file():
        return DESIGN
    raise ChangeInputError(f"{path} does not exist" if not path.exists() else
                           f"{path} is neither a design file nor a bundle folder")


def _shown(side, kind: str) -> str:
    if not isinstance(side, (str, os.PathLike)):
        return "a design"
    return f"the {'design file' if kind == DESIGN else 'bundle folder'} {os.fspath(side)}"


def _name(side, fallback: str) -> str:
    return os.fspath(side) if isinstance(side, (str, os.PathLike)) else fallback
