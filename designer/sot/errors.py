"""The source-of-truth exchange's one refusal type."""

from __future__ import annotations

from ..errors import DesignerError


class SotError(DesignerError, ValueError):
    """Push or pull cannot go on: the server is unreachable or refused a request, the token is unusable,
    an object in the way is not the tool's, or what the server holds does not make a design. The message
    says which object and what to do."""
