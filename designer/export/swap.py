"""Putting a finished bundle folder in place, and keeping forked workers from outliving the export.

`swap_into_place(new, target)`:
- no target yet: one ``rename(2)``;
- a previous bundle there: ``renameat2(new, target, RENAME_EXCHANGE)`` (Linux 3.15+, glibc 2.28+,
  called through ctypes) swaps the two folders in one step, so the target path always holds a
  complete bundle, the old one or the new one; the old one, now under the scratch name, is removed.
- Fallback, where the kernel, the C library or the filesystem has no RENAME_EXCHANGE (ENOSYS,
  EINVAL, EOPNOTSUPP): the old bundle is renamed into a ``.old`` scratch folder and the new one
  renamed onto the target. Between those two renames (well under a millisecond) the target is
  absent; a process killed inside that gap leaves the old bundle under
  ``.<name>.rd-<host>-<pid>-<random>.old/bundle``, which the next export removes (and reports).
"""

from __future__ import annotations

import ctypes
import errno
import os
import shutil
import signal
from pathlib import Path

from ..storage.scratch import scratch_dir

PARTIAL, OLD = ".partial", ".old"
_AT_FDCWD = -100
_RENAME_EXCHANGE = 1 << 1
_PR_SET_PDEATHSIG = 1
_NO_EXCHANGE = {errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP}

try:
    _LIBC = ctypes.CDLL(None, use_errno=True)
except OSError:                                        # pragma: no cover - no C library to load
    _LIBC = None
_renameat2 = getattr(_LIBC, "renameat2", None)
if _renameat2 is not None:
    _renameat2.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
    _renameat2.restype = ctypes.c_int


def exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths; False when this system cannot (the caller falls back)."""
    if _renameat2 is None:
        return False
    if _renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _NO_EXCHANGE:
        return False
    raise OSError(code, os.strerror(code), str(b))


def swap_into_place(new: Path, target: Path) -> None:
    os.chmod(new, 0o755)
    if not os.path.lexists(target):
        os.rename(new, target)
    elif exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)           # ``new`` now holds the previous bundle
    else:
        old = scratch_dir(target, OLD)
        os.rename(target, old / "bundle")
        os.rename(new, target)
        shutil.rmtree(old, ignore_errors=True)


def die_with_parent(parent_pid: int) -> None:
    """Pool initializer: the kernel kills this worker when the exporting process dies
    (``prctl(PR_SET_PDEATHSIG, SIGKILL)``); a parent already gone ends it at once. Ctrl+C is the
    parent's to handle (it stops the pool): a worker ignores SIGINT rather than print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    prctl = getattr(_LIBC, "prctl", None)
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)
