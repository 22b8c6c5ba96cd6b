"""Stage 1 of the monitoring part: scrape targets, the rail/SU groups panels and alerts select on,
and the design's LLDP neighbours, as plain data.

Target labels (every series scraped from a target carries them): ``hostname``, ``role``
(gpu_server, leaf, spine), ``su`` and ``rail`` (comma-separated when a device has several: a server
has all its rails, a shared spine the rails of the leaves it meets, a per-rail spine its plane; match
with e.g. ``rail=~"(.*,)?3(,.*)?"``) and ``exporter``.
"""

from __future__ import annotations

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from ..planning.topology import leaf_links
from .metrics import HOST_EXPORTER, SWITCH_EXPORTER
from .names import checked_hostname


def _join(values) -> str:
    return ",".join(str(v) for v in sorted({v for v in values if v is not None}))


def _spine_reach(fabric: Fabric, spine_id: str) -> tuple[set, set]:
    rails, sus = set(), set()
    for link in fabric.links_of(spine_id):
        other = split_endpoint(link.b if link.a.startswith(spine_id + "/") else link.a)[0]
        switch = fabric.switches.get(other)
        if switch is not None and switch.role is Role.LEAF:
            rails.add(switch.rail)
            sus.add(switch.su)
    return rails, sus


def targets(fabric: Fabric) -> list[dict]:
    """file_sd entries: servers (node_exporter), then leaves and spines (sonic-exporter), natural order."""
    out = []

    def entry(device, role, sus, rails, exporter):
        name = checked_hostname(device)
        out.append({"targets": [f"{name}:{exporter[1]}"],
                    "labels": {"hostname": name, "role": role, "su": _join(sus), "rail": _join(rails),
                               "exporter": exporter[0]}})

    for server in fabric.sorted_servers():
        entry(server, "gpu_server", [server.su], [n.rail for n in server.nics if fabric.peer(n.id)], HOST_EXPORTER)
    for leaf in fabric.leaves():
        entry(leaf, "leaf", [leaf.su], [leaf.rail], SWITCH_EXPORTER)
    for spine in fabric.spines():
        rails, sus = _spine_reach(fabric, spine.id)
        entry(spine, "spine", sus, [spine.plane] if spine.plane is not None else rails, SWITCH_EXPORTER)
    return out


def rail_groups(fabric: Fabric) -> list[dict]:
    """One group per (SU, rail): its leaves, their uplink ports, and the rail NICs (RDMA and netdev
    names) cabled to them."""
    groups: dict[tuple[int, int], dict] = {}
    for leaf in fabric.leaves():
        g = groups.setdefault((leaf.su, leaf.rail), {"su": leaf.su, "rail": leaf.rail, "leaves": [], "uplinks": set(),
                                                     "rdma": set(), "netdevs": set(), "servers": 0})
        g["leaves"].append(checked_hostname(leaf))
        g["uplinks"].update(port.name for port, _ in leaf_links(fabric, leaf.id).uplinks)
    for server in fabric.sorted_servers():
        for nic in server.nics:
            g = groups.get((server.su, nic.rail))
            if g is not None and fabric.peer(nic.id):
                g["rdma"].add(nic.rdma)
                g["netdevs"].add(nic.netdev)
                g["servers"] += 1
    return [{**g, "rdma": sorted(g["rdma"]), "netdevs": sorted(g["netdevs"]), "uplinks": sorted(g["uplinks"])}
            for _, g in sorted(groups.items())]


def expected_neighbors(fabric: Fabric) -> list[dict]:
    """Per switch port with a cable: the device and port its LLDP should see. A switch neighbour may
    answer with its port name or its SONiC alias, so both are listed."""
    rows = []
    for link in fabric.sorted_links():
        for near, far in ((link.a, link.b), (link.b, link.a)):
            device, port = split_endpoint(near)
            if device not in fabric.switches:
                continue
            far_device, far_port = split_endpoint(far)
            remote = fabric.device(far_device)
            if far_device in fabric.switches:
                names = {far_port, fabric.port(far).alias}
            else:
                names = {fabric.nic(far).netdev}
            for name in sorted(names):
                rows.append({"switch": checked_hostname(fabric.switches[device]), "local_interface": port,
                             "remote_system_name": checked_hostname(remote), "remote_port": name})
    rows.sort(key=lambda r: (natural_key(r["switch"]), natural_key(r["local_interface"]), r["remote_port"]))
    return rows
