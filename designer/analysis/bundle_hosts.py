"""Read the host side of an exported bundle, so a trace follows what the files really configure.

Each ``hosts/<hostname>/netplan.yaml`` gives, per rail NIC: its address, the routes of its own table
(the default via the gateway), the main-table rail route, and its ``routing-policy`` rule. A file
edited by hand (a rule deleted, a table changed) is traced as it stands.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from ..model.addressing import ip_int, ip_str, network_of, split_cidr
from ..model.fabric import Fabric
from . import AnalysisError
from .routing import HostNic, Forwarding


def _netplan(bundle: Path, hostname: str) -> dict:
    path = bundle / "hosts" / hostname / "netplan.yaml"
    try:
        data = yaml.safe_load(path.read_text())
    except FileNotFoundError:
        raise AnalysisError(f"{path} is missing: is {bundle} a rail-designer bundle of this design?") from None
    except (OSError, yaml.YAMLError) as exc:
        raise AnalysisError(f"{path} cannot be read: {exc}") from None
    try:
        return data["network"]["ethernets"] or {}
    except (TypeError, KeyError):
        raise AnalysisError(f"{path} has no network.ethernets section") from None


def _nic_from_netplan(base: HostNic, conf: dict) -> HostNic:
    """``base`` (the design's view of the NIC) with the address, routes and rule the file holds."""
    try:
        address, prefix = split_cidr(str((conf.get("addresses") or [None])[0]))
    except (ValueError, TypeError, AttributeError):
        address = prefix = None
    gateway = table = priority = supernet = None
    for route in conf.get("routes") or []:
        if route.get("to") == "default" and "table" in route:
            gateway, table = ip_int(str(route["via"])), int(route["table"])
        elif "table" not in route and "via" in route:
            supernet = network_of(str(route["to"]))
    for rule in conf.get("routing-policy") or []:
        if address is not None and str(rule.get("from", "")).split("/")[0] == ip_str(address):
            table, priority = int(rule["table"]), int(rule.get("priority", 0))
    if priority is None:
        table = None       # routes in a table that no rule selects are never used
    return HostNic(base.nic_id, base.netdev, base.rail, base.leaf_ep, address, prefix, gateway, table, priority,
                   supernet, has_rule=priority is not None, plane=base.plane)


def forwarding_from_bundle(fabric: Fabric, bundle: Path) -> Forwarding:
    """Forwarding for ``fabric`` whose hosts are configured by the bundle's netplan files."""
    derived = Forwarding(fabric)
    hosts: dict[str, HostNic] = {}
    for server in fabric.sorted_servers():
        ethernets = _netplan(Path(bundle), server.hostname)
        for nic in server.nics:
            base = derived.host_nics[nic.id]
            conf = ethernets.get(nic.netdev)
            hosts[nic.id] = (_nic_from_netplan(base, conf) if conf
                             else HostNic(base.nic_id, base.netdev, base.rail, base.leaf_ep,
                                          None, None, None, None, None, None, has_rule=False, plane=base.plane))
    return Forwarding(fabric, host_nics=hosts)
