"""Stage 1 of the host export: every name and number a host's files need, as plain dicts.

One dict per server (`host_data`). Templates under ``templates/{netplan,iproute2,sysctl,roce,nccl}``
only format it. Choices made here, once:

- Routing table and policy rule priority of the NIC port on rail k and fabric plane p: 100 + 100 p + k
  and 1000 + 100 p + k (`planning.host_tables`, which the path trace and RD031 read too). The rule
  sits after ``local`` (0) and before ``main`` (32766), so a reply sourced from a port always leaves
  by that port; a port whose table would be one of Linux's reserved 253-255 is refused (RD031).
- Gateway: subnet-per-leaf -> the leaf's ``<leaf>/svi`` address; p2p31 -> the address of the leaf
  port the NIC is cabled to (the other end of its /31).
- The rail supernet route (the rail's pool on the port's plane, `planning.addressing.rail_pool`) goes in
  the main table via the port's gateway, so traffic to any peer on rail k of plane p leaves by that port.
- NCCL on multi-plane NICs: ``NCCL_IB_HCA`` entries ``<rdma>:1:<rail>:<plane>`` (NCCL 2.30.7+ reads the
  rail and plane and never connects two devices of different planes; older NCCL reads the port and
  ignores the rest, as its parser takes the number after the first ':' and skips to the next ',').
  Both ports of one NIC serve one rail: NCCL's NIC fusion (``NCCL_IB_MERGE_NICS``, default on since
  2.20) makes them one virtual NIC whose queue pair i uses port i mod 2 on both ends, so plane 0 meets
  plane 0. One-plane designs keep ``<rdma>:1``.
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
from functools import lru_cache

from ..model.addressing import cidr_str, network_of
from ..model.entities import Server
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint
from ..planning.addressing import rail_pool, svi_key
from ..planning.host_tables import host_table, rule_priority, table_problem
from ..planning.reach import rails_isolated_by_design
from .errors import ExportError
from .load_balancing import nccl_env
from ..model.memo import per_state
from .names import checked_hostname, netdev_problem, refuse

ROCE_DSCP = 26
ROCE_PRIORITY = 3
CNP_DSCP = 48
CNP_PRIORITY = 6
ECN_ECT0 = 0b10
ROCE_TOS = ROCE_DSCP << 2 | ECN_ECT0          # 106
NETPLAN_FILE = "50-rail.yaml"

_RDMA = re.compile(r"^[A-Za-z0-9_.-]{1,64}\Z")

# sysctl.conf's host-wide settings (the per-NIC ones are `_sysctl_keys`), key -> value; the host dump
# script reads back the same keys.
GLOBAL_SYSCTLS = {f"net.ipv4.conf.{scope}.{setting}": value for scope in ("all", "default")
                  for setting, value in (("arp_ignore", "1"), ("arp_announce", "2"), ("rp_filter", "2"))}
NIC_SYSCTLS = {"arp_ignore": "1", "arp_announce": "2", "rp_filter": "2", "accept_local": "1"}


def roce_sysfs() -> list[dict]:
    """The sysfs values roce-qos.sh writes per NIC (``$dev`` the netdev, ``$rdma`` its RDMA device), in order;
    the host dump script reads back the same files."""
    prio = ROCE_PRIORITY
    return [{"path": "/sys/class/infiniband/$rdma/tc/1/traffic_class", "value": str(ROCE_TOS)},
            {"path": f"/sys/class/net/$dev/ecn/roce_np/enable/{prio}", "value": "1"},
            {"path": f"/sys/class/net/$dev/ecn/roce_rp/enable/{prio}", "value": "1"},
            {"path": "/sys/class/net/$dev/ecn/roce_np/cnp_dscp", "value": str(CNP_DSCP)},
            {"path": "/sys/class/net/$dev/ecn/roce_np/cnp_802p_prio", "value": str(CNP_PRIORITY)}]


def sysctl_key(netdev: str, setting: str) -> str:
    """A sysctl.conf key; names holding '.' (VLANs) need the '/' separator form."""
    if "." in netdev:
        return f"net/ipv4/conf/{netdev}/{setting}"
    return f"net.ipv4.conf.{netdev}.{setting}"


@lru_cache(maxsize=4096)
def _sysctl_keys(netdev: str) -> tuple[tuple[str, str], ...]:
    """(setting, key) of the per-interface settings (servers of one model share their netdevs)."""
    return tuple((setting, sysctl_key(netdev, setting))
                 for setting in ("arp_ignore", "arp_announce", "rp_filter", "accept_local"))


@lru_cache(maxsize=4096)
def _port_plan(rail: int, plane: int, planes: int) -> dict:
    """What every port on ``rail`` and ``plane`` shares: table, rule priority, its label, NCCL's rail:plane tag."""
    problem = table_problem(rail, plane)
    if problem:
        raise ExportError(f"{problem}; use fewer rails")
    many = planes > 1
    return {"table": host_table(rail, plane), "priority": rule_priority(rail, plane),
            "what": f"rail {rail}" + (f", plane {plane}" if many else ""), "plane": plane,
            "hca_tag": f":{rail}:{plane}" if many else ""}


def _supernets(fabric: Fabric) -> dict[tuple[int, int], str]:
    """(rail, plane) -> the rail's pool on that plane as text, filled as hosts ask (once per fabric state)."""
    return {}


def _rail_supernet(fabric: Fabric, rail: int, plane: int) -> str:
    known = per_state(fabric, _supernets)
    text = known.get((rail, plane))
    if text is None:
        text = known[rail, plane] = cidr_str(*rail_pool(fabric, rail, plane))
    return text


def _gateway(fabric: Fabric, leaf_ep: str) -> str | None:
    if fabric.settings.addressing.scheme == "p2p31":
        cidr = fabric.addresses.get(leaf_ep)
    else:
        cidr = fabric.addresses.get(svi_key(split_endpoint(leaf_ep)[0]))
    return cidr.partition("/")[0] if cidr else None


def rail_nics(fabric: Fabric, server: Server) -> list[dict]:
    """The server's rail NICs that are cabled and addressed, in rail order (then plane), each as a dict."""
    mtu = fabric.settings.addressing.mtu
    planes = fabric.settings.fabric_planes
    out = []
    for nic in sorted(server.nics, key=lambda n: (n.rail if n.rail is not None else 1 << 30, n.fabric_plane,
                                                  n.index)):
        if nic.rail is None:
            continue
        nic_id = nic.id
        leaf_ep = fabric.peer(nic_id)
        cidr = fabric.addresses.get(nic_id)
        if leaf_ep is None or cidr is None:
            continue
        refuse("interface name", nic.netdev, nic_id, netdev_problem(nic.netdev))
        if not _RDMA.match(nic.rdma):
            refuse("RDMA device name", nic.rdma, nic_id,
                         "only letters, digits, '.', '-' and '_' are allowed (at most 64)")
        gateway = _gateway(fabric, leaf_ep)
        if gateway is None:
            raise ExportError(f"{nic_id} has no gateway: the leaf side of {leaf_ep} has no address; "
                              "re-plan the addresses")
        address = cidr.partition("/")[0]
        net, prefix_len = network_of(cidr)
        try:
            port = _port_plan(nic.rail, nic.fabric_plane, planes)
        except ExportError as exc:
            raise ExportError(f"{nic_id} on {exc}") from None
        out.append({
            "nic_id": nic_id, "netdev": nic.netdev, "rdma": nic.rdma, "rail": nic.rail, **port,
            "nccl_hca": f"{nic.rdma}:1{port['hca_tag']}",
            "leaf_port": leaf_ep, "cidr": cidr, "address": address, "prefix": prefix_len,
            "subnet": cidr_str(net, prefix_len), "gateway": gateway,
            "rail_supernet": _rail_supernet(fabric, nic.rail, nic.fabric_plane), "mtu": mtu,
            "sysctl": dict(_sysctl_keys(nic.netdev)),
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
        "mgmt_interface": mgmt, "nics": nics, "planes": fabric.settings.fabric_planes,
        "roce": {"dscp": ROCE_DSCP, "priority": ROCE_PRIORITY, "tos": ROCE_TOS,
                 "cnp_dscp": CNP_DSCP, "cnp_priority": CNP_PRIORITY,
                 "pfc": ",".join("1" if p == ROCE_PRIORITY else "0" for p in range(8)), "sysfs": roce_sysfs()},
        "sysctl": {"global": GLOBAL_SYSCTLS, "nic": NIC_SYSCTLS},
        "nccl": {
            "NCCL_IB_HCA": "=" + ",".join(n["nccl_hca"] for n in nics),
            "NCCL_IB_GID_INDEX": str(model.gid_index if server.gid_index is None else server.gid_index),
            "NCCL_IB_TC": str(ROCE_TOS),
            "NCCL_SOCKET_IFNAME": "=" + mgmt,
            **({"NCCL_CROSS_NIC": "0"} if per_state(fabric, rails_isolated_by_design) else {}),
            **nccl_env(fabric.settings.load_balancing),
        },
    }


def server_ids(fabric: Fabric) -> list[str]:
    return sorted(fabric.servers, key=natural_key)
