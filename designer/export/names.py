"""Names that become paths or interface names in the bundle: refused, never rewritten, when unsafe."""

from __future__ import annotations

import re

from ..model.ids import hostname_problem
from .errors import ExportError

_NETDEV = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")


def refuse(kind: str, name: str, owner: str, problem: str | None) -> None:
    if problem:
        raise ExportError(f"{kind} '{name}' of {owner} cannot be exported: {problem}; rename it in the design")


def checked_hostname(device) -> str:
    """The device's host name, or ExportError naming it when it is not a valid RFC 1123 name."""
    refuse("host name", device.hostname, device.id, hostname_problem(device.hostname))
    return device.hostname


def netdev_problem(name: str) -> str | None:
    """Say what is wrong with a Linux interface name, or None (IFNAMSIZ: at most 15 characters)."""
    if not name:
        return "it is empty"
    if len(name) > 15:
        return f"it has {len(name)} characters (Linux allows at most 15)"
    if name in (".", ".."):
        return "it is '.' or '..'"
    if not _NETDEV.match(name):
        bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c in "_.-"))})
        return f"it contains {' '.join(repr(c) for c in bad)}; only letters, digits, '.', '-' and '_' are allowed"
    return None
