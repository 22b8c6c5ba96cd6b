"""Add N servers to an SU: which SU, how many, which model, and whether to cable their rail NICs
onto the SU's rail leaves. One undo step."""

from __future__ import annotations

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox,
                               QVBoxLayout)

from ...planning.build import make_server
from ...planning.naming import next_server_id
from ..commands import AddServersCommand

MAX_ADD = 512


class AddServersDialog(QDialog):
    def __init__(self, fabric, su: int | None = None, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Add servers to an SU")
        self.fabric = fabric
        sus = sorted(set(fabric.sus) | {s.su for s in fabric.servers.values()}) or [1]
        self.su_box = QComboBox()
        for n in sus:
            self.su_box.addItem(fabric.sus[n].name if n in fabric.sus else f"SU{n}", n)
        new = max(sus) + 1
        self.su_box.addItem(f"a new SU{new}", new)
        if su is not None and su in sus:
            self.su_box.setCurrentIndex(sus.index(su))
        self.count = QSpinBox()
        self.count.setRange(1, MAX_ADD)
        self.count.setValue(1)
        self.model = QComboBox()
        self.model.addItems(sorted(fabric.catalog.servers))
        used = [s.model for s in fabric.sorted_servers()]
        if used:
            self.model.setCurrentText(max(set(used), key=used.count))
        self.cable = QCheckBox("Cable each rail NIC to its rail's leaf in that SU")
        self.cable.setChecked(True)
        self.preview = QLabel()
        self.preview.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.button(QDialogButtonBox.Ok).setText("Add")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("SU", self.su_box)
        form.addRow("Servers", self.count)
        form.addRow("Model", self.model)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.cable)
        layout.addWidget(self.preview)
        layout.addWidget(buttons)
        for signal in (self.su_box.currentIndexChanged, self.count.valueChanged, self.model.currentTextChanged):
            signal.connect(self._update)
        self._update()

    def su(self) -> int:
        return self.su_box.currentData()

    def servers(self) -> list:
        f, su = self.fabric, self.su()
        rails = len(f.rails) or None
        taken: set[str] = set()
        out = []
        for _ in range(self.count.value()):
            sid = next_server_id(f, su, taken)
            taken.add(sid)
            out.append(make_server(f.catalog, sid, self.model.currentText(), su, rails,
                                   planes=f.settings.fabric_planes))
        return out

    def command(self) -> AddServersCommand:
        return AddServersCommand(self.fabric, self.servers(), self.cable.isChecked())

    def _update(self, *_args) -> None:
        servers = self.servers()
        names = f"{servers[0].id}" + (f" to {servers[-1].id}" if len(servers) > 1 else "")
        self.preview.setText(f"Adds {names} ({len(servers)} x {self.model.currentText()}).")
