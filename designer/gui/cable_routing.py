"""How the scene draws a cable: its colour (the rail it carries, red when it crosses rails), its
two ends on the devices the layout placed and its path between them (`cable_paths.Router`: around
every box), whether it is shown (not inside a collapsed SU), and which layer or item paints it.
Part of `FabricScene`; the hot path of opening a design."""

from __future__ import annotations

from ..model.entities import Role
from ..planning import layout as geo
from . import style
from .cable_paths import Router
from .items import LinkItem

_NO_PORTS: dict[str, int] = {}
_UNSET = object()


class CableRouting:
    """Mixed into `FabricScene` (uses its fabric, layout, items and cable layers)."""

    def _ports(self, switch_id: str) -> dict[str, int]:
        switch = self.fabric.switches[switch_id]
        key = (switch.model, switch.breakouts)
        table = self._port_index.get(key)
        if table is None:
            table = {name: i for i, name in enumerate(self.fabric.ports(switch_id))}
            self._port_index[key] = table
        return table

    def router(self) -> Router:
        """The paths of the current layout (made again when the layout is)."""
        router = self._router
        if router is None or router.layout is not self.layout:
            router = self._router = Router(self.layout, len(self.fabric.rails), self.fabric.switches)
        return router

    def stack_neighbours(self, device_id: str, old: Router | None) -> set[str]:
        """The switches that share a stack or band column with ``device_id`` now or under ``old``: their
        cables' last legs may have to go round it (or no longer)."""
        out = set(self.router().neighbours(device_id))
        if old is not None:
            out.update(old.neighbours(device_id))
        return out

    def link_visible(self, link) -> bool:
        hidden = self.layout.hidden
        return link.a.partition("/")[0] not in hidden and link.b.partition("/")[0] not in hidden

    def _refresh_link(self, link_id: str) -> None:
        """Colour, ends and visibility of one cable from the model and the layout (the hot path of
        a re-layout and of opening a design: every endpoint is split once)."""
        item = self.links.get(link_id)
        link = self.fabric.links.get(link_id)
        if item is None or link is None:
            return
        layout, switches = self.layout, self.fabric.switches
        dev_a, _, port_a = link.a.partition("/")
        dev_b, _, port_b = link.b.partition("/")
        item.set_state(*self._rail_of(link.a, dev_a, link.b, dev_b))
        sw_a, sw_b = switches.get(dev_a), switches.get(dev_b)
        planes = (sw_a.fabric_plane if sw_a is not None else self.nics[link.a].fabric_plane,
                  sw_b.fabric_plane if sw_b is not None else self.nics[link.b].fabric_plane)
        if planes != item.planes:
            item.planes = planes       # the fabric planes of its ends (a cable joining two is on both)
        item.fabric_tier = sw_a is not None and sw_b is not None
        box_a, box_b = layout.boxes.get(dev_a), layout.boxes.get(dev_b)
        end_a = geo.anchor_at(layout, dev_a, port_a, self._ports(dev_a) if dev_a in switches else _NO_PORTS,
                              box_b.y if box_b else 0.0)
        end_b = geo.anchor_at(layout, dev_b, port_b, self._ports(dev_b) if dev_b in switches else _NO_PORTS,
                              box_a.y if box_a else 0.0)
        router = self.router()
        cell, label_at = router.trunk_of(dev_a, dev_b)
        item.bucket = (cell, router.upper_role(dev_a, dev_b))
        if label_at is not None:
            self.overview.fabric.set_trunk(item.bucket, label_at)
        if end_a is not None and end_b is not None:
            item.set_path(router.path(dev_a, end_a, dev_b, end_b, item.rail))
        else:
            item.set_ends(end_a or (0.0, 0.0), end_b or (0.0, 0.0))
        hidden = layout.hidden
        shown = dev_a not in hidden and dev_b not in hidden
        if item.isVisible() != shown:
            item.setVisible(shown)
        if shown and self._new_links is not None and link_id in self._new_links:
            self._new_links[link_id] = item       # shown with the others at the end (`FabricScene.reconcile`)
        elif shown:
            self.overview.show_link(item)
        else:
            self.overview.hide_link(link_id)

    def _selection_restyle(self) -> None:
        """A selected cable paints itself (black); one deselected goes back to the cable layer."""
        now = {it for it in self.selectedItems() if isinstance(it, LinkItem)}
        for item in now ^ self._selected_links:
            item._sync_contents()
        self._selected_links = now

    def restyle_link(self, item: LinkItem) -> None:
        """After a link's look changed (a mark, a highlight): the overview layer follows."""
        link = self.fabric.links.get(item.model_id)
        if link is not None and self.link_visible(link):
            self.overview.show_link(item)

    def link_rail(self, a: str, b: str) -> tuple[int | None, bool]:
        """The rail a cable carries and whether it crosses rails (NIC or spine plane vs leaf rail)."""
        return self._rail_of(a, a.partition("/")[0], b, b.partition("/")[0])

    def _rail_of(self, a: str, dev_a: str, b: str, dev_b: str) -> tuple[int | None, bool]:
        """(rail, crosses rails); a cable above the leaves (spine-core) is drawn in the upper tier's colour."""
        switches, nics = self.fabric.switches, self.nics
        nic_rail, leaf_rail, plane, leafless = _UNSET, None, None, True
        for ep, dev in ((a, dev_a), (b, dev_b)):
            if ep in nics:
                nic_rail = nics[ep].rail              # the NIC item follows its model NIC's rail
            else:
                sw = switches[dev]
                if sw.role is Role.LEAF:
                    leaf_rail, leafless = sw.rail, False
                else:
                    plane = sw.plane
        if nic_rail is not _UNSET:
            return nic_rail, leaf_rail is not None and nic_rail != leaf_rail
        if leafless:
            return style.UPPER_TIER, False
        return leaf_rail, plane is not None and leaf_rail is not None and plane != leaf_rail
