"""Growing a design: more SUs, or more servers in its SUs, with nothing that exists renumbered.

`grow` builds the *target* (the design at the new size, by the planner: a planned design's own plan,
`growth`, or for a design without one the parameters read off the design itself) and compares it with
the design. Where the target only adds (new devices, cables on free ports, addresses and ASNs no one
holds), those are added and nothing else changes. Where it cannot (the spines have no room, the plan
is for fewer SUs, the planner would place existing things elsewhere), `grow` refuses and names every
device that would be renumbered or recabled; with ``allow_renumber`` the design becomes the target
(host names kept), and `diff` then shows those devices as disruptive.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from ..model.entities import GrowthPlan, Role
from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..model.limits import MAX_SU
from .errors import PlanningError
from .growth import PLAN_FIELDS, Cut, planned_cut, planned_spec
from .spec import BuildSpec, is_planned, size
from .topology import expected_spines, leaf_links, spine_links


class NotAdditive(PlanningError):
    """Growing as asked would renumber or recable what exists; ``problems`` names each device and change."""


@dataclass
class GrowResult:
    fabric: Fabric                       # the grown design (the one given, unless it was replaced)
    sus: int
    servers_per_su: int
    added: list[str] = field(default_factory=list)          # device ids, natural order
    cables: int = 0                      # cables added
    renumbered: list[str] = field(default_factory=list)     # with allow_renumber: what changed
    plan: GrowthPlan | None = None       # the plan the grown design holds


def current_size(fabric: Fabric) -> tuple[int, int]:
    """(SUs, the most servers any SU has) of a design."""
    per_su = Counter(s.su for s in fabric.servers.values())
    sus = max([*per_su, *(s.su for s in fabric.leaves() if s.su is not None)], default=0)
    return sus, max(per_su.values(), default=0)


def grow(fabric: Fabric, sus: int | None = None, servers_per_su: int | None = None, *,
         final_sus: int | None = None, allow_renumber: bool = False) -> GrowResult:
    """Grow ``fabric`` in place to ``sus`` SUs of ``servers_per_su`` servers (each defaults to what it
    has). ``final_sus``: plan for this many from now on (a planned design keeps its plan when it has
    room). Raises NotAdditive (nothing changed) when that would renumber or recable, unless
    ``allow_renumber``; PlanningError when the size cannot be built at all."""
    now_sus, now_servers = current_size(fabric)
    sus, servers = sus or now_sus, servers_per_su or now_servers
    if sus < now_sus or servers < now_servers:
        raise PlanningError([f"grow only adds: the design has {now_sus} SUs of up to {now_servers} servers, "
                             f"asked for {sus} of {servers} (delete devices to shrink it)"])
    stable, derived, why = _candidates(fabric, sus, servers, final_sus)
    planned = fabric.settings.growth is not None
    target, problem = _try_build(stable, fabric.catalog, cut=True, have=fabric if planned else None)
    if target is not None:
        if not compare(fabric, target, strict=not planned):
            return _merge(fabric, target, sus, servers)
        why = why or "the planner would place what exists elsewhere"
    else:
        why = why or problem
    target, problem = _try_build(derived, fabric.catalog)
    if target is None:
        raise PlanningError([f"{sus} SUs of {servers} servers cannot be built: {problem}"])
    conflicts = compare(fabric, target, strict=True)
    if not allow_renumber:
        raise NotAdditive([f"growing to {sus} SUs of {servers} servers is not additive: {why}; "
                           f"it would renumber or recable {len(conflicts)} devices "
                           "(re-run with --allow-renumber to accept that, or plan for the final size)",
                           *conflicts])
    for device in (*fabric.switches.values(), *fabric.servers.values()):    # host names are kept
        if target.has_device(device.id) and not target.hostname_owner(device.hostname):
            target.set_hostname(device.id, device.hostname)
    _keep_floor(fabric, target)
    added = sorted(set(target.switches) - set(fabric.switches) | set(target.servers) - set(fabric.servers))
    return GrowResult(target, sus, servers, _natural(added), len(set(target.links) - set(fabric.links)),
                      conflicts, target.settings.growth)


def _try_build(spec: BuildSpec, catalog, cut: bool = False, have: Fabric | None = None
               ) -> tuple[Fabric | Cut | None, str]:
    """The design ``spec`` builds (with ``cut``, a planned spec's as plain maps: nothing of it is
    cabled twice; with ``have`` too, only the cables and values ``have`` lacks, which is all a
    non-strict `compare` and `_merge` look at), or None and why not."""
    from .build import build, problems_of
    try:
        if cut and is_planned(spec):
            sizing = size(spec, catalog)
            problems = problems_of(spec, sizing)
            if problems:
                raise PlanningError(problems)
            return planned_cut(spec, sizing, catalog, have), ""
        return build(spec, catalog), ""
    except PlanningError as exc:
        return None, "; ".join(exc.problems)


def _candidates(fabric: Fabric, sus: int, servers: int, final_sus: int | None):
    """(the spec that keeps every size the design has; the spec with sizes derived for the new size; why
    the first cannot be used, when that is known before building)."""
    settings = fabric.settings
    plan = settings.growth
    if plan is not None:
        final = max(sus, final_sus or 0, plan.final_sus)
        final_servers = max(servers, plan.final_servers_per_su)
        kept = GrowthPlan(final, final_servers, plan.build)
        why = "" if (final, final_servers) == (plan.final_sus, plan.final_servers_per_su) else (
            f"it is planned for {plan.final_sus} SUs of {plan.final_servers_per_su} servers, and "
            f"{final} SUs of {final_servers} servers need other spines, cores or spine ports "
            "(the top tier of a plan exists from the first SU; the plan's room is in its ports)")
        stable = planned_spec(settings, sus, servers, kept)
        return stable, _derived(stable), why
    values = infer_parameters(fabric)
    if values is None:
        raise PlanningError(["the design has no leaf or server to grow from: grow adds SUs like the ones it has"])
    spec = planned_spec(settings, sus, servers, GrowthPlan(0, 0, tuple(sorted(values.items()))))
    if final_sus:
        spec = replace(spec, final_sus=max(final_sus, sus), final_servers_per_su=servers)
        return spec, _derived(spec), "it has no growth plan"
    return spec, _derived(spec), ""


def _derived(spec: BuildSpec) -> BuildSpec:
    """``spec`` with its tier sizes left to the planner (the hardware and the leaves' uplinks kept)."""
    return replace(spec, spines=None if spec.spines else 0, cores=0, sus_per_group=0, spine_uplinks=0,
                   core_tier="auto" if spec.spines else "off")


def infer_parameters(fabric: Fabric) -> dict | None:
    """The build parameters (`growth.PLAN_FIELDS`) a design without a plan was built with, read off its
    first leaf, spine, core and server; None when it has no leaf or no server."""
    leaves, servers = fabric.leaves(), fabric.sorted_servers()
    if not leaves or not servers:
        return None
    leaf = leaves[0]
    ups = leaf_links(fabric, leaf.id).uplinks
    spines, cores = fabric.spines(), fabric.cores()
    values = dict.fromkeys(PLAN_FIELDS, 0)
    values.update(server_model=servers[0].model, rails=len(fabric.rails), leaf_model=leaf.model,
                  leaf_uplinks=len(ups), uplink_speed=ups[0][0].speed if ups else 0,
                  spine_model=spines[0].model if spines else leaf.model,
                  spines=len(expected_spines(fabric, leaf)) if spines else 0, core_tier="off", core_model="")
    if cores and spines:               # cores without spines: nothing to count a spine group from
        first = spines[0]
        values.update(core_tier="on", core_model=cores[0].model,
                      cores=sum(1 for c in cores if c.fabric_plane == first.fabric_plane),
                      sus_per_group=len({l.su for l in leaves if l.group == first.group}),
                      spine_uplinks=len(spine_links(fabric, first.id).uplinks))
    return values


def compare(fabric: Fabric, target: Fabric, strict: bool) -> list[str]:
    """What the target changes on what the design holds, one line per device (empty: it only adds).

    Always: a device of the design that the target drops or builds otherwise, a cable of the target
    onto a port the design uses for another, an address or ASN of the target that the design gives
    another key. ``strict`` also: any address, ASN or cable of the design the target holds otherwise
    (a design without a plan must be what its parameters build, or `assign` would renumber it)."""
    changes: dict[str, list[str]] = defaultdict(list)
    for device_id in (*fabric.switches, *fabric.servers):
        if device_id not in target.switches and device_id not in target.servers:
            if strict:
                changes[device_id].append("not in the design at the new size")
            continue
        if device_id in fabric.switches:
            mine, theirs = fabric.switches[device_id], target.switches.get(device_id)
            if theirs is None or replace(mine, hostname=theirs.hostname, rack=theirs.rack,
                                         position=theirs.position) != theirs:   # a place is the floor's
                changes[device_id].append("built otherwise (role, model, breakouts or place)")
    for link_id, link in target.links.items():
        if link_id in fabric.links:
            continue
        for end in (link.a, link.b):
            held = fabric.link_at(end)
            if held is not None:
                changes[end.partition("/")[0]].append(f"{end} is cabled to {held.other(end)}, the new size "
                                                      f"cables it to {link.other(end)}")
    if strict:
        for link_id, link in fabric.links.items():
            if link_id not in target.links:
                changes[link.a.partition("/")[0]].append(f"cable {link.a} -- {link.b} moves")
    _compare_values(fabric, target, strict, changes)
    return [f"{device}: {'; '.join(lines[:3])}" + (f" (+{len(lines) - 3} more)" if len(lines) > 3 else "")
            for device, lines in sorted(changes.items(), key=lambda kv: natural_key(kv[0]))]


def _compare_values(fabric: Fabric, target: Fabric, strict: bool, changes) -> None:
    mine = fabric.addresses
    held = {v.partition("/")[0]: k for k, v in mine.items()}      # an address is held whatever its prefix
    for key, value in target.addresses.items():
        old = mine.get(key)
        if old is None:
            other = held.get(value.partition("/")[0])
            if other is not None:
                changes[other.partition("/")[0]].append(f"{other} holds {mine[other]}, which the new size "
                                                        f"gives {key}")
        elif old != value and strict and not fabric.is_pinned(key):
            changes[key.partition("/")[0]].append(f"{key} {old} -> {value}")
    leaf_asns = {v: k for k, v in fabric.asns.items() if fabric.switches[k].role is Role.LEAF}
    for switch_id, asn in target.asns.items():
        old = fabric.asns.get(switch_id)
        if old is None and switch_id not in fabric.switches:
            other = leaf_asns.get(asn)
            if other is not None and target.switches[switch_id].role is Role.LEAF:
                changes[other].append(f"ASN {asn}, which the new size gives {switch_id}")
        elif old is not None and old != asn and strict:
            changes[switch_id].append(f"ASN {old} -> {asn}")


def _merge(fabric: Fabric, target: Fabric, sus: int, servers: int) -> GrowResult:
    """Add to ``fabric`` what ``target`` has and it has not: devices, cables, addresses, ASNs, names."""
    new_switches = [s for s in target.switches.values() if s.id not in fabric.switches]
    new_servers = [s for s in target.servers.values() if s.id not in fabric.servers]
    cables = [link for link_id, link in target.links.items() if link_id not in fabric.links]
    keys = [k for k in target.addresses if k not in fabric.addresses]
    with fabric.batch():
        for su, unit in sorted(target.sus.items()):
            if su not in fabric.sus:
                fabric.set_su_name(su, unit.name)
        for rail, r in sorted(target.rails.items()):
            if rail not in fabric.rails:
                fabric.set_rail_name(rail, r.name)
        for switch in new_switches:
            fabric.add_switch(switch)
        for server in new_servers:
            fabric.add_server(server)
        for link in cables:
            fabric.connect(link.a, link.b)
        if keys:
            fabric.set_addresses(keys, [target.addresses[k] for k in keys])
        for switch_id, asn in target.asns.items():
            if switch_id not in fabric.asns:
                fabric.set_asn(switch_id, asn)
        if target.settings.growth != fabric.settings.growth:
            fabric.set_settings(replace(fabric.settings, growth=target.settings.growth))
        _keep_floor(fabric, fabric)
    added = _natural([s.id for s in new_switches] + [s.id for s in new_servers])
    return GrowResult(fabric, sus, servers, added, len(cables), [], fabric.settings.growth)


def _keep_floor(fabric: Fabric, target: Fabric) -> None:
    """A design with a floor keeps it: the target gets its racks and places (when it is another design),
    and what was added is placed in free room or new racks; nothing that stood somewhere moves."""
    if fabric.floor is None:
        return
    from .floor_layout import copy_floor, lay_out
    if target is not fabric:
        copy_floor(fabric, target)
    lay_out(target)


def _natural(ids: list[str]) -> list[str]:
    return sorted(ids, key=natural_key)


def growth_room(fabric: Fabric) -> tuple[int, int, bool] | None:
    """(SUs, servers per SU, planned) the design can grow to without renumbering: its plan's final size,
    or for a design without one the most SUs its spines' ports take at the parameters it was built
    with (counted by `size`, not built). None for a design with no leaf or server."""
    plan = fabric.settings.growth
    if plan is not None:
        return plan.final_sus, plan.final_servers_per_su, True
    values = infer_parameters(fabric)
    if values is None:
        return None
    from .spec import size
    now_sus, servers = current_size(fabric)
    if not values["spines"]:                  # rail-only: an SU brings its own leaves, nothing to count
        return MAX_SU, servers, False
    spec = planned_spec(fabric.settings, now_sus, servers, GrowthPlan(0, 0, tuple(sorted(values.items()))))
    sus = now_sus
    while sus < MAX_SU and size(replace(spec, sus=sus + 1), fabric.catalog).ok:
        sus += 1
    return sus, servers, False
