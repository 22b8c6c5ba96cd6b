"""Autosave to a recovery file (every minute and shortly after edits) and restore after a crash.

The file exists only while there are unsaved changes: saving, or closing cleanly, removes it.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

FILE_NAME = "recovery.fabric.yaml"
EVERY_MS = 60_000
AFTER_EDIT_MS = 2_000


def default_path() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    folder = Path(base) if base else Path.home() / ".local" / "share" / "rail-designer"
    return folder / FILE_NAME


class Recovery(QObject):
    def __init__(self, document, path: Path | None = None, parent=None):
        super().__init__(parent)
        self.document = document
        self.path = Path(path) if path else default_path()
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

    def save_now(self) -> None:
        self._after_edit.stop()
        if not self.document.dirty:
            self.discard()
            return
        from ..storage import save
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            save(self.document.fabric, self.path)
            self.last_error = None
        except Exception as exc:      # autosave must never interrupt the user
            self.last_error = f"autosave to {self.path} failed: {exc}"

    def discard(self) -> None:
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass

    def pending(self) -> bool:
        return self.path.is_file()

    def load(self):
        from ..storage import load
        return load(self.path)
