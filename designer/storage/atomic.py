"""Atomic file replacement that respects the file it replaces.

`write_atomic` writes a scratch file beside the target, fsyncs it, and renames it over the target,
so a reader sees the old file or the new one, never half. On top of that it:
- keeps the replaced file's permission bits and owner (a 0600 design stays 0600);
- writes through a symlink to the file it points at (the link stays a link);
- refuses to replace a read-only file (no write permission for its owner) unless ``force``;
- removes scratch files that killed runs left beside the target, and returns their paths so the
  caller can say so (`scratch.remove_leftovers`).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .scratch import remove_leftovers, scratch_file

SUFFIX = ".tmp"


class RefusedWrite(PermissionError):
    """The target is read-only, or its owner cannot be kept, and ``force`` was not given.
    ``strerror`` is the whole sentence to show after the file name; ``reason`` its first half (what
    the file is), for a caller that asks its user instead of pointing at --force."""

    def __init__(self, code: int, reason: str, hint: str, filename: str):
        super().__init__(code, f"{reason}; {hint}", filename)
        self.reason = reason


def write_problem(exc: OSError) -> str:
    """What to say after the file name when a write failed."""
    return exc.strerror if isinstance(exc, RefusedWrite) else f"cannot be written: {exc.strerror or exc}"


def write_atomic(path: Path, data: str | bytes, force: bool = False) -> list[Path]:
    """Replace ``path`` with ``data`` all at once; returns the leftover scratch files it removed."""
    target = _resolve(Path(path))
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        old = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None and not force and _read_only(target, old):
        raise RefusedWrite(errno.EACCES, f"is read-only (mode {stat.S_IMODE(old.st_mode):04o})",
                           "make it writable (chmod u+w) or, on the command line, add --force to replace it", str(path))
    removed = remove_leftovers(target, (SUFFIX,))
    fd, tmp = scratch_file(target, SUFFIX)
    try:
        _keep_attributes(fd, old, force, str(path))
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    _sync_dir(target.parent)
    return removed


def _resolve(path: Path) -> Path:
    """The file a symlink (or a chain of them) points at; ``path`` itself otherwise."""
    if not path.is_symlink():
        return path
    return Path(os.path.realpath(path))


def _read_only(target: Path, st: os.stat_result) -> bool:
    if not stat.S_ISREG(st.st_mode):
        return False                      # os.replace reports folders and devices itself
    return not st.st_mode & stat.S_IWUSR or not os.access(target, os.W_OK)


def _keep_attributes(fd: int, old: os.stat_result | None, force: bool, shown: str) -> None:
    """Give the scratch file the old file's owner and mode (a new file: the umask's default mode)."""
    if old is None:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        return
    if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.fchown(fd, old.st_uid, old.st_gid)
        except PermissionError:
            if not force:
                raise RefusedWrite(errno.EPERM, f"belongs to user {old.st_uid} (group {old.st_gid}) and a save "
                                   "by you cannot keep that owner", "save it as that user or, on the command "
                                   "line, add --force to replace it with a file you own", shown) from None
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def _sync_dir(folder: Path) -> None:
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    except OSError:
        pass
