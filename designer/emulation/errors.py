"""The one exception the emulation raises for a reason it cannot run (shared by every module)."""

from ..errors import DesignerError


class EmulationError(DesignerError):
    """A readable, one-message reason the emulation cannot run."""
