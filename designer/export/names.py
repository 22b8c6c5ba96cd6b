"""Names that become paths or interface names in the bundle: refused, never rewritten, when unsafe."""

from __future__ import annotations

from ..model.ids import hostname_problem, netdev_problem  # noqa: F401  (netdev_problem: exporters use it from here)
from .errors import ExportError


def refuse(kind: str, name: str, owner: str, problem: str | None) -> None:
    if problem:
        raise ExportError(f"{kind} '{name}' of {owner} cannot be exported: {problem}; rename it in the design")


def checked_hostname(device) -> str:
    """The device's host name, or ExportError naming it when it is not a valid RFC 1123 name."""
    refuse("host name", device.hostname, device.id, hostname_problem(device.hostname))
    return device.hostname
