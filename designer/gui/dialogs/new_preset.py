"""New from preset: a gallery of the bundled presets (each with its derived numbers), the chosen
preset's parameters as a form, and the derived numbers of the form updating live."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QHBoxLayout,
                               QLabel, QLineEdit, QListWidget, QListWidgetItem, QScrollArea, QSpinBox, QVBoxLayout,
                               QWidget)

from ...model.entities import SCHEMES, SPINE_ASN_MODES, SPINE_PLANE_MODES
from ...planning.spec import CORE_TIERS, BuildSpec, Sizing, format_ratio, is_planned, size
from ...planning.build import FLOORS
from ...storage.presets import DEFAULT_PRESET, load_preset, preset_names

AUTO = -1          # spin value meaning "derive it" (None in the spec)
OPTIONAL = {"rails", "leaf_uplinks", "uplink_speed", "spines"}
DERIVED_AT_ZERO = {"fabric_planes", "cores", "sus_per_group", "spine_uplinks"}   # 0 in the spec: derive it
RATIOS = {"oversubscription", "spine_oversubscription"}
FINAL = {"final_sus", "final_servers_per_su"}      # 0: the size built is final (no growth plan)
SAME_AS_LEAF = "(same as leaf)"
SAME_AS_SPINE = "(same as spine)"
MAX_COUNT = 100_000
MAX_ASN = 4_294_967_294   # 4-byte ASNs: past a QSpinBox's 32-bit signed range, so a QDoubleSpinBox holds them


def derived_lines(s: Sizing) -> list[str]:
    """The numbers a preset or a form derives, as short lines (also the gallery's captions)."""
    planes = f" in {s.fabric_planes} fabric planes" if s.fabric_planes > 1 else ""
    lines = [f"Servers: {s.servers:,}   GPUs: {s.gpus:,}   Rails: {s.rails}{planes}",
             f"Leaves: {s.leaves:,}   Spines: {s.spines:,}" + (f" ({s.planes} planes)" if s.planes > 1 else "")
             + (f"   Cores: {s.cores:,}" if s.tiers == 3 else "")]
    if s.tiers == 3:
        lines.append(f"Spine groups: {s.groups:,} of {s.sus_per_group} SUs; core groups: {s.core_groups:,} "
                     f"of {s.cores_per_group} cores")
        lines.append(f"Cables: {s.server_links:,} server-leaf + {s.fabric_links:,} leaf-spine + "
                     f"{s.core_links:,} spine-core")
        lines.append(f"Oversubscription: leaf {format_ratio(s.ratio)}, spine {format_ratio(s.spine_ratio)}")
        return lines
    lines.append(f"Cables: {s.server_links:,} server-leaf + {s.fabric_links:,} leaf-spine")
    lines.append(f"Oversubscription: {format_ratio(s.ratio) if s.ratio else 'rail-only (one tier)'}")
    return lines


class NewFromPresetDialog(QDialog):
    def __init__(self, catalog, parent=None):
        super().__init__(parent)
        self.setWindowTitle("New design from a template")
        self.catalog = catalog
        self.inputs: dict[str, QWidget] = {}
        self.gallery = QListWidget()
        self.gallery.setSpacing(3)
        self.gallery.setWordWrap(True)
        for name in preset_names():
            self.gallery.addItem(self._card(name))
        self.description = QLabel()
        self.description.setWordWrap(True)
        form_host = QWidget()
        self.form = QFormLayout(form_host)
        for f in dataclasses.fields(BuildSpec):
            widget = self._input(f.name, f.type)
            self.inputs[f.name] = widget
            if f.name == "sus":
                widget.valueChanged.connect(self._rescale)
            self.form.addRow(f.name.replace("_", " "), widget)
        scroll = QScrollArea()
        scroll.setWidget(form_host)
        scroll.setWidgetResizable(True)
        self.derived = QLabel()
        self.derived.setWordWrap(True)
        self.derived.setAlignment(Qt.AlignTop | Qt.AlignLeft)
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.button(QDialogButtonBox.Ok).setText("Create")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        left = QVBoxLayout()
        left.addWidget(QLabel("<b>Templates</b>"))
        left.addWidget(self.gallery, 1)
        middle = QVBoxLayout()
        middle.addWidget(self.description)
        middle.addWidget(scroll, 1)
        split = QHBoxLayout()
        split.addLayout(left, 3)
        split.addLayout(middle, 4)
        split.addWidget(self.derived, 3)
        layout = QVBoxLayout(self)
        layout.addLayout(split)
        layout.addWidget(self.buttons)
        self.gallery.currentItemChanged.connect(
            lambda item, _old: item is not None and self.load_preset(item.data(Qt.UserRole)))
        self.select_preset(DEFAULT_PRESET)
        self.resize(1100, 620)

    def _card(self, name: str) -> QListWidgetItem:
        preset = load_preset(name)
        s = size(preset.spec(), self.catalog)
        text = f"{name}\n" + ("\n".join(derived_lines(s)) if s.ok else "cannot be built: " + "; ".join(s.problems))
        item = QListWidgetItem(text)
        item.setData(Qt.UserRole, name)
        item.setToolTip(preset.description)
        return item

    def select_preset(self, name: str) -> None:
        for row in range(self.gallery.count()):
            if self.gallery.item(row).data(Qt.UserRole) == name:
                self.gallery.setCurrentRow(row)
                return
        raise KeyError(f"there is no preset '{name}'")

    def _input(self, name: str, kind) -> QWidget:
        choices = {"server_model": sorted(self.catalog.servers), "leaf_model": sorted(self.catalog.switches),
                   "spine_model": [SAME_AS_LEAF] + sorted(self.catalog.switches),
                   "core_model": [SAME_AS_SPINE] + sorted(self.catalog.switches),
                   "spine_planes": list(SPINE_PLANE_MODES), "scheme": list(SCHEMES),
                   "spine_asn_mode": list(SPINE_ASN_MODES), "core_tier": list(CORE_TIERS),
                   "floor": list(FLOORS)}.get(name)
        if choices:
            w = QComboBox()
            w.addItems(choices)
            w.currentTextChanged.connect(self.update_derived)
            if name == "core_tier":
                w.setToolTip("off: two tiers; on: spine groups under a core tier; auto: a core tier when one "
                             "spine tier cannot mesh every leaf")
        elif name in RATIOS:
            w = QDoubleSpinBox()
            w.setRange(0.1, 64.0)
            w.setSingleStep(0.5)
            w.valueChanged.connect(self.update_derived)
        elif name == "rack_power_kw":
            w = QDoubleSpinBox()
            w.setRange(0.1, 1000.0)
            w.setSuffix(" kW")
            w.valueChanged.connect(self.update_derived)
        elif "asn" in name:
            w = QDoubleSpinBox()
            w.setDecimals(0)
            w.setRange(1, MAX_ASN)
            w.setGroupSeparatorShown(False)
            w.valueChanged.connect(self.update_derived)
        elif "int" in str(kind):
            w = QSpinBox()
            w.setRange(AUTO if name in OPTIONAL else 0, MAX_COUNT)
            if name in OPTIONAL or name in DERIVED_AT_ZERO:
                w.setSpecialValueText("auto")
            elif name in FINAL:
                w.setSpecialValueText("as built")
                w.setToolTip("Plan for this final size: spines, cores, ports, addresses and ASNs are sized for it, "
                             "so Design > Add SU (rail-designer grow) adds SUs without renumbering anything")
            w.valueChanged.connect(self.update_derived)
        else:
            w = QLineEdit()
            w.textChanged.connect(self.update_derived)
        return w

    def load_preset(self, name: str) -> None:
        preset = load_preset(name)
        self.preset = preset
        self.description.setText(f"<b>{_escape(name)}</b>: {_escape(preset.description)}")
        self.shown = dataclasses.asdict(preset.spec())
        self._show(self.shown, self.inputs)
        self.update_derived()

    def _rescale(self, *_args) -> None:
        """The SU count changed: the fields the preset sizes by it (its scale steps) follow, unless edited."""
        preset = getattr(self, "preset", None)
        steps = {key for step in getattr(preset, "scale", ()) for key in step.parameters}
        if not steps:
            return
        try:
            wanted = dataclasses.asdict(preset.spec(sus=self.inputs["sus"].value()))
        except ValueError:              # beyond the preset's largest size: the derived numbers say why
            return
        current = dataclasses.asdict(self.spec())
        keys = [k for k in steps if current[k] == self.shown[k] and wanted[k] != self.shown[k]]
        self.shown.update({k: wanted[k] for k in steps if current[k] == self.shown[k]})
        self._show(wanted, keys)
        if keys:
            self.update_derived()

    def _show(self, values: dict, keys) -> None:
        for key in keys:
            widget = self.inputs[key]
            widget.blockSignals(True)
            value = values[key]
            if isinstance(widget, QComboBox):
                widget.setCurrentText(_same_as(key) if value in (None, "") else str(value))
            elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
                widget.setValue(AUTO if value is None else value)
            else:
                widget.setText(str(value))
            widget.blockSignals(False)

    def spec(self) -> BuildSpec:
        values = {}
        for key, widget in self.inputs.items():
            if isinstance(widget, QComboBox):
                text = widget.currentText()
                values[key] = text if text != _same_as(key) else None if key == "spine_model" else ""
            elif isinstance(widget, QDoubleSpinBox) and widget.decimals() == 0:
                values[key] = int(round(widget.value()))
            elif isinstance(widget, (QSpinBox, QDoubleSpinBox)):
                v = widget.value()
                values[key] = None if key in OPTIONAL and v == AUTO else v
            else:
                values[key] = widget.text()
        return BuildSpec(**values)

    def update_derived(self, *_args) -> None:
        spec = self.spec()
        s = size(spec, self.catalog)
        lines = derived_lines(s)
        if is_planned(spec):
            lines.insert(0, f"Planned for {s.servers_per_su and s.servers // s.servers_per_su} SUs of "
                            f"{s.servers_per_su} servers (the numbers below); built now: {spec.sus} SUs of "
                            f"{spec.servers_per_su}")
        text = "<b>Derived</b><br>" + "<br>".join(_escape(line) for line in lines)
        if s.problems:
            text += "<br><br><span style='color:#c62828'><b>Cannot build:</b><br>" + "<br>".join(
                _escape(p) for p in s.problems) + "</span>"
        self.derived.setText(text)
        self.buttons.button(QDialogButtonBox.Ok).setEnabled(not s.problems)


def _same_as(key: str) -> str:
    """What a model field's "derive it" choice reads (the spine model defaults to the leaf's, the core's to the spine's)."""
    return SAME_AS_SPINE if key == "core_model" else SAME_AS_LEAF


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
