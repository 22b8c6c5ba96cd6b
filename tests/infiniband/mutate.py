"""Mis-cabling injected into a topology.ibnd, as a technician would get it wrong: each edit rewrites
the port lines of both ends of a cable (ibsim insists both ends agree). Ends are (node description,
port): ``("su1-leaf-r0", 61)``, ``("su1-srv01 mlx5_0", 1)``."""

from __future__ import annotations

import re
from pathlib import Path

_NODE = re.compile(r'^(Switch|Ca)\s+\d+\s+"([^"]+)"\s+#\s+"([^"]+)"')
_TARGET = re.compile(r'"[^"]+"\[\d+\](\([0-9a-f]+\))?')


class Topology:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.lines = self.path.read_text().splitlines()
        self.node: dict[str, tuple[str, bool, int | None]] = {}      # description -> (node id, switch?, port guid)
        self.at: dict[tuple[str, int], int] = {}                      # (description, port) -> line index
        current = None
        for i, line in enumerate(self.lines):
            found = _NODE.match(line)
            if found:
                current = found.group(3)
                self.node[current] = (found.group(2), found.group(1) == "Switch", None)
            elif line.startswith("[") and current:
                port = int(line[1:line.index("]")])
                self.at[(current, port)] = i
                guid = re.match(r"^\[\d+\]\(([0-9a-f]+)\)", line)
                if guid:
                    node_id, switch, _ = self.node[current]
                    self.node[current] = (node_id, switch, int(guid.group(1), 16))
        self.rate = re.search(r"(\d+x\w+)\s*$", self.lines[min(self.at.values())]).group(1)

    def far(self, end: tuple[str, int]) -> tuple[str, int]:
        line = self.lines[self.at[end]]
        node_id, port = re.search(r'"([^"]+)"\[(\d+)\]', line[line.index("]") + 1:]).groups()
        desc = next(d for d, (n, _, _) in self.node.items() if n == node_id)
        return desc, int(port)

    def unplug(self, end: tuple[str, int]) -> None:
        other = self.far(end)
        for e in (end, other):
            self.lines[self.at.pop(e)] = None

    def plug(self, a: tuple[str, int], b: tuple[str, int], option: str = "") -> None:
        for near, far in ((a, b), (b, a)):
            self._line(near, far, option if self.node[near[0]][1] else "")

    def _line(self, near, far, option: str) -> None:
        far_id, far_switch, far_guid = self.node[far[0]]
        near_id, near_switch, near_guid = self.node[near[0]]
        far_guid = far_guid or int(far_id[2:], 16) + 1          # an HCA's port GUID: node GUID + 1 (ibsim's too)
        near_guid = near_guid or int(near_id[2:], 16) + 1
        target = f'"{far_id}"[{far[1]}]' + ("" if far_switch or not near_switch else f"({far_guid:x})")
        if near_switch:
            text = f'[{near[1]}]\t{target}\t\t# "{far[0]}" lid 0 {self.rate}{option}'
        else:
            text = f'[{near[1]}]({near_guid:x}) \t{target}\t\t# lid 0 lmc 0 "{far[0]}" lid 0 {self.rate}'
        if near in self.at:
            self.lines[self.at[near]] = text
            return
        header = next(i for i, ln in enumerate(self.lines)
                      if ln and _NODE.match(ln) and _NODE.match(ln).group(3) == near[0])
        self.lines.insert(header + 1, text)
        self.__init__from_lines()

    def __init__from_lines(self) -> None:
        self.write()
        self.__init__(self.path)

    def write(self) -> None:
        self.path.write_text("\n".join(ln for ln in self.lines if ln is not None) + "\n")


def swap(path: Path, a: tuple[str, int], b: tuple[str, int]) -> None:
    """The cables on ends ``a`` and ``b`` trade their far ends."""
    topo = Topology(path)
    fa, fb = topo.far(a), topo.far(b)
    topo.unplug(a)
    topo.unplug(b)
    topo.write()
    topo = Topology(path)
    topo.plug(a, fb)
    topo.plug(b, fa)
    topo.write()


def remove(path: Path, end: tuple[str, int]) -> None:
    topo = Topology(path)
    topo.unplug(end)
    topo.write()


def move(path: Path, end: tuple[str, int], to: tuple[str, int]) -> None:
    """The cable on ``end`` keeps ``end`` and has its far end re-plugged into ``to`` (a free port)."""
    topo = Topology(path)
    topo.unplug(end)
    topo.write()
    topo = Topology(path)
    topo.plug(end, to)
    topo.write()


def degrade(path: Path, end: tuple[str, int], option: str) -> None:
    """ibsim's per-port option on a switch end (``w=1``: one lane enabled; ``s=1``: SDR only)."""
    topo = Topology(path)
    far = topo.far(end)
    topo.plug(end, far, f" {option}")
    topo.write()


def rate(path: Path, end: tuple[str, int], new_rate: str) -> None:
    """The cable on ``end`` comes up at ``new_rate`` (both ends say so: ibsim takes the rate from there)."""
    topo = Topology(path)
    for e in (end, topo.far(end)):
        i = topo.at[e]
        topo.lines[i] = re.sub(r"\d+x\w+\s*$", new_rate, topo.lines[i])
    topo.write()


def replace_hca(path: Path, description: str, guid: int, new_guid: int, new_description: str) -> None:
    """The HCA ``description`` (node GUID ``guid``) swapped for another card: new GUIDs and node description."""
    text = Path(path).read_text()
    for old, new in ((f"{guid:016x}", f"{new_guid:016x}"), (f"({guid + 1:x})", f"({new_guid + 1:x})"),
                     (f'"{description}"', f'"{new_description}"')):
        text = text.replace(old, new)
    Path(path).write_text(text)
