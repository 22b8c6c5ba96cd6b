"""Wiring rules: who is cabled to whom, at what speed, on which rail and spine plane."""

from __future__ import annotations

from collections import Counter

from ..model.ids import natural_sorted
from ..planning.topology import mesh_scope
from .finding import Severity
from .registry import listing, rule


@rule("RD003", "Speed mismatch on a cable", Severity.ERROR,
      "Cable the NIC or port to a port of the same speed, or change the cage's breakout so the speeds agree.")
def speed_mismatch(ctx):
    for link, (_, _, _, a), (_, _, _, b) in ctx.cables:
        if a is not None and b is not None and a != b:
            yield f"cable {link.a} ({a}G) - {link.b} ({b}G) joins two different speeds", (link.id, link.a, link.b)


@rule("RD004", "NIC on the wrong rail", Severity.ERROR,
      "Move the NIC to the leaf of its own rail in its SU (or change the NIC's rail if the NIC numbering is wrong).")
def cross_rail(ctx):
    nics = ctx.nics
    for leaf in ctx.leaves:
        for _, nic_id in ctx.leaf_links[leaf.id].downlinks:
            nic = nics.get(nic_id)
            if nic is not None and nic.rail is not None and nic.rail != leaf.rail:
                yield (f"{nic_id} (rail {nic.rail}) is cabled to {leaf.id}, a leaf of rail {leaf.rail}",
                       (nic_id, leaf.id))


@rule("RD032", "NIC cabled to a spine or core", Severity.ERROR,
      "Move the NIC to the leaf of its own rail in its SU: only leaves have server ports, so no config can be "
      "written for a NIC on a spine or core (export --force stops on this too).")
def nic_above_the_leaves(ctx):
    upper = ("spine", "core")
    for _, a, b in ctx.cables:
        if a[2] == "nic" or b[2] == "nic":       # (a cable has at most one NIC end that is not a leaf's)
            for (nic_ep, _, nic_kind, _), (_, switch, kind, _) in ((a, b), (b, a)):
                if nic_kind == "nic" and kind in upper:
                    yield (f"{nic_ep} is cabled directly to {kind} {switch}; server NICs belong on a leaf",
                           (nic_ep, switch))


@rule("RD005", "Rail NIC not connected", Severity.WARNING,
      "Cable the NIC to a free port of its rail's leaf (or clear its rail if it is not a rail NIC).")
def unconnected_nics(ctx):
    cabled = ctx.cabled
    loose: dict[str, list] = {}
    for nic_id, nic in ctx.nics.items():
        if nic.rail is not None and nic_id not in cabled:
            loose.setdefault(nic.server_id, []).append(nic)
    for server_id, nics in loose.items():
        what = ", ".join(f"{nic.port} (rail {nic.rail})" for nic in nics)
        yield f"{server_id} has {len(nics)} rail NIC(s) not cabled: {what}", [nic.id for nic in nics]


def _uplink_spines(ctx, leaf_id: str) -> Counter:
    return Counter(spine_ep.partition("/")[0] for _, spine_ep in ctx.leaf_links[leaf_id].uplinks)


@rule("RD006", "Leaf not meshed to the spines of its plane", Severity.ERROR,
      "Cable one or more uplinks from the leaf to each spine of its plane (and spine group), and none to "
      "other planes.")
def spine_mesh(ctx):
    if not ctx.spines:
        return
    switches = ctx.switches
    for leaf in ctx.leaves:
        links = ctx.leaf_links[leaf.id]
        if links.downlinks and not links.uplinks:
            continue   # RD001 reports a leaf with servers and no uplinks
        expected = ctx.expected_spines(leaf)
        reached = _uplink_spines(ctx, leaf.id)
        missing = natural_sorted(expected - reached.keys())
        if missing:
            yield (f"{leaf.id} has no uplink to {len(missing)} of the {len(expected)} spines of "
                   f"{mesh_scope(ctx.fabric, leaf)}: {listing(missing)}", (leaf.id, *missing))
        for spine_id in natural_sorted(reached.keys() - expected):
            spine = switches[spine_id]
            if (spine.fabric_plane, spine.group) == (leaf.fabric_plane, leaf.group):   # else RD043 / RD044
                yield (f"{leaf.id} (rail {leaf.rail}) is cabled to {spine_id}, a spine of plane "
                       f"{spine.plane}", (leaf.id, spine_id))


@rule("RD017", "Uplinks spread unevenly over the spines", Severity.WARNING,
      "Give the leaf the same number of uplinks to each spine (leaf uplinks a multiple of the spine count).")
def uneven_uplinks(ctx):
    if not ctx.spines:
        return
    for leaf in ctx.leaves:
        expected = ctx.expected_spines(leaf)
        counts = {s: n for s, n in _uplink_spines(ctx, leaf.id).items() if s in expected}
        if counts and max(counts.values()) != min(counts.values()):
            spread = ", ".join(f"{s} x{counts[s]}" for s in natural_sorted(counts))
            yield f"{leaf.id} spreads {sum(counts.values())} uplinks unevenly: {spread}", (leaf.id,)


@rule("RD018", "Switch cabled to a switch of the wrong tier", Severity.ERROR,
      "Leaves cable to spines, spines to leaves and cores; remove leaf-leaf, spine-spine and core-core cables.")
def same_tier_links(ctx):
    for link, (_, dev_a, kind_a, _), (_, dev_b, kind_b, _) in ctx.cables:
        if kind_a in ("leaf", "spine", "core") and kind_a == kind_b:
            yield f"cable {link.a} - {link.b} joins two {kind_a}s", (link.id, dev_a, dev_b)


@rule("RD019", "NIC cabled to a leaf of another scalable unit", Severity.WARNING,
      "Move the NIC to its own SU's leaf of the same rail, or move the server to that SU.")
def cross_su(ctx):
    nics = ctx.nics
    for leaf in ctx.leaves:
        if leaf.su is None:
            continue
        for _, nic_id in ctx.leaf_links[leaf.id].downlinks:
            nic = nics.get(nic_id)
            server = ctx.servers[nic.server_id] if nic else None
            if server is not None and server.su != leaf.su:
                yield (f"{nic_id} of SU {server.su} is cabled to {leaf.id} of SU {leaf.su}", (nic_id, leaf.id))
