"""Stage 1 of the host export: every name and number a host's files need, as plain dicts.

One dict per server (`host_data`). Templates under ``templates/{netplan,iproute2,sysctl,roce,nccl}``
only format it. Choices made here, once:

- Routing table of the NIC on rail k: ``TABLE_BASE + k`` (100 + k). Linux reserves 253-255
  (default, main, local), so tables stay well clear of them for any realistic rail count.
- Policy rule priority of rail k: ``RULE_PRIORITY_BASE + k`` (1000 + k): after the ``local`` rule (0)
  and before ``main`` (32766), so a reply sourced from NIC k always leaves by NIC k.
- Gateway: subnet-per-leaf -> the leaf's ``<leaf>/svi`` address; p2p31 -> the address of the leaf
  port the NIC is cabled to (the other end of its /31).
- The rail supernet route (the rail's pool, `planning.addressing.rail_pool`) goes in the main table
  via the NIC's gateway, so traffic to any peer on rail k leaves by NIC k.
- RoCE: DSCP 26 for RoCE data on lossless priority 3 (PFC), CNPs on DSCP 48 / priority 6.
  ``NCCL_IB_TC`` is the RoCEv2 IP ToS byte: DSCP in the top six bits, ECN in the low two.
  ``26 << 2 = 104`` would mark packets Not-ECT; ``106 = 26 << 2 | 0b10`` marks them ECT(0), so
  switches running WRED/ECN on the lossless queue mark CE instead of dropping and DCQCN can react.
  The DSCP the switch classifies on is 26 either way (106 >> 2 == 26).
- ``NCCL_CROSS_NIC=0`` in rail-only and per-rail-plane designs: the network joins no two rails
  there, so NCCL must never connect a NIC to a peer NIC of another rail (it would have no path;
  NCCL's docs say rails must be joined at the top for cross-NIC rings). Traffic between rails goes
  over NVLink (PXN). Designs with shared spines leave NCCL's default. Check RD030 explains it.
"""

from __future__ import annotations

import re

from ..model.addressing import cidr_str, ip_str, network_of, split_cidr
from ..model.entities import Server
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from ..planning.addressing import rail_pool, svi_key
from ..planning.reach import rails_isolated_by_design
from .errors import ExportError
from .names import checked_hostname, netdev_problem, refuse

TABLE_BASE = 100
RULE_PRIORITY_BASE = 1000
ROCE_DSCP = 26
ROCE_PRIORITY = 3
CNP_DSCP = 48
CNP_PRIORITY = 6
ECN_ECT0 = 0b10
ROCE_TOS = ROCE_DSCP << 2 | ECN_ECT0          # 106
NETPLAN_FILE = "50-rail.yaml"

_RDMA = re.compile(r"^[A-Za-z0-9_.-]{1,64}\Z")


def sysctl_key(netdev: str, setting: str) -> str:
    """A sysctl.conf key; names holding '.' (VLANs) need the '/' separator form."""
    if "." in netdev:
        return f"net/ipv4/conf/{netdev}/{setting}"
    return f"net.ipv4.conf.{netdev}.{setting}"


def _gateway(fabric: Fabric, nic_id: str, leaf_ep: str) -> str | None:
    if fabric.settings.addressing.scheme == "p2p31":
        cidr = fabric.addresses.get(leaf_ep)
    else:
        cidr = fabric.addresses.get(svi_key(split_endpoint(leaf_ep)[0]))
    return ip_str(split_cidr(cidr)[0]) if cidr else None


def rail_nics(fabric: Fabric, server: Server) -> list[dict]:
    """The server's rail NICs that are cabled and addressed, in rail order, each as a dict."""
    mtu = fabric.settings.addressing.mtu
    out = []
    for nic in sorted(server.nics, key=lambda n: (n.rail if n.rail is not None else 1 << 30, n.index)):
        if nic.rail is None:
            continue
        leaf_ep = fabric.peer(nic.id)
        cidr = fabric.addresses.get(nic.id)
        if leaf_ep is None or cidr is None:
            continue
        refuse("interface name", nic.netdev, nic.id, netdev_problem(nic.netdev))
        if not _RDMA.match(nic.rdma):
            refuse("RDMA device name", nic.rdma, nic.id,
                         "only letters, digits, '.', '-' and '_' are allowed (at most 64)")
        gateway = _gateway(fabric, nic.id, leaf_ep)
        if gateway is None:
            raise ExportError(f"{nic.id} has no gateway: the leaf side of {leaf_ep} has no address; "
                              "re-plan the addresses")
        address, prefix = split_cidr(cidr)
        net, _ = network_of(cidr)
        pool, pool_prefix = rail_pool(fabric, nic.rail)
        out.append({
            "nic_id": nic.id, "netdev": nic.netdev, "rdma": nic.rdma, "rail": nic.rail,
            "leaf_port": leaf_ep, "cidr": cidr, "address": ip_str(address), "prefix": prefix,
            "subnet": cidr_str(net, prefix), "gateway": gateway,
            "table": TABLE_BASE + nic.rail, "priority": RULE_PRIORITY_BASE + nic.rail,
            "rail_supernet": cidr_str(pool, pool_prefix), "mtu": mtu,
            "sysctl": {setting: sysctl_key(nic.netdev, setting)
                       for setting in ("arp_ignore", "arp_announce", "rp_filter", "accept_local")},
        })
    return out


def host_data(fabric: Fabric, server_id: str) -> dict:
    """Everything one server's host files say. Raises ExportError for a name that is unsafe to write."""
    server = fabric.servers[server_id]
    checked_hostname(server)
    model = fabric.catalog.server(server.model)
    mgmt = model.mgmt_interface
    refuse("management interface", mgmt, f"server model {model.id}", netdev_problem(mgmt))
    nics = rail_nics(fabric, server)
    return {
        "id": server.id, "hostname": server.hostname, "su": server.su, "model": server.model,
        "mgmt_interface": mgmt, "nics": nics,
        "roce": {"dscp": ROCE_DSCP, "priority": ROCE_PRIORITY, "tos": ROCE_TOS,
                 "cnp_dscp": CNP_DSCP, "cnp_priority": CNP_PRIORITY,
                 "pfc": ",".join("1" if p == ROCE_PRIORITY else "0" for p in range(8))},
        "nccl": {
            "NCCL_IB_HCA": "=" + ",".join(f"{n['rdma']}:1" for n in nics),
            "NCCL_IB_GID_INDEX": str(model.gid_index if server.gid_index is None else server.gid_index),
            "NCCL_IB_TC": str(ROCE_TOS),
            "NCCL_SOCKET_IFNAME": "=" + mgmt,
            **({"NCCL_CROSS_NIC": "0"} if rails_isolated_by_design(fabric) else {}),
        },
    }


def server_ids(fabric: Fabric) -> list[str]:
    return sorted(fabric.servers, key=natural_key)
