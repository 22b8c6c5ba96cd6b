"""The checks' findings; double-click selects and centres the objects a finding names."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QDockWidget, QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

COLOURS = {"error": QColor("#c62828"), "warning": QColor("#ef6c00"), "info": QColor("#546e7a")}


class FindingsDock(QDockWidget):
    activated = Signal(list)         # the ids of the double-clicked finding

    def __init__(self, parent=None):
        super().__init__("Findings", parent)
        self.setObjectName("FindingsDock")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        self.summary = QLabel("no checks run yet")
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Severity", "Code", "Message"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.itemDoubleClicked.connect(self._double_clicked)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree)
        self.setWidget(body)

    def show_findings(self, findings: list, problem: str | None = None) -> None:
        self.tree.clear()
        ordered = sorted(findings, key=lambda f: (f.severity.rank, f.code, f.ids))
        rows = []
        for f in ordered:
            row = QTreeWidgetItem([f.severity.value, f.code, f.message])
            row.setData(0, Qt.UserRole, list(f.ids))
            row.setForeground(0, QBrush(COLOURS.get(f.severity.value, QColor("black"))))
            row.setToolTip(2, f"{f.message}\nHow to fix: {f.hint}" if f.hint else f.message)
            rows.append(row)
        self.tree.addTopLevelItems(rows)
        self.tree.resizeColumnToContents(0)
        self.tree.resizeColumnToContents(1)
        counts = {s: sum(1 for f in findings if f.severity.value == s) for s in ("error", "warning", "info")}
        text = problem or (f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} notes"
                           if findings else "no findings: the design passes every check")
        self.summary.setText(text)

    def _double_clicked(self, item, _column) -> None:
        ids = item.data(0, Qt.UserRole) or []
        if ids:
            self.activated.emit(list(ids))
