"""The fabric as an IBDM topology file: the master topology that ``ibdiagnet -t`` and UFM's cable
validation compare a live fabric against (NVIDIA's IB bring-up guide builds it from a spreadsheet).

``infiniband/fabric.topo`` has one block per system: a line ``<type> <name>``, then one line per cabled
port, ``<port> -<width>x-> <peer type> <peer name> <peer port>``. A switch is a system of one switch
node whose ports are ``P1``..``Pn`` (the IB port numbers of topology.ibnd); a GPU server is a system
whose HCAs are nodes named by their RDMA device, with ports ``mlx5_0/P1`` and so on. Each system type
is defined in ``infiniband/ibnl/<type>.ibnl`` (IBDM's system definition language), which ibdiagnet
reads from ``IBDM_IBNL_PATH``.

The lane speed is left out: the grammar makes it optional, and IBDM's parser knows no lane speed
above QDR, so an NDR speed would make it drop the line; rates are compared by `rail-designer verify
--ibnetdiscover` instead.
"""

from __future__ import annotations

import re

from ..model.fabric import Fabric
from ..model.ids import split_endpoint
from .ib_data import IbIndex, gpu_order, switch_rows
from .parts import Files

TOPO_FILE, IBNL_DIR = "infiniband/fabric.topo", "infiniband/ibnl"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def _type_name(model: str) -> str:
    """An IBNL system type from a catalogue model id: ``nvidia-qm9700`` -> ``QM9700``."""
    return _UNSAFE.sub("_", model.removeprefix("nvidia-").upper())


class _Systems:
    """The system type of every device, and each type's IBNL text. Devices of one model share a type
    while their ports agree (a switch's port count, a server's HCA names); a variant gets a suffix."""

    def __init__(self, fabric: Fabric):
        self.of: dict[str, str] = {}
        self.ibnl: dict[str, str] = {}
        shapes: dict[tuple, str] = {}
        for sw in switch_rows(fabric):
            self.of[sw.id] = self._type(shapes, _type_name(sw.model), ("SW", len(fabric.ports(sw.id))))
        for server in fabric.sorted_servers():
            shape = ("CA",) + tuple(nic.rdma for nic in gpu_order(server))
            self.of[server.id] = self._type(shapes, "HCA_" + _type_name(server.model), shape)

    def _type(self, shapes: dict[tuple, str], base: str, shape: tuple) -> str:
        found = shapes.get((base, shape))
        if found is None:
            count = sum(1 for b, _ in shapes if b == base)
            found = shapes[(base, shape)] = base if count == 0 else f"{base}_{count + 1}"
            self.ibnl[found] = _ibnl(found, shape)
        return found


def _ibnl(name: str, shape: tuple) -> str:
    out = [f"TOPSYSTEM {name}", ""]          # IBDM's IBNL parser takes no comment before this line
    if shape[0] == "SW":
        ports = shape[1]
        out += [f"NODE SW {ports} {name} U1", *(f"   {p} -> P{p}" for p in range(1, ports + 1)), ""]
    else:
        for rdma in shape[1:]:
            out += [f"NODE CA 1 ConnectX {rdma}", f"   1 -> {rdma}/P1", ""]
    return "\n".join(out)


def topo_text(fabric: Fabric, systems: _Systems | None = None) -> str:
    systems = systems or _Systems(fabric)
    index = IbIndex(fabric)

    def name(ep: str) -> tuple[str, str, str, tuple]:
        """(system type, system name, port name, order of the port in its block)."""
        device, port = split_endpoint(ep)
        switch = fabric.switches.get(device)
        if switch is not None:
            number = index.numbers(device)[port]
            return systems.of[device], switch.hostname, f"P{number}", (0, number)
        nic = fabric.nic(ep)
        return systems.of[device], fabric.servers[device].hostname, f"{nic.rdma}/P1", (1, nic.index)

    blocks: dict[str, list[tuple[tuple, str]]] = {}
    for link in fabric.sorted_links():
        width = index.width(link.a, link.b)
        ends = (link.a, name(link.a)), (link.b, name(link.b))
        for (near, (_, _, port, order)), (_, (peer_type, peer_host, peer_port, _)) in (ends, ends[::-1]):
            blocks.setdefault(split_endpoint(near)[0], []).append(
                (order, f"   {port} -{width}x-> {peer_type} {peer_host} {peer_port}"))
    out = [f"# IBDM topology of rail-designer design '{fabric.settings.name}': ibdiagnet -t / UFM cable "
           "validation; system types in ibnl/ (IBDM_IBNL_PATH)", ""]
    for device in [s.id for s in switch_rows(fabric)] + [s.id for s in fabric.sorted_servers()]:
        lines = blocks.get(device)
        if lines:
            host = (fabric.switches.get(device) or fabric.servers[device]).hostname
            out += [f"{systems.of[device]} {host}", *(line for _, line in sorted(lines)), ""]
    return "\n".join(out)


def render_topo(fabric: Fabric) -> Files:
    systems = _Systems(fabric)
    files = {TOPO_FILE: topo_text(fabric, systems)}
    files.update({f"{IBNL_DIR}/{name}.ibnl": text for name, text in sorted(systems.ibnl.items())})
    return files
