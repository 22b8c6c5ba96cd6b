"""Stage 1 of the monitoring part: scrape targets, the rail/SU groups panels and alerts select on,
and the design's LLDP neighbours, as plain data.

Target labels (every series scraped from a target carries them): ``hostname``, ``role``
(gpu_server, leaf, spine, core), ``su`` and ``rail`` (comma-separated when a device has several: a
server has all its rails, a shared spine the rails of the leaves it meets, a per-rail spine its plane,
a core the rails of its spines; match with e.g. ``rail=~"(.*,)?3(,.*)?"``) and ``exporter``. A
three-tier design adds ``group`` on switches (spine or core group), a multi-plane design
``fabric_plane`` (a server: every plane it has a port on, comma-separated).
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


def _reach(fabric: Fabric, switch_id: str) -> tuple[set, set]:
    """The rails and SUs of the leaves a spine meets, or (a core) of the leaves its spines meet."""
    rails, sus, spines = set(), set(), set()
    for _, peer in fabric.cabled_ports(switch_id):
        switch = fabric.switches.get(split_endpoint(peer)[0])
        if switch is not None and switch.role is Role.LEAF:
            rails.add(switch.rail)
            sus.add(switch.su)
        elif switch is not None and switch.role is Role.SPINE and fabric.switches[switch_id].role is Role.CORE:
            spines.add(switch)
    for spine in spines:
        below = _reach(fabric, spine.id)
        rails |= {spine.plane} if spine.plane is not None else below[0]
        sus |= below[1]
    return rails, sus


def targets(fabric: Fabric) -> list[dict]:
    """file_sd entries: servers (node_exporter), then leaves, spines and cores (sonic-exporter), natural order."""
    out = []
    tiers, planes = bool(fabric.cores()), fabric.settings.fabric_planes > 1

    def entry(device, role, sus, rails, exporter, plane=None):
        name = checked_hostname(device)
        labels = {"hostname": name, "role": role, "su": _join(sus), "rail": _join(rails), "exporter": exporter[0]}
        if tiers and role != "gpu_server":
            labels["group"] = _join([device.group])
        if planes:
            labels["fabric_plane"] = _join([device.fabric_plane] if plane is None else plane)
        out.append({"targets": [f"{name}:{exporter[1]}"], "labels": labels})

    for server in fabric.sorted_servers():
        cabled = [n for n in server.nics if fabric.peer(n.id)]
        entry(server, "gpu_server", [server.su], [n.rail for n in cabled], HOST_EXPORTER,
              [n.fabric_plane for n in cabled])
    for leaf in fabric.leaves():
        entry(leaf, "leaf", [leaf.su], [leaf.rail], SWITCH_EXPORTER)
    for switch in fabric.spines() + fabric.cores():
        rails, sus = _reach(fabric, switch.id)
        entry(switch, switch.role.value, sus, [switch.plane] if switch.plane is not None else rails, SWITCH_EXPORTER)
    return out


def rail_groups(fabric: Fabric) -> list[dict]:
    """One group per (fabric plane, SU, rail): its leaves, their uplink ports, and the rail NICs (RDMA and
    netdev names) cabled to them."""
    groups: dict[tuple[int, int, int], dict] = {}
    for leaf in fabric.leaves():
        key = (leaf.fabric_plane, leaf.su, leaf.rail)
        g = groups.setdefault(key, {"su": leaf.su, "rail": leaf.rail, "fabric_plane": leaf.fabric_plane,
                                    "leaves": [], "uplinks": set(), "rdma": set(), "netdevs": set(), "servers": 0})
        g["leaves"].append(checked_hostname(leaf))
        g["uplinks"].update(port.name for port, _ in leaf_links(fabric, leaf.id).uplinks)
    for server in fabric.sorted_servers():
        for nic in server.nics:
            g = groups.get((nic.fabric_plane, server.su, nic.rail))
            if g is not None and fabric.peer(nic.id):
                g["rdma"].add(nic.rdma)
                g["netdevs"].add(nic.netdev)
                g["servers"] += 1
    return [{**g, "rdma": sorted(g["rdma"]), "netdevs": sorted(g["netdevs"]), "uplinks": sorted(g["uplinks"])}
            for _, g in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][2], kv[0][0]))]


def core_uplinks(fabric: Fabric) -> list[str]:
    """The spines' ports to cores (front-panel names), for the spine uplink panel."""
    return sorted({port.name for spine in fabric.spines() for port, peer in fabric.cabled_ports(spine.id)
                   if (s := fabric.switches.get(split_endpoint(peer)[0])) is not None and s.role is Role.CORE})


def expected_neighbors(fabric: Fabric) -> list[dict]:
    """Per switch port with a cable: the device and port its LLDP should see. A switch neighbour may
    answer with its port name or its SONiC alias, so both are listed. Rows run in natural order of
    switch, then local port, then remote port name (the names themselves break natural-order ties)."""
    rows = []
    hostnames: dict[str, str] = {}

    def hostname(device_id: str) -> str:
        name = hostnames.get(device_id)
        if name is None:
            name = hostnames[device_id] = checked_hostname(fabric.device(device_id))
        return name

    for link in fabric.links.values():
        for near, far in ((link.a, link.b), (link.b, link.a)):
            device, port = split_endpoint(near)
            if device not in fabric.switches:
                continue
            far_device, far_port = split_endpoint(far)
            if far_device in fabric.switches:
                names = {far_port, fabric.port(far).alias}
            else:
                names = {fabric.nic(far).netdev}
            switch, remote = hostname(device), hostname(far_device)
            for name in sorted(names):
                rows.append({"switch": switch, "local_interface": port, "remote_system_name": remote,
                             "remote_port": name})
    order: dict[str, tuple] = {}

    def natural(text: str) -> tuple:
        key = order.get(text)
        if key is None:
            key = order[text] = natural_key(text)
        return key

    rows.sort(key=lambda r: (natural(r["switch"]), r["switch"], natural(r["local_interface"]), r["local_interface"],
                             r["remote_port"]))
    return rows
