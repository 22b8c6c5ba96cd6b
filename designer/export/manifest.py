"""Reading a bundle's MANIFEST.sha256 (``<sha256>  <path>`` per file, as `bundle.export` writes it), for the
readers that compare bundles (`changes.bundle_diff`, `since`): bounded, UTF-8, every path a plain
relative path inside the bundle, refused with the line at fault otherwise."""

from __future__ import annotations

import re
from pathlib import Path

from ..model.limits import MIB, excerpt
from .bundle import MANIFEST
from .errors import ExportError

MAX_MANIFEST_BYTES = 64 * MIB                                 # 101,655 files of the largest bundle: 10 MB
_LINE = re.compile(r"([0-9a-f]{64})  ([^\n\r]+)\Z").match
_WHOLE = re.compile(r"(?:[0-9a-f]{64}  [^\n\r]+\n)*").fullmatch


def read_manifest(folder: Path, error: type[Exception] = ExportError) -> dict[str, str]:
    """Bundle path -> SHA-256 of every file a bundle's MANIFEST.sha256 lists; ``error`` (a DesignerError
    type) is what a missing, oversized or malformed manifest raises."""
    path = folder / MANIFEST
    if not path.is_file():
        raise error(f"{folder} is not a rail-designer bundle: it has no {MANIFEST} "
                    "(a bundle is the folder `rail-designer export` writes)")
    with path.open("rb") as f:
        data = f.read(MAX_MANIFEST_BYTES + 1)
    if len(data) > MAX_MANIFEST_BYTES:
        raise error(f"{path} is larger than {MAX_MANIFEST_BYTES >> 20} MB, the most this tool reads")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text; export the bundle again") from None
    lines = text.split("\n")
    if _WHOLE(text) and not any(_unsafe(line[66:]) for line in lines[:-1]):   # the usual case: one C-level match
        return {line[66:]: line[:64] for line in lines[:-1]}
    for number, line in enumerate(lines[:-1], 1):
        m = _LINE(line)
        if not m or _unsafe(m.group(2)):
            shown = excerpt(m.group(2) if m else line)
            raise error(f"{path}, line {number}: {shown} is not '<sha256>  <path inside the bundle>'; "
                        "export the bundle again")
    raise error(f"{path} does not end with a line break; export the bundle again")


def _unsafe(rel: str) -> bool:
    """A manifest path that is not a plain relative path inside the bundle."""
    return rel.startswith("/") or "\\" in rel or any(word in f"/{rel}/" for word in ("//", "/./", "/../"))
