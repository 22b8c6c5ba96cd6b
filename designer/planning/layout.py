"""Canvas coordinates for a fabric: spines on top, leaves in rail lanes grouped by SU, servers below.

Pure geometry (no Qt): the GUI scene places its items from a `Layout`, and drop targets
(which SU, which rail lane) are answered here so they can be unit-tested.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..model.entities import Server, Switch
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint

PORT = 10            # a NIC port square
PORT_PITCH = 13
SERVER_PAD = 6
SERVER_H = 38
SWITCH_W, SWITCH_H = 76, 30
LANE_W = SWITCH_W + 12
SU_GAP = 48
SPINE_Y = 0
LEAF_Y = 190
LEAF_STACK = SWITCH_H + 8
SERVER_GAP = 14
ROW_GAP = 16
BAND_GAP = 90        # leaves band -> servers band


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x <= self.x + self.w and self.y <= y <= self.y + self.h

    @property
    def cx(self) -> float:
        return self.x + self.w / 2


@dataclass(frozen=True, slots=True)
class Lane:
    """Where the leaves of one rail of one SU sit; a leaf dropped here takes this rail."""

    su: int | None
    rail: int
    box: Box


@dataclass
class Layout:
    boxes: dict[str, Box] = field(default_factory=dict)       # device id -> box
    nic_boxes: dict[str, Box] = field(default_factory=dict)   # NIC id -> box (scene coordinates)
    lanes: list[Lane] = field(default_factory=list)
    su_blocks: dict[int | None, Box] = field(default_factory=dict)
    width: float = 0.0
    height: float = 0.0

    def lane_at(self, x: float, y: float) -> Lane | None:
        for lane in self.lanes:
            if lane.box.contains(x, y):
                return lane
        return None

    def su_at(self, x: float) -> int | None:
        """The SU whose column holds ``x`` (the nearest one when ``x`` falls in a gap)."""
        best, best_d = None, math.inf
        for su, box in self.su_blocks.items():
            if su is None:
                continue
            d = 0 if box.x <= x <= box.x + box.w else min(abs(x - box.x), abs(x - box.x - box.w))
            if d < best_d:
                best, best_d = su, d
        return best


def server_width(nic_count: int) -> float:
    return max(nic_count, 2) * PORT_PITCH + 2 * SERVER_PAD


def lane_count(fabric: Fabric) -> int:
    rails = [r for r in fabric.rails] + [s.rail for s in fabric.leaves() if s.rail is not None]
    rails += [n.rail for s in fabric.servers.values() for n in s.nics if n.rail is not None]
    return max(rails, default=-1) + 1 or 1


def compute(fabric: Fabric) -> Layout:
    out = Layout()
    lanes = lane_count(fabric)
    servers_by_su: dict[int | None, list[Server]] = {}
    for server in fabric.sorted_servers():
        servers_by_su.setdefault(server.su, []).append(server)
    leaves_by_su: dict[int | None, list[Switch]] = {}
    for leaf in fabric.leaves():
        leaves_by_su.setdefault(leaf.su, []).append(leaf)
    sus = sorted(set(servers_by_su) | set(leaves_by_su), key=lambda s: (s is None, s or 0))
    stack = max((_stack_depth(v) for v in leaves_by_su.values()), default=1)
    server_y = LEAF_Y + stack * LEAF_STACK + BAND_GAP
    lanes_w = lanes * LANE_W
    x = 0.0
    bottom = server_y
    for su in sus:
        servers = servers_by_su.get(su, [])
        pitch = max((server_width(len(s.nics)) for s in servers), default=server_width(2)) + SERVER_GAP
        cols = max(1, int((lanes_w + SERVER_GAP) // pitch))
        block_w = max(lanes_w, cols * pitch - SERVER_GAP)
        lane_w = block_w / lanes
        for rail in range(lanes):
            out.lanes.append(Lane(su, rail, Box(x + rail * lane_w, LEAF_Y - 10, lane_w, stack * LEAF_STACK + 12)))
        seen: dict[int, int] = {}
        for leaf in leaves_by_su.get(su, []):
            rail = leaf.rail or 0
            depth = seen.get(rail, 0)
            seen[rail] = depth + 1
            out.boxes[leaf.id] = Box(x + rail * lane_w + (lane_w - SWITCH_W) / 2, LEAF_Y + depth * LEAF_STACK,
                                     SWITCH_W, SWITCH_H)
        for i, server in enumerate(servers):
            row, col = divmod(i, cols)
            sx, sy = x + col * pitch, server_y + row * (SERVER_H + ROW_GAP)
            w = server_width(len(server.nics))
            out.boxes[server.id] = Box(sx, sy, w, SERVER_H)
            for j, nic in enumerate(sorted(server.nics, key=lambda n: n.index)):
                out.nic_boxes[nic.id] = Box(sx + SERVER_PAD + j * PORT_PITCH, sy + 3, PORT, PORT)
            bottom = max(bottom, sy + SERVER_H)
        out.su_blocks[su] = Box(x, LEAF_Y - 30, block_w, bottom - LEAF_Y + 30)
        x += block_w + SU_GAP
    width = max(x - SU_GAP, SWITCH_W)
    _place_spines(fabric, out, width)
    out.width, out.height = width, bottom
    return out


def _stack_depth(leaves: list[Switch]) -> int:
    counts: dict[int, int] = {}
    for leaf in leaves:
        counts[leaf.rail or 0] = counts.get(leaf.rail or 0, 0) + 1
    return max(counts.values(), default=1)


def _place_spines(fabric: Fabric, out: Layout, width: float) -> None:
    spines = sorted(fabric.spines(), key=lambda s: (s.plane if s.plane is not None else -1, natural_key(s.id)))
    if not spines:
        return
    pitch = max(SWITCH_W + 10, width / len(spines))
    start = max(0.0, (width - pitch * len(spines)) / 2)
    for i, spine in enumerate(spines):
        out.boxes[spine.id] = Box(start + i * pitch + (pitch - SWITCH_W) / 2, SPINE_Y, SWITCH_W, SWITCH_H)


def anchor(fabric: Fabric, layout: Layout, ep: str, port_index: dict[str, int],
           toward_y: float) -> tuple[float, float] | None:
    """Where a cable end meets its device: a NIC's top edge, or a switch edge facing ``toward_y``.

    ``port_index`` maps the switch's port names to their front-panel order (spreads the ends).
    """
    nic = layout.nic_boxes.get(ep)
    if nic is not None:
        return nic.cx, nic.y
    device, port = split_endpoint(ep)
    box = layout.boxes.get(device)
    if box is None:
        return None
    n = max(len(port_index), 1)
    x = box.x + 3 + (box.w - 6) * (port_index.get(port, 0) + 0.5) / n
    return x, (box.y + box.h if toward_y > box.y + box.h / 2 else box.y)
