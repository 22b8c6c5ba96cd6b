"""Temporary files and folders beside a target, named so that a later run recognises its own leftovers.

A save writes ``.<name>.rd-<host>-<pid>-<random>.tmp`` and renames it over ``<name>``; an export
renders into ``.<name>.rd-<host>-<pid>-<random>.partial``. A run killed before its rename leaves
that scratch entry behind. The next run for the same target removes every such entry whose
process is gone (same host, pid no longer running) and reports what it removed; entries of a
live process, of another host (a shared folder), or not named by this scheme are never touched.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
from pathlib import Path

TAG = ".rd-"
_NAME_CHARS = 100                 # of the target's name inside a scratch name (file names end at 255 bytes)
_HOST = re.sub(r"[^A-Za-z0-9]+", "", socket.gethostname())[:32] or "host"


def _stem(target_name: str) -> str:
    return f".{target_name[:_NAME_CHARS]}{TAG}"


def _pattern(target_name: str, suffix: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(_stem(target_name))}(?P<host>[A-Za-z0-9]+)-(?P<pid>[0-9]+)-[A-Za-z0-9_]+"
                      rf"{re.escape(suffix)}\Z")


def scratch_file(target: Path, suffix: str = ".tmp") -> tuple[int, Path]:
    """A new scratch file beside ``target``: (open descriptor, path)."""
    fd, name = tempfile.mkstemp(prefix=f"{_stem(target.name)}{_HOST}-{os.getpid()}-", suffix=suffix,
                                dir=target.parent)
    return fd, Path(name)


def scratch_dir(target: Path, suffix: str = ".partial") -> Path:
    """A new scratch folder beside ``target``."""
    return Path(tempfile.mkdtemp(prefix=f"{_stem(target.name)}{_HOST}-{os.getpid()}-", suffix=suffix,
                                 dir=target.parent))


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:       # someone else's process: alive
        return True
    return True


def remove_leftovers(target: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """Remove the scratch entries of ``target`` left by runs that no longer exist; returns them."""
    patterns = [_pattern(target.name, s) for s in suffixes]
    stem = _stem(target.name)
    removed = []
    try:
        names = [n for n in os.listdir(target.parent) if n.startswith(stem)]
    except OSError:
        return []
    for name in sorted(names):
        match = next((m for m in (p.match(name) for p in patterns) if m), None)
        if match is None or match["host"] != _HOST or _running(int(match["pid"])):
            continue
        path = target.parent / name
        try:
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except OSError:
            continue
        removed.append(path)
    return removed
