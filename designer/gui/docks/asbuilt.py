"""The as-built check: LLDP dumps compared with the design, cross-rail first, and the work order.

Mismatched cables are also marked on the canvas; double-click a row to select and centre them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QPushButton, QTreeWidget, QTreeWidgetItem,
                               QVBoxLayout, QWidget)

_WORST = QColor("#c62828")       # cross-rail: the costly mistake
_OTHER = QColor("#6a1b9a")


class AsBuiltDock(QDockWidget):
    activated = Signal(list)         # the ids of the double-clicked row
    cleared = Signal()

    def __init__(self, parent=None):
        super().__init__("As-built (LLDP)", parent)
        self.setObjectName("AsBuiltDock")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        self.summary = QLabel("Tools > Verify cabling against LLDP… compares a folder of dumps with the design")
        self.summary.setWordWrap(True)
        clear = QPushButton("Clear")
        clear.clicked.connect(self.clear)
        top.addWidget(self.summary, 1)
        top.addWidget(clear)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Kind", "What"])
        self.tree.setRootIsDecorated(True)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        layout.addLayout(top)
        layout.addWidget(self.tree)
        self.setWidget(body)

    def show_result(self, folder: str, result) -> None:
        self.tree.clear()
        problems = QTreeWidgetItem(["mismatches", f"{len(result.mismatches)} (cross-rail first)"])
        for m in result.mismatches:
            row = QTreeWidgetItem([m.kind, m.message])
            row.setData(0, Qt.UserRole, list(m.link_ids) or list(m.ends))
            row.setForeground(0, QBrush(_WORST if m.kind == "cross-rail" else _OTHER))
            row.setToolTip(1, m.message)
            problems.addChild(row)
        order = QTreeWidgetItem(["work order", f"{len(result.moves)} step(s) make the cabling match the plan"])
        for n, move in enumerate(result.moves, 1):
            order.addChild(QTreeWidgetItem([f"{n}. {move.action}", move.text]))
        self.tree.addTopLevelItems([problems, order])
        problems.setExpanded(True)
        order.setExpanded(True)
        self.tree.resizeColumnToContents(0)
        verdict = "cabled as planned" if result.ok else f"{len(result.mismatches)} mismatch(es)"
        self.summary.setText(f"{folder}: {len(result.as_planned)} cables as planned, {verdict}, "
                             f"{len(result.not_checked)} not checked (no dump at either end)")

    def clear(self) -> None:
        self.tree.clear()
        self.summary.setText("no as-built check loaded")
        self.cleared.emit()

    def _double_clicked(self, item, _column) -> None:
        ids = item.data(0, Qt.UserRole) or []
        if ids:
            self.activated.emit(list(ids))
