"""Names that become paths or interface names in the bundle: refused, never rewritten, when unsafe."""

from __future__ import annotations

import re

from ..model.ids import hostname_problem, netdev_problem  # noqa: F401  (netdev_problem: exporters use it from here)
from .errors import ExportError


def refuse(kind: str, name: str, owner: str, problem: str | None) -> None:
    if problem:
        raise ExportError(f"{kind} '{name}' of {owner} cannot be exported: {problem}; rename it in the design")


def checked_hostname(device) -> str:
    """The device's host name, or ExportError naming it when it is not a valid RFC 1123 name."""
    refuse("host name", device.hostname, device.id, hostname_problem(device.hostname))
    return device.hostname


def design_stem(name: str) -> str:
    """The design's name as a file-name stem (lab and dashboard files): ASCII letters, digits, '-', '.'
    and '_', starting and ending with a letter or digit, at most 64 characters; "fabric" if nothing is
    left. The name itself is free text, so it is rewritten here, never refused."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "-", name)
    return stem[:64].strip("-._") or "fabric"
