"""The canvas scene: owns the id <-> item maps and repaints from the Fabric's events.

Every model event (a RESET included) is answered by `reconcile()`: the items are diffed
against the model's entities at the devices and cables the event names (`events.Touched`; all of
them when it does not say), so an edit touches only what changed. A re-layout moves only
the devices whose box changed and re-routes only the cables at those devices: a cable's geometry
change is an update of the scene's index, and 16,000 of them per edit froze the window.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPen, QTransform
from PySide6.QtWidgets import QGraphicsScene, QToolTip

from ..model import events as ev
from ..model.entities import Server
from ..model.fabric import Fabric
from ..model.gcpause import collector_paused
from ..model.ids import split_endpoint
from ..planning import layout as geo
from . import style
from .cable_routing import CableRouting
from .items.plates import band_names
from .items import BandPlatesItem, CableLayers, DeviceItem, LinkItem, NicItem, ServerItem, SuPlatesItem, SwitchItem

# A fixed depth for the scene's BSP index: Qt's automatic depth grows with the item count until
# re-indexing one long leaf-spine cable costs milliseconds (touching thousands of tree leaves).
BSP_DEPTH = 10
MARGIN = 60
SU_TITLE_PX = 13      # SU names keep this on-screen size at any zoom
POD_TITLE_PX = 15     # and a spine group's pod its name


class FabricScene(CableRouting, QGraphicsScene):
    reconciled = Signal()
    relaid = Signal()                    # the layout changed (the minimap redraws)

    def __init__(self, fabric: Fabric | None = None, parent=None):
        super().__init__(parent)
        self.setItemIndexMethod(QGraphicsScene.BspTreeIndex)
        self.setBspTreeDepth(BSP_DEPTH)
        self.fabric: Fabric | None = None
        self.layout = geo.Layout()
        self.collapsed: set[int | None] = set()
        self.devices: dict[str, DeviceItem] = {}
        self.nics: dict[str, NicItem] = {}
        self.links: dict[str, LinkItem] = {}
        self._shown: dict[str, object] = {}          # device id -> the entity its item shows
        self._port_index: dict[tuple, dict[str, int]] = {}
        self._router = None                # cable paths of the current layout (CableRouting.router)
        self._new_links: dict | None = None  # while a reconcile routes new cables: id -> item, shown at its end
        self.overview: CableLayers | None = None
        self.plates: SuPlatesItem | None = None
        self.bands: BandPlatesItem | None = None
        self.overview_mode = False         # zoomed out: one layer draws every cable, NICs hidden
        self.decorate = None               # callable(item) -> changed, applied to every new item (canvas marks)
        self.tooltip_for = None            # callable(model id) -> text, asked when the mouse rests on an item
        self._selected_links: set = set()
        self.selectionChanged.connect(self._selection_restyle)
        self.setBackgroundBrush(QColor("#fafafa"))
        if fabric is not None:
            self.set_fabric(fabric)

    # ------------------------------------------------------------------ model wiring
    def set_fabric(self, fabric: Fabric) -> None:
        if self.fabric is not None:
            self.fabric.unsubscribe(self._on_event)
        # Removing selected items announces a selection change per item, and each would restyle cables
        # already deleted: the old items go silently, and the empty selection is announced once below.
        self._selected_links = set()
        announce = bool(self.selectedItems())
        blocked = self.blockSignals(True)
        try:
            self.clear()
        finally:
            self.blockSignals(blocked)
        self.devices.clear(), self.nics.clear(), self.links.clear(), self._shown.clear()
        self.layout = geo.Layout()
        self.collapsed = set()
        self.overview = CableLayers(self)
        self.overview.set_overview(self.overview_mode)
        self.plates = SuPlatesItem()
        self.addItem(self.plates)
        self.bands = BandPlatesItem()
        self.addItem(self.bands)
        self.fabric = fabric
        fabric.subscribe(self._on_event)
        with collector_paused():        # ~10^5 items and their tables, no cycles: the collector's walks cost ~1 s at 4,096
            self.reconcile()
        if announce:
            self.selectionChanged.emit()

    def detach(self) -> None:
        if self.fabric is not None:
            self.fabric.unsubscribe(self._on_event)
            self.fabric = None

    def _on_event(self, event: ev.Event) -> None:
        if event.kind not in (ev.PLAN_CHANGED, ev.SETTINGS_CHANGED):
            touched = ev.Touched()
            touched.add(event)
            self.reconcile(None if touched.everything else touched)

    def reconcile(self, touched: ev.Touched | None = None) -> None:
        """Bring the items in line with the model: at what ``touched`` names, or everywhere (None)."""
        f = self.fabric
        if touched is None:
            model = {**f.servers, **f.switches}
            gone_devices = [d for d in self.devices if d not in model]
            links = f.links
            new_links = [l for l in links if l not in self.links]
            gone_links = [l for l in self.links if l not in links]
        else:
            ids = sorted(touched.devices)
            model = {d: f.servers.get(d) or f.switches.get(d) for d in ids}
            gone_devices = [d for d in ids if model[d] is None and d in self.devices]
            model = {d: entity for d, entity in model.items() if entity is not None}
            ids = sorted(touched.links)
            new_links = [l for l in ids if l in f.links and l not in self.links]
            gone_links = [l for l in ids if l in self.links and l not in f.links]
        relayout = False
        for gone in gone_devices:
            self._remove_device(gone)
            relayout = True
        added, changed = set(), set()
        for device_id, entity in model.items():
            shown = self._shown.get(device_id)
            if shown is entity:
                continue
            if shown is None:
                self._add_device(entity)
                added.add(device_id)
            else:
                relayout |= self._update_device(shown, entity)
                changed.add(device_id)
            self._shown[device_id] = entity
        for gone in gone_links:
            self.removeItem(self.links.pop(gone))
            self.overview.hide_link(gone)
        fresh = []
        for link_id in new_links:
            fresh.append(LinkItem(link_id, None, False))
            self.links[link_id] = fresh[-1]
        # the cables to route, in the model's order (a set's order changes from run to run, and with it
        # the order a cable layer draws in: the diagram export's bytes); a new device's cables are new
        # cables: only the changed devices' need a look
        touched = dict.fromkeys(new_links)
        for device_id in changed:
            touched.update(dict.fromkeys(self._links_touching(device_id)))
        if relayout or added:
            touched.update(self.relayout(skip=added))
        self._new_links = dict.fromkeys(new_links)
        try:
            for link_id in touched:
                self._refresh_link(link_id)
            self.overview.show_new_links([item for item in self._new_links.values() if item is not None])
        finally:
            self._new_links = None
        decorate = self.decorate
        for item in fresh:              # routed first: the scene's index takes each cable once, where it ends up
            self.addItem(item)
            if decorate and decorate(item):
                self.restyle_link(item)  # marked or dimmed (knowing its rail now): the cable layer follows
        self.reconciled.emit()

    # ------------------------------------------------------------------ items
    def _add_device(self, entity) -> None:
        if isinstance(entity, Server):
            item = ServerItem(entity.id, geo.server_width(len(entity.nics)), geo.SERVER_H, entity.hostname)
            for j, nic in enumerate(sorted(entity.nics, key=lambda n: n.index)):
                nic_item = NicItem(nic.id, geo.PORT, nic.rail, item, nic.fabric_plane)
                nic_item.setPos(geo.SERVER_PAD + j * geo.PORT_PITCH, 3)
                if self.overview_mode:
                    nic_item.setVisible(False)
                self.nics[nic.id] = nic_item
        else:
            item = SwitchItem(entity.id, geo.SWITCH_W, geo.SWITCH_H, entity.hostname, entity.role.value,
                              entity.rail, entity.fabric_plane)
        item.setVisible(False)               # shown once the layout places it
        self.devices[entity.id] = item
        self.addItem(item)
        if self.decorate:
            self.decorate(item)
            for nic_item in item.childItems():
                self.decorate(nic_item)

    def _remove_device(self, device_id: str) -> None:
        item = self.devices.pop(device_id)
        entity = self._shown.pop(device_id)
        if isinstance(entity, Server):
            for nic in entity.nics:
                self.nics.pop(nic.id, None)
        self.removeItem(item)

    def _update_device(self, old, new) -> bool:
        """Refresh an item for a changed entity; True when its place in the layout may have moved."""
        item = self.devices[new.id]
        if isinstance(new, Server):
            item.label = new.hostname
            for nic in new.nics:
                self.nics[nic.id].set_rail(nic.rail)
            item.update()
            return new.su != old.su or len(new.nics) != len(old.nics)
        item.set_look(new.hostname, new.rail, new.fabric_plane)
        placed = ("rail", "su", "plane", "breakouts", "group", "fabric_plane")
        return any(getattr(new, name) != getattr(old, name) for name in placed)

    def set_collapsed(self, sus) -> None:
        """Draw these SUs as one block each (their servers hidden, their leaves on the block's edge)."""
        sus = set(sus)
        if sus != self.collapsed:
            self.collapsed = sus
            for link_id in self.relayout():
                self._refresh_link(link_id)

    def relayout(self, skip=frozenset()) -> dict[str, None]:
        """Place the devices whose box changed; returns the cables at those devices (to re-route, in
        order), but not at the devices in ``skip`` (just added: their cables are new and routed anyway)."""
        old, old_router = self.layout, self._router
        self.layout = new = geo.compute(self.fabric, frozenset(self.collapsed))
        moved = []
        for device_id, item in self.devices.items():
            box = new.boxes[device_id]
            hidden = device_id in new.hidden
            if old.boxes.get(device_id) != box or (device_id in old.hidden) != hidden or not item.isVisible() != hidden:
                item.setPos(box.x, box.y)
                item.setVisible(not hidden)
                moved.append(device_id)
        self.plates.set_layout(new)
        self.bands.set_layout(new)
        rect = QRectF(-MARGIN, -MARGIN, new.width + 2 * MARGIN, new.height + 2 * MARGIN)
        grow = max(rect.width(), rect.height()) / 2      # room to pan past the edges at any zoom
        self.setSceneRect(rect.adjusted(-grow, -grow, grow, grow))
        self.relaid.emit()
        touched: dict[str, None] = {}
        switches = self.fabric.switches
        for device_id in moved:
            if device_id not in skip:
                touched.update(dict.fromkeys(self._links_touching(device_id)))
            if device_id in switches and old.boxes:     # the stack it left or joined routes round it anew
                for other in sorted(self.stack_neighbours(device_id, old_router)):
                    touched.update(dict.fromkeys(self._links_touching(other)))
        return touched

    def content_rect(self) -> QRectF:
        """What a fit shows: the laid-out design and a small margin."""
        return QRectF(-MARGIN, -MARGIN, self.layout.width + 2 * MARGIN, self.layout.height + 2 * MARGIN)

    def place(self, device_id: str) -> None:
        """Put a device back where the layout says (a refused drag snaps back with this)."""
        box = self.layout.boxes.get(device_id)
        if box is not None and device_id in self.devices:
            self.devices[device_id].setPos(box.x, box.y)

    def _links_touching(self, device_id: str) -> list[str]:
        f = self.fabric
        if device_id not in f.servers and device_id not in f.switches:
            return []
        return [link.id for link in f.links_of(device_id)]

    def set_overview(self, on: bool) -> None:
        """Zoomed out (``on``): hide the NIC items and let the cable layer draw every cable (the cable
        items stay, to be pointed at; most have no contents anyway)."""
        if on == self.overview_mode:
            return
        self.overview_mode = on
        for item in self.nics.values():
            item.setVisible(not on)
        if self.overview is not None:
            self.overview.set_overview(on)

    # ------------------------------------------------------------------ lookup
    def item_for(self, model_id: str):
        return self.devices.get(model_id) or self.nics.get(model_id) or self.links.get(model_id)

    def item_for_finding_id(self, ident: str):
        """The item a finding's id points at: a device, NIC or cable; a cabled port's cable; an
        address key's device (``leaf/svi``, ``switch/lo``, ``leaf/Ethernet0`` uncabled)."""
        item = self.item_for(ident)
        if item is None and "/" in ident and self.fabric is not None:
            link = self.fabric.link_at(ident)
            item = self.links.get(link.id) if link else self.devices.get(split_endpoint(ident)[0])
        return item

    def select_ids(self, ids) -> list:
        self.clearSelection()
        items = [it for it in (self.item_for_finding_id(i) for i in ids) if it is not None]
        for it in items:
            it.setSelected(True)
        return items

    def selected_ids(self) -> list[str]:
        return sorted(it.model_id for it in self.selectedItems() if hasattr(it, "model_id"))

    def item_at(self, pos: QPointF, transform: QTransform | None = None):
        """The topmost visible model item at ``pos`` (a NIC before its server, a switch before a
        cable); nothing behind an SU plate (what passes behind an SU is not there to point at)."""
        under = self.items(pos, Qt.IntersectsItemShape, Qt.DescendingOrder, transform or QTransform())
        for item in under:
            if item is self.plates:
                return None
            if hasattr(item, "model_id") and item.isVisible():
                if isinstance(item, LinkItem):      # cables of a bundle run side by side: the nearest one
                    cables = [it for it in under if isinstance(it, LinkItem) and it.isVisible()]
                    return min(cables, key=lambda it: it.distance_to(pos.x(), pos.y()))
                return item
        return None

    def helpEvent(self, event) -> None:
        if self.tooltip_for is None:
            super().helpEvent(event)
            return
        view = event.widget().parent() if event.widget() is not None else None
        item = self.item_at(event.scenePos(), view.transform() if hasattr(view, "transform") else None)
        if item is None:
            QToolTip.hideText()
            event.ignore()
            return
        QToolTip.showText(event.screenPos(), self.tooltip_for(item.model_id), event.widget())
        event.accept()

    def counts(self) -> dict[str, int]:
        return {"devices": len(self.devices), "nics": len(self.nics), "links": len(self.links)}

    def lane_at(self, pos: QPointF):
        return self.layout.lane_at(pos.x(), pos.y())

    def su_at(self, pos: QPointF) -> int | None:
        return self.layout.su_at(pos.x(), pos.y())

    # ------------------------------------------------------------------ names of SUs and pods
    def drawForeground(self, painter, rect) -> None:
        """SU and pod names on top of the cables, at a readable size whatever the zoom; band names too,
        once they are big enough to read."""
        scale = max(painter.worldTransform().m11(), 1e-6)
        font = QFont(painter.font())
        font.setBold(True)
        font.setPixelSize(max(1, round(POD_TITLE_PX / scale)))
        painter.setFont(font)
        painter.setPen(QPen(style.POD_TITLE))
        for band in self.layout.bands:
            if band.kind == "pod":
                b = band.box
                title = QRectF(b.x + 6, b.y + geo.SU_TITLE - 8 - 30 / scale, b.w * 4, 30 / scale)
                if title.intersects(rect):
                    painter.drawText(title, Qt.AlignLeft | Qt.AlignBottom, band.label)
        band_names(painter, self.layout, rect)
        font.setPixelSize(max(1, round(SU_TITLE_PX / scale)))
        painter.setFont(font)
        painter.setPen(QPen(style.SU_TITLE))
        for su, b in self.layout.su_blocks.items():
            title = QRectF(b.x, b.y + geo.SU_TITLE - 12 - 30 / scale, b.w * 4, 30 / scale)
            if not title.intersects(rect):
                continue
            name = self.fabric.sus[su].name if su in self.fabric.sus else "no SU"
            if su in self.layout.collapsed:
                count = sum(1 for s in self.fabric.servers.values() if s.su == su)
                name = f"{name}  (collapsed: {count} servers)"
            painter.drawText(title, Qt.AlignLeft | Qt.AlignBottom, name)
