"""The open design: a Fabric, its undo stack, its file path and whether it has unsaved changes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.gcpause import thaw
from ..model.memo import forget
from ..planning.errors import PlanningError
from .commands import FabricCommand

DEFAULT_TITLE = "untitled"


class Document(QObject):
    fabric_replaced = Signal(object)   # the new Fabric (after New / Open / restore)
    state_changed = Signal()           # title, path or dirty state changed
    model_changed = Signal(object)     # every Fabric event (a model.events.Event), relayed for the docks
    notice = Signal(str)               # an edit went through but left something undone (say so)

    def __init__(self, fabric: Fabric, path: Path | None = None, parent=None):
        super().__init__(parent)
        self.fabric = fabric
        self.path = path
        self.undo_stack = QUndoStack(self)
        self._restored = False            # a recovery restore is unsaved until saved
        self.undo_stack.cleanChanged.connect(self._clean_changed)
        fabric.subscribe(self._relay)

    def _clean_changed(self, _clean: bool) -> None:
        self.state_changed.emit()

    def _relay(self, event) -> None:
        self.model_changed.emit(event)

    # ------------------------------------------------------------------ edits
    def execute(self, command: FabricCommand) -> str | None:
        """Apply ``command`` and push it; a refused edit returns the model's reason and changes nothing."""
        try:
            command.run()
        except (ModelError, PlanningError, ValueError, KeyError) as exc:
            return _reason(exc)
        command._skip_redo = True
        self.undo_stack.push(command)
        if command.problems:
            more = f" (and {len(command.problems) - 1} more)" if len(command.problems) > 1 else ""
            self.notice.emit(f"{command.text()}: {command.problems[0]}{more}")
        return None

    # ------------------------------------------------------------------ state
    @property
    def dirty(self) -> bool:
        return self._restored or not self.undo_stack.isClean()

    def display_name(self) -> str:
        return self.path.name if self.path else (self.fabric.settings.name or DEFAULT_TITLE)

    def title(self) -> str:
        return f"{'*' if self.dirty else ''}{self.display_name()} — Rail Designer"

    def replace(self, fabric: Fabric, path: Path | None, restored: bool = False) -> None:
        """Switch to another design (New, Open, restore); its history starts empty."""
        thaw()                               # the old design (settled by the checks) is collectable again
        self.undo_stack.clear()
        forget(self.fabric)                  # its cached whole-fabric answers refer back to it
        self.fabric.unsubscribe(self._relay)
        self.fabric = fabric
        fabric.subscribe(self._relay)
        self.path = path
        self._restored = restored
        self.undo_stack.setClean()
        self.fabric_replaced.emit(fabric)
        self.state_changed.emit()

    # ------------------------------------------------------------------ files
    def open(self, path: Path) -> None:
        """Load ``path``; raises storage.FileFormatError (one readable line) and keeps the design."""
        from ..storage import load
        fabric = load(Path(path))
        self.replace(fabric, Path(path))

    def save(self, path: Path | None = None, force: bool = False) -> Path:
        """Save to ``path`` (default: the design's file); ``force`` replaces a read-only file."""
        from ..storage import save
        target = Path(path) if path else self.path
        if target is None:
            raise ValueError("the design has no file yet; use Save As")
        save(self.fabric, target, force=force)
        self.path = target
        self._restored = False
        self.undo_stack.setClean()
        self.state_changed.emit()
        return target


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError) and exc.args:
        return str(exc.args[0])
    if isinstance(exc, PlanningError):
        return "; ".join(getattr(exc, "problems", None) or [str(exc)])
    return str(exc)
