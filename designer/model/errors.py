"""The one exception type the model raises for an edit it refuses."""

from __future__ import annotations

from ..errors import DesignerError


class ModelError(DesignerError, ValueError):
    """An edit that would make the design inconsistent. The message says what and how to fix it."""

    def __init__(self, message: str, ids: tuple[str, ...] = ()):
        super().__init__(message)
        self.ids = ids
