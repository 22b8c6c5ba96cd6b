"""The one public exception base: every readable refusal of the designer derives from `DesignerError`.

A script catches `DesignerError` and gets the message the command line prints after
``rail-designer:``, word for word (the command line exits 2 on one). Each layer keeps its own
subclass, with the extra attributes it carries (`PlanningError.problems`, `FileFormatError.line`,
`ExportRefused.findings` ...); they all derive from this one. Anything else that escapes is a bug
(the command line's exit 70). This module imports nothing, so every layer may use it.
"""

from __future__ import annotations


class DesignerError(Exception):
    """A readable refusal: ``str()`` says what is wrong, where (file, line, object id) and how to fix it."""


class UnknownDevice(DesignerError, ValueError):
    """A server or switch (by id or host name) that the design does not have. The command line puts the
    design file's name in front of the message."""
