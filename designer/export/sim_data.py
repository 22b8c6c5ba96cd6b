"""Stage 1 of the simulator part: the design as SimAI's topology (numbered nodes, one line per link)
and as ASTRA-sim's analytical network dimensions.

SimAI (aliyun/SimAI, ``astra-sim-alibabacloud/inputs/topo/gen_Topo_Template.py``) numbers the GPUs
first, then the switches: one NVSwitch per server, the rail leaves (SU by SU, rail by rail within an
SU, as its segments), the spines, then (three tiers, beyond its generator) the cores. Each GPU has a
line to its server's NVSwitch and one to the leaf its NIC is cabled to; each leaf one line per spine it
is cabled to, and each spine one per core, with the parallel cables' bandwidth added (SimAI's file
has one line per switch pair). A NIC shared by several GPUs gives each its share of the NIC's rate.
Intra-server figures the design does not hold are SimAI's generator defaults (`SIMAI_DEFAULTS`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from ..planning.topology import leaf_links

# gen_Topo_Template.py's own defaults for what a design does not say (NVLink per GPU, latencies, errors).
SIMAI_DEFAULTS = {"nvlink_bw": "2880Gbps", "nv_latency": "0.000025ms", "latency": "0.0005ms", "error_rate": "0",
                  "gpu_type": "H100"}
GPU_TYPES = ("GB300", "GB200", "B300", "B200", "H200", "H100", "H800", "H20", "A100", "A800")
NS_PER_MS = 1_000_000


@dataclass(frozen=True, slots=True)
class SimNode:
    number: int
    kind: str          # gpu, nvswitch, leaf, spine, core
    device: str        # server or switch id
    detail: str        # a GPU's index and NIC ("gpu3 nic3"); empty for a switch


@dataclass(frozen=True, slots=True)
class SimLink:
    a: int
    b: int
    bandwidth: str     # "400Gbps"
    latency: str       # "0.0005ms"


@dataclass(frozen=True)
class SimTopology:
    nodes: list[SimNode]
    links: list[SimLink]
    gpus_per_server: int
    gpu_type: str
    irregular: str     # why the fabric is not one shape ASTRA-sim's dimensions can hold ("" when it is)


def _gbps(value: float) -> str:
    return f"{value:g}Gbps"


def gpu_type(model_id: str) -> str:
    """SimAI's GPU type named in a server model id (``dgx-b200-8x400g`` -> ``B200``), else its default."""
    words = set(re.split(r"[^A-Z0-9]+", model_id.upper()))
    return next((t for t in GPU_TYPES if t in words), SIMAI_DEFAULTS["gpu_type"])


def _switch_order(fabric: Fabric) -> list:
    leaves = sorted(fabric.leaves(), key=lambda s: (s.su if s.su is not None else 1 << 30,
                                                    s.rail if s.rail is not None else 1 << 30, natural_key(s.id)))
    return leaves + [s for role in (Role.SPINE, Role.CORE)
                     for s in sorted(fabric.switches.values(), key=lambda s: natural_key(s.id)) if s.role is role]


def simai_topology(fabric: Fabric) -> SimTopology:
    servers = fabric.sorted_servers()
    nodes: list[SimNode] = []
    gpu_node: dict[tuple[str, int], int] = {}
    nic_of = {server.id: {gpu: nic for nic in server.nics for gpu in nic.gpus} for server in servers}
    for server in servers:
        for gpu in range(server.gpus):
            nic = nic_of[server.id].get(gpu)
            gpu_node[(server.id, gpu)] = len(nodes)
            nodes.append(SimNode(len(nodes), "gpu", server.id, f"gpu{gpu}" + (f" {nic.port}" if nic else "")))
    nvswitch = {}
    for server in servers:
        nvswitch[server.id] = len(nodes)
        nodes.append(SimNode(len(nodes), "nvswitch", server.id, ""))
    switch_node = {}
    for switch in _switch_order(fabric):
        switch_node[switch.id] = len(nodes)
        nodes.append(SimNode(len(nodes), switch.role.value, switch.id, ""))
    d = SIMAI_DEFAULTS
    links: list[SimLink] = []
    for server in servers:
        for gpu in range(server.gpus):
            number = gpu_node[(server.id, gpu)]
            links.append(SimLink(number, nvswitch[server.id], d["nvlink_bw"], d["nv_latency"]))
            nic = nic_of[server.id].get(gpu)
            peer = fabric.peer(nic.id) if nic else None
            if peer is not None:
                links.append(SimLink(number, switch_node[split_endpoint(peer)[0]], _gbps(nic.speed / len(nic.gpus)),
                                     d["latency"]))
    links += _switch_links(fabric, switch_node)
    counts = {s.gpus for s in servers}
    sizes = {sum(1 for s in servers if s.su == su) for su in {s.su for s in servers}}
    why = ("servers have different GPU counts" if len(counts) > 1 else
           "SUs have different server counts" if len(sizes) > 1 else
           "servers of more than one model" if len({s.model for s in servers}) > 1 else "")
    return SimTopology(nodes, links, max(counts, default=0), gpu_type(servers[0].model) if servers else
                       SIMAI_DEFAULTS["gpu_type"], why)


def _switch_links(fabric: Fabric, switch_node: dict[str, int]) -> list[SimLink]:
    """One line per cabled switch pair, lower tier first, with the pair's cables added up."""
    pairs: dict[tuple[int, int], float] = {}
    rank = {Role.LEAF: 0, Role.SPINE: 1, Role.CORE: 2}
    for link in fabric.links.values():
        a, b = split_endpoint(link.a)[0], split_endpoint(link.b)[0]
        if a in fabric.switches and b in fabric.switches:
            low, high = sorted((a, b), key=lambda s: (rank[fabric.switches[s].role], switch_node[s]))
            key = (switch_node[low], switch_node[high])
            pairs[key] = pairs.get(key, 0.0) + link.speed
    latency = SIMAI_DEFAULTS["latency"]
    return [SimLink(a, b, _gbps(gbps), latency) for (a, b), gbps in sorted(pairs.items())]


def astra_dimensions(fabric: Fabric, topo: SimTopology) -> list[dict]:
    """ASTRA-sim's analytical network, one dimension per level: the server's NVSwitch, the SU's rail
    leaves, the spines (and, three tiers, the cores). Bandwidth per GPU per direction in GB/s."""
    servers = fabric.sorted_servers()
    if topo.irregular or not servers:
        return []
    server = servers[0]
    share = min(nic.speed / len(nic.gpus) for nic in server.nics if nic.gpus)
    latency_ns = float(SIMAI_DEFAULTS["latency"].removesuffix("ms")) * NS_PER_MS
    nv_gbps = float(SIMAI_DEFAULTS["nvlink_bw"].removesuffix("Gbps"))
    dims = [{"topology": "Switch", "npus": server.gpus, "bandwidth": nv_gbps / 8,
             "latency": float(SIMAI_DEFAULTS["nv_latency"].removesuffix("ms")) * NS_PER_MS, "what": "NVSwitch"}]
    sus = sorted({s.su for s in servers})
    dims.append({"topology": "Switch", "npus": len(servers) // len(sus), "bandwidth": share / 8,
                 "latency": latency_ns, "what": "rail leaf (one SU)"})
    if len(sus) > 1:
        ratio = _oversubscription(fabric)
        groups = sorted({s.group for s in fabric.leaves() if s.group is not None})
        if groups and fabric.cores():
            per_group = len(sus) // len(groups)
            dims.append({"topology": "Switch", "npus": per_group, "bandwidth": share / ratio / 8,
                         "latency": latency_ns, "what": "spines (one spine group)"})
            dims.append({"topology": "Switch", "npus": len(groups), "bandwidth": share / ratio / 8,
                         "latency": latency_ns, "what": "cores"})
        else:
            dims.append({"topology": "Switch", "npus": len(sus), "bandwidth": share / ratio / 8,
                         "latency": latency_ns, "what": "spines"})
    return dims


def _oversubscription(fabric: Fabric) -> float:
    """The first leaf's cabled downlink:uplink capacity (1.0 when it has no uplinks to compare)."""
    leaf = min(fabric.leaves(), key=lambda s: natural_key(s.id))
    links = leaf_links(fabric, leaf.id)
    down = sum(port.speed for port, _ in links.downlinks)
    up = sum(port.speed for port, _ in links.uplinks)
    return down / up if up and down else 1.0
