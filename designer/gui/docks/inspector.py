"""Properties of the selected object. Every field is text that is checked when the edit ends: a
value that is not what the field takes (a number out of range, not a number, a host name or address
the model refuses) is refused with the reason under the form and in the status bar, stays in its
field outlined red, and changes nothing; Escape puts the field back as it was. Accepted edits go
through commands."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QDockWidget, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from ...model.entities import Server
from ...model.guids import hca_node_guid, hca_port_guid, switch_guid
from ...model.guids import text as guid_text
from ...model.limits import MAX_FABRIC_PLANES, MAX_RAILS, excerpt
from ...model.validate import POSITION_RANGE
from ...planning.addressing import loopback_key, svi_key
from ..commands import (SetAddressCommand, SetHostnameCommand, SetMediaCommand, SetNicRailCommand, SetPlaceCommand,
                        SetSwitchRailCommand, set_group_command, set_plane_command)

BAD_STYLE = "border: 2px solid #c62828;"
MAX_GROUP = 100_000
NONE = "none"
_WHOLE = re.compile(r"[+-]?[0-9]+")
IB_GUID_TIP = ("Derived from the design's ids, as the bundle's topology.ibnd and OpenSM files write it; the real "
               "device's GUID is burnt in (verify --ibnetdiscover matches by node description)")


class Refused(ValueError):
    """A field's text that is not a value the field takes; the message says what it takes."""


def whole_number(text: str, what: str, low: int, high: int, none_allowed: bool = False) -> int | None:
    """``text`` as a whole number from ``low`` to ``high`` (or None for "none"/empty when allowed)."""
    text = text.strip()
    if none_allowed and text.lower() in ("", NONE):
        return None
    takes = f"{what} takes a whole number from {low} to {high}" + (f", or {NONE}" if none_allowed else "")
    if not _WHOLE.fullmatch(text):
        raise Refused(f"{excerpt(text) if text else 'an empty field'} is not a whole number: {takes}")
    if len(text.lstrip("+-")) > len(str(high)) or not low <= int(text) <= high:
        raise Refused(f"{excerpt(text)} is out of range: {takes}")
    return int(text)


class FieldEdit(QLineEdit):
    """A line edit that Escape reverts to the value it showed (clearing a refusal's red outline)."""

    def __init__(self, value: str, on_revert=None):
        super().__init__(value)
        self.original = value
        self.on_revert = on_revert

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key_Escape and (self.text() != self.original or self.styleSheet()):
            self.setText(self.original)
            self.setStyleSheet("")
            if self.on_revert:
                self.on_revert()
            event.accept()
            return
        super().keyPressEvent(event)


class InspectorDock(QDockWidget):
    refused = Signal(str)              # why a typed value was refused (the window shows it in the status bar)

    def __init__(self, document, parent=None):
        super().__init__("Inspector", parent)
        self.setObjectName("InspectorDock")
        self.document = document
        self.selected: str | None = None
        self.fields: dict[str, QWidget] = {}
        self.body = QWidget()
        outer = QVBoxLayout(self.body)
        self.form = QFormLayout()
        outer.addLayout(self.form)
        self.error = QLabel("")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #c62828;")
        outer.addWidget(self.error)
        outer.addStretch(1)
        self.setWidget(self.body)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.refresh)

    def schedule_refresh(self) -> None:
        """After a model change: rebuilt later, never inside the signal of a field being edited."""
        self._timer.start()

    # ------------------------------------------------------------------ building
    def show_ids(self, ids: list[str]) -> None:
        self.selected = ids[0] if len(ids) == 1 else None
        self.refresh(count=len(ids))

    def refresh(self, count: int | None = None) -> None:
        self._timer.stop()
        while self.form.rowCount():
            self.form.removeRow(0)
        self.fields = {}
        self.error.setText("")
        f = self.document.fabric
        sid = self.selected
        if sid is None or not (f.has_device(sid) or sid in f.links or _is_nic(f, sid)):
            self._label("Selection", f"{count} objects" if count else "nothing selected")
            return
        if sid in f.links:
            link = f.links[sid]
            self._label("Cable", link.a)
            self._label("to", link.b)
            self._label("Speed", f"{link.speed}G")
            if f.floor is not None:
                self._media(f, sid)
        elif _is_nic(f, sid):
            self._nic(f, sid)
        else:
            self._device(f, f.device(sid))

    def _device(self, f, device) -> None:
        self._label("Id", device.id)
        self._line("hostname", "Hostname", device.hostname,
                   lambda text: SetHostnameCommand(f, device.id, text))
        model = self._label("Model", device.model)
        model.setToolTip("To use another model, add one from the palette and move the cables")
        if f.floor is not None:
            self._place(f, device)
        if isinstance(device, Server):
            self._label("SU", str(device.su))
            self._label("GPUs / NICs", f"{device.gpus} / {len(device.nics)}")
            return
        role = device.role.value
        self._label("Role", {"leaf": "leaf", "spine": "spine", "core": "core (super-spine)"}[role])
        if device.su is not None:
            self._label("SU", str(device.su))
        if role == "leaf":
            self._number("rail", "Rail", device.rail, lambda t: whole_number(t, "Rail", 0, MAX_RAILS - 1),
                         lambda v: SetSwitchRailCommand(f, device.id, v))
            if svi_key(device.id) in f.addresses and not f.settings.infiniband:
                self._address(f, svi_key(device.id), "Gateway (SVI)")
        elif device.plane is not None:
            self._label("Spine plane", str(device.plane))
        title = "Core group" if role == "core" else "Spine group"
        group = self._number("group", title, device.group,
                             lambda t: whole_number(t, title, 1, MAX_GROUP, none_allowed=True) if t.strip() != "0"
                             else None, lambda v: set_group_command(f, device.id, v))
        group.setToolTip("A leaf's or spine's spine group (the leaves and spines meshed together), a core's "
                         f"core group; {NONE} (or 0) in a two-tier design")
        planes = max(f.settings.fabric_planes, device.fabric_plane + 1, 1)
        plane = self._number("fabric_plane", "Fabric plane", device.fabric_plane,
                             lambda t: _plane(t, planes), lambda v: set_plane_command(f, device.id, v))
        plane.setToolTip(f"Which of the design's {f.settings.fabric_planes} independent planes the switch is on "
                         "(its cables stay; Design > Re-address the selection gives it that plane's addresses)")
        if f.settings.infiniband:          # OpenSM routes it: no loopback, no BGP
            self._label("Node GUID", guid_text(switch_guid(device.id))).setToolTip(IB_GUID_TIP)
            return
        self._address(f, loopback_key(device.id), "Loopback")
        self._label("ASN", str(f.asns.get(device.id, "-")))

    def _nic(self, f, nic_id: str) -> None:
        nic = f.nic(nic_id)
        self._label("NIC", nic_id)
        self._label("Netdev / RDMA", f"{nic.netdev} / {nic.rdma}")
        self._label("Speed", f"{nic.speed}G")
        self._label("GPUs", ", ".join(map(str, nic.gpus)) or "-")
        self._number("rail", "Rail", nic.rail, lambda t: whole_number(t, "Rail", 0, MAX_RAILS - 1, none_allowed=True),
                     lambda v: SetNicRailCommand(f, nic_id, v))
        if f.settings.fabric_planes > 1 or nic.fabric_plane:
            self._label("Fabric plane", f"{nic.fabric_plane} (the server model's port)")
        self._label("Cabled to", f.peer(nic_id) or "not cabled")
        if f.settings.infiniband:          # the LID the subnet manager assigns addresses it, not an IP
            server_id = nic_id.partition("/")[0]
            self._label("HCA node GUID", guid_text(hca_node_guid(server_id, nic.index))).setToolTip(IB_GUID_TIP)
            self._label("Port GUID", guid_text(hca_port_guid(server_id, nic.index))).setToolTip(IB_GUID_TIP)
            return
        self._address(f, nic_id, "Address")

    def _place(self, f, device) -> None:
        """Its rack and lowest unit on the floor (a whole rack moves in the floor view)."""
        self._line("rack", "Rack", device.rack or "",
                   lambda text: SetPlaceCommand(f, device.id, text.strip() or None, device.position))
        self._number("unit", "Unit", device.position,
                     lambda t: whole_number(t, "Unit", *POSITION_RANGE, none_allowed=True),
                     lambda v: SetPlaceCommand(f, device.id, device.rack, v))

    def _media(self, f, link_id: str) -> None:
        """The cable's media: empty is the choice by length (shown as the placeholder)."""
        from ...planning.cable_plan import cable_plan
        chosen = cable_plan(f).choices.get(link_id)
        edit = self._line("media", "Media", f.media_overrides.get(link_id, ""),
                          lambda text: SetMediaCommand(f, link_id, text.strip() or None))
        edit.setPlaceholderText(f"by length: {chosen.media}" if chosen is not None and chosen.media else "by length")
        edit.setToolTip("A cable type id of the media catalogue, or optics-<fibre id>; empty: chosen by length")

    # ------------------------------------------------------------------ field kinds
    def _label(self, title: str, text: str) -> QLabel:
        label = QLabel(text)
        label.setTextInteractionFlags(Qt.TextSelectableByMouse)
        self.form.addRow(title, label)
        return label

    def _line(self, name: str, title: str, value: str, make_command) -> QLineEdit:
        edit = FieldEdit(value, lambda: self.error.setText(""))

        def commit():
            if edit.text() == edit.original:
                self._accepted(edit)
            elif self._run(edit, make_command(edit.text())):
                edit.original = edit.text()

        edit.editingFinished.connect(commit)
        self.form.addRow(title, edit)
        self.fields[name] = edit
        return edit

    def _number(self, name: str, title: str, value: int | None, parse, make_command) -> QLineEdit:
        """A whole number typed as text; ``parse`` turns the text into the value or raises Refused."""
        edit = FieldEdit(_shown(value), lambda: self.error.setText(""))
        held = [value]                      # what the model holds (the form is rebuilt a moment after an edit)

        def commit():
            try:
                new = parse(edit.text())
            except Refused as exc:
                self._refuse(edit, str(exc))
                return
            if new == held[0] or self._run(edit, make_command(new)):
                held[0] = new
                edit.original = _shown(new)
                edit.setText(edit.original)
                self._accepted(edit)

        edit.editingFinished.connect(commit)
        self.form.addRow(title, edit)
        self.fields[name] = edit
        return edit

    def _address(self, f, key: str, title: str) -> None:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        value = f.addresses.get(key, "")
        edit = FieldEdit(value, lambda: self.error.setText(""))
        edit.setPlaceholderText("a.b.c.d/len")
        pin = QCheckBox("pinned")
        pin.setChecked(f.is_pinned(key))
        pin.setToolTip("A pinned address is kept when addresses are re-planned")
        layout.addWidget(edit, 1)
        layout.addWidget(pin)

        def commit():
            text = edit.text().strip() or None
            if text != (value or None) or (text and pin.isChecked() != f.is_pinned(key)):
                # an address typed by hand is pinned, so re-planning keeps it
                self._run(edit, SetAddressCommand(f, key, text, pin.isChecked() or text != (value or None)))

        edit.editingFinished.connect(commit)
        pin.toggled.connect(lambda _on: commit())
        self.form.addRow(title, row)
        self.fields["address"] = edit
        self.fields["pinned"] = pin

    def _run(self, widget: QWidget, command) -> bool:
        error = self.document.execute(command)
        if error:
            self._refuse(widget, error)
        else:
            self._accepted(widget)
        return error is None

    def _refuse(self, widget: QWidget, reason: str) -> None:
        widget.setStyleSheet(BAD_STYLE)
        widget.setToolTip(reason)
        self.error.setText(reason)
        self.refused.emit(f"not changed: {reason}")

    def _accepted(self, widget: QWidget) -> None:
        widget.setStyleSheet("")
        widget.setToolTip("")
        self.error.setText("")


def _shown(value: int | None) -> str:
    return NONE if value is None else str(value)


def _plane(text: str, planes: int) -> int:
    if planes > 1:
        return whole_number(text, f"Fabric plane (the design has {planes} planes)", 0, planes - 1)
    plane = whole_number(text, "Fabric plane", 0, MAX_FABRIC_PLANES - 1)
    if plane:
        raise Refused(f"the design has one fabric plane (0), so a switch cannot go on plane {plane}; "
                      "a multi-plane design comes from a preset such as twin-plane-800g (File > New from template)")
    return plane


def _is_nic(f, ident: str) -> bool:
    device, _, port = ident.partition("/")
    return device in f.servers and port.startswith("nic")
