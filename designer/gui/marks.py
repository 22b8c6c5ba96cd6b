"""What the canvas shows on top of the design: the findings' marks (error, warning, info), the
devices a diff or drift check names (`comparing`), the as-built check's mismatches, a highlighted rail or fabric plane, and the analysis overlays (a traced
path, link loads). The items hold the look; this keeps the state, so items created later (a re-cabled NIC's
new cable) get it too, and each change touches only the items whose look changes."""

from __future__ import annotations

from .items import LinkItem, NicItem, ServerItem, SwitchItem
from .style import load_bucket

_RANK = {"error": 0, "warning": 1, "info": 2}


class CanvasMarks:
    def __init__(self, scene):
        self.scene = scene
        self.marks: dict[str, str] = {}          # item model id -> worst severity naming it
        self.as_built: dict[str, str] = {}       # link id -> mismatch kind
        self.rail: int | None = None             # the highlighted rail
        self.plane: int | None = None            # the fabric plane shown alone (the others dimmed)
        self.path: tuple[set[str], set[str]] | None = None   # (link ids, device/NIC ids) of a traced path
        self.loads: dict[str, int] | None = None # link id -> load bucket under a collision analysis
        self.compared: dict[str, str] = {}       # device id -> the look of a diff's or drift check's status
        scene.decorate = self.decorate

    def reset(self) -> None:
        """A new design: nothing is marked."""
        self.marks, self.as_built, self.rail, self.plane, self.path, self.loads = {}, {}, None, None, None, None
        self.compared = {}

    # ------------------------------------------------------------------ applying
    def active(self) -> bool:
        return bool(self.marks or self.as_built or self.rail is not None or self.plane is not None or self.path
                    or self.loads or self.compared)

    def decorate(self, item) -> bool:
        """Give ``item`` the look the marks say; True when that changed it."""
        if not self.active() and not item.mark and not item.dimmed and not getattr(item, "overlay", None) \
                and not getattr(item, "as_built", None):
            return False                     # nothing to show, nothing shown (most items, most of the time)
        mid = item.model_id
        changed = item.set_mark(self.marks.get(mid) or self.compared.get(mid))
        changed |= item.set_dimmed(self._dimmed(item))
        if isinstance(item, LinkItem):
            changed |= item.set_as_built(self.as_built.get(mid))
            changed |= item.set_overlay(self._overlay(mid))
        return changed

    def _restyle(self, ids) -> None:
        for mid in ids:
            item = self.scene.item_for(mid)
            if item is not None:
                self.decorate(item)
                if isinstance(item, LinkItem):
                    self.scene.restyle_link(item)

    def _restyle_all(self) -> None:
        s = self.scene
        for item in list(s.devices.values()) + list(s.nics.values()):
            self.decorate(item)
        for item in s.links.values():
            self.decorate(item)
            s.restyle_link(item)

    def _overlay(self, link_id: str) -> str | None:
        if self.path is not None and link_id in self.path[0]:
            return "path"
        if self.loads is not None and link_id in self.loads:
            return f"load{self.loads[link_id]}"
        return None

    def _dimmed(self, item) -> bool:
        return self._off_plane(item) or self._dimmed_otherwise(item)

    def _off_plane(self, item) -> bool:
        """Under a plane filter: a switch, NIC or cable of another fabric plane (a server has ports on all)."""
        if self.plane is None:
            return False
        if isinstance(item, LinkItem):
            return self.plane not in item.planes
        return isinstance(item, (SwitchItem, NicItem)) and item.fabric_plane != self.plane

    def _dimmed_otherwise(self, item) -> bool:
        mid = item.model_id
        if self.path is not None:
            links, nodes = self.path
            if isinstance(item, LinkItem):
                return mid not in links
            return mid not in nodes and mid.split("/")[0] not in nodes
        if self.loads is not None and isinstance(item, LinkItem):
            return mid not in self.loads
        if self.rail is None:
            return False
        if isinstance(item, (LinkItem, NicItem)):
            return item.rail != self.rail
        if isinstance(item, SwitchItem):
            if item.role == "leaf":
                return item.rail != self.rail
            plane = getattr(self.scene.fabric.switches.get(mid), "plane", None)
            return plane is not None and plane != self.rail
        return isinstance(item, ServerItem)

    # ------------------------------------------------------------------ findings
    def show_findings(self, findings) -> int:
        """Mark every object a finding names with the worst severity naming it; returns how many."""
        new: dict[str, str] = {}
        for f in findings:
            severity = f.severity.value
            for ident in f.ids:
                item = self.scene.item_for_finding_id(ident)
                if item is None:
                    continue
                old = new.get(item.model_id)
                if old is None or _RANK[severity] < _RANK[old]:
                    new[item.model_id] = severity
        changed = {k for k in set(new) | set(self.marks) if new.get(k) != self.marks.get(k)}
        self.marks = new
        self._restyle(changed)
        return len(new)

    # ------------------------------------------------------------------ as-built
    def show_as_built(self, status: dict[str, str]) -> int:
        """Mark the cables an as-built check found wrong (``status``: link id -> kind); others
        unmarked. Returns how many cables are marked."""
        new = {k: v for k, v in status.items() if v not in (None, "as-planned", "not-checked")
               and k in self.scene.links}
        changed = set(new) | set(self.as_built)
        self.as_built = new
        self._restyle(changed)
        return len(new)

    # ------------------------------------------------------------------ diff and drift
    def show_compared(self, looks: dict[str, str]) -> int:
        """Mark the devices a diff or a drift check names (device id -> "error", "warning" or "info");
        a finding's own mark on the same device wins. Returns how many are marked."""
        new = {k: v for k, v in looks.items() if self.scene.item_for(k) is not None}
        changed = set(new) | set(self.compared)
        self.compared = new
        self._restyle(changed)
        return len(new)

    # ------------------------------------------------------------------ highlights and overlays
    def highlight(self, what: str, value: int | None) -> None:
        """Dim everything not on rail (``what`` "rail") or fabric plane ("plane") ``value`` (None: that
        highlight off)."""
        if getattr(self, what) != value:
            setattr(self, what, value)
            self._restyle_all()

    def show_path(self, link_ids, node_ids) -> None:
        self.path, self.loads = (set(link_ids), set(node_ids)), None
        self._restyle_all()

    def show_loads(self, utilisation: dict[str, float]) -> None:
        """``utilisation``: link id -> the worse direction's share of capacity asked."""
        self.loads, self.path = {k: load_bucket(v) for k, v in utilisation.items()}, None
        self._restyle_all()

    def clear_overlay(self) -> bool:
        if self.path is None and self.loads is None and not self.compared:
            return False
        self.path = self.loads = None
        self.compared = {}
        self._restyle_all()
        return True
