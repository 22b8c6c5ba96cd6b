"""The generated configuration files of the selected device, from the same code as the export."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QComboBox, QDockWidget, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

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
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.NoWrap)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.FixedFont))
        for w in (self.note, self.choice, self.text):
            layout.addWidget(w)
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
