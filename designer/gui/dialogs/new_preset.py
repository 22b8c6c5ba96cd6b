"""New from preset: the preset's parameters as a form, with the derived numbers updating live."""

from __future__ import annotations

import dataclasses

from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from ...model.entities import SCHEMES, SPINE_ASN_MODES, SPINE_PLANE_MODES
from ...planning.spec import BuildSpec, format_ratio, size
from ...storage.presets import DEFAULT_PRESET, load_preset, preset_names

AUTO = -1          # spin value meaning "derive it" (None in the spec)
OPTIONAL = {"rails", "leaf_uplinks", "uplink_speed", "spines"}
BIG = 4_294_967_295


class NewFromPresetDialog(QDialog):
    def __init__(self, catalog, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New design from a preset")
        self.catalog = catalog
        self.inputs: dict[str, QWidget] = {}
        self.preset = QComboBox()
        self.preset.addItems(preset_names())
        self.description = QLabel()
        self.description.setWordWrap(True)
        form_host = QWidget()
        self.form = QFormLayout(form_host)
        for f in dataclasses.fields(BuildSpec):
            widget = self._input(f.name, f.type)
            self.inputs[f.name] = widget
            self.form.addRow(f.name.replace("_", " "), widget)
        scroll = QScrollArea()
        scroll.setWidget(form_host)
        scroll.setWidgetResizable(True)
        self.derived = QLabel()
        self.derived.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        top = QHBoxLayout()
        top.addWidget(QLabel("Preset"))
        top.addWidget(self.preset, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.description)
        split = QHBoxLayout()
        split.addWidget(scroll, 3)
        split.addWidget(self.derived, 2)
        layout.addLayout(split)
        layout.addWidget(self.buttons)
        self.preset.currentTextChanged.connect(self.load_preset)
        self.preset.setCurrentText(DEFAULT_PRESET)
        self.load_preset(self.preset.currentText())
        self.resize(760, 560)

    def _input(self, name: str, kind) -> QWidget:
        choices = {"server_model": sorted(self.catalog.servers), "leaf_model": sorted(self.catalog.switches),
                   "spine_model": ["(same as leaf)"] + sorted(self.catalog.switches),
                   "spine_planes": list(SPINE_PLANE_MODES), "scheme": list(SCHEMES),
                   "spine_asn_mode": list(SPINE_ASN_MODES)}.get(name)
        if choices:
            w = QComboBox()
            w.addItems(choices)
            w.currentTextChanged.connect(self.update_derived)
        elif name == "oversubscription":
            w = QDoubleSpinBox()
            w.setRange(0.1, 64.0)
            w.setSingleStep(0.5)
            w.valueChanged.connect(self.update_derived)
        elif "int" in str(kind):
            w = QSpinBox()
            w.setRange(AUTO if name in OPTIONAL else 0, BIG if "asn" in name else 100_000)
            if name in OPTIONAL:
                w.setSpecialValueText("auto")
            w.valueChanged.connect(self.update_derived)
        else:
            w = QLineEdit()
            w.textChanged.connect(self.update_derived)
        return w

    def load_preset(self, name: str) -> None:
        preset = load_preset(name)
        self.description.setText(preset.description)
        values = dataclasses.asdict(preset.spec())
        for key, widget in self.inputs.items():
            widget.blockSignals(True)
            value = values[key]
            if isinstance(widget, QComboBox):
                widget.setCurrentText("(same as leaf)" if value is None else str(value))
            elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
                widget.setValue(AUTO if value is None else value)
            else:
                widget.setText(str(value))
            widget.blockSignals(False)
        self.update_derived()

    def spec(self) -> BuildSpec:
        values = {}
        for key, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                text = widget.currentText()
                values[key] = None if text == "(same as leaf)" else text
            elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
                v = widget.value()
                values[key] = None if key in OPTIONAL and v == AUTO else v
            else:
                values[key] = widget.text()
        return BuildSpec(**values)

    def update_derived(self, *_args) -> None:
        s = size(self.spec(), self.catalog)
        lines = [f"GPUs: {s.gpus}", f"Servers: {s.servers}", f"Rails: {s.rails}", f"Leaves: {s.leaves}",
                 f"Spines: {s.spines}" + (f" ({s.planes} planes)" if s.planes > 1 else ""),
                 f"Server cables: {s.server_links}", f"Leaf-spine cables: {s.fabric_links}",
                 f"Oversubscription: {format_ratio(s.ratio) if s.ratio else 'rail-only'}"]
        text = "<b>Derived</b><br>" + "<br>".join(lines)
        if s.problems:
            text += "<br><br><span style='color:#c62828'><b>Cannot build:</b><br>" + "<br>".join(
                _escape(p) for p in s.problems) + "</span>"
        self.derived.setText(text)
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not s.problems)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
