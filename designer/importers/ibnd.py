"""``ibnetdiscover`` output (and the bundle's ``topology.ibnd``, written in the same format) as data.

A record is a few ``key=value`` header lines (``switchguid=`` / ``caguid=`` give the node GUID), the
node line and one line per connected port::

    switchguid=0x0002c92b048a51cc(2c92b048a51cc)
    Switch  64 "S-0002c92b048a51cc"     # "su1-leaf-r0" enhanced port 0 lid 27 lmc 0
    [1]     "H-0002c94cc44ed3b2"[1](2c94cc44ed3b3)      # "su1-srv01 mlx5_0" lid 19 4xNDR
    Ca      1 "H-0002c94cc44ed3b2"      # "su1-srv01 mlx5_0"
    [1](2c94cc44ed3b3)  "S-0002c92b048a51cc"[1]     # lid 19 lmc 0 "su1-leaf-r0" lid 27 4xNDR

Routers (``Rt``) are read as nodes of their own kind. Anything else (comments, blank lines, other
header keys) is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model.limits import excerpt
from .errors import ImportFormatError

MAX_IBND_LINES = 4_000_000      # 65,536 HCAs + a few thousand 144-port switches, each port twice

_NODE = re.compile(r'^(Switch|Ca|Rt)\s+(\d+)\s+"([^"]+)"(.*)$')
_PORT = re.compile(r'^\[(\d+)\](?:\(([0-9a-fA-F]+)\))?\s+"([^"]+)"\[(\d+)\](?:\(([0-9a-fA-F]+)\))?(.*)$')
_GUID = re.compile(r"^(?:switchguid|caguid|rtguid)=(0x[0-9a-fA-F]+)")
_DESC = re.compile(r'"([^"]*)"')
_LID = re.compile(r"\blid (\d+)")
_OWN_LID = re.compile(r"\s*lid (\d+)")
_RATE = re.compile(r"\b(\d+)x([A-Z]+|\d+G)\s*$")
KINDS = {"Switch": "switch", "Ca": "ca", "Rt": "router"}


@dataclass(frozen=True, slots=True)
class IbPort:
    port: int
    remote: str                     # the far node's id ("S-<guid>", "H-<guid>")
    remote_port: int
    remote_description: str | None
    rate: str | None                # "4xNDR" as ibnetdiscover prints it
    line: int


@dataclass
class IbNode:
    kind: str                       # switch, ca, router
    node: str                       # ibnetdiscover's node id
    guid: int
    ports: int
    description: str
    lid: int | None
    line: int
    links: dict[int, IbPort] = field(default_factory=dict)


class _Line:
    """Where a number is read from, to name it when it is not one ibnetdiscover prints."""

    def __init__(self, number: int, raw: str, source: str):
        self.number, self.raw, self.source = number, raw, source

    def whole(self, digits: str, what: str) -> int:
        if len(digits) > 9:                    # no port, port count or LID has more; int() would take ages
            raise ImportFormatError(f"{what} {excerpt(digits)} is not a number ibnetdiscover prints",
                                    self.number, self.raw, self.source)
        return int(digits)

    def guid(self, digits: str) -> int:
        if len(digits) > 18:                   # 0x + 16 hex digits: a GUID is 64 bits
            raise ImportFormatError(f"GUID {excerpt(digits)} is longer than 64 bits", self.number, self.raw,
                                    self.source)
        return int(digits, 16)


def _guid_of(node_id: str, header: int | None) -> int:
    if header is not None:
        return header
    try:
        return int(node_id.split("-", 1)[1], 16)
    except (IndexError, ValueError):
        return 0


def parse_ibnd(text: str, source: str = "input") -> dict[str, IbNode]:
    """Node id -> `IbNode`, in file order. Raises `ImportFormatError` (source, line) for a port line
    outside a node record, a node listed twice or a port number past the node's port count."""
    nodes: dict[str, IbNode] = {}
    current: IbNode | None = None
    guid: int | None = None
    lines = text.splitlines()
    if len(lines) > MAX_IBND_LINES:
        raise ImportFormatError(f"has {len(lines):,} lines; an ibnetdiscover dump is read up to "
                                f"{MAX_IBND_LINES:,}", source=source)
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        at = _Line(number, raw, source)
        if not line or line.startswith("#"):
            if not line:
                current = None
            continue
        found = _GUID.match(line)
        if found:
            guid = at.guid(found.group(1))
            continue
        node = _NODE.match(line)
        if node:
            kind, ports, node_id, rest = node.groups()
            if node_id in nodes:
                raise ImportFormatError(f"node {node_id} is listed twice", number, raw, source)
            desc = _DESC.search(rest)
            lid = _LID.search(rest)
            current = nodes[node_id] = IbNode(KINDS[kind], node_id, _guid_of(node_id, guid),
                                              at.whole(ports, "port count"), desc.group(1) if desc else node_id,
                                              at.whole(lid.group(1), "LID") if lid else None, number)
            guid = None
            continue
        port = _PORT.match(line)
        if port:
            if current is None:
                raise ImportFormatError("a port line outside a Switch/Ca record", number, raw, source)
            local, _, remote, remote_port, _, rest = port.groups()
            local_port = at.whole(local, "port")
            if not 0 < local_port <= current.ports:
                raise ImportFormatError(f"port {local_port} of {current.node}, which has {current.ports} ports",
                                        number, raw, source)
            comment = rest.split("#", 1)[1] if "#" in rest else ""
            own_lid = _OWN_LID.match(comment)
            if current.kind != "switch" and own_lid and current.lid is None:
                current.lid = at.whole(own_lid.group(1), "LID")   # an HCA's port line starts with its own LID
            descs = _DESC.findall(comment)
            rate = _RATE.search(comment)
            current.links[local_port] = IbPort(local_port, remote, at.whole(remote_port, "port"),
                                               descs[-1] if descs else None,
                                               f"{rate.group(1)}x{rate.group(2)}" if rate else None, number)
            continue
        guid = None if "=" not in line else guid      # vendid=, devid=, sysimgguid= keep the record's GUID
    return nodes
