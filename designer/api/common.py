"""What several API functions share: naming a device by id or host name, and reading a pasted input."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import UnknownDevice

if TYPE_CHECKING:
    from ..model.fabric import Fabric

STDIN = "-"


def device_id(fabric: Fabric, name: str) -> str:
    """The id of the server or switch ``name`` names (its id or its host name), or UnknownDevice."""
    if fabric.has_device(name):
        return name
    owner = fabric.hostname_owner(name)
    if owner is None:
        raise UnknownDevice(f"the design has no device named '{name}'")
    return owner


def read_input(name: str | os.PathLike, limit: int, what: str) -> str:
    """A pasted input file, ``"-"`` meaning standard input, refused past ``limit`` bytes or when not UTF-8."""
    from ..importers.errors import ImportFormatError
    from ..storage.yamlio import read_text
    if os.fspath(name) != STDIN:
        return read_text(Path(name), limit, what)
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise ImportFormatError(f"more than {limit >> 20} MB, the most this tool reads as {what}",
                                source="standard input")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ImportFormatError("is not UTF-8 text", source="standard input") from None
