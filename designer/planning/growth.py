"""Planning for the final size: what a design keeps so that growing it only adds.

A design built with ``final_sus`` / ``final_servers_per_su`` (`BuildSpec`) is sized for that final
size: spines, cores, spine ports and breakouts, leaf uplinks, rail subnets, ASNs and every address
block. It holds only the SUs and servers asked for now, and its `GrowthPlan` (in its settings)
keeps the resolved build parameters, so the planner can always rebuild the *reference*: the design at
its final size, wired and addressed by the ordinary planner. Every device of a planned design is the
reference's device of the same id, on the same ports, with the same addresses and ASN: allocation is
keyed on the stable indexes the ids carry (plane, SU, rail, server, port), never on what exists
yet, so adding an SU or a server (`grow`) can only add.

Why a reference and not per-pool slot arithmetic: the reference is the planner's own output, so a
planned design and a design built whole at its final size agree by construction, for every scheme,
tier and plane count the planner knows, and nothing here keeps a second copy of its rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model.entities import DesignSettings, GrowthPlan, Role
from ..model.fabric import Fabric
from ..model.ids import natural_key
from .spec import BuildSpec, Sizing, final_of

# Build parameters a plan keeps, resolved to the numbers the final size was built with (so a later
# version's defaults cannot move them); everything else comes from the design's settings.
PLAN_FIELDS = ("server_model", "rails", "leaf_model", "leaf_uplinks", "uplink_speed", "spine_model", "spines",
               "core_tier", "core_model", "cores", "sus_per_group", "spine_uplinks")


def growth_plan(spec: BuildSpec, sizing: Sizing) -> GrowthPlan:
    """The plan of a spec that plans for a final size, with its sizing (of the final size)."""
    final = final_of(spec)
    three = sizing.tiers == 3
    values = {
        "server_model": final.server_model, "rails": sizing.rails, "leaf_model": final.leaf_model,
        "leaf_uplinks": sizing.leaf_uplinks, "uplink_speed": sizing.uplink_speed,
        "spine_model": final.spine_model or final.leaf_model, "spines": sizing.spines_per_plane,
        "core_tier": "on" if three else "off",
        "core_model": (final.core_model or final.spine_model or final.leaf_model) if three else "",
        "cores": sizing.cores_per_group * sizing.core_groups if three else 0,
        "sus_per_group": sizing.sus_per_group if three else 0,
        "spine_uplinks": sizing.spine_uplinks if three else 0,
    }
    return GrowthPlan(final.sus, final.servers_per_su, tuple(sorted(values.items())))


def planned_spec(settings: DesignSettings, sus: int, servers_per_su: int,
                 plan: GrowthPlan | None = None) -> BuildSpec:
    """The spec that builds ``sus`` SUs of ``servers_per_su`` servers under a plan (the settings' own,
    or ``plan``): `build` of it is the planned design at that size."""
    plan = plan or settings.growth
    a, n = settings.addressing, settings.asn
    return BuildSpec(
        name=settings.name, description=settings.description, sus=sus, servers_per_su=servers_per_su,
        oversubscription=settings.max_oversubscription, spine_planes=settings.spine_planes,
        spine_oversubscription=settings.max_spine_oversubscription, fabric_planes=settings.fabric_planes,
        scheme=a.scheme, rail_supernet=a.rail_supernet, rail_prefix=a.rail_prefix, fabric_pool=a.fabric_pool,
        loopback_pool=a.loopback_pool, mtu=a.mtu, leaf_asn_base=n.leaf_base, spine_asn_base=n.spine_base,
        spine_asn_mode=n.spine_mode, core_asn=settings.core_asn, load_balancing=settings.load_balancing.mode,
        qps=settings.load_balancing.qps,
        final_sus=plan.final_sus, final_servers_per_su=plan.final_servers_per_su, **dict(plan.build))


def reference(fabric: Fabric) -> Fabric:
    """The planned design at its final size, wired and addressed by the ordinary planner."""
    plan = fabric.settings.growth
    spec = final_of(planned_spec(fabric.settings, plan.final_sus, plan.final_servers_per_su))
    return _reference(spec, fabric.catalog)


_BUILT: dict[BuildSpec, tuple[object, Fabric]] = {}


def _reference(spec: BuildSpec, catalog) -> Fabric:
    """Built once per spec and catalog (the last two kept): `assign` and `grow` of a large design
    would otherwise build it again. Nothing changes a reference once built."""
    hit = _BUILT.get(spec)
    if hit is not None and (hit[0] is catalog or hit[0] == catalog):
        return hit[1]
    from .build import build
    fabric = build(spec, catalog)          # a spec of the final size: the ordinary planner
    if len(_BUILT) >= 2:
        _BUILT.pop(next(iter(_BUILT)))
    _BUILT[spec] = (catalog, fabric)
    return fabric


@dataclass
class Cut:
    """Part of a design as plain maps (what `restricted` keeps of a reference), the shape of a
    `Fabric`'s own: ids to switches, servers and cables, address keys to CIDRs, switch ids to ASNs."""

    settings: DesignSettings
    switches: dict
    servers: dict
    links: dict
    addresses: dict
    asns: dict
    sus: dict
    rails: dict


def planned_cut(spec: BuildSpec, sizing: Sizing, catalog, have: Fabric | None = None) -> Cut:
    """What a planned spec builds: its final design (the reference) cut down to the SUs and servers
    asked for, with the plan in its settings. With ``have`` (a design), the cut's cables, addresses and
    ASNs are only those whose id or key ``have`` lacks (its devices are all there): what `grow` adds."""
    from .build import settings_from
    settings = replace(settings_from(spec, sizing), growth=growth_plan(spec, sizing))
    groups = -(-spec.sus // sizing.sus_per_group) if sizing.tiers == 3 else None
    return restricted(_reference(_unplaced(final_of(spec)), catalog), settings, spec.sus, spec.servers_per_su,
                      groups, have)


_FLOOR_FIELDS = ("floor", "servers_per_rack", "rack_power_kw")


def _unplaced(spec: BuildSpec) -> BuildSpec:
    """``spec`` without its floor parameters: the reference is never laid out (the cut is, after), and
    `grow`'s specs (read off a design's settings) find the same reference."""
    defaults = BuildSpec()
    return replace(spec, **{name: getattr(defaults, name) for name in _FLOOR_FIELDS})


def planned_design(spec: BuildSpec, sizing: Sizing, catalog) -> Fabric:
    """`planned_cut` as a design."""
    cut = planned_cut(spec, sizing, catalog)
    fabric = Fabric(catalog, cut.settings)
    with fabric.batch():
        for index, unit in sorted(cut.sus.items()):
            fabric.set_su_name(index, unit.name)
        for index, rail in sorted(cut.rails.items()):
            fabric.set_rail_name(index, rail.name)
        for switch in cut.switches.values():
            fabric.add_switch(switch)
        for server in cut.servers.values():
            fabric.add_server(server)
        for link in cut.links.values():
            fabric.connect(link.a, link.b)
        fabric.set_addresses(list(cut.addresses), list(cut.addresses.values()))
        for switch_id, asn in cut.asns.items():
            fabric.set_asn(switch_id, asn)
    return fabric


def restricted(ref: Fabric, settings: DesignSettings, sus: int, servers_per_su: int, groups: int | None,
               have: Fabric | None = None) -> Cut:
    """``ref`` with only its first ``sus`` SUs, the first ``servers_per_su`` servers of each, the spines
    of the first ``groups`` spine groups (all spines when None), every core, the cables among them and
    the addresses of what is kept (a cable end's only when its cable is kept). With ``have``, cables,
    addresses and ASNs that ``have`` holds under the same id or key are left out (set differences:
    growing a large design by one SU looks at what it adds, not at everything it keeps)."""
    rank: dict[int, int] = {}
    servers = {}
    for server in ref.sorted_servers():
        rank[server.su] = rank.get(server.su, 0) + 1
        if server.su <= sus and rank[server.su] <= servers_per_su:
            servers[server.id] = server
    switches = {s.id: s for s in sorted(ref.switches.values(), key=lambda s: natural_key(s.id))
                if (s.su is None or s.su <= sus) and (groups is None or s.role is not Role.SPINE or s.group <= groups)}

    def kept(link) -> bool:
        a, b = link.a.partition("/")[0], link.b.partition("/")[0]
        return (a in switches or a in servers) and (b in switches or b in servers)

    held = have.links if have is not None else {}
    links = {i: l for i, l in ref.links.items() if i not in held and kept(l)}
    ends = {end for link in links.values() for end in (link.a, link.b)}
    mine = have.addresses if have is not None else {}
    addresses = {}
    for key, value in ref.addresses.items():
        if key in mine:
            continue
        device, _, port = key.partition("/")
        if key in ends or (port in ("lo", "svi") and device in switches) or (
                have is not None and _kept_by(have, ref, key, kept)):
            addresses[key] = value
    asns = {k: v for k, v in ref.asns.items() if k in switches and (have is None or k not in have.asns)}
    return Cut(settings, switches, servers, links, addresses, asns,
               {i: u for i, u in ref.sus.items() if i <= sus}, dict(ref.rails))


def _kept_by(have: Fabric, ref: Fabric, key: str, kept) -> bool:
    """Whether ``key`` is an end of a cable ``have`` holds as the reference does, among kept devices."""
    link = have.link_at(key)
    return link is not None and link.id in ref.links and kept(link)


def planned_values(fabric: Fabric) -> tuple[dict[str, str], dict[str, int]]:
    """The reference's address of every address key and the ASN of every switch that the design holds
    as the reference does: the same device, and for a cable end the same cable. A key the design
    holds otherwise (a device added or re-cabled by hand) is not among them: the planner places it."""
    ref = reference(fabric)
    same = {d for d in (*fabric.switches, *fabric.servers) if _same_device(fabric, ref, d)}
    mine = fabric.links
    cabled = {end for link_id, link in ref.links.items() if link_id in mine for end in (link.a, link.b)}
    addresses = {}
    for key, value in ref.addresses.items():
        device, _, port = key.partition("/")
        if device in same and (key in cabled or port in ("lo", "svi")):
            addresses[key] = value
    asns = {switch_id: asn for switch_id, asn in ref.asns.items() if switch_id in same}
    return addresses, asns


def _same_device(fabric: Fabric, ref: Fabric, device_id: str) -> bool:
    if device_id in fabric.switches:
        mine, theirs = fabric.switches[device_id], ref.switches.get(device_id)
        return theirs is not None and replace(mine, hostname=theirs.hostname) == theirs
    if device_id in fabric.servers:
        mine, theirs = fabric.servers[device_id], ref.servers.get(device_id)
        return theirs is not None and mine.model == theirs.model and mine.su == theirs.su
    return False
