"""A window's "crash" for the recovery tests: its recovery lock is left behind by a process that was
killed (SIGKILL) while holding it, as a crashed designer leaves it; the recovery file stays."""

from __future__ import annotations

import subprocess
import sys

_HOLD_AND_DIE = ("import os, signal, sys\n"
                 "from PySide6.QtCore import QLockFile\n"
                 "lock = QLockFile(sys.argv[1]); lock.setStaleLockTime(0)\n"
                 "assert lock.tryLock(0), 'the lock is held'\n"
                 "os.kill(os.getpid(), signal.SIGKILL)\n")


def crash(window) -> None:
    """Leave ``window``'s recovery file as a crash would: the lock file of a dead process beside it."""
    lock = window.recovery.lock
    name = lock.fileName()
    if lock.isLocked():
        lock.unlock()
    done = subprocess.run([sys.executable, "-c", _HOLD_AND_DIE, name], capture_output=True, text=True, timeout=60)
    assert done.returncode == -9, done.stderr[-500:]
