"""Where a cable runs on the canvas: an orthogonal path through the free space of the layout, never
across a device box it does not end at. Pure geometry (no Qt), from a `planning.layout.Layout`.

- A server cable leaves its NIC upwards into the aisle above its server row, runs along the aisle to
  the gutter left of the server's column, up that gutter to the gap under the leaves, along it to
  its leaf and up into the leaf. Each rail keeps its own offset in the aisles and gutters, so the
  cables of one rail run together as one bus and fan out only at their ends.
- A cable between tiers (leaf-spine, spine-core, or any cable whose ends sit in different grid
  cells) climbs out of its cell (SU block or pod) to the row gap above it, runs to the cell's left
  gutter, up the gutter to the aisle under the upper tier and along it to its switch: every cable
  from one cell to one tier shares that gutter, a trunk.
- The last leg into a switch goes straight up or down to its port unless another box of its
  stack or band is in the way; then it runs up the side gap beside the stack and in through the
  gap next to the switch.

`crossings` lists the boxes a path passes through (the test of all this).
"""

from __future__ import annotations

from ..planning import layout as geo
from ..planning import layout_tiers as tiers

Point = tuple[float, float]
BUCKET = 8.0          # x-buckets of the obstacle index, in scene units
_UNSET = object()
CLEAR = 0.5           # a path may touch a box's edge (its own ends sit on one), not pass inside


class Router:
    """Paths for one layout (made once per layout; each path is then a few lookups)."""

    def __init__(self, layout: geo.Layout, rails: int, switches) -> None:
        self.layout = layout
        self.rails = max(rails, 1)
        boxes = layout.boxes
        self._switch_boxes = {d: boxes[d] for d in switches if d in boxes}
        self._roles = {d: s.role.value for d, s in switches.items()}
        self._buckets: dict[int, list[str]] = {}
        for device, box in self._switch_boxes.items():
            for key in range(int(box.x // BUCKET), int((box.x + box.w) // BUCKET) + 1):
                self._buckets.setdefault(key, []).append(device)
        pods = [b.box for b in layout.bands if b.kind == "pod"]
        self._cell: dict[object, geo.Box] = {}        # SU -> its grid cell (its pod's plate, or its block)
        for su, block in layout.su_blocks.items():
            self._cell[su] = next((p for p in pods if p.x <= block.x and block.x + block.w <= p.x + p.w
                                   and p.y <= block.y <= p.y + p.h), block)
        self._pods = pods
        self._server_top: dict[object, float] = {}   # SU -> the top of its first server row
        for device, su in layout.su_of.items():
            if device in layout.nic_slots and device not in layout.hidden:
                y = boxes[device].y
                if y < self._server_top.get(su, float("inf")):
                    self._server_top[su] = y
        cells = list(self._cell.values())
        self._grid_top = min((c.y for c in cells), default=layout.height)
        free = [b for d, b in self._switch_boxes.items() if d not in layout.su_of and not self._in_pod(b)
                and self._roles[d] != "core"]
        self._top_tier_y = sorted({b.y for b in free})            # the rows of switches above the grid
        self._gap = tiers.POD_GAP if pods else geo.SU_GAP
        self._cells: dict[str, geo.Box | None] = {}
        self._aisles: dict[str, float] = {}
        self._stacked: dict[str, tuple] = {}

    def neighbours(self, device: str) -> list[str]:
        """The other switches of its cell (SU, pod, or the tiers above the grid) whose boxes share some
        of this one's x range: its stack, its band column."""
        box = self._switch_boxes.get(device)
        if box is None:
            return []
        cell = self.cell_of(device)
        found = dict.fromkeys(other for key in range(int(box.x // BUCKET), int((box.x + box.w) // BUCKET) + 1)
                              for other in self._buckets.get(key, ()) if other != device)
        return [other for other in found if self.cell_of(other) == cell]

    # ------------------------------------------------------------------ geometry of the layout
    def _in_pod(self, box: geo.Box) -> geo.Box | None:
        return next((p for p in self._pods if p.x <= box.x and box.x + box.w <= p.x + p.w
                     and p.y <= box.y <= p.y + p.h), None)

    def cell_of(self, device: str) -> geo.Box | None:
        """The grid cell a device is drawn in (None: a switch in the tiers above the grid)."""
        cached = self._cells.get(device, _UNSET)
        if cached is _UNSET:
            layout = self.layout
            if device in layout.su_of:
                cached = self._cell.get(layout.su_of[device])
            else:
                box = layout.boxes.get(device)
                cached = self._in_pod(box) if box is not None else None
            self._cells[device] = cached
        return cached

    def _aisle_under(self, device: str, box: geo.Box) -> float:
        """The free row under a switch of the upper tiers, where cables coming up from below run."""
        cached = self._aisles.get(device)
        if cached is None:
            pod = self._in_pod(box)
            below = [y for y in self._top_tier_y if y > box.y + box.h]
            if pod is not None:                      # a pod's spines: the gap above the pod's SUs
                tops = [c.y for c in self.layout.su_blocks.values() if pod.x <= c.x <= pod.x + pod.w
                        and pod.y <= c.y <= pod.y + pod.h]
                cached = min(tops, default=pod.y + pod.h) - 18
            elif below and self._roles.get(device) == "core":     # the spine rows start there
                cached = min(below) - tiers.BAND_LABEL - 14
            else:
                cached = self._grid_top - 50
            self._aisles[device] = cached
        return cached

    def _blockers(self, device: str, box: geo.Box) -> tuple:
        """The nearest other switch boxes straight above and below a switch (over any of its width)."""
        cached = self._stacked.get(device)
        if cached is None:
            above = below = None
            seen = set()
            for key in range(int(box.x // BUCKET), int((box.x + box.w) // BUCKET) + 1):
                for other in self._buckets.get(key, ()):
                    if other == device or other in seen:
                        continue
                    seen.add(other)
                    b = self._switch_boxes[other]
                    if b.x + b.w <= box.x + CLEAR or b.x >= box.x + box.w - CLEAR:
                        continue
                    if b.y + b.h <= box.y and (above is None or b.y > above.y):
                        above = b
                    elif b.y >= box.y + box.h and (below is None or b.y < below.y):
                        below = b
            cached = self._stacked[device] = (above, below)
        return cached

    def _approach(self, device: str, end: Point, aisle_y: float) -> list[Point]:
        """From the aisle at the end's x to the end: straight, or around the boxes stacked in the way
        (up the gap beside the stack, then in through the gap next to the switch)."""
        box = self._switch_boxes.get(device)
        x, y = end
        if box is None:
            return [(x, aisle_y), end]
        above, below = self._blockers(device, box)
        if aisle_y < y and above is not None and above.y + above.h > aisle_y:
            gap_y = (above.y + above.h + box.y) / 2
        elif aisle_y > y and below is not None and below.y < aisle_y:
            gap_y = (box.y + box.h + below.y) / 2
        else:
            return [(x, aisle_y), end]
        side_x = box.x - 5
        return [(side_x, aisle_y), (side_x, gap_y), (x, gap_y), end]

    def _offset(self, rail: int | None, span: float) -> float:
        """A rail's place across a gutter or aisle ``span`` wide (centred, 2 units of margin)."""
        n = self.rails
        r = 0 if rail is None or rail < 0 else rail % n
        return -span / 2 + 2 + (span - 4) * (r + 0.5) / n

    # ------------------------------------------------------------------ paths
    def path(self, dev_a: str, end_a: Point, dev_b: str, end_b: Point, rail: int | None) -> tuple[Point, ...]:
        """The points of a cable's path from ``end_a`` (on ``dev_a``) to ``end_b``."""
        layout = self.layout
        if dev_a in layout.hidden or dev_b in layout.hidden:
            return (end_a, end_b)
        server_a, server_b = dev_a in layout.nic_slots, dev_b in layout.nic_slots
        if server_b and not server_a:
            return tuple(reversed(self.path(dev_b, end_b, dev_a, end_a, rail)))
        if server_a and not server_b and layout.su_of.get(dev_a) == layout.su_of.get(dev_b) \
                and dev_b in self._switch_boxes and end_b[1] <= self._server_top.get(layout.su_of[dev_a], end_b[1]):
            return tuple(self._to_leaf(dev_a, end_a, dev_b, end_b, rail))
        if server_a and server_b:
            return (end_a, end_b)                     # not a cable the design can hold; drawn straight
        # between cells or tiers: the lower end climbs out and up a gutter to the upper one
        if (end_a[1], dev_a) < (end_b[1], dev_b):
            return tuple(reversed(self._climb(dev_b, end_b, dev_a, end_a, rail)))
        return tuple(self._climb(dev_a, end_a, dev_b, end_b, rail))

    def _to_leaf(self, server: str, nic: Point, leaf: str, port: Point, rail) -> list[Point]:
        """NIC -> its row's aisle -> the column's gutter -> up past each row above (a joint at every
        aisle, so the cables of one rail and column share each piece) -> the gap under the leaves ->
        under the leaf's middle (shared too) -> along to its port -> up into the leaf."""
        box = self.layout.boxes[server]
        top = self._server_top[self.layout.su_of[server]]
        pitch = geo.SERVER_H + geo.ROW_GAP
        lift = self._offset(rail, geo.ROW_GAP - 4) - geo.ROW_GAP / 2
        gutter = box.x - geo.SERVER_GAP / 2 + self._offset(rail, geo.SERVER_GAP - 2)
        band = top - geo.BAND_GAP / 2 + self._offset(rail, geo.BAND_GAP / 2)
        row = max(0, round((box.y - top) / pitch))
        points = [nic, (nic[0], box.y + lift)]
        points += [(gutter, top + r * pitch + lift) for r in range(row, -1, -1)]
        points.append((gutter, band))
        leaf_box = self._switch_boxes.get(leaf)
        if leaf_box is not None:
            points.append((leaf_box.cx, band))
        return points + self._approach(leaf, port, band)

    def _exit(self, device: str, end: Point, rail) -> tuple[list[Point], geo.Box | None]:
        """From a lower end to the row gap above its cell: the points, and the cell (None: none)."""
        cell = self.cell_of(device)
        box = self.layout.boxes.get(device)
        if cell is None or box is None:
            return [end], None
        above = cell.y - geo.SU_ROW_GAP / 2 + 4 * self._row_of(cell)     # mid-gap, clear of the titles
        if device in self.layout.nic_slots:          # a server: along its aisle out of its block's side
            aisle = box.y - geo.ROW_GAP / 2 + self._offset(rail, geo.ROW_GAP - 4)
            side = cell.x - self._gap / 4
            return [end, (end[0], aisle), (side, aisle), (side, above)], cell
        legs = self._approach(device, end, above)        # from the row gap down to the switch ...
        return list(reversed(legs)), cell                # ... walked the other way

    def trunk_of(self, dev_a: str, dev_b: str) -> tuple[geo.Box | None, Point | None]:
        """The part of the canvas a cable starts in (its SU block, or its pod for a pod's spines) and
        where its trunk's count is written, right-aligned over that part's top right corner (None: a
        server cable, no trunk)."""
        layout = self.layout
        low = dev_a if dev_a in layout.su_of else dev_b if dev_b in layout.su_of else None
        if low is not None:
            block = layout.su_blocks.get(layout.su_of[low])
        else:
            block = self.cell_of(dev_a) or self.cell_of(dev_b)
        if block is None or not (dev_a in self._switch_boxes and dev_b in self._switch_boxes):
            return block, None
        return block, (block.x + block.w, block.y - 4)

    def upper_role(self, dev_a: str, dev_b: str) -> str | None:
        """The role of a cable's upper switch (the tier its trunk climbs to), None for a server cable."""
        a, b = self._switch_boxes.get(dev_a), self._switch_boxes.get(dev_b)
        if a is None or b is None:
            return None
        return self._roles[dev_a] if a.y < b.y else self._roles[dev_b]

    def _row_of(self, cell: geo.Box) -> int:
        return min(int((cell.y - self._grid_top) // 200), 4)

    def _climb(self, low: str, low_end: Point, high: str, high_end: Point, rail) -> list[Point]:
        high_box = self.layout.boxes.get(high)
        aisle = self._aisle_under(high, high_box) if high_box is not None else high_end[1]
        low_cell = self.cell_of(low)
        server = low in self.layout.nic_slots
        if not server and (low_cell is None or low_cell is self.cell_of(high)):
            legs = list(reversed(self._approach(low, low_end, aisle)))    # straight up to that aisle
        else:
            legs, cell = self._exit(low, low_end, rail)
            if cell is not None:                                       # and over to the cell's gutter
                legs.append((cell.x - self._gap / 2 + 3 * self._row_of(cell), legs[-1][1]))
        x = legs[-1][0]
        return legs + [(x, aisle)] + self._approach(high, high_end, aisle)


def crossings(points, boxes: dict[str, geo.Box], own: set[str]) -> list[str]:
    """The boxes (other than ``own``) whose inside one of the path's segments passes through."""
    out = []
    for device, b in boxes.items():
        if device in own:
            continue
        x0, y0, x1, y1 = b.x + CLEAR, b.y + CLEAR, b.x + b.w - CLEAR, b.y + b.h - CLEAR
        for (ax, ay), (bx, by) in zip(points, points[1:]):
            if _meets(ax, ay, bx, by, x0, y0, x1, y1):
                out.append(device)
                break
    return out


def _meets(ax, ay, bx, by, x0, y0, x1, y1) -> bool:
    """Whether the segment a-b meets the rectangle's inside (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return t0 < t1
