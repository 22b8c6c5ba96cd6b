"""Design > Move rack…: which rack, and the row and slot to stand it at (the floor view's drag, by numbers)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QVBoxLayout

from ...model.floor import MAX_ROW_POSITION
from ...model.ids import natural_key


class MoveRackDialog(QDialog):
    def __init__(self, fabric, rack_id: str | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Move rack")
        self.fabric = fabric
        self.rack_box = QComboBox()
        self.rack_box.addItems(sorted(fabric.racks, key=natural_key))
        self.row_box = QComboBox()
        for row in sorted(fabric.rows.values(), key=lambda r: r.index):
            self.row_box.addItem(f"{row.id} ({row.hall})", row.id)
        self.position_box = QSpinBox()
        self.position_box.setRange(1, MAX_ROW_POSITION)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Move")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Rack", self.rack_box)
        form.addRow("To row", self.row_box)
        form.addRow("Position", self.position_box)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.buttons)
        self.rack_box.currentTextChanged.connect(self._rack_chosen)
        self.row_box.currentIndexChanged.connect(self._update)
        self.position_box.valueChanged.connect(self._update)
        if rack_id in fabric.racks:
            self.rack_box.setCurrentText(rack_id)
        self._rack_chosen(self.rack_box.currentText())

    def rack(self) -> str:
        return self.rack_box.currentText()

    def row(self) -> str:
        return self.row_box.currentData()

    def position(self) -> int:
        return self.position_box.value()

    def _rack_chosen(self, rack_id: str) -> None:
        rack = self.fabric.racks.get(rack_id)
        if rack is not None:
            self.row_box.setCurrentIndex(max(0, self.row_box.findData(rack.row)))
            self.position_box.setValue(rack.position)
        self._update()

    def _update(self) -> None:
        """Say what stands at the chosen slot (the move itself says the model's verdict)."""
        other = next((r.id for r in self.fabric.racks.values() if r.row == self.row()
                      and r.position == self.position() and r.id != self.rack()), None)
        rack = self.fabric.racks.get(self.rack())
        here = rack is not None and (rack.row, rack.position) == (self.row(), self.position())
        self.note.setText(f"taken by rack {other}" if other else "where it stands now" if here else "free slot")
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(other is None and not here and rack is not None)
