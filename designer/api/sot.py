"""The source of truth: push a design into Nautobot or NetBox, pull one back (docs/sot.md)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..model.fabric import Fabric
    from ..sot.push import PushResult


def sot_push(fabric: Fabric | str | os.PathLike, url: str, token: str, *, kind: str = "nautobot",
             dry_run: bool = False) -> PushResult:
    """Make the source of truth at ``url`` (``kind`` 'nautobot' or 'netbox', ``token`` an API token with write
    rights) hold the design: manufacturers, device types, roles, the site, racks, devices, interfaces,
    cables, prefixes, addresses and the rail_designer custom fields. Objects are keyed on names, so a
    second push changes nothing; only objects carrying the ``rail-designer`` tag are ever changed or
    deleted. With ``dry_run`` nothing is written. Returns a ``PushResult``: ``changes`` (each with
    ``kind``, ``key``, ``action`` create / update / delete, ``fields`` and ``line()``), ``summary``
    ('0 changes' when the server already holds the design) and ``written``. Raises a DesignerError
    (``SotError``) naming the object or request the server refused."""
    from ..sot.push import push
    from .design import load
    design = load(fabric) if isinstance(fabric, (str, os.PathLike)) else fabric
    return push(design, url, token, kind=kind, dry_run=dry_run)


def sot_pull(url: str, token: str, *, site: str | None = None, kind: str = "nautobot") -> Fabric:
    """The design the source of truth at ``url`` holds at ``site`` (default: the one site rail-designer
    wrote there), rebuilt as a `Fabric`: compare it with the design file through `diff`. Raises a
    DesignerError (``SotError``, or ``FileFormatError`` when what the server holds is not a valid design)."""
    from ..sot.pull import pull
    return pull(url, token, site, kind=kind)
