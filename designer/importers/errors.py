"""The one error importers raise: what could not be read, and where."""

from __future__ import annotations

from ..errors import DesignerError


class ImportFormatError(DesignerError, ValueError):
    """Input a parser cannot read. ``str()`` names the source, the line and the text it stopped at."""

    def __init__(self, message: str, line: int | None = None, text: str | None = None,
                 source: str = "input"):
        self.message, self.line, self.text, self.source = message, line, text, source
        where = source + (f":{line}" if line else "")
        shown = f" (line reads: {text.strip()[:80]!r})" if text is not None and text.strip() else ""
        super().__init__(f"{where}: {message}{shown}")


class ImportRefused(DesignerError, ValueError):
    """Input that reads well but cannot be used as asked: a model id or NIC speed out of range, names that
    fit no rail NIC of the servers, two NICs of one server given one interface name."""
