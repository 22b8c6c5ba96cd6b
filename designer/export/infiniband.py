"""The InfiniBand parts: the subnet manager's files, the fabric's topology in ibnetdiscover's format,
and per host the NCCL settings for its rail HCAs.

``infiniband``: ``infiniband/opensm.conf`` (routing engine ftree, updn as the fallback, QoS for
NCCL's service level), ``root-guids.conf`` (the top tier), ``cn-guids.conf`` (ftree's compute
nodes), ``partitions.conf`` and ``topology.ibnd``: every switch, HCA, GUID, port and rate as
``ibnetdiscover`` prints it, which ``ibsim`` loads and the as-built compare (`verify`) reads;
``fabric.topo`` with ``ibnl/`` (`ib_topo`): the master topology ``ibdiagnet -t`` and UFM's cable
validation compare the live fabric with.
``ib-hosts``: ``hosts/<hostname>/nccl-ib.env`` per GPU server; ``ipoib`` (optional):
``hosts/<hostname>/ipoib-netplan.yaml``.
"""

from __future__ import annotations

from ..model.entities import INFINIBAND
from ..model.fabric import Fabric
from ..model.guids import hca_node_guid, switch_guid, text
from .ib_data import (NCCL_SL, SWITCH_DEVIDS, VENDOR_ID, IbIndex, compute_nodes, gpu_order, nccl_ib_hca, rate,
                      switch_rows, top_tier)
from .ib_topo import render_topo
from .parts import Files, Part
from .yamldump import dump

SM_DIR = "/etc/opensm"          # where opensm.conf expects its companion files (README says so)
CX7, CX8 = 0x1021, 0x1023


def topology_text(fabric: Fabric) -> str:
    index = IbIndex(fabric)
    ports: dict[str, list[tuple[int, str]]] = {}        # local node -> (port, line)
    heads: dict[str, str] = {}
    for link in fabric.sorted_links():
        a, b = index.end(link.a), index.end(link.b)
        speed = rate(index.width(link.a, link.b), link.speed)
        for near, far in ((a, b), (b, a)):
            if near.node.startswith("S-"):
                guid = f"({far.port_guid:x})" if far.node.startswith("H-") else ""
                line = f'[{near.port}]\t"{far.node}"[{far.port}]{guid}\t\t# "{far.description}" lid 0 {speed}'
            else:
                line = (f'[{near.port}]({near.port_guid:x}) \t"{far.node}"[{far.port}]\t\t'
                        f'# lid 0 lmc 0 "{far.description}" lid 0 {speed}')
            ports.setdefault(near.node, []).append((near.port, line))
            heads.setdefault(near.node, near.description)
    out = ["#", f"# Topology file: rail-designer design '{fabric.settings.name}' (ibnetdiscover format)", "#", ""]
    for sw in switch_rows(fabric):
        guid = switch_guid(sw.id)
        node = f"S-{guid:016x}"
        out += [f"vendid=0x{VENDOR_ID:x}", f"devid=0x{SWITCH_DEVIDS.get(sw.model, 0xD2F0):x}",
                f"sysimgguid={text(guid)}", f"switchguid={text(guid)}({guid:x})",
                f'Switch\t{len(fabric.ports(sw.id))} "{node}"\t\t# "{sw.hostname}" enhanced port 0 lid 0 lmc 0']
        out += [line for _, line in sorted(ports.get(node, []))] + [""]
    for server in fabric.sorted_servers():
        for nic in server.nics:
            guid = hca_node_guid(server.id, nic.index)
            node = f"H-{guid:016x}"
            if node not in ports:
                continue
            out += [f"vendid=0x{VENDOR_ID:x}", f"devid=0x{CX8 if nic.speed >= 800 else CX7:x}",
                    f"sysimgguid={text(guid)}", f"caguid={text(guid)}",
                    f'Ca\t1 "{node}"\t\t# "{heads[node]}"'] + [line for _, line in ports[node]] + [""]
    return "\n".join(out)


def opensm_conf(fabric: Fabric) -> str:
    roots = top_tier(fabric)
    return "\n".join([
        f"# OpenSM options for design '{fabric.settings.name}' (rail-designer). Copy this folder's *.conf to",
        f"# {SM_DIR}/ and start `opensm -F {SM_DIR}/opensm.conf` (UFM: Settings > Subnet Manager, same keys).",
        "#",
        "# ftree routes the fat tree from its roots (root-guids.conf: the "
        f"{len(roots)} top-tier switches); updn is the fallback when the fabric is not a fat tree.",
        "routing_engine ftree,updn",
        f"root_guid_file {SM_DIR}/root-guids.conf",
        f"cn_guid_file {SM_DIR}/cn-guids.conf",
        f"partition_config_file {SM_DIR}/partitions.conf",
        "lmc 0",
        "# QoS: NCCL's traffic (NCCL_IB_SL) on its own high-priority VL; every other SL on VL 1.",
        "qos TRUE",
        "qos_max_vls 2",
        "qos_high_limit 255",
        f"qos_vlarb_high {NCCL_SL}:255",
        "qos_vlarb_low 1:64",
        "qos_sl2vl " + ",".join("0" if sl == NCCL_SL else "1" for sl in range(16)),
        "",
    ])


def guid_list(title: str, guids: list[int]) -> str:
    return "\n".join([f"# {title}", *(text(g) for g in guids), ""])


def partitions_conf(fabric: Fabric) -> str:
    return "\n".join([
        f"# Partitions for design '{fabric.settings.name}': one pkey, every HCA a full member (the design",
        "# has no tenants; add a line per tenant with its HCAs' port GUIDs to split it).",
        "Default=0x7fff, ipoib, defmember=full : ALL_CAS, ALL_SWITCHES=full, SELF=full ;",
        "",
    ])


def render_sm(fabric: Fabric) -> Files:
    return {
        "infiniband/opensm.conf": opensm_conf(fabric),
        "infiniband/root-guids.conf": guid_list("ftree / updn roots: the top-tier switches' node GUIDs",
                                                [switch_guid(s.id) for s in top_tier(fabric)]),
        "infiniband/cn-guids.conf": guid_list("ftree compute nodes: every cabled HCA port's GUID",
                                              compute_nodes(fabric)),
        "infiniband/partitions.conf": partitions_conf(fabric),
        "infiniband/topology.ibnd": topology_text(fabric),
        **render_topo(fabric),
    }


def host_env(fabric: Fabric, server_id: str) -> str:
    server = fabric.servers[server_id]
    return "\n".join([
        f"# NCCL on the InfiniBand compute fabric, host {server.hostname} (rail-designer).",
        "# The rail HCAs in GPU-affinity order ('=': exactly these devices). NCCL_IB_GID_INDEX is RoCE-only",
        "# and not set: on InfiniBand the LID addresses the port.",
        f"NCCL_IB_HCA={nccl_ib_hca(server)}",
        f"NCCL_IB_SL={NCCL_SL}",
        "",
    ])


IPOIB_MTU = 2044              # datagram mode on OpenSM's default 2048-byte partition MTU, less the 4-byte header
IPOIB_FILE = "/etc/netplan/61-rail-ipoib.yaml"


def ipoib_netplan(fabric: Fabric, server_id: str) -> str:
    """IPoIB on the server's addressed rail HCAs, one subnet for the whole partition (the rail supernet's
    prefix): an IB subnet has no IP router, so every HCA must be on-link to every other."""
    server = fabric.servers[server_id]
    prefix = fabric.settings.addressing.rail_supernet.partition("/")[2]
    ethernets = {}
    for nic in gpu_order(server):
        cidr = fabric.addresses.get(nic.id)
        if nic.rail is None or not cidr:
            continue
        ethernets[nic.netdev] = {"match": {"name": nic.netdev}, "addresses": [f"{cidr.partition('/')[0]}/{prefix}"],
                                 "mtu": IPOIB_MTU, "infiniband-mode": "datagram"}
    head = (f"# {server.hostname}: IPoIB on the rail HCAs (rail-designer, optional part ipoib). Install as "
            f"{IPOIB_FILE} (mode 600)\n# and run `netplan try` (it reverts unless confirmed). The names are the "
            "design's netdevs: set the IPoIB ones\n# (ibdev2netdev: 'mlx5_0 port 1 ==> ibp24s0') with "
            "`rail-designer apply-nics` first.\n")
    return head + dump({"network": {"version": 2, "renderer": "networkd", "ethernets": ethernets}})


def render_ipoib(fabric: Fabric, server_id: str) -> Files:
    return {f"hosts/{fabric.servers[server_id].hostname}/ipoib-netplan.yaml": ipoib_netplan(fabric, server_id)}


def server_ids(fabric: Fabric) -> list[str]:
    return [s.id for s in fabric.sorted_servers()]


def render_host(fabric: Fabric, server_id: str) -> Files:
    return {f"hosts/{fabric.servers[server_id].hostname}/nccl-ib.env": host_env(fabric, server_id)}


IB_ONLY = frozenset({INFINIBAND})

PARTS: list[Part] = [
    Part("infiniband", "the subnet manager's files (opensm.conf: ftree with updn as fallback, QoS; root-guids.conf, "
         "cn-guids.conf, partitions.conf), topology.ibnd (the fabric in ibnetdiscover's format) and "
         "fabric.topo + ibnl/ (the master topology for ibdiagnet -t and UFM cable validation)",
         render_global=render_sm, kinds=IB_ONLY,
         apply=f"copy infiniband/*.conf to {SM_DIR}/ on the SM host and run `opensm -F {SM_DIR}/opensm.conf` "
               "(or load them in UFM); `rail-designer verify` compares `ibnetdiscover` output with topology.ibnd; "
               "`IBDM_IBNL_PATH=infiniband/ibnl ibdiagnet -t infiniband/fabric.topo` checks the cabling"),
    Part("ib-hosts", "per GPU server: nccl-ib.env (NCCL_IB_HCA in GPU-affinity order, NCCL_IB_SL)",
         devices=server_ids, render_device=render_host, kinds=IB_ONLY,
         apply="source hosts/<host>/nccl-ib.env in the job's environment (or copy it to /etc/nccl.conf)"),
    Part("ipoib", "per GPU server: ipoib-netplan.yaml, IPoIB on the rail HCAs (datagram mode, one subnet for the "
         "partition)", devices=server_ids, render_device=render_ipoib, kinds=IB_ONLY, default=False,
         apply=f"hosts/<host>/ipoib-netplan.yaml to {IPOIB_FILE} (mode 600), then `netplan try`"),
]
