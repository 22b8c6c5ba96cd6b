"""Hardware models: what a switch or server model offers. Facts come from catalog YAML.

A switch port is a front-panel cage (numbered from 1). A breakout mode such as
``2x400G`` splits it into sub-ports; each sub-port is a `Port` with its own name.
Interface names come from the model's ``port_name`` pattern, a small template language:
literal text with the fields ``{port}`` (front-panel number), ``{sub}`` (0-based sub-port),
``{sub1}`` (1-based sub-port) and ``{lane}`` (first SerDes lane of the sub-port, counting
from ``lane_base``), each a whole number printed in decimal. Nothing else is a field: no
attributes, indexes or format specs (``str.format`` would reach into objects and pad to any
width). SONiC names ``Ethernet{lane}``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from .media import MediaCatalog
from .limits import MAX_BREAKOUT, MAX_CAGES, MAX_SPEED

_BREAKOUT = re.compile(r"^([1-9][0-9]{0,3})x([1-9][0-9]{0,4})G\Z")
PORT_FIELDS = ("port", "sub", "sub1", "lane")
_TEMPLATE_PART = re.compile(r"\{([^{}]*)\}|([^{}]+)|([{}])")


class PortTemplate:
    """A compiled ``port_name`` pattern: ``render(port=1, sub=0, sub1=1, lane=0)`` -> ``'Ethernet0'``."""

    __slots__ = ("pattern", "_parts")

    def __init__(self, pattern: str):
        parts: list[tuple[bool, str]] = []
        for m in _TEMPLATE_PART.finditer(pattern):
            name, text, brace = m.groups()
            if brace is not None:
                raise ValueError(f"{pattern!r} has an unmatched '{brace}'; fields are written "
                                 f"{', '.join('{' + f + '}' for f in PORT_FIELDS)}")
            if name is not None:
                if name not in PORT_FIELDS:
                    raise ValueError(f"{{{name[:20]}}} is not a port name field; use only "
                                     f"{', '.join('{' + f + '}' for f in PORT_FIELDS)}")
                parts.append((True, name))
            else:
                parts.append((False, text))
        if not any(is_field for is_field, _ in parts):
            raise ValueError(f"{pattern!r} has no field, so every port would get the same name; "
                             "use {port} or {lane} (and {sub} for broken-out cages)")
        self.pattern, self._parts = pattern, tuple(parts)

    def render(self, **values: int) -> str:
        return "".join(str(values[text]) if is_field else text for is_field, text in self._parts)


@lru_cache(maxsize=256)
def port_template(pattern: str) -> PortTemplate:
    """The compiled template (raises ValueError naming what is wrong with the pattern)."""
    return PortTemplate(pattern)


def parse_breakout(mode: str) -> tuple[int, int]:
    """``'2x400G'`` -> ``(2, 400)``; raises ValueError with a readable message."""
    m = _BREAKOUT.match(mode) if isinstance(mode, str) else None
    if not m:
        shown = repr(mode[:40]) if isinstance(mode, str) else type(mode).__name__
        raise ValueError(f"{shown} is not a breakout mode; write it like 1x800G, 2x400G or 4x200G")
    count, speed = int(m.group(1)), int(m.group(2))
    if count > MAX_BREAKOUT or speed > MAX_SPEED:
        raise ValueError(f"'{mode}' is beyond what a cage can be: at most {MAX_BREAKOUT} sub-ports "
                         f"of at most {MAX_SPEED}G")
    return count, speed


def breakout_name(count: int, speed: int) -> str:
    return f"{count}x{speed}G"


def breakout_runs(breakouts) -> list[tuple[str, str]]:
    """``((1, '2x400G'), (2, '2x400G'), (5, '4x200G'))`` -> ``[('1-2', '2x400G'), ('5', '4x200G')]``:
    cages in runs, as design files and the AID write them."""
    runs: list[list] = []
    for cage, mode in sorted(breakouts):
        if runs and runs[-1][2] == mode and runs[-1][1] == cage - 1:
            runs[-1][1] = cage
        else:
            runs.append([cage, cage, mode])
    return [(str(a) if a == b else f"{a}-{b}", m) for a, b, m in runs]


_CAGES = re.compile(r"^([0-9]{1,12})(?:-([0-9]{1,12}))?\Z")


def cage_range(text: str) -> range:
    """``'1-32'`` -> cages 1..32, ``'5'`` -> cage 5; raises ValueError for anything else, including
    a range beyond the largest switch (`limits.MAX_CAGES`) or one that runs backwards."""
    m = _CAGES.match(text)
    if not m:
        raise ValueError(f"{text[:40]!r} should be a cage number or a range like 1-32")
    first, last = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 1 <= first <= last <= MAX_CAGES:
        raise ValueError(f"'{text}' is not a range of cages from 1 to at most {MAX_CAGES:,}, first to last")
    return range(first, last + 1)


@dataclass(frozen=True, slots=True)
class Port:
    """One usable switch interface (a whole cage, or one sub-port of a breakout)."""

    name: str
    cage: int          # front-panel number, from 1
    sub: int           # sub-port index, 0 when not broken out
    speed: int         # Gb/s
    lanes: tuple[int, ...]
    breakout: str      # mode of the cage, e.g. "2x400G"

    @property
    def alias(self) -> str:
        """The front-panel alias SONiC gives the port (and sends as its LLDP port ID): ``etp<cage>``,
        plus a letter per sub-port on a broken-out cage (``etp1a``, ``etp1b``)."""
        return f"etp{self.cage}" + ("abcdefgh"[self.sub] if not self.breakout.startswith("1x") else "")


@dataclass(frozen=True, slots=True)
class SwitchModel:
    id: str
    vendor: str
    description: str
    ports: int                     # front-panel cages
    speed: int                     # native speed of a cage, Gb/s
    lanes: int                     # SerDes lanes per cage
    breakouts: tuple[str, ...]     # supported modes, native first
    port_name: str = "Ethernet{lane}"
    lane_base: int = 0
    nos: str = "sonic"
    redirect_to_nexthop: bool = True   # ASIC honours ACL REDIRECT to a next hop
    builtin: bool = True
    form_factor: str = ""          # cage type (osfp, qsfp-dd, qsfp112...): picks cables and optics
    rack_units: int = 1            # height in the rack
    power_w: float | None = None   # typical maximum draw (None: not known)
    weight_kg: float | None = None

    @property
    def native_mode(self) -> str:
        return breakout_name(1, self.speed)

    @property
    def capacity_gbps(self) -> int:
        return self.ports * self.speed

    def supports(self, mode: str) -> bool:
        return mode in self.breakouts

    def breakout_for_speed(self, speed: int) -> str | None:
        """The supported mode whose sub-ports run at ``speed``, or None."""
        for mode in self.breakouts:
            if parse_breakout(mode)[1] == speed:
                return mode
        return None

    def cage_ports(self, cage: int, mode: str) -> list[Port]:
        count, speed = parse_breakout(mode)
        template = port_template(self.port_name)
        step = self.lanes // count
        first = self.lane_base + (cage - 1) * self.lanes
        result = []
        for sub in range(count):
            lane = first + sub * step
            name = template.render(port=cage, sub=sub, sub1=sub + 1, lane=lane)
            result.append(Port(name, cage, sub, speed, tuple(range(lane, lane + step)), mode))
        return result


@dataclass(frozen=True, slots=True)
class NicSpec:
    """One rail NIC of a server model (on a multi-plane NIC: one port, or split lane group, per plane)."""

    index: int                 # logical NIC index on the server (nic0, nic1, ...)
    netdev: str                # OS interface name, e.g. ens1np0
    rdma: str                  # RDMA device, e.g. mlx5_0
    speed: int                 # Gb/s
    gpus: tuple[int, ...]      # GPUs this NIC is closest to (PCIe affinity)
    fabric_plane: int = 0      # the independent plane this port is cabled to


# (server model, rail count, planes) -> rails_by_nic's answer: a pure function of frozen values.
_RAILS_BY_NIC: dict[tuple, dict[int, int]] = {}


@dataclass(frozen=True, slots=True)
class ServerModel:
    id: str
    vendor: str
    description: str
    gpus: int
    nics: tuple[NicSpec, ...]
    mgmt_interface: str = "eno1"
    gid_index: int = 3
    builtin: bool = True
    nic_form_factor: str = ""      # the rail NICs' cage type (osfp, qsfp112...)
    rack_units: int = 4
    power_w: float | None = None
    weight_kg: float | None = None

    def rail_order(self, fabric_plane: int | None = None) -> list[int]:
        """NIC indexes in rail order: rail k is the k-th NIC by its closest GPU (of one plane, if given)."""
        nics = [n for n in self.nics if fabric_plane is None or n.fabric_plane == fabric_plane]
        return [n.index for n in sorted(nics, key=lambda n: (min(n.gpus, default=1 << 30), n.index))]

    @property
    def fabric_planes(self) -> int:
        """How many planes the NICs' ports go to (1 for ordinary rail NICs)."""
        return max(n.fabric_plane for n in self.nics) + 1 if self.nics else 1

    def rails_by_nic(self, rail_count: int | None = None, planes: int | None = None) -> dict[int, int]:
        """NIC index -> rail: in each of the first ``planes`` planes (None: all), the first ``rail_count``
        NICs in rail order carry rails 0, 1, ... (None: every NIC). The one place that says which NIC is on
        which rail by default."""
        key = (self, rail_count, planes)             # asked for every server built, loaded and saved
        found = _RAILS_BY_NIC.get(key)
        if found is None:
            found = {}
            for plane in range(self.fabric_planes if planes is None else min(planes, self.fabric_planes)):
                found.update((index, rank) for rank, index in enumerate(self.rail_order(plane)[:rail_count]))
            if len(_RAILS_BY_NIC) >= 1024:
                _RAILS_BY_NIC.clear()
            _RAILS_BY_NIC[key] = found
        return dict(found)

    def nic(self, index: int) -> NicSpec:
        for n in self.nics:
            if n.index == index:
                return n
        raise KeyError(index)


@dataclass
class Catalog:
    """The switch and server models a design can use, keyed by model id."""

    switches: dict[str, SwitchModel] = field(default_factory=dict)
    servers: dict[str, ServerModel] = field(default_factory=dict)
    media: MediaCatalog = field(default_factory=MediaCatalog)

    def switch(self, model_id: str) -> SwitchModel:
        try:
            return self.switches[model_id]
        except KeyError:
            raise KeyError(
                f"unknown switch model '{model_id}'; known: {', '.join(sorted(self.switches)) or 'none'}"
            ) from None

    def server(self, model_id: str) -> ServerModel:
        try:
            return self.servers[model_id]
        except KeyError:
            raise KeyError(
                f"unknown server model '{model_id}'; known: {', '.join(sorted(self.servers)) or 'none'}"
            ) from None

    def merged(self, other: "Catalog") -> "Catalog":
        """A catalog with ``other``'s models added (they win on equal ids)."""
        return Catalog({**self.switches, **other.switches}, {**self.servers, **other.servers},
                       self.media.merged(other.media))
