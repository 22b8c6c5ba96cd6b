"""The source-of-truth exchange's one refusal type."""

from __future__ import annotations

from ..errors import DesignerError


class SotError(DesignerError, ValueError):
    """Push or pull cannot go on: the server is unreachable or refused a request, the token is unusable,
    an object in the way is not the tool's, or what the server holds does not make a design. The message
    says which object and what to do."""


def client_module(name: str):
    """The server's own Python client (pynautobot or pynetbox), or a refusal saying how to install it."""
    import importlib
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise SotError(f"{name} is not installed ({exc}): install it with pip install 'rail-designer[sot]'") from None
