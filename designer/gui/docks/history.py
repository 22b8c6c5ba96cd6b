"""The undo history: every edit by name; clicking one goes back (or forward) to it."""

from __future__ import annotations

from PySide6.QtWidgets import QDockWidget, QUndoView


class HistoryDock(QDockWidget):
    def __init__(self, undo_stack, parent=None):
        super().__init__("History", parent)
        self.setObjectName("HistoryDock")
        self.view = QUndoView(undo_stack)
        self.view.setEmptyLabel("<opened>")
        self.setWidget(self.view)
