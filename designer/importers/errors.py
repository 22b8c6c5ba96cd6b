"""The one error importers raise: what could not be read, and where."""

from __future__ import annotations


class ImportFormatError(ValueError):
    """Input a parser cannot read. ``str()`` names the source, the line and the text it stopped at."""

    def __init__(self, message: str, line: int | None = None, text: str | None = None,
                 source: str = "input"):
        self.message, self.line, self.text, self.source = message, line, text, source
        where = source + (f":{line}" if line else "")
        shown = f" (line reads: {text.strip()[:80]!r})" if text is not None and text.strip() else ""
        super().__init__(f"{where}: {message}{shown}")
