"""Canvas coordinates for a fabric: spines on top, then the scalable units in a grid, each SU a
block with its leaves in rail lanes and its servers below them.

Pure geometry (no Qt): the GUI scene places its items from a `Layout`, and drop targets
(which SU, which rail lane) are answered here so they can be unit-tested.

The grid has as many columns as make the whole picture about `ASPECT` wide, so fitting it to a
window uses the window (32 SUs in one row were a thin strip). Every block of a grid row has the
same height, rounded up to `ROW_QUANTUM` server rows, and every lane has room for `MIN_STACK`
leaves, so adding or removing a server moves at most the servers after it in its own SU, and
re-railing a leaf moves only that leaf, never the rest of the design. A collapsed SU is one
short block: its leaves sit in their lanes at its top edge (their uplinks still end there) and its
servers are not drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

from ..model.entities import Server, Switch
from ..model.fabric import Fabric
from ..model.ids import natural_key

PORT = 10            # a NIC port square
PORT_PITCH = 13
SERVER_PAD = 6
SERVER_H = 38
SWITCH_W, SWITCH_H = 76, 30
LANE_W = SWITCH_W + 12
SU_GAP = 48          # between SU columns
SU_ROW_GAP = 70      # between SU rows
SU_TITLE = 30        # the SU's name above its lanes
SPINE_PITCH = SWITCH_W + 10
SPINE_ROW = SWITCH_H + 20
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
    """Where the leaves of one rail of one SU sit; a leaf dropped here takes this rail."""

    su: int | None
    rail: int
    box: Box


@dataclass
class Layout:
    boxes: dict[str, Box] = field(default_factory=dict)       # device id -> box
    nic_slots: dict[str, tuple[int, ...]] = field(default_factory=dict)   # server id -> its NIC indexes, in drawn order
    lanes: list[Lane] = field(default_factory=list)
    su_blocks: dict[int | None, Box] = field(default_factory=dict)  # the SU's title, lanes and servers
    collapsed: dict[int | None, Box] = field(default_factory=dict)   # SU -> its one block, when collapsed
    hidden: set[str] = field(default_factory=set)             # devices not drawn (servers of collapsed SUs)
    su_of: dict[str, int | None] = field(default_factory=dict)  # device id -> the SU block it is drawn in
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


def compute(fabric: Fabric, collapsed=frozenset(), columns: int | None = None) -> Layout:
    out = Layout()
    lanes = lane_count(fabric)
    servers_by_su: dict[int | None, list[Server]] = {}
    for server in fabric.sorted_servers():
        servers_by_su.setdefault(server.su, []).append(server)
    leaves_by_su: dict[int | None, list[Switch]] = {}
    for leaf in fabric.leaves():
        leaves_by_su.setdefault(leaf.su, []).append(leaf)
    sus = sorted(set(servers_by_su) | set(leaves_by_su), key=_su_key)
    stack = max([MIN_STACK] + [_stack_depth(v) for v in leaves_by_su.values()])
    pitch = max((server_width(len(s.nics)) for s in fabric.servers.values()), default=server_width(2)) + SERVER_GAP
    lanes_w = lanes * LANE_W
    cols = max(1, int((lanes_w + SERVER_GAP) // pitch))
    block_w = max(lanes_w, cols * pitch - SERVER_GAP)
    lane_w = block_w / lanes
    busiest = max((len(v) for v in servers_by_su.values()), default=0)
    server_rows = ROW_QUANTUM * max(1, math.ceil(math.ceil(busiest / cols) / ROW_QUANTUM))
    leaf_band = stack * LEAF_STACK
    full_h = SU_TITLE + leaf_band + BAND_GAP + server_rows * (SERVER_H + ROW_GAP) - ROW_GAP
    out.columns = columns or _columns(len(sus), block_w + SU_GAP, full_h + SU_ROW_GAP)
    spines = _spine_order(fabric)
    grid_w = max(out.columns * (block_w + SU_GAP) - SU_GAP, SWITCH_W) if sus else 0.0
    width = max(grid_w, min(len(spines), _spines_per_row(grid_w)) * SPINE_PITCH, SWITCH_W)
    spine_rows = math.ceil(len(spines) / _spines_per_row(width)) if spines else 0
    top = spine_rows * SPINE_ROW + SPINE_GAP if spines else 0.0
    y = top
    bottom = spine_rows * SPINE_ROW
    for start in range(0, len(sus), out.columns):
        row = sus[start:start + out.columns]
        row_h = max(COLLAPSED_H + SU_TITLE if su in collapsed else full_h for su in row)
        ends = []
        for col, su in enumerate(row):
            x = col * (block_w + SU_GAP)
            if su in collapsed:
                ends.append(_collapsed_block(out, su, x, y, block_w, lane_w, leaves_by_su.get(su, []),
                                             servers_by_su.get(su, [])))
            else:
                ends.append(_block(out, su, x, y, block_w, lane_w, lanes, stack, pitch, cols, full_h,
                                   leaves_by_su.get(su, []), servers_by_su.get(su, [])))
        bottom = max(ends)                 # the last row ends where its contents end, not its reserve
        y += row_h + SU_ROW_GAP
    _place_spines(spines, out, width)
    out.width, out.height = width, max(bottom, SWITCH_H if spines else 0.0)
    return out


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


def _block(out, su, x, y, block_w, lane_w, lanes, stack, pitch, cols, full_h, leaves, servers) -> float:
    """Place one SU's lanes, leaves and servers; returns where its contents end (y)."""
    leaf_y = y + SU_TITLE
    for rail in range(lanes):
        out.lanes.append(Lane(su, rail, Box(x + rail * lane_w, leaf_y, lane_w, stack * LEAF_STACK)))
    seen: dict[int, int] = {}
    for leaf in leaves:
        rail = leaf.rail or 0
        depth = seen.get(rail, 0)
        seen[rail] = depth + 1
        out.boxes[leaf.id] = Box(x + rail * lane_w + (lane_w - SWITCH_W) / 2, leaf_y + depth * LEAF_STACK,
                                 SWITCH_W, SWITCH_H)
        out.su_of[leaf.id] = su
    server_y = leaf_y + stack * LEAF_STACK + BAND_GAP
    for i, server in enumerate(servers):
        row, col = divmod(i, cols)
        sx, sy = x + col * pitch, server_y + row * (SERVER_H + ROW_GAP)
        out.boxes[server.id] = Box(sx, sy, server_width(len(server.nics)), SERVER_H)
        out.su_of[server.id] = su
        out.nic_slots[server.id] = tuple(sorted(n.index for n in server.nics))
    last = server_y + math.ceil(len(servers) / cols) * (SERVER_H + ROW_GAP) - ROW_GAP if servers else leaf_y + \
        stack * LEAF_STACK
    out.su_blocks[su] = Box(x, y, block_w, last - y)
    return last


def _collapsed_block(out, su, x, y, block_w, lane_w, leaves, servers) -> float:
    block = Box(x, y + SU_TITLE, block_w, COLLAPSED_H)
    out.collapsed[su] = block
    out.su_blocks[su] = Box(x, y, block_w, SU_TITLE + COLLAPSED_H)
    for leaf in leaves:
        rail = leaf.rail or 0
        out.boxes[leaf.id] = Box(x + rail * lane_w + (lane_w - SWITCH_W) / 2, block.y + 4, SWITCH_W, SWITCH_H)
        out.su_of[leaf.id] = su
    for server in servers:
        out.boxes[server.id] = block
        out.su_of[server.id] = su
        out.hidden.add(server.id)
    return block.y + block.h


def _stack_depth(leaves: list[Switch]) -> int:
    counts: dict[int, int] = {}
    for leaf in leaves:
        counts[leaf.rail or 0] = counts.get(leaf.rail or 0, 0) + 1
    return max(counts.values(), default=1)


def _spine_order(fabric: Fabric) -> list[Switch]:
    return sorted(fabric.spines(), key=lambda s: (s.plane if s.plane is not None else -1, natural_key(s.id)))


def _spines_per_row(width: float) -> int:
    return max(1, int(width // SPINE_PITCH))


def _place_spines(spines: list[Switch], out: Layout, width: float) -> None:
    """Spines in rows across the top, in plane order, each row centred."""
    per_row = _spines_per_row(width)
    for start in range(0, len(spines), per_row):
        row = spines[start:start + per_row]
        pitch = max(SPINE_PITCH, width / len(row)) if len(row) > 1 else SPINE_PITCH
        x0 = max(0.0, (width - pitch * len(row)) / 2)
        y = (start // per_row) * SPINE_ROW
        for i, spine in enumerate(row):
            out.boxes[spine.id] = Box(x0 + i * pitch + (pitch - SWITCH_W) / 2, y, SWITCH_W, SWITCH_H)


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
