"""Naming rules: host names, BGP ASNs and loopbacks that every switch config needs."""

from __future__ import annotations

from ..model.ids import hostname_problem, natural_sorted
from ..planning.addressing import loopback_key
from .finding import Severity
from .registry import ASSIGN, listing, rule

MAX_ASN = 4_294_967_294


def _devices(ctx):
    return [*ctx.servers.values(), *ctx.switches.values()]


@rule("RD010", "Invalid host name", Severity.ERROR,
      "Rename the device: RFC 1123 host names use letters, digits, hyphens and dots, labels of 1-63 characters.")
def invalid_hostnames(ctx):
    for device in _devices(ctx):
        problem = hostname_problem(device.hostname)
        if problem:
            yield f"{device.id}'s host name '{device.hostname}' is not valid: {problem}", (device.id,)


@rule("RD011", "Duplicate host name", Severity.ERROR,
      "Rename all but one of the devices; host names are compared without regard to letter case (DNS).")
def duplicate_hostnames(ctx):
    owners: dict[str, list] = {}
    for device in _devices(ctx):
        owners.setdefault(device.hostname.lower(), []).append(device)
    for devices in owners.values():
        if len(devices) > 1:
            ids = natural_sorted(d.id for d in devices)
            names = ", ".join(f"{d.id} ('{d.hostname}')" for d in natural_sorted(devices, key=lambda d: d.id))
            yield f"{len(devices)} devices share one host name: {names}", ids


@rule("RD012", "Duplicate BGP ASN", Severity.ERROR,
      "Give every leaf its own ASN, different from the spines' (unpin the ASN and re-run Assign addresses).")
def duplicate_asns(ctx):
    asns = ctx.fabric.asns
    leaf_asns: dict[int, list[str]] = {}
    for leaf in ctx.leaves:
        if leaf.id in asns:
            leaf_asns.setdefault(asns[leaf.id], []).append(leaf.id)
    spine_asns: dict[int, list[str]] = {}
    for spine in ctx.spines:
        if spine.id in asns:
            spine_asns.setdefault(asns[spine.id], []).append(spine.id)
    for asn in sorted(leaf_asns):
        leaves, spines = leaf_asns[asn], spine_asns.get(asn, [])
        if len(leaves) > 1:
            yield f"ASN {asn} is used by {len(leaves)} leaves: {listing(leaves)}", leaves
        if spines:
            yield f"ASN {asn} of leaf {listing(leaves)} is also used by spine {listing(spines)}", leaves + spines


@rule("RD015", "Switch without ASN, loopback or gateway", Severity.ERROR,
      f"Run {ASSIGN}; it gives every switch "
      "an ASN (1 to 4294967294) and a loopback, and each leaf its gateway. Every switch config needs them.")
def missing_switch_plan(ctx):
    fabric = ctx.fabric
    switches = ctx.cores + ctx.spines + ctx.leaves
    no_asn = [s.id for s in switches if not 1 <= fabric.asns.get(s.id, 0) <= MAX_ASN]
    no_lo = [s.id for s in switches if loopback_key(s.id) not in fabric.addresses]
    no_gw = []
    if ctx.scheme != "p2p31":
        no_gw = [l.id for l in ctx.leaves
                 if ctx.leaf_links[l.id].downlinks and f"{l.id}/svi" not in fabric.addresses]
    for missing, what in ((no_asn, "BGP ASN (or one out of range)"), (no_lo, "loopback address"),
                          (no_gw, "gateway (svi) address for their servers")):
        if missing:
            missing = natural_sorted(missing)
            yield f"{len(missing)} switch(es) have no {what}: {listing(missing)}", missing

