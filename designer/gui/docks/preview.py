"""The generated configuration files of the selected device, from the same code as the export:
a file chooser, a find box (Enter: next match), and Copy (the file's whole text)."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (QComboBox, QDockWidget, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QPushButton,
                               QVBoxLayout, QWidget)

DELAY_MS = 250


class PreviewDock(QDockWidget):
    def __init__(self, parent=None):
        super().__init__("Config preview", parent)
        self.setObjectName("PreviewDock")
        self.fabric = None
        self.device_id: str | None = None
        self.files: dict[str, str] = {}
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(2, 2, 2, 2)
        self.note = QLabel("select a switch or a server to see its configs")
        self.note.setWordWrap(True)
        self.choice = QComboBox()
        self.choice.currentTextChanged.connect(self._show_file)
        self.search = QLineEdit()
        self.search.setPlaceholderText("find in this file (Enter: next)")
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(self.find_next)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the whole file to the clipboard")
        self.copy_button.clicked.connect(self.copy)
        row = QHBoxLayout()
        row.addWidget(self.choice, 2)
        row.addWidget(self.search, 2)
        row.addWidget(self.copy_button)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.FixedFont))
        layout.addWidget(self.note)
        layout.addLayout(row)
        layout.addWidget(self.text)
        self.setWidget(body)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self.refresh)

    def show_device(self, fabric, device_id: str | None) -> None:
        self.fabric, self.device_id = fabric, device_id
        self.schedule()

    def schedule(self) -> None:
        if self.isVisible() or self.device_id is None:
            self._timer.start()

    def refresh(self) -> None:
        current = self.choice.currentText()
        self.files = {}
        if self.fabric is None or self.device_id is None or not self.fabric.has_device(self.device_id):
            self.note.setText("select a switch or a server to see its configs")
        else:
            try:
                from ...export import preview
                self.files = dict(sorted(preview(self.fabric, self.device_id).items()))
                self.note.setText(f"{self.device_id}: {len(self.files)} files")
            except Exception as exc:     # a design the exporters refuse: say why, keep the editor
                self.note.setText(f"no preview for {self.device_id}: {exc}")
        self.choice.blockSignals(True)
        self.choice.clear()
        self.choice.addItems(list(self.files))
        if current in self.files:
            self.choice.setCurrentText(current)
        self.choice.blockSignals(False)
        self._show_file(self.choice.currentText())

    def _show_file(self, name: str) -> None:
        self.text.setPlainText(self.files.get(name, ""))

    def find_next(self) -> bool:
        """Select the next match of the find box (wrapping at the end); False when there is none."""
        needle = self.search.text()
        if not needle:
            return False
        if self.text.find(needle):
            return True
        cursor = self.text.textCursor()
        cursor.movePosition(cursor.MoveOperation.Start)
        self.text.setTextCursor(cursor)
        found = self.text.find(needle)
        self.search.setStyleSheet("" if found else "border: 2px solid #c62828;")
        return found

    def copy(self) -> str:
        text = self.text.toPlainText()
        QGuiApplication.clipboard().setText(text)
        return text
