"""The one exception the emulation raises for a reason it cannot run (shared by every module)."""


class EmulationError(Exception):
    """A readable, one-message reason the emulation cannot run."""
