"""What the diagnostics print, as data: ``ibtracert`` hops and ``ibroute`` forwarding tables.

ibtracert (unicast, default format)::

    From ca {0x0002c9dfec30409a} portnum 1 lid 19-19 "su2-srv01 mlx5_0"
    [1] -> switch port {0x0002c92e18fffbf4}[1] lid 27-27 "su2-leaf-r0"
    [61] -> switch port {0x0002c979069ab084}[1] lid 31-31 "sg2-spine-01"
    [3] -> ca port {0x0002c9249f706ab3}[1] lid 22-22 "su2-srv01 mlx5_3"

ibroute (a switch's linear forwarding table)::

    0x0008 064 : (Channel Adapter portguid 0x0002c92e23ece00f: 'su1-srv04 mlx5_0')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HOP = re.compile(r'^\[(\d+)\] -> (switch|ca) port \{0x([0-9a-fA-F]+)\}\[(\d+)\] lid \d+-\d+ "([^"]*)"')
_ROUTE = re.compile(r"^0x([0-9a-fA-F]{1,8}) (\d{1,3}) : \((.*)\)\s*$")


@dataclass(frozen=True, slots=True)
class Hop:
    out_port: int           # the port the packet leaves the previous node by
    kind: str               # switch or ca
    guid: int               # the node's port GUID (a switch: its node GUID)
    in_port: int
    description: str


@dataclass(frozen=True, slots=True)
class Route:
    lid: int
    port: int               # out port (0: the switch itself)
    destination: str        # what ibroute could learn of it ("Channel Adapter portguid 0x...: 'name'" or
                            # "unknown node and type" when its query timed out): match LIDs, not this


def parse_tracert(text: str) -> list[Hop]:
    return [Hop(int(m[1]), m[2], int(m[3], 16), int(m[4]), m[5])
            for m in (_HOP.match(line.strip()) for line in text.splitlines()) if m]


def route_line(line: str) -> Route | None:
    """One forwarding-table line of ibroute (or dump_fts), else None."""
    m = _ROUTE.match(line.strip())
    return Route(int(m[1], 16), int(m[2]), m[3]) if m else None


def parse_ibroute(text: str) -> list[Route]:
    return [r for r in map(route_line, text.splitlines()) if r is not None]
