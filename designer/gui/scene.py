"""The canvas scene: owns the id <-> item maps and repaints from the Fabric's events.

Every model event (a RESET included) is answered by `reconcile()`: the items are diffed
against the model's entities, so a batch edit touches only what changed.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QPen
from PySide6.QtWidgets import QGraphicsScene

from ..model import events as ev
from ..model.entities import Role, Server
from ..model.fabric import Fabric
from ..model.ids import split_endpoint
from ..planning import layout as geo
from . import style
from .items import DeviceItem, LinkItem, LinkOverviewItem, NicItem, ServerItem, SwitchItem


class FabricScene(QGraphicsScene):
    reconciled = Signal()

    def __init__(self, fabric: Fabric | None = None, parent=None):
        super().__init__(parent)
        self.fabric: Fabric | None = None
        self.layout = geo.Layout()
        self.devices: dict[str, DeviceItem] = {}
        self.nics: dict[str, NicItem] = {}
        self.links: dict[str, LinkItem] = {}
        self._shown: dict[str, object] = {}          # device id -> the entity its item shows
        self._port_index: dict[tuple, dict[str, int]] = {}
        self._marked: list = []
        self.overview: LinkOverviewItem | None = None
        self.overview_mode = False         # zoomed out: one layer draws every cable, NICs hidden
        self.setBackgroundBrush(QColor("#fafafa"))
        if fabric is not None:
            self.set_fabric(fabric)

    # ------------------------------------------------------------------ model wiring
    def set_fabric(self, fabric: Fabric) -> None:
        if self.fabric is not None:
            self.fabric.unsubscribe(self._on_event)
        self.clear()
        self.devices.clear(), self.nics.clear(), self.links.clear(), self._shown.clear()
        self._marked = []
        self.overview = LinkOverviewItem()
        self.overview.setVisible(self.overview_mode)
        self.addItem(self.overview)
        self.fabric = fabric
        fabric.subscribe(self._on_event)
        self.reconcile()

    def detach(self) -> None:
        if self.fabric is not None:
            self.fabric.unsubscribe(self._on_event)
            self.fabric = None

    def _on_event(self, event: ev.Event) -> None:
        if event.kind not in (ev.PLAN_CHANGED, ev.SETTINGS_CHANGED):
            self.reconcile()

    def reconcile(self) -> None:
        f = self.fabric
        model = {**f.servers, **f.switches}
        relayout = False
        for gone in [d for d in self.devices if d not in model]:
            self._remove_device(gone)
            relayout = True
        changed = set()
        for device_id, entity in model.items():
            shown = self._shown.get(device_id)
            if shown is entity:
                continue
            if shown is None:
                self._add_device(entity)
                relayout = True
            else:
                relayout |= self._update_device(shown, entity)
            self._shown[device_id] = entity
            changed.add(device_id)
        new_links = [l for l in f.links if l not in self.links]
        for gone in [l for l in self.links if l not in f.links]:
            self.removeItem(self.links.pop(gone))
            self.overview.hide_link(gone)
        for link_id in new_links:
            self.links[link_id] = LinkItem(link_id, None, False)
            self.links[link_id].setVisible(not self.overview_mode)
            self.addItem(self.links[link_id])
        if relayout:
            self.relayout()
        else:
            touched = set(new_links)
            for device_id in changed:
                touched.update(self._links_touching(device_id))
            for link_id in touched:
                self._refresh_link(link_id)
        self.reconciled.emit()

    # ------------------------------------------------------------------ items
    def _add_device(self, entity) -> None:
        if isinstance(entity, Server):
            item = ServerItem(entity.id, geo.server_width(len(entity.nics)), geo.SERVER_H, entity.hostname)
            for j, nic in enumerate(sorted(entity.nics, key=lambda n: n.index)):
                nic_item = NicItem(nic.id, geo.PORT, nic.rail, item)
                nic_item.setPos(geo.SERVER_PAD + j * geo.PORT_PITCH, 3)
                nic_item.setVisible(not self.overview_mode)
                self.nics[nic.id] = nic_item
        else:
            item = SwitchItem(entity.id, geo.SWITCH_W, geo.SWITCH_H, entity.hostname, entity.role.value,
                              entity.rail)
        item.setToolTip(f"{entity.id} ({entity.model})")
        self.devices[entity.id] = item
        self.addItem(item)

    def _remove_device(self, device_id: str) -> None:
        item = self.devices.pop(device_id)
        entity = self._shown.pop(device_id)
        if isinstance(entity, Server):
            for nic in entity.nics:
                self.nics.pop(nic.id, None)
        self.removeItem(item)

    def _update_device(self, old, new) -> bool:
        """Refresh an item for a changed entity; True when its place in the layout moved."""
        item = self.devices[new.id]
        if isinstance(new, Server):
            item.label = new.hostname
            for nic in new.nics:
                self.nics[nic.id].set_rail(nic.rail)
            item.update()
            return new.su != old.su or len(new.nics) != len(old.nics)
        item.set_look(new.hostname, new.rail)
        return (new.rail, new.su, new.plane, new.breakouts) != (old.rail, old.su, old.plane, old.breakouts)

    def relayout(self) -> None:
        self.layout = geo.compute(self.fabric)
        for device_id, item in self.devices.items():
            box = self.layout.boxes[device_id]
            item.setPos(box.x, box.y)
        for link_id in self.links:
            self._refresh_link(link_id)
        margin = 60
        self.setSceneRect(QRectF(-margin, -margin, self.layout.width + 2 * margin,
                                 self.layout.height + 2 * margin))

    def place(self, device_id: str) -> None:
        """Put a device back where the layout says (a refused drag snaps back with this)."""
        box = self.layout.boxes.get(device_id)
        if box is not None and device_id in self.devices:
            self.devices[device_id].setPos(box.x, box.y)

    def _links_touching(self, device_id: str) -> list[str]:
        f = self.fabric
        if device_id in f.servers:
            eps = [n.id for n in f.servers[device_id].nics]
        else:
            eps = [f"{device_id}/{name}" for name in f.ports(device_id)]
        return [link.id for link in map(f.link_at, eps) if link is not None]

    def _ports(self, switch_id: str) -> dict[str, int]:
        switch = self.fabric.switches[switch_id]
        key = (switch.model, switch.breakouts)
        table = self._port_index.get(key)
        if table is None:
            table = {name: i for i, name in enumerate(self.fabric.ports(switch_id))}
            self._port_index[key] = table
        return table

    def _refresh_link(self, link_id: str) -> None:
        item = self.links.get(link_id)
        link = self.fabric.links.get(link_id)
        if item is None or link is None:
            return
        rail, cross = self.link_rail(link.a, link.b)
        item.set_state(rail, cross)
        ends = []
        for ep, other in ((link.a, link.b), (link.b, link.a)):
            dev, other_dev = split_endpoint(ep)[0], split_endpoint(other)[0]
            other_box = self.layout.boxes.get(other_dev)
            toward = other_box.y if other_box else 0.0
            ports = self._ports(dev) if dev in self.fabric.switches else {}
            ends.append(geo.anchor(self.fabric, self.layout, ep, ports, toward) or (0.0, 0.0))
        item.set_ends(*ends)
        self.overview.show_link(item)

    def link_rail(self, a: str, b: str) -> tuple[int | None, bool]:
        """The rail a cable carries and whether it crosses rails (NIC or spine plane vs leaf rail)."""
        f = self.fabric
        rails, leaf_rail, plane = [], None, None
        for ep in (a, b):
            dev = split_endpoint(ep)[0]
            if dev in f.servers:
                rails.append(f.nic(ep).rail)
            else:
                sw = f.switches[dev]
                if sw.role is Role.LEAF:
                    leaf_rail = sw.rail
                else:
                    plane = sw.plane
        if rails:
            return rails[0], leaf_rail is not None and rails[0] != leaf_rail
        return leaf_rail, plane is not None and leaf_rail is not None and plane != leaf_rail

    # ------------------------------------------------------------------ findings and lookup
    def mark_errors(self, ids) -> None:
        """Mark the items named by error findings (devices, NICs, cables, or a cabled endpoint)."""
        if self.fabric is None:          # detached (its window closed) while a check was still running
            return
        for item in self._marked:
            item.set_error(False)
            if isinstance(item, LinkItem):
                self.overview.show_link(item)
        self._marked = []
        for i in ids:
            item = self.item_for(i)
            if item is None and "/" in i:
                link = self.fabric.link_at(i)
                item = self.links.get(link.id) if link else self.devices.get(split_endpoint(i)[0])
            if item is not None:
                item.set_error(True)
                self._marked.append(item)
                if isinstance(item, LinkItem):
                    self.overview.show_link(item)

    def mark_as_built(self, status: dict[str, str]) -> int:
        """Mark the cables an as-built check found wrong (``status``: link id -> kind); others unmarked.
        Returns how many cables are marked."""
        marked = 0
        for link_id, item in self.links.items():
            kind = status.get(link_id)
            kind = None if kind in (None, "as-planned", "not-checked") else kind
            if kind != item.as_built:
                item.set_as_built(kind)
                self.overview.show_link(item)
            marked += kind is not None
        return marked

    def set_overview(self, on: bool) -> None:
        """Zoomed out (``on``): hide the cable and NIC items and let one layer draw every cable."""
        if on == self.overview_mode:
            return
        self.overview_mode = on
        for item in self.links.values():
            item.setVisible(not on)
        for item in self.nics.values():
            item.setVisible(not on)
        if self.overview is not None:
            self.overview.setVisible(on)

    def item_for(self, model_id: str):
        return self.devices.get(model_id) or self.nics.get(model_id) or self.links.get(model_id)

    def select_ids(self, ids) -> list:
        self.clearSelection()
        items = [it for it in (self.item_for(i) for i in ids) if it is not None]
        for it in items:
            it.setSelected(True)
        return items

    def selected_ids(self) -> list[str]:
        return sorted(it.model_id for it in self.selectedItems() if hasattr(it, "model_id"))

    def counts(self) -> dict[str, int]:
        return {"devices": len(self.devices), "nics": len(self.nics), "links": len(self.links)}

    # ------------------------------------------------------------------ background: rail lanes
    def drawBackground(self, painter, rect) -> None:
        super().drawBackground(painter, rect)
        font = QFont(painter.font())
        font.setPixelSize(12)
        painter.setFont(font)
        for lane in self.layout.lanes:
            b = lane.box
            r = QRectF(b.x, b.y, b.w, b.h)
            if r.intersects(rect):
                painter.fillRect(r, style.lane_colour(lane.rail))
        painter.setPen(QPen(QColor("#78909c")))
        for su, b in self.layout.su_blocks.items():
            r = QRectF(b.x, b.y, b.w, 20)
            if r.intersects(rect):
                name = self.fabric.sus[su].name if su in self.fabric.sus else "no SU"
                painter.drawText(r, Qt.AlignLeft | Qt.AlignVCenter, name)

    def lane_at(self, pos: QPointF):
        return self.layout.lane_at(pos.x(), pos.y())
