"""The checks' findings as a DRC browser: a click selects, centres and zooms onto the objects a
finding names; next / previous walk the errors (F8 / Shift+F8); the severity buttons and the
filter box narrow the list. The canvas marks every named object in its finding's colour."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QLineEdit, QToolButton, QTreeWidget,
                               QTreeWidgetItem, QVBoxLayout, QWidget)

COLOURS = {"error": QColor("#c62828"), "warning": QColor("#ef6c00"), "info": QColor("#546e7a")}
TITLES = {"error": "Errors", "warning": "Warnings", "info": "Notes"}


class FindingsDock(QDockWidget):
    activated = Signal(list)         # the ids of the finding clicked (or stepped to)

    def __init__(self, parent=None):
        super().__init__("Findings", parent)
        self.setObjectName("FindingsDock")
        self.findings: list = []
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        top = QHBoxLayout()
        self.summary = QLabel("no checks run yet")
        top.addWidget(self.summary, 1)
        self.show_severity: dict[str, QToolButton] = {}
        for severity in ("error", "warning", "info"):
            button = QToolButton()
            button.setCheckable(True)
            button.setChecked(True)
            button.setToolTip(f"Show {TITLES[severity].lower()}")
            button.toggled.connect(self._refilter)
            self.show_severity[severity] = button
            top.addWidget(button)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("filter: code, object or words")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._refilter)
        top.addWidget(self.filter)
        self.previous_button, self.next_button = QToolButton(), QToolButton()
        self.previous_button.setText("◀ Previous")
        self.next_button.setText("Next ▶")
        self.previous_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        top.addWidget(self.previous_button)
        top.addWidget(self.next_button)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Severity", "Code", "Message", "Objects"])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.itemActivated.connect(self._clicked)
        layout.addLayout(top)
        layout.addWidget(self.tree)
        self.setWidget(body)
        self._label_buttons()

    def show_findings(self, findings: list, problem: str | None = None) -> None:
        current = self._current_key()
        self.findings = sorted(findings, key=lambda f: (f.severity.rank, f.code, f.ids))
        self.tree.clear()
        rows = []
        for f in self.findings:
            row = QTreeWidgetItem([f.severity.value, f.code, f.message, ", ".join(f.ids[:4])
                                   + (f" (+{len(f.ids) - 4})" if len(f.ids) > 4 else "")])
            row.setData(0, Qt.UserRole, list(f.ids))
            row.setData(1, Qt.UserRole, f.severity.value)
            row.setForeground(0, QBrush(COLOURS.get(f.severity.value, QColor("black"))))
            row.setToolTip(2, f"{f.message}\nHow to fix: {f.hint}" if f.hint else f.message)
            rows.append(row)
        self.tree.addTopLevelItems(rows)
        self.tree.resizeColumnToContents(0)
        self.tree.resizeColumnToContents(1)
        self.tree.setColumnWidth(2, max(self.tree.columnWidth(2), 520))
        counts = self.counts()
        text = problem or (f"{counts['error']} errors, {counts['warning']} warnings, {counts['info']} notes"
                           if findings else "no findings: the design passes every check")
        self.summary.setText(text)
        self._label_buttons()
        self._refilter()
        for row in rows:                       # keep the same finding current across a re-check
            if (row.text(1), tuple(row.data(0, Qt.UserRole))) == current:
                self.tree.setCurrentItem(row)
                break

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for f in self.findings:
            out[f.severity.value] += 1
        return out

    def _label_buttons(self) -> None:
        counts = self.counts()
        for severity, button in self.show_severity.items():
            button.setText(f"{TITLES[severity]} {counts[severity]}")

    def _current_key(self):
        row = self.tree.currentItem()
        return (row.text(1), tuple(row.data(0, Qt.UserRole) or ())) if row is not None else None

    def _refilter(self, *_args) -> None:
        words = self.filter.text().lower().split()
        for i in range(self.tree.topLevelItemCount()):
            row = self.tree.topLevelItem(i)
            text = " ".join(row.text(c) for c in range(4)).lower() + " " + " ".join(row.data(0, Qt.UserRole))
            shown = self.show_severity[row.data(1, Qt.UserRole)].isChecked() and all(w in text for w in words)
            row.setHidden(not shown)

    def visible_rows(self) -> list[QTreeWidgetItem]:
        return [self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount())
                if not self.tree.topLevelItem(i).isHidden()]

    def step(self, direction: int) -> QTreeWidgetItem | None:
        """Go to the next (1) or previous (-1) shown error, or any shown finding when no error is shown."""
        rows = self.visible_rows()
        errors = [r for r in rows if r.data(1, Qt.UserRole) == "error"] or rows
        if not errors:
            return None
        current = self.tree.currentItem()
        index = errors.index(current) if current in errors else (-1 if direction > 0 else 0)
        row = errors[(index + direction) % len(errors)]
        self.tree.setCurrentItem(row)
        self.tree.scrollToItem(row)
        self._clicked(row)
        return row

    def _clicked(self, item, _column=0) -> None:
        ids = item.data(0, Qt.UserRole) or []
        if ids:
            self.activated.emit(list(ids))
