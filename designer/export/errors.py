"""The one error exporters raise: the bundle writer catches it and shows its message."""

from __future__ import annotations

from ..errors import DesignerError
from ..model.ids import hostname_problem, is_valid_port_name


class ExportError(DesignerError, ValueError):
    """A design that cannot be turned into files; the message says what, where and how to fix it."""


def require_hostname(hostname: str, device_id: str) -> str:
    """Refuse a host name that would be unsafe as a folder name or invalid in a config."""
    problem = hostname_problem(hostname)
    if problem:
        raise ExportError(f"cannot export {device_id}: its host name '{hostname}' is not valid ({problem}); "
                          "rename the device to letters, digits and hyphens")
    return hostname


def require_port_name(name: str, device_id: str) -> str:
    """Refuse an interface name that could escape a config line or a path (``../x``, ``a;b``, spaces)."""
    if not is_valid_port_name(name):
        raise ExportError(f"cannot export {device_id}: its interface name '{name}' is not valid; interface names "
                          "start with a letter and hold only letters, digits and _ . : / - (no '..')")
    return name
