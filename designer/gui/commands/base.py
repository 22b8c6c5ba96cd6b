"""The base of every undoable edit, and the macro that makes several edits one undo step.

A command is applied once by `Document.execute` (so a refused edit never reaches the stack);
the stack's first `redo()` after the push is then skipped.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ...model.fabric import Fabric


class FabricCommand(QUndoCommand):
    def __init__(self, fabric: Fabric, text: str):
        super().__init__(text)
        self.fabric = fabric
        self._skip_redo = False
        self.problems: list[str] = []     # what the edit did not manage (e.g. a full leaf subnet); shown, not refused

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError

    def run(self) -> None:
        """Apply, noting the SUs and rails the edit brought into the design (an undo drops them again)."""
        sus, rails = set(self.fabric.sus), set(self.fabric.rails)
        self.apply()
        self._made = (set(self.fabric.sus) - sus, set(self.fabric.rails) - rails)

    def redo(self) -> None:
        if self._skip_redo:
            self._skip_redo = False
            return
        self.run()

    def undo(self) -> None:
        self.revert()
        made = getattr(self, "_made", None)
        if made and (made[0] or made[1]):
            self.fabric.forget_unused(*made)


class MacroCommand(FabricCommand):
    """Several commands as one undo step (e.g. deleting a selection)."""

    def __init__(self, fabric: Fabric, text: str, parts: list[FabricCommand]):
        super().__init__(fabric, text)
        self.parts = parts

    def apply(self) -> None:
        done = []
        with self.fabric.batch():
            try:
                for part in self.parts:
                    part.apply()
                    done.append(part)
            except Exception:
                for part in reversed(done):
                    part.revert()
                raise

    def revert(self) -> None:
        with self.fabric.batch():
            for part in reversed(self.parts):
                part.revert()
