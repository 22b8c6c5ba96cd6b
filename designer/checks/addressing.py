"""Addressing rules: duplicates, overlaps, pool sizes, NICs that cannot reach their gateway, and a host MTU
the switch ports do not carry."""

from __future__ import annotations

from ..model.addressing import cidr_str, ip_str
from ..model.entities import SWITCH_PORT_MTU
from ..model.errors import ModelError
from ..model.ids import natural_sorted
from ..planning.addressing import requirements, svi_key
from .context import network
from .finding import Severity
from .registry import ASSIGN, listing, rule

_ASSIGN = f"Run {ASSIGN}; it re-plans every address that is not pinned"


@rule("RD007", "Duplicate address", Severity.ERROR,
      "Give each interface its own address: change or unpin one of them, then run Assign rails and addresses.")
def duplicate_addresses(ctx):
    addresses = ctx.addresses
    if len({addr for addr, _ in addresses.values()}) == len(addresses):
        return
    by_ip: dict[int, list[str]] = {}
    for key, (addr, _) in addresses.items():
        by_ip.setdefault(addr, []).append(key)
    for addr, keys in by_ip.items():
        if len(keys) > 1:
            keys = natural_sorted(keys)
            yield f"{ip_str(addr)} is used {len(keys)} times: by {listing(keys)}", keys


@rule("RD008", "Overlapping subnets or pools", Severity.ERROR,
      "Change the pinned address or the pool so subnets of different interfaces and pools do not overlap.")
def overlapping_subnets(ctx):
    yield from ctx.overlap_index.issues(ctx.fabric.addresses)


@rule("RD009", "Address pool too small", Severity.ERROR,
      "Use a larger pool (a shorter prefix) in the design's addressing settings, or fewer devices.")
def pool_exhaustion(ctx):
    try:
        needs = requirements(ctx.fabric, ctx.leaf_links, ctx.spine_links)
    except ModelError as exc:
        yield str(exc), ()
        return
    for need in needs:
        if need.short:
            yield need.message(), need.ids


@rule("RD013", "Cabled NIC without an address", Severity.ERROR,
      f"{_ASSIGN}. The NIC's host files and its leaf's pinned path need the address.")
def unaddressed_nics(ctx):
    addresses = ctx.fabric.addresses
    for leaf in ctx.leaves:
        missing = [nic for _, nic in ctx.leaf_links[leaf.id].downlinks if nic not in addresses]
        if missing:
            yield (f"{len(missing)} NIC(s) cabled to {leaf.id} have no address: {listing(missing)}", missing)


@rule("RD014", "NIC address does not match its leaf", Severity.ERROR,
      f"{_ASSIGN}; or fix the pinned address so the NIC and its leaf share one subnet (one /31 in p2p31).")
def nic_gateway(ctx):
    addresses = ctx.addresses
    p2p = ctx.scheme == "p2p31"
    for leaf in ctx.leaves:
        gateway = None if p2p else addresses.get(svi_key(leaf.id))
        for port, nic_id in ctx.leaf_links[leaf.id].downlinks:
            nic = addresses.get(nic_id)
            if nic is None:
                continue   # RD013
            if p2p:
                port_key = f"{leaf.id}/{port.name}"
                if port_key not in addresses:
                    continue   # RD025
                problem = _p2p_problem(nic, addresses[port_key], port_key)
            else:
                problem = _subnet_problem(nic, gateway, leaf.id)
            if problem:
                yield f"{nic_id} {cidr_str(*nic)} {problem}", (nic_id, leaf.id)


def _p2p_problem(nic, port, port_key: str) -> str | None:
    if nic[1] != 31 or port[1] != 31:
        return f"and its leaf port {port_key} {cidr_str(*port)} must be the two ends of one /31"
    if nic[0] ^ 1 != port[0]:
        return f"is not the /31 partner of its leaf port {port_key} {cidr_str(*port)}"
    return None


def _subnet_problem(nic, gateway, leaf_id: str) -> str | None:
    if gateway is None:
        return f"is on {leaf_id}, which has no gateway address ({svi_key(leaf_id)})"
    start, end = network(*gateway)
    subnet = f"{leaf_id}'s subnet {cidr_str(start, gateway[1])} (gateway {ip_str(gateway[0])})"
    if not start <= nic[0] <= end:
        return f"is not in {subnet}"
    if nic[1] != gateway[1]:
        return f"has prefix /{nic[1]} but {subnet} is a /{gateway[1]}"
    if gateway[1] < 31 and nic[0] in (start, end):
        return f"is the {'network' if nic[0] == start else 'broadcast'} address of {subnet}"
    return None


@rule("RD076", "Host MTU above the switch ports'", Severity.ERROR,
      f"Lower the design's host MTU (settings.addressing.mtu) to at most the switch ports' {SWITCH_PORT_MTU}: "
      "9000 is the usual RoCE host MTU, and NCCL's RoCE messages fit it. Export refuses the design unless forced; "
      "its QoS check would then report RD074 on every rail NIC.")
def host_mtu_above_switch_ports(ctx):
    mtu = ctx.fabric.settings.addressing.mtu
    if mtu > SWITCH_PORT_MTU:
        yield (f"host NIC MTU {mtu} (settings.addressing.mtu) is above the {SWITCH_PORT_MTU} of every switch port "
               "the bundle configures: a full-size frame a host sends is dropped at its leaf", ())
