"""Rules of the third tier and of multi-plane designs (RD040-RD049).

A *three-tier plane* is a fabric plane that has cores. There every spine belongs to a spine group
(with the leaves it meshes with) and sends its uplinks to the cores of one core group; every core
group takes one spine of each spine group. Planes are independent fabrics: no cable joins two.
"""

from __future__ import annotations

from collections import Counter

from ..model.ids import natural_sorted
from ..planning.asns import group_key
from ..planning.spec import format_ratio
from .capacity import format_allowed
from .context import LEAF_CORE
from .finding import Severity
from .registry import listing, rule

_EPSILON = 1e-9


def _core_planes(ctx) -> set[int]:
    return {core.fabric_plane for core in ctx.cores}


def _tiered_spines(ctx):
    planes = _core_planes(ctx)
    return [spine for spine in ctx.spines if spine.fabric_plane in planes]


def _bandwidth(links) -> tuple[int, int]:
    return sum(port.speed for port, _ in links.downlinks), sum(port.speed for port, _ in links.uplinks)


@rule("RD040", "Spine oversubscription above the allowed ratio", Severity.ERROR,
      "Add core uplinks to the spine (or cores), move leaves to another spine group, or raise the allowed "
      "spine oversubscription in the design settings.")
def spine_oversubscription(ctx):
    allowed = ctx.settings.max_spine_oversubscription
    for spine in _tiered_spines(ctx):
        down, up = _bandwidth(ctx.spine_links[spine.id])
        if not down:
            continue
        if not up:
            yield (f"{spine.id} has {down:,}G of leaf downlinks and no uplink to a core, allowed "
                   f"{format_allowed(allowed)}", (spine.id,))
        elif down / up > allowed + _EPSILON:
            yield (f"{spine.id} is oversubscribed {format_ratio(down / up)}, allowed {format_allowed(allowed)} "
                   f"({down:,}G down, {up:,}G up)", (spine.id,))


@rule("RD048", "Spine oversubscription ratio (not 1:1)", Severity.INFO,
      "Nothing to fix if this ratio is intended; compute fabrics are usually built 1:1 at every tier.")
def spine_ratio_report(ctx):
    allowed = ctx.settings.max_spine_oversubscription
    by_ratio: dict[str, list[str]] = {}
    for spine in _tiered_spines(ctx):
        down, up = _bandwidth(ctx.spine_links[spine.id])
        if down and up and abs(down / up - 1) > _EPSILON and down / up <= allowed + _EPSILON:
            by_ratio.setdefault(format_ratio(down / up), []).append(spine.id)
    for ratio, spines in sorted(by_ratio.items()):
        count = f"{len(spines)} spine runs" if len(spines) == 1 else f"{len(spines)} spines run"
        yield (f"{count} at {ratio} downlink:uplink (allowed {format_allowed(allowed)}): {listing(spines)}",
               spines)


def _core_uplinks(ctx, spine) -> Counter:
    """Cores of the spine's own plane it has uplinks to, with how many (other planes: RD044)."""
    switches = ctx.switches
    reached = Counter(ep.partition("/")[0] for _, ep in ctx.spine_links[spine.id].uplinks)
    return Counter({c: n for c, n in reached.items() if switches[c].fabric_plane == spine.fabric_plane})


@rule("RD041", "Spine not meshed to the cores of its core group", Severity.ERROR,
      "Cable the spine's uplinks to every core of one core group (spine j of each spine group to core group j), "
      "and to no other core group.")
def core_mesh(ctx):
    members: dict[tuple, set[str]] = {}
    for core in ctx.cores:
        members.setdefault((core.fabric_plane, core.group), set()).add(core.id)
    switches = ctx.switches
    for spine in _tiered_spines(ctx):
        reached = _core_uplinks(ctx, spine)
        groups = sorted({switches[c].group or 0 for c in reached})
        if len(groups) > 1:
            yield (f"{spine.id} is cabled to cores of {len(groups)} core groups "
                   f"({', '.join(map(str, groups))}); a spine serves one core group", (spine.id, *natural_sorted(reached)))
        elif groups:
            expected = members[(spine.fabric_plane, switches[next(iter(reached))].group)]
            missing = natural_sorted(expected - reached.keys())
            if missing:
                yield (f"{spine.id} has no uplink to {len(missing)} of the {len(expected)} cores of core group "
                       f"{groups[0]}: {listing(missing)}", (spine.id, *missing))


@rule("RD045", "Spine uplinks spread unevenly over the cores", Severity.WARNING,
      "Give the spine the same number of uplinks to each core of its core group (spine uplinks a multiple of "
      "the cores per core group).")
def uneven_core_uplinks(ctx):
    for spine in _tiered_spines(ctx):
        counts = _core_uplinks(ctx, spine)
        if counts and max(counts.values()) != min(counts.values()):
            spread = ", ".join(f"{c} x{counts[c]}" for c in natural_sorted(counts))
            yield f"{spine.id} spreads {sum(counts.values())} uplinks unevenly: {spread}", (spine.id,)


@rule("RD042", "Cable skips a tier", Severity.ERROR,
      "Leaves cable to spines, spines to cores: re-cable leaf-core cables through a spine.")
def skipped_tier(ctx):
    # a NIC on a core is RD032's (a NIC above the leaves, which export cannot get past)
    for link, (ep_a, dev_a, kind_a, _), (ep_b, dev_b, kind_b, _) in ctx.cables:
        if (kind_a, kind_b) in LEAF_CORE:
            lower, core = (ep_a, dev_b) if kind_a == "leaf" else (ep_b, dev_a)
            yield f"leaf port {lower} is cabled directly to core {core}", (link.id, dev_a, dev_b)


@rule("RD043", "Switch cabled into another spine group", Severity.ERROR,
      "Cable each leaf to the spines of its own spine group, and each core to one spine of every spine group.")
def wrong_spine_group(ctx):
    switches = ctx.switches
    for leaf in ctx.leaves:
        for spine_id in natural_sorted({ep.partition("/")[0] for _, ep in ctx.leaf_links[leaf.id].uplinks}):
            spine = switches[spine_id]
            if spine.fabric_plane == leaf.fabric_plane and spine.group != leaf.group:
                yield (f"{leaf.id} ({_group(leaf.group)}) is cabled to {spine_id} of {_group(spine.group)}",
                       (leaf.id, spine_id))
    by_core: dict[str, dict[tuple, list[str]]] = {}
    for spine in _tiered_spines(ctx):
        for core_id in _core_uplinks(ctx, spine):
            by_core.setdefault(core_id, {}).setdefault(group_key(spine), []).append(spine.id)
    for core_id in natural_sorted(by_core):
        for key, spines in sorted(by_core[core_id].items()):
            if len(spines) > 1:
                spines = natural_sorted(spines)
                yield (f"{core_id} is cabled to {len(spines)} spines of {_group(key[0] or None)}: {listing(spines)}; "
                       "a core group takes one spine of each spine group", (core_id, *spines))


def _group(group) -> str:
    return f"spine group {group}" if group is not None else "no spine group"


@rule("RD044", "Cable joins two fabric planes", Severity.ERROR,
      "Cable every NIC port and switch to the switches of its own plane: the planes of a multi-plane design are "
      "independent fabrics.")
def cross_plane(ctx):
    switches, nics = ctx.switches, ctx.nics
    planes = {s.fabric_plane for s in switches.values()} | {n.fabric_plane for n in nics.values()}
    if len(planes) < 2:
        return                          # every end of every cable is on one plane
    for link, (ep_a, dev_a, kind_a, _), (ep_b, dev_b, kind_b, _) in ctx.cables:
        planes = []
        for ep, dev, kind in ((ep_a, dev_a, kind_a), (ep_b, dev_b, kind_b)):
            if kind == "nic":
                planes.append(nics[ep].fabric_plane)
            elif kind is not None:
                planes.append(switches[dev].fabric_plane)
        if len(planes) == 2 and planes[0] != planes[1]:
            yield (f"{ep_a} (fabric plane {planes[0]}) is cabled to {ep_b} (fabric plane {planes[1]})",
                   (link.id, dev_a, dev_b))


@rule("RD049", "Plane or spine group the design does not have", Severity.ERROR,
      "Put the switch on one of the design's fabric planes (or raise the plane count in the settings), and give "
      "every leaf and spine of a three-tier plane a spine group that has spines.")
def missing_planes_and_groups(ctx):
    planes = ctx.settings.fabric_planes
    strays = natural_sorted(s.id for s in ctx.switches.values() if s.fabric_plane >= planes)
    if strays:
        yield (f"{len(strays)} switch(es) are on a fabric plane the design does not have ({planes} planes, 0 to "
               f"{planes - 1}): {listing(strays)}", strays)
    cored = _core_planes(ctx)
    ungrouped = natural_sorted(s.id for s in ctx.leaves + ctx.spines if s.fabric_plane in cored and s.group is None)
    if ungrouped:
        yield f"{len(ungrouped)} switch(es) of a three-tier plane have no spine group: {listing(ungrouped)}", ungrouped
    with_spines = {(s.fabric_plane, s.group) for s in ctx.spines}
    lonely: dict[tuple, list[str]] = {}
    for leaf in ctx.leaves:
        if leaf.group is not None and (leaf.fabric_plane, leaf.group) not in with_spines:
            lonely.setdefault((leaf.fabric_plane, leaf.group), []).append(leaf.id)
    for (plane, group), leaves in sorted(lonely.items()):
        yield f"spine group {group} of fabric plane {plane} has {len(leaves)} leaves and no spines", leaves


def _tiered_spine_asns(ctx):
    """(spine, ASN) for every spine of a three-tier plane that has an ASN."""
    asns = ctx.fabric.asns
    return [(spine, asns[spine.id]) for spine in _tiered_spines(ctx) if spine.id in asns]


@rule("RD046", "ASN plan breaks routing across tiers", Severity.ERROR,
      "Give each spine group its own spine ASN (spine ASN mode shared, or per-group with spine planes per rail) "
      "and the cores an ASN no leaf or spine uses, then run Assign rails and addresses.")
def tier_asns(ctx):
    asns = ctx.fabric.asns
    groups_of: dict[tuple, dict] = {}
    for spine, asn in _tiered_spine_asns(ctx):
        groups_of.setdefault((spine.fabric_plane, asn), {}).setdefault(group_key(spine), spine.id)
    for (plane, asn), groups in sorted(groups_of.items()):
        if len(groups) > 1:
            names = listing(str(g) for g, _ in sorted(groups))
            yield (f"spines of {len(groups)} spine groups of fabric plane {plane} share ASN {asn} (groups {names}): "
                   f"a route from one group reaches the others through the cores with {asn} in its AS path, "
                   "and they drop it", natural_sorted(groups.values()))
    lower = {asns[s.id]: s.id for s in ctx.leaves + ctx.spines if s.id in asns}
    for core in ctx.cores:
        other = lower.get(asns.get(core.id))
        if other is not None:
            yield f"core {core.id} has ASN {asns[core.id]}, also used by {other}", (core.id, other)


@rule("RD047", "ASN plan departs from RFC 7938", Severity.WARNING,
      "RFC 7938 gives the spines of one spine group one ASN and all cores one ASN: use spine ASN mode shared "
      "(or per-group) and run Assign rails and addresses.")
def rfc7938_asns(ctx):
    asns = ctx.fabric.asns
    by_group: dict[tuple, dict[int, str]] = {}
    for spine, asn in _tiered_spine_asns(ctx):
        by_group.setdefault((spine.fabric_plane, group_key(spine)), {}).setdefault(asn, spine.id)
    for (plane, (group, _)), values in sorted(by_group.items()):
        if len(values) > 1:
            yield (f"the spines of spine group {group} of fabric plane {plane} use {len(values)} ASNs "
                   f"({listing(map(str, sorted(values)))}): paths may turn down and up again through a leaf",
                   natural_sorted(values.values()))
    core_asns: dict[int, str] = {}
    for core in ctx.cores:
        if core.id in asns:
            core_asns.setdefault(asns[core.id], core.id)
    if len(core_asns) > 1:
        yield (f"the cores use {len(core_asns)} ASNs ({listing(map(str, sorted(core_asns)))}) instead of one",
               natural_sorted(core_asns.values()))
