"""Stage 1 of the InfiniBand parts: what the subnet manager, the as-built compare and the hosts need.

IB port numbers: a switch's usable ports in front-panel order, numbered from 1 (on an unsplit QM9700
or Q3400 that is the front-panel port number ibnetdiscover shows; a split port's sub-ports follow
each other). Every HCA port is port 1 of its own node (a ConnectX port is a PCI function).
Rates are written as ibnetdiscover writes them: width (lanes of the port) x lane speed (4xNDR).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.guids import hca_node_guid, hca_port_guid, switch_guid
from ..model.ids import natural_key, split_endpoint

# Gb/s per lane -> the IB speed name (IBTA: SDR 2.5 ... NDR 100, XDR 200).
LANE_SPEEDS = {2: "SDR", 5: "DDR", 10: "QDR", 14: "FDR", 25: "EDR", 50: "HDR", 100: "NDR", 200: "XDR"}
# PCI device ids ibnetdiscover prints: Quantum-2 (QM9700) 0xd2f0, Quantum-3 (Q3400) 0xd2f2,
# ConnectX-7 0x1021, ConnectX-8 0x1023.
SWITCH_DEVIDS = {"nvidia-qm9700": 0xD2F0, "nvidia-q3400-ra": 0xD2F2}
VENDOR_ID = 0x2C9
NCCL_SL = 0           # the service level NCCL uses (NCCL_IB_SL); the SM maps it to the high-priority VL


def rate(width: int, speed: int) -> str:
    """``4xNDR`` for 4 lanes at 400 Gb/s; ``{width}x{speed}G`` when the lane speed has no IB name."""
    lane = speed // width if width else 0
    return f"{width}x{LANE_SPEEDS.get(lane, f'{speed}G')}"


@dataclass(frozen=True)
class IbEnd:
    """One end of an IB cable: node (switch or HCA) and port number."""

    node: str          # "S-<guid>" / "H-<guid>", ibnetdiscover's node id
    description: str   # the node description ("su1-leaf-r0", "su1-srv01 mlx5_0")
    port: int
    port_guid: int


def port_numbers(fabric: Fabric, switch_id: str) -> dict[str, int]:
    return {name: number for number, name in enumerate(fabric.ports(switch_id), start=1)}


def node_id(guid: int, switch: bool) -> str:
    return f"{'S' if switch else 'H'}-{guid:016x}"


class IbIndex:
    """The IB identity of every cabled endpoint, and each cable as two `IbEnd`s with its rate."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._numbers: dict[str, dict[str, int]] = {}
        self._names: dict[str, dict[int, str]] = {}

    def numbers(self, switch_id: str) -> dict[str, int]:
        found = self._numbers.get(switch_id)
        if found is None:
            found = self._numbers[switch_id] = port_numbers(self.fabric, switch_id)
        return found

    def port_name(self, switch_id: str, number: int) -> str | None:
        """The port of a switch that has IB port ``number``, or None."""
        names = self._names.get(switch_id)
        if names is None:
            names = self._names[switch_id] = {n: name for name, n in self.numbers(switch_id).items()}
        return names.get(number)

    def end(self, ep: str) -> IbEnd:
        device, port = split_endpoint(ep)
        fabric = self.fabric
        if device in fabric.switches:
            guid = switch_guid(device)
            return IbEnd(node_id(guid, True), fabric.switches[device].hostname, self.numbers(device)[port], guid)
        nic = fabric.nic(ep)
        server = fabric.servers[device]
        return IbEnd(node_id(hca_node_guid(device, nic.index), False), f"{server.hostname} {nic.rdma}", 1,
                     hca_port_guid(device, nic.index))

    def width(self, ep_a: str, ep_b: str) -> int:
        port = self.fabric.port(ep_a) or self.fabric.port(ep_b)
        return len(port.lanes) if port is not None else 4


def switch_rows(fabric: Fabric) -> list:
    return sorted(fabric.switches.values(), key=lambda s: natural_key(s.id))


def top_tier(fabric: Fabric) -> list:
    """The switches the fat tree is rooted at: the cores, else the spines, else (rail-only) the leaves."""
    for role in (Role.CORE, Role.SPINE, Role.LEAF):
        found = [s for s in switch_rows(fabric) if s.role is role]
        if found:
            return found
    return []


def gpu_order(server) -> list:
    """The server's cabled-or-not rail HCAs in GPU-affinity order (closest GPU first, then NIC index)."""
    return sorted(server.nics, key=lambda n: (min(n.gpus, default=1 << 30), n.index))


def nccl_ib_hca(server) -> str:
    """NCCL_IB_HCA's value for a server: its rail HCAs in GPU-affinity order, ``=`` for exactly these."""
    return "=" + ",".join(f"{nic.rdma}:1" for nic in gpu_order(server) if nic.rail is not None)


def compute_nodes(fabric: Fabric) -> list[int]:
    """Port GUIDs of every cabled HCA: ftree's compute nodes (cn_guid_file)."""
    cabled = {ep for link in fabric.links.values() for ep in (link.a, link.b)}
    return [hca_port_guid(s.id, n.index) for s in fabric.sorted_servers() for n in s.nics if n.id in cabled]
