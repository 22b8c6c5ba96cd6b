"""Autosave to a recovery file (every minute and shortly after edits) and restore after a crash.

Every window has its own recovery file in one folder, ``<id>.fabric.yaml``, and holds ``<id>.lock``
(a `QLockFile`) for as long as it runs. The file exists only while its design has unsaved changes:
saving, or closing cleanly, removes it. Beside it, ``<id>.fabric.yaml.json`` says which design it
is (its file, or none yet), its name, and when it was autosaved, so a restore names the design and
Save goes back to that design's file.

At start a window offers only the recovery files whose lock no running process holds: what a
window that crashed (or was killed) left. Another window that is still running keeps its file and
is never offered; the lock's owner is told apart by its process id, as QLockFile does.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QLockFile, QObject, QStandardPaths, QTimer

SUFFIX = ".fabric.yaml"
LEGACY_NAME = "recovery.fabric.yaml"     # the shared file of earlier versions, beside the folder
ABOUT_SUFFIX = ".json"
LOCK_SUFFIX = ".lock"
EVERY_MS = 60_000
AFTER_EDIT_MS = 2_000
_folder_override: Path | None = None


def default_folder() -> Path:
    """Where the windows' recovery files live (`app.use_private_scope` points it elsewhere)."""
    if _folder_override is not None:
        return _folder_override
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    folder = Path(base) if base else Path.home() / ".local" / "share" / "rail-designer"
    return folder / "recovery"


def set_default_folder(folder: Path | None) -> None:
    global _folder_override
    _folder_override = Path(folder) if folder is not None else None


@dataclass(frozen=True)
class RecoveredDesign:
    """What a recovery file is a copy of."""

    path: Path | None          # the design's own file (None: it was never saved)
    name: str                  # the design's name as the title bar showed it
    saved_at: datetime | None  # when the autosave was written

    def describe(self) -> str:
        what = f"{self.name} ({self.path})" if self.path else f"{self.name} (never saved to a file)"
        when = f" autosaved {self.saved_at:%Y-%m-%d %H:%M}" if self.saved_at else ""
        return what + when


class Orphan:
    """A recovery file no running window holds; this process holds its lock until `release`."""

    def __init__(self, path: Path, lock: QLockFile):
        self.path, self.lock = path, lock
        self.about = read_about(path)

    def load(self):
        from ..storage import load
        return load(self.path)

    def discard(self) -> None:
        _remove(self.path, about_path(self.path))
        self.release()

    def release(self) -> None:
        if self.lock.isLocked():
            self.lock.unlock()           # also removes the lock file


def about_path(path: Path) -> Path:
    return path.with_name(path.name + ABOUT_SUFFIX)


def lock_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(SUFFIX) + LOCK_SUFFIX)


def read_about(path: Path) -> RecoveredDesign:
    """Which design a recovery file holds; a missing or unreadable note gives what is known."""
    try:
        raw = json.loads(about_path(path).read_text(encoding="utf-8"))
        design = Path(raw["path"]) if raw.get("path") else None
        saved = datetime.fromisoformat(raw["saved_at"]) if raw.get("saved_at") else None
        return RecoveredDesign(design, str(raw.get("name") or "unsaved design"), saved)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        stamp = datetime.fromtimestamp(path.stat().st_mtime) if path.is_file() else None
        return RecoveredDesign(None, "unsaved design", stamp)


def _claim(path: Path) -> QLockFile | None:
    """The lock of a recovery file, taken when no running process holds it (else None)."""
    lock = QLockFile(str(lock_path(path)))
    lock.setStaleLockTime(0)             # held for a window's life: only a dead owner makes it stale
    return lock if lock.tryLock(0) else None


def _remove(*paths: Path) -> None:
    for path in paths:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


class Recovery(QObject):
    def __init__(self, document, folder: Path | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.folder = Path(folder) if folder else default_folder()
        self.path = self.folder / f"{uuid.uuid4().hex[:12]}{SUFFIX}"
        self.lock = QLockFile(str(lock_path(self.path)))
        self.lock.setStaleLockTime(0)
        self.last_error: str | None = None
        self._every = QTimer(self)
        self._every.setInterval(EVERY_MS)
        self._every.timeout.connect(self.save_now)
        self._after_edit = QTimer(self)
        self._after_edit.setSingleShot(True)
        self._after_edit.setInterval(AFTER_EDIT_MS)
        self._after_edit.timeout.connect(self.save_now)
        document.undo_stack.indexChanged.connect(self._edited)
        document.state_changed.connect(self._state_changed)

    def _edited(self, _index: int) -> None:
        self._after_edit.start()

    def start(self) -> None:
        self._every.start()

    def _state_changed(self) -> None:
        if not self.document.dirty:
            self.discard()

    def _hold(self) -> bool:
        """This window's lock (taken before its first autosave); False, with the reason, when it cannot be."""
        if self.lock.isLocked():
            return True
        self.folder.mkdir(parents=True, exist_ok=True)
        if self.lock.tryLock(0):
            return True
        raise OSError(f"cannot take the lock {lock_path(self.path)} ({self.lock.error().name})")

    def save_now(self) -> None:
        self._after_edit.stop()
        if not self.document.dirty:
            self.discard()
            return
        from ..storage import save
        from ..storage.yamlio import write_atomic
        doc = self.document
        about = {"path": str(doc.path.resolve()) if doc.path else None, "name": doc.display_name(),
                 "saved_at": datetime.now().isoformat(timespec="seconds"), "pid": os.getpid()}
        try:
            self._hold()
            save(doc.fabric, self.path)
            write_atomic(self.about_path, json.dumps(about, indent=1) + "\n")
            self.last_error = None
        except Exception as exc:      # autosave must never interrupt the user
            self.last_error = f"autosave to {self.path} failed: {exc}"

    @property
    def about_path(self) -> Path:
        return about_path(self.path)

    def discard(self) -> None:
        """No unsaved work to keep: the file goes; the lock stays while the window runs."""
        _remove(self.path, self.about_path)

    def close(self) -> None:
        """The window closed cleanly: nothing of it is left behind."""
        self._every.stop()
        self._after_edit.stop()
        self.discard()
        if self.lock.isLocked():
            self.lock.unlock()

    def about(self) -> RecoveredDesign:
        return read_about(self.path)

    def _take_legacy(self) -> None:
        """The one recovery file every window shared before (``recovery.fabric.yaml`` beside the
        folder) moves in as a crashed window's, so a crash just before an upgrade is still offered."""
        old = self.folder.parent / LEGACY_NAME
        if not old.is_file():
            return
        new = self.folder / f"{uuid.uuid4().hex[:12]}{SUFFIX}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            if about_path(old).is_file():
                os.replace(about_path(old), about_path(new))
            os.replace(old, new)
        except OSError:           # another window took it first, or the folder is not writable
            pass

    def pending(self) -> bool:
        return self.path.is_file()

    def orphans(self) -> list[Orphan]:
        """The recovery files of windows that are no longer running, newest first, each claimed
        (locked) by this process until released or discarded; this window's own file is not one."""
        self._take_legacy()
        found = []
        for path in sorted(self.folder.glob(f"*{SUFFIX}")) if self.folder.is_dir() else ():
            if path == self.path:
                continue
            lock = _claim(path)
            if lock is not None:
                found.append(Orphan(path, lock))
        return sorted(found, key=lambda o: o.about.saved_at or datetime.min, reverse=True)
