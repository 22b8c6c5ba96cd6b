"""Canvas coordinates for a fabric: cores and spines on top, then the scalable units in a grid, each
SU a block with its leaves in rail lanes and its servers below them.

Pure geometry (no Qt): the GUI scene places its items from a `Layout`, and drop targets
(which SU, which rail lane, which pod or band) are answered here so they can be unit-tested.

The grid has as many columns as make the whole picture about `ASPECT` wide, so fitting it to a
window uses the window (32 SUs in one row were a thin strip). Every block of a grid row has the
same height, rounded up to `ROW_QUANTUM` server rows, and every lane has room for `MIN_STACK`
leaves, so adding or removing a server moves at most the servers after it in its own SU, and
re-railing a leaf moves only that leaf, never the rest of the design. A collapsed SU is one
short block: its leaves sit in their lanes at its top edge (their uplinks still end there) and its
servers are not drawn.

Three tiers and planes (`layout_tiers`): the cores are the top rows, one labelled band per core
group; in a design with spine groups each grid cell is a *pod*, a spine group's spines above the
SUs of that group; in a multi-plane design the spines sit in one band per fabric plane and every
rail lane has one row of leaves per plane (plane 0 on top).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from ..model.entities import Server, Switch
from ..model.fabric import Fabric
from . import layout_tiers as tiers
from .layout_tiers import SWITCH_H, SWITCH_W

PORT = 10            # a NIC port square
PORT_PITCH = 13
SERVER_PAD = 6
SERVER_H = 38
LANE_W = SWITCH_W + 12
SU_GAP = 48          # between SU columns
SU_ROW_GAP = 70      # between SU rows
SU_TITLE = 30        # the SU's name above its lanes
SPINE_GAP = 160      # spines -> first SU row
LEAF_STACK = SWITCH_H + 8
SERVER_GAP = 14
ROW_GAP = 16
BAND_GAP = 90        # leaves band -> servers band
ROW_QUANTUM = 4      # server rows per block are rounded up to a multiple of this
MIN_STACK = 2        # room for two leaves per lane, so re-railing a leaf onto a taken lane moves nothing else
COLLAPSED_H = SWITCH_H + 26
ASPECT = 1.6         # the grid aims at this width : height


class Box(NamedTuple):
    """A rectangle (a tuple: ten thousand of them per layout are made quickly and compare by value)."""

    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2


@dataclass(frozen=True, slots=True)
class Lane:
    """Where the leaves of one rail of one SU (and one fabric plane) sit; a leaf dropped here takes
    this rail and plane."""

    su: int | None
    rail: int
    box: Box
    fabric_plane: int = 0


@dataclass(frozen=True, slots=True)
class Band:
    """A labelled plate: a pod (``kind`` "pod": a spine group's spines and SUs), or a band of switches
    ("cores": a core group; "spines": the spines of one plane or spine group)."""

    kind: str
    label: str
    box: Box
    group: int | None = None
    fabric_plane: int | None = None


@dataclass
class Layout:
    boxes: dict[str, Box] = field(default_factory=dict)       # device id -> box
    nic_slots: dict[str, tuple[int, ...]] = field(default_factory=dict)   # server id -> its NIC indexes, in drawn order
    lanes: list[Lane] = field(default_factory=list)
    su_blocks: dict[int | None, Box] = field(default_factory=dict)  # the SU's title, lanes and servers
    collapsed: dict[int | None, Box] = field(default_factory=dict)   # SU -> its one block, when collapsed
    hidden: set[str] = field(default_factory=set)             # devices not drawn (servers of collapsed SUs)
    su_of: dict[str, int | None] = field(default_factory=dict)  # device id -> the SU block it is drawn in
    bands: list[Band] = field(default_factory=list)           # pods, core groups, spine bands (plates under them)
    planes: int = 1                                           # fabric planes: rows of leaves per lane
    columns: int = 1
    width: float = 0.0
    height: float = 0.0

    def nic_box(self, nic_id: str) -> Box | None:
        """Where a NIC is drawn (scene coordinates), from its server's box and its slot."""
        server, _, port = nic_id.partition("/")
        slots = self.nic_slots.get(server)
        if slots is None or not port.startswith("nic") or not port[3:].isdigit() or server in self.hidden:
            return None
        index = int(port[3:])
        if index not in slots:
            return None
        box = self.boxes[server]
        return Box(box.x + SERVER_PAD + slots.index(index) * PORT_PITCH, box.y + 3, PORT, PORT)

    @property
    def nic_boxes(self) -> dict[str, Box]:
        """Every drawn NIC's box (for tests and exports; the canvas asks `nic_box` one at a time)."""
        return {f"{s}/nic{i}": self.nic_box(f"{s}/nic{i}") for s, slots in self.nic_slots.items()
                if s not in self.hidden for i in slots}

    def lane_at(self, x: float, y: float) -> Lane | None:
        for lane in self.lanes:
            if lane.box.contains(x, y):
                return lane
        return None

    def band_at(self, x: float, y: float, kind: str | None = None) -> Band | None:
        """The innermost band (of ``kind``, if given) holding (x, y): a switch band before its pod."""
        found = [b for b in self.bands if b.box.contains(x, y) and (kind is None or b.kind == kind)]
        return min(found, key=lambda b: b.box.w * b.box.h, default=None)

    def nearest_band(self, x: float, y: float, kind: str) -> Band | None:
        return min((b for b in self.bands if b.kind == kind),
                   key=lambda b: abs(x - b.box.cx) / max(b.box.w, 1) + abs(y - b.box.cy) / max(b.box.h, 1),
                   default=None)

    def su_at(self, x: float, y: float | None = None) -> int | None:
        """The SU whose block holds (x, y) (the nearest block when the point falls in a gap)."""
        best, best_d = None, math.inf
        for su, box in self.su_blocks.items():
            if su is None:
                continue
            dx = 0 if box.x <= x <= box.x + box.w else min(abs(x - box.x), abs(x - box.x - box.w))
            dy = 0 if y is None or box.y <= y <= box.y + box.h else min(abs(y - box.y), abs(y - box.y - box.h))
            if dx + dy < best_d:
                best, best_d = su, dx + dy
        return best


def server_width(nic_count: int) -> float:
    return max(nic_count, 2) * PORT_PITCH + 2 * SERVER_PAD


def lane_count(fabric: Fabric) -> int:
    """One lane per rail (the Fabric registers every rail a leaf or NIC uses)."""
    return max(fabric.rails, default=-1) + 1 or 1


def _su_key(su: int | None):
    return (su is None, su or 0)


@dataclass
class _Grid:
    """The SU block geometry every block of one layout shares."""

    lanes: int
    planes: int
    stack: int
    pitch: float
    cols: int
    block_w: float
    lane_w: float
    full_h: float
    servers_by_su: dict
    leaves_by_su: dict

    def height(self, su, collapsed) -> float:
        return self.collapsed_h() + SU_TITLE if su in collapsed else self.full_h

    def collapsed_h(self) -> float:
        return COLLAPSED_H + (self.planes - 1) * LEAF_STACK

    def place(self, out: Layout, su, x: float, y: float, collapsed) -> float:
        leaves, servers = self.leaves_by_su.get(su, []), self.servers_by_su.get(su, [])
        if su in collapsed:
            return _collapsed_block(out, self, su, x, y, leaves, servers)
        return _block(out, self, su, x, y, leaves, servers)


def _grid(fabric: Fabric) -> _Grid:
    lanes, planes = lane_count(fabric), tiers.plane_count(fabric)
    servers_by_su: dict[int | None, list[Server]] = {}
    for server in fabric.sorted_servers():
        servers_by_su.setdefault(server.su, []).append(server)
    leaves_by_su: dict[int | None, list[Switch]] = {}
    for leaf in fabric.leaves():
        leaves_by_su.setdefault(leaf.su, []).append(leaf)
    stack = max([MIN_STACK] + [_stack_depth(v) for v in leaves_by_su.values()])
    pitch = max((server_width(len(s.nics)) for s in fabric.servers.values()), default=server_width(2)) + SERVER_GAP
    lanes_w = lanes * LANE_W
    cols = max(1, int((lanes_w + SERVER_GAP) // pitch))
    block_w = max(lanes_w, cols * pitch - SERVER_GAP)
    busiest = max((len(v) for v in servers_by_su.values()), default=0)
    server_rows = ROW_QUANTUM * max(1, math.ceil(math.ceil(busiest / cols) / ROW_QUANTUM))
    full_h = SU_TITLE + planes * stack * LEAF_STACK + BAND_GAP + server_rows * (SERVER_H + ROW_GAP) - ROW_GAP
    return _Grid(lanes, planes, stack, pitch, cols, block_w, block_w / lanes, full_h, servers_by_su, leaves_by_su)


def compute(fabric: Fabric, collapsed=frozenset(), columns: int | None = None) -> Layout:
    out = Layout()
    g = _grid(fabric)
    out.planes = g.planes
    sus = sorted(set(g.servers_by_su) | set(g.leaves_by_su), key=_su_key)
    pod_of = tiers.pods_of(g.leaves_by_su, sus)
    cells = _cells(sus, pod_of)
    in_pods = {group for group, _ in cells if group is not None}
    spines = fabric.spines()
    pod_spines: dict[int, list[Switch]] = {group: [] for group in in_pods}
    free_spines = []
    for spine in spines:
        (pod_spines[spine.group] if spine.group in pod_spines else free_spines).append(spine)
    width_su = max((len(c) for _, c in cells), default=1)
    cell_w = width_su * (g.block_w + SU_GAP) - SU_GAP
    pod_bands = {group: tiers.bands_of("spines", pod_spines[group], g.planes, in_pod=True) for group in in_pods}
    pod_slots = tiers.band_slots(*pod_bands.values())
    pod_rows = max((tiers.rows_needed(b, cell_w, pod_slots) for b in pod_bands.values()), default=0)
    head = tiers.POD_TITLE + tiers.band_height(pod_rows) + tiers.POD_SPINE_GAP if in_pods else 0.0
    gap_x = tiers.POD_GAP if in_pods else SU_GAP
    out.columns = columns or _columns(len(cells), cell_w + gap_x, head + g.full_h + SU_ROW_GAP)
    grid_w = max(out.columns * (cell_w + gap_x) - gap_x, SWITCH_W) if cells else 0.0
    spine_bands = tiers.bands_of("spines", free_spines, g.planes)
    plain = len(spine_bands) == 1 and not spine_bands[0].label
    width = max(grid_w, tiers.plain_width(len(free_spines), grid_w) if plain else 0.0, SWITCH_W)
    cores = fabric.cores()
    y = tiers.place_tier(out, tiers.bands_of("cores", cores, g.planes), width, 0.0)
    if cores and free_spines:
        y += tiers.CORE_GAP
    y = bottom = tiers.place_tier(out, spine_bands, width, y)
    if cores or free_spines:            # room for the cables that fan out of the rows above
        y += SPINE_GAP if free_spines else tiers.CORE_GAP
    for start in range(0, len(cells), out.columns):
        row = cells[start:start + out.columns]
        row_h = head + max(g.height(su, collapsed) for _, c in row for su in c)
        for col, (group, members) in enumerate(row):
            x = col * (cell_w + gap_x)
            bottom = max(bottom, _cell(out, g, group, members, x, y, cell_w, head, (pod_slots, pod_rows),
                                       pod_bands.get(group, []), collapsed))
        y += row_h + SU_ROW_GAP
    out.width, out.height = width, max(bottom, SWITCH_H if fabric.switches else 0.0)
    return out


def _cells(sus: list, pod_of: dict) -> list[tuple[int | None, list]]:
    """The grid's cells: one per pod (its SUs) in group order, then one per SU outside any pod; without
    spine groups, one per SU."""
    pods: dict[int, list] = {}
    for su in sus:
        if su in pod_of:
            pods.setdefault(pod_of[su], []).append(su)
    return [(group, pods[group]) for group in sorted(pods)] + [(None, [su]) for su in sus if su not in pod_of]


def _cell(out: Layout, g: _Grid, group, members, x, y, cell_w, head, pod_shape, bands, collapsed) -> float:
    """Place one grid cell (a pod: its spines and SUs; or an SU); returns where its contents end (y).
    ``pod_shape``: (slots per spine band, rows of spine bands) every pod shares."""
    if group is not None:
        tiers.place_bands(out, bands, x, y + tiers.POD_TITLE, cell_w, *pod_shape)
    last = y
    for i, su in enumerate(members):
        last = max(last, g.place(out, su, x + i * (g.block_w + SU_GAP), y + head, collapsed))
    if group is not None:
        pad = tiers.POD_PAD
        out.bands.append(Band("pod", tiers.pod_label(group, members),
                              Box(x - pad, y, cell_w + 2 * pad, last - y + pad), group))
        last += pad
    return last


def _columns(count: int, cell_w: float, cell_h: float) -> int:
    """SU columns whose grid comes closest to ASPECT."""
    if count <= 1:
        return 1
    best, best_err = 1, math.inf
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        err = abs(math.log((cols * cell_w) / (rows * cell_h) / ASPECT))
        if err < best_err - 1e-9:
            best, best_err = cols, err
    return best


def _block(out: Layout, g: _Grid, su, x, y, leaves, servers) -> float:
    """Place one SU's lanes, leaves and servers; returns where its contents end (y)."""
    leaf_y = y + SU_TITLE
    row_h = g.stack * LEAF_STACK
    for plane in range(g.planes):
        for rail in range(g.lanes):
            out.lanes.append(Lane(su, rail, Box(x + rail * g.lane_w, leaf_y + plane * row_h, g.lane_w, row_h), plane))
    seen: dict[tuple[int, int], int] = {}
    for leaf in leaves:
        rail, key = leaf.rail or 0, (leaf.rail or 0, leaf.fabric_plane)
        depth = seen.get(key, 0)
        seen[key] = depth + 1
        out.boxes[leaf.id] = Box(x + rail * g.lane_w + (g.lane_w - SWITCH_W) / 2,
                                 leaf_y + leaf.fabric_plane * row_h + depth * LEAF_STACK, SWITCH_W, SWITCH_H)
        out.su_of[leaf.id] = su
    server_y = leaf_y + g.planes * row_h + BAND_GAP
    cols, pitch = g.cols, g.pitch
    for i, server in enumerate(servers):
        row, col = divmod(i, cols)
        sx, sy = x + col * pitch, server_y + row * (SERVER_H + ROW_GAP)
        out.boxes[server.id] = Box(sx, sy, server_width(len(server.nics)), SERVER_H)
        out.su_of[server.id] = su
        out.nic_slots[server.id] = tuple(sorted(n.index for n in server.nics))
    last = server_y + math.ceil(len(servers) / cols) * (SERVER_H + ROW_GAP) - ROW_GAP if servers else \
        leaf_y + g.planes * row_h
    out.su_blocks[su] = Box(x, y, g.block_w, last - y)
    return last


def _collapsed_block(out: Layout, g: _Grid, su, x, y, leaves, servers) -> float:
    block = Box(x, y + SU_TITLE, g.block_w, g.collapsed_h())
    out.collapsed[su] = block
    out.su_blocks[su] = Box(x, y, g.block_w, SU_TITLE + block.h)
    for leaf in leaves:
        rail = leaf.rail or 0
        out.boxes[leaf.id] = Box(x + rail * g.lane_w + (g.lane_w - SWITCH_W) / 2,
                                 block.y + 4 + leaf.fabric_plane * LEAF_STACK, SWITCH_W, SWITCH_H)
        out.su_of[leaf.id] = su
    for server in servers:
        out.boxes[server.id] = block
        out.su_of[server.id] = su
        out.hidden.add(server.id)
    return block.y + block.h


def _stack_depth(leaves: list[Switch]) -> int:
    """The most leaves one lane (rail and plane) of an SU holds."""
    counts: dict[tuple[int, int], int] = {}
    for leaf in leaves:
        key = (leaf.rail or 0, leaf.fabric_plane)
        counts[key] = counts.get(key, 0) + 1
    return max(counts.values(), default=1)


def anchor(fabric: Fabric, layout: Layout, ep: str, port_index: dict[str, int],
           toward_y: float) -> tuple[float, float] | None:
    """Where a cable end meets its device: a NIC's top edge, or a switch edge facing ``toward_y``.

    ``port_index`` maps the switch's port names to their front-panel order (spreads the ends).
    """
    device, _, port = ep.partition("/")
    return anchor_at(layout, device, port, port_index, toward_y)


def anchor_at(layout: Layout, device: str, port: str, port_index: dict[str, int],
              toward_y: float) -> tuple[float, float] | None:
    """`anchor` for an endpoint already split into device and port (the canvas's hot path)."""
    box = layout.boxes.get(device)
    if box is None:
        return None
    if device in layout.hidden:
        return box.x + box.w / 2, box.y + box.h / 2
    slots = layout.nic_slots.get(device)
    if slots is not None:
        index = int(port[3:]) if port.startswith("nic") and port[3:].isdigit() else None
        if index in slots:
            return box.x + SERVER_PAD + slots.index(index) * PORT_PITCH + PORT / 2, box.y + 3
    n = max(len(port_index), 1)
    x = box.x + 3 + (box.w - 6) * (port_index.get(port, 0) + 0.5) / n
    return x, (box.y + box.h if toward_y > box.y + box.h / 2 else box.y)
