"""Autosave to a recovery file (every minute and shortly after edits) and restore after a crash.

The file exists only while there are unsaved changes: saving, or closing cleanly, removes it.
Beside it, ``<recovery file>.json`` says which design it is (its file, or none yet), its name, and
when it was autosaved, so a restore names the design and Save goes back to that design's file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer

FILE_NAME = "recovery.fabric.yaml"
ABOUT_SUFFIX = ".json"
EVERY_MS = 60_000
AFTER_EDIT_MS = 2_000


def default_path() -> Path:
    base = QStandardPaths.writableLocation(QStandardPaths.AppDataLocation)
    folder = Path(base) if base else Path.home() / ".local" / "share" / "rail-designer"
    return folder / FILE_NAME


@dataclass(frozen=True)
class RecoveredDesign:
    """What the recovery file is a copy of."""

    path: Path | None          # the design's own file (None: it was never saved)
    name: str                  # the design's name as the title bar showed it
    saved_at: datetime | None  # when the autosave was written

    def describe(self) -> str:
        what = f"{self.name} ({self.path})" if self.path else f"{self.name} (never saved to a file)"
        when = f" autosaved {self.saved_at:%Y-%m-%d %H:%M}" if self.saved_at else ""
        return what + when


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
        from ..storage.yamlio import write_atomic
        doc = self.document
        about = {"path": str(doc.path.resolve()) if doc.path else None, "name": doc.display_name(),
                 "saved_at": datetime.now().isoformat(timespec="seconds")}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            save(doc.fabric, self.path)
            write_atomic(self.about_path, json.dumps(about, indent=1) + "\n")
            self.last_error = None
        except Exception as exc:      # autosave must never interrupt the user
            self.last_error = f"autosave to {self.path} failed: {exc}"

    @property
    def about_path(self) -> Path:
        return self.path.with_name(self.path.name + ABOUT_SUFFIX)

    def discard(self) -> None:
        for path in (self.path, self.about_path):
            try:
                os.remove(path)
            except FileNotFoundError:
                pass

    def about(self) -> RecoveredDesign:
        """Which design the recovery file holds; a missing or unreadable note gives what is known."""
        try:
            raw = json.loads(self.about_path.read_text(encoding="utf-8"))
            path = Path(raw["path"]) if raw.get("path") else None
            saved = datetime.fromisoformat(raw["saved_at"]) if raw.get("saved_at") else None
            return RecoveredDesign(path, str(raw.get("name") or "unsaved design"), saved)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            stamp = datetime.fromtimestamp(self.path.stat().st_mtime) if self.path.is_file() else None
            return RecoveredDesign(None, "unsaved design", stamp)

    def pending(self) -> bool:
        return self.path.is_file()

    def load(self):
        from ..storage import load
        return load(self.path)
