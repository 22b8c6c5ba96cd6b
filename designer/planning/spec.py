"""Build parameters and the sizing arithmetic derived from them (shown live in the GUI).

`size(spec, catalog)` never raises for an impossible design: it returns a `Sizing` whose
``problems`` say what is short and by how much. `build` refuses to run while there are any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace

from ..model.entities import SCHEMES, SPINE_ASN_MODES, SPINE_PLANE_MODES
from ..model.hardware import Catalog, parse_breakout
from ..model.limits import MAX_LINKS, MAX_RAILS, MAX_SERVERS, MAX_SU, MAX_SWITCHES


@dataclass(frozen=True)
class BuildSpec:
    """The parameters a design is built from (a preset's values, overridden); None or 0 means "derive it"."""

    name: str = "fabric"
    description: str = ""
    sus: int = 1
    servers_per_su: int = 32
    server_model: str = "hgx-h100-8x400g"
    rails: int | None = None                 # default: the server model's rail NICs
    leaf_model: str = "generic-64x400g"
    leaf_uplinks: int | None = None          # default: sized for the oversubscription target
    uplink_speed: int | None = None          # default: the leaf's native speed
    spine_model: str | None = None           # default: the leaf model
    spines: int | None = None                # per plane; 0 = rail-only; default: sized for the target
    spine_planes: str = "shared"             # "shared" or "per-rail"
    oversubscription: float = 1.0            # target and allowed downlink:uplink ratio
    scheme: str = "subnet-per-leaf"
    rail_supernet: str = "10.0.0.0/12"
    rail_prefix: int = 16
    fabric_pool: str = "10.254.0.0/16"
    loopback_pool: str = "10.255.0.0/16"
    mtu: int = 9000
    leaf_asn_base: int = 4200000000
    spine_asn_base: int = 4200100000
    spine_asn_mode: str = "shared"
    # The third tier and multi-plane NICs. For the ints, 0 (or None) means "derive it".
    fabric_planes: int = 0                   # default: every plane the server model's NIC ports go to
    core_tier: str = "off"                   # "off", "on", or "auto": three tiers when one spine tier cannot
    #                                          mesh every leaf (cores, sus_per_group or spine_uplinks imply "on")
    core_model: str = ""                     # default: the spine model
    cores: int = 0                           # per fabric plane, a multiple of the spines per group
    sus_per_group: int = 0                   # SUs whose leaves mesh with one spine group
    spine_uplinks: int = 0                   # per spine, to its core group
    spine_oversubscription: float = 1.0      # target and allowed spine downlink:uplink ratio
    core_asn: int = 4200200000               # every core shares this ASN
    # Growth (planning/growth.py): the final size to plan for; 0 means the size built is final.
    final_sus: int = 0                       # SUs spines, cores, ports, addresses and ASNs are sized for
    final_servers_per_su: int = 0            # servers per SU the leaves and rail pools are sized for
    fabric_kind: str = "ethernet"            # or "infiniband": the same wiring, routed by a subnet manager
    load_balancing: str = "ppd"              # ppd, ecmp, qp-hash or adaptive (settings.load_balancing)
    qps: int = 4                             # queue pairs per connection under qp-hash
    # The floor (planning/floor_layout.py): "none", or "superpod" (a row per SU, a network row).
    floor: str = "none"
    servers_per_rack: int = 4                # at most, in a compute rack (fewer when its budgets run out)
    rack_power_kw: float = 45.0              # power budget of a compute rack

    def __post_init__(self):
        # a form's text field gives "1.5": take it as the number it reads as (anything else is reported)
        if isinstance(self.spine_oversubscription, str):
            try:
                object.__setattr__(self, "spine_oversubscription", float(self.spine_oversubscription))
            except ValueError:
                pass

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass
class Sizing:
    """Derived numbers for a spec, and every reason it cannot be built. Counts of switches and
    cables are totals over every fabric plane; the per-switch numbers hold in each plane."""

    rails: int = 0
    servers: int = 0              # of the final size, when the spec plans for one (as every count here)
    servers_per_su: int = 0
    gpus: int = 0
    nics: int = 0                 # NIC ports cabled (rails x fabric planes per server)
    nic_speed: int = 0
    fabric_planes: int = 1
    tiers: int = 1                # 1 rail-only, 2 leaf-spine, 3 leaf-spine-core
    leaves: int = 0
    planes: int = 0               # spine planes per fabric plane (rails when per-rail, else 1)
    spines_per_plane: int = 0     # spines each leaf meshes with (per spine plane, or per spine group)
    spines: int = 0
    leaf_uplinks: int = 0
    uplink_speed: int = 0
    downlink_mode: str = ""
    uplink_mode: str = ""
    spine_mode: str = ""
    downlink_cages: int = 0
    uplink_cages: int = 0
    spine_cages: int = 0
    spine_ports_used: int = 0     # toward the leaves
    server_links: int = 0
    fabric_links: int = 0         # leaf-spine
    ratio: float = 0.0
    # three tiers (see core_tier.py)
    sus_per_group: int = 0
    groups: int = 0               # spine groups per fabric plane
    spine_uplinks: int = 0        # per spine, to the cores
    spine_uplink_cages: int = 0
    spine_ratio: float = 0.0
    core_mode: str = ""
    core_groups: int = 0          # per fabric plane: one per spine position of a group
    cores_per_group: int = 0
    cores: int = 0
    core_cages: int = 0
    core_ports_used: int = 0
    core_links: int = 0           # spine-core
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


CORE_TIERS = ("off", "on", "auto")


def _mode_for(model, speed: int, role: str, problems: list[str]) -> tuple[str, int]:
    mode = model.breakout_for_speed(speed)
    if mode is None:
        speeds = ", ".join(f"{parse_breakout(m)[1]}G" for m in model.breakouts)
        problems.append(f"{role} model {model.id} cannot run ports at {speed}G (it offers {speeds})")
        return "", 1
    return mode, parse_breakout(mode)[0]


def format_ratio(ratio: float) -> str:
    return f"{ratio:.2f}:1"


def is_planned(spec: BuildSpec) -> bool:
    """Whether ``spec`` plans for a final size beyond the one it builds (``final_sus`` / ``final_servers_per_su``)."""
    return bool(spec.final_sus or spec.final_servers_per_su)


def final_of(spec: BuildSpec) -> BuildSpec:
    """The spec of the final size ``spec`` plans for (``spec`` itself when it plans for none)."""
    if not is_planned(spec):
        return spec

    def larger(final, now):
        return final if isinstance(final, int) and isinstance(now, int) and final > now else now
    return replace(spec, sus=larger(spec.final_sus, spec.sus), final_sus=0, final_servers_per_su=0,
                   servers_per_su=larger(spec.final_servers_per_su, spec.servers_per_su))


def size(spec: BuildSpec, catalog: Catalog) -> Sizing:
    """The numbers of ``spec``, of its final size when it plans for one (spines, cores, uplinks, ports and
    pools are sized for that); ``problems`` lists every shortfall."""
    s = _size(final_of(spec), catalog)
    for name, what in (("final_sus", "sus"), ("final_servers_per_su", "servers_per_su")):
        final, now = getattr(spec, name), getattr(spec, what)
        if not isinstance(final, int) or isinstance(final, bool) or final < 0:
            s.problems.insert(0, f"{name.replace('_', ' ')} must be a whole number, 0 or more (got {final!r})")
        elif isinstance(now, int) and 0 < final < now:
            s.problems.insert(0, f"{name.replace('_', ' ')} ({final}) is below {what.replace('_', ' ')} ({now}): "
                                 "plan for at least the size you build")
    for count, limit, what in ((s.servers, MAX_SERVERS, "servers"), (s.leaves + s.spines, MAX_SWITCHES, "switches"),
                               (s.server_links + s.fabric_links, MAX_LINKS, "cables"),
                               (s.rails, MAX_RAILS, "rails"), (max(spec.sus, spec.final_sus or 0), MAX_SU, "scalable units")):
        if count > limit:
            s.problems.append(f"{count:,} {what} is more than the {limit:,} a design can have")
    return s


def _size(spec: BuildSpec, catalog: Catalog) -> Sizing:
    s = Sizing()
    p = s.problems
    _check_simple(spec, p)
    try:
        server = catalog.server(spec.server_model)
        leaf = catalog.switch(spec.leaf_model)
        spine = catalog.switch(spec.spine_model or spec.leaf_model)
        core = catalog.switch(spec.core_model or spec.spine_model or spec.leaf_model)
    except KeyError as exc:
        p.append(str(exc.args[0]))
        return s
    if p:
        return s
    if not _size_nics(spec, server, s):
        return s
    s.servers = spec.sus * spec.servers_per_su
    s.servers_per_su = spec.servers_per_su
    s.gpus = s.servers * server.gpus
    s.nics = s.servers * s.rails * s.fabric_planes
    s.leaves = spec.sus * s.rails * s.fabric_planes
    s.server_links = s.nics

    s.downlink_mode, per_down = _mode_for(leaf, s.nic_speed, "leaf", p)
    s.downlink_cages = math.ceil(spec.servers_per_su / per_down)
    rail_only = spec.spines == 0
    if not rail_only:
        s.uplink_speed = spec.uplink_speed or leaf.speed
        s.uplink_mode, per_up = _mode_for(leaf, s.uplink_speed, "leaf", p)
        down_bw = spec.servers_per_su * s.nic_speed
        s.leaf_uplinks = spec.leaf_uplinks if spec.leaf_uplinks is not None else math.ceil(
            down_bw / (spec.oversubscription * s.uplink_speed))
        if s.leaf_uplinks < 1:
            p.append("a leaf needs at least one uplink when the design has spines (or set spines to 0)")
            return s
        s.uplink_cages = math.ceil(s.leaf_uplinks / per_up)
        s.ratio = down_bw / (s.leaf_uplinks * s.uplink_speed)
    used = s.downlink_cages + s.uplink_cages
    if used > leaf.ports:
        p.append(
            f"each leaf needs {used} ports ({s.downlink_cages} for {spec.servers_per_su} servers at "
            f"{s.nic_speed}G as {s.downlink_mode or 'native'}"
            + (f", {s.uplink_cages} for {s.leaf_uplinks} uplinks at {s.uplink_speed}G" if s.uplink_cages else "")
            + f"); {leaf.id} has {leaf.ports}: short by {used - leaf.ports} ports")
    if rail_only:
        return s
    s.tiers = 2
    s.planes = s.rails if spec.spine_planes == "per-rail" else 1
    s.spine_mode, per_spine = _mode_for(spine, s.uplink_speed, "spine", p)
    if p:
        return s
    tier = _core_tier(spec)
    two_tier: list[str] = []
    if tier != "on":
        _size_two_tiers(spec, s, spine, per_spine, two_tier)
    if tier == "on" or (tier == "auto" and two_tier):
        from .core_tier import size_three_tiers   # the third tier builds on the two-tier numbers above
        s.tiers = 3
        size_three_tiers(spec, s, spine, per_spine, core, p)
    else:
        p.extend(two_tier)
    return s


def _core_tier(spec: BuildSpec) -> str:
    """"off", "on" or "auto"; asking for cores, spine groups or spine uplinks turns the tier on."""
    if spec.core_tier == "off" and (spec.cores or spec.sus_per_group or spec.spine_uplinks):
        return "on"
    return spec.core_tier


def _size_nics(spec: BuildSpec, server, s: Sizing) -> bool:
    """Rails, planes and NIC speed from the server model; False (with a problem) when it cannot serve them."""
    p = s.problems
    planes = server.fabric_planes
    s.fabric_planes = spec.fabric_planes or planes
    if s.fabric_planes > planes:
        p.append(f"{s.fabric_planes} fabric planes need NIC ports on {s.fabric_planes} planes; {server.id}'s "
                 f"NICs go to {planes}")
        return False
    per_plane = min(len(server.rail_order(plane)) for plane in range(s.fabric_planes))
    s.rails = spec.rails if spec.rails is not None else per_plane
    if s.rails > per_plane:
        where = " per plane" if planes > 1 else ""
        p.append(f"{s.rails} rails need {s.rails} rail NICs per server{where}; {server.id} has {per_plane}")
        return False
    s.nic_speed = max(server.nic(i).speed for plane in range(s.fabric_planes)
                      for i in server.rail_order(plane)[: s.rails])
    return True


def _size_two_tiers(spec: BuildSpec, s: Sizing, spine, per_spine: int, p: list[str]) -> None:
    leaves_per_plane = spec.sus * s.rails // s.planes
    spine_ports = spine.ports * per_spine
    uplinks_in_plane = leaves_per_plane * s.leaf_uplinks
    if spec.spines is not None:
        s.spines_per_plane = spec.spines
    else:
        s.spines_per_plane = even_count(max(1, math.ceil(uplinks_in_plane / spine_ports)), s.leaf_uplinks)
    s.spines = s.spines_per_plane * s.planes * s.fabric_planes
    s.fabric_links = s.leaves * s.leaf_uplinks
    if s.spines_per_plane > s.leaf_uplinks:
        p.append(
            f"each leaf has {s.leaf_uplinks} uplinks but must reach all {s.spines_per_plane} spines of its plane: "
            f"short by {s.spines_per_plane - s.leaf_uplinks} uplinks (fewer spines, more uplinks, "
            "spine planes per rail, or a core tier)")
    s.spine_ports_used = math.ceil(uplinks_in_plane / s.spines_per_plane)
    s.spine_cages = math.ceil(s.spine_ports_used / per_spine)
    if s.spine_ports_used > spine_ports:
        hint = "more spines" + (" or spine planes per rail" if s.planes == 1 else "") + ", or a core tier"
        p.append(
            f"each spine needs {s.spine_ports_used} ports at {s.uplink_speed}G ({leaves_per_plane} leaves x "
            f"{s.leaf_uplinks} uplinks over {s.spines_per_plane} spines); {spine.id} has {spine_ports}: "
            f"short by {s.spine_ports_used - spine_ports} ports ({hint})")


def even_count(needed: int, links: int) -> int:
    """The smallest count from ``needed`` that divides ``links`` (so the links spread evenly), else ``needed``."""
    return next((d for d in range(needed, links + 1) if links % d == 0), needed)


def _check_simple(spec: BuildSpec, p: list[str]) -> None:
    for name in ("sus", "servers_per_su"):
        if getattr(spec, name) < 1:
            p.append(f"{name.replace('_', ' ')} must be at least 1 (got {getattr(spec, name)})")
    if spec.rails is not None and spec.rails < 1:
        p.append(f"rails must be at least 1 (got {spec.rails})")
    if spec.spines is not None and spec.spines < 0:
        p.append(f"spines must be 0 (rail-only) or more (got {spec.spines})")
    if spec.leaf_uplinks is not None and spec.leaf_uplinks < 0:
        p.append(f"leaf uplinks must be 0 or more (got {spec.leaf_uplinks})")
    for name in ("oversubscription", "spine_oversubscription"):
        value = getattr(spec, name)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or value <= 0:
            p.append(f"{name.replace('_', ' ')} must be a positive number (got {value!r})")
    for name in ("fabric_planes", "cores", "sus_per_group", "spine_uplinks"):
        value = getattr(spec, name)
        if value is not None and (not isinstance(value, int) or value < 0):
            p.append(f"{name.replace('_', ' ')} must be a whole number, 0 or more (got {value!r})")
    if spec.spine_planes not in SPINE_PLANE_MODES:
        p.append(f"spine planes must be one of {', '.join(SPINE_PLANE_MODES)} (got {spec.spine_planes})")
    if spec.scheme not in SCHEMES:
        p.append(f"addressing scheme must be one of {', '.join(SCHEMES)} (got {spec.scheme})")
    if spec.spine_asn_mode not in SPINE_ASN_MODES:
        p.append(f"spine ASN mode must be one of {', '.join(SPINE_ASN_MODES)} (got {spec.spine_asn_mode})")
    if spec.core_tier not in CORE_TIERS:
        p.append(f"core tier must be one of {', '.join(CORE_TIERS)} (got {spec.core_tier})")
    if spec.spines == 0 and _core_tier(spec) == "on":
        p.append("a core tier needs spines: leave spines unset (or above 0), or turn the core tier off")
