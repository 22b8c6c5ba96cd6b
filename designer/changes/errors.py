"""The one readable refusal of the diff: inputs it cannot compare."""

from __future__ import annotations

from ..errors import DesignerError


class ChangeInputError(DesignerError, ValueError):
    """Two inputs that cannot be compared: a missing path, a design beside a bundle, a bundle without a
    usable MANIFEST.sha256, or a bundle file that no longer matches its manifest."""
