"""Build parameters and the sizing arithmetic derived from them (shown live in the GUI).

`size(spec, catalog)` never raises for an impossible design: it returns a `Sizing` whose
``problems`` say what is short and by how much. `build` refuses to run while there are any.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

from ..model.entities import SCHEMES, SPINE_ASN_MODES, SPINE_PLANE_MODES
from ..model.hardware import Catalog, parse_breakout
from ..model.limits import MAX_LINKS, MAX_RAILS, MAX_SERVERS, MAX_SU, MAX_SWITCHES


@dataclass(frozen=True)
class BuildSpec:
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

    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


@dataclass
class Sizing:
    """Derived numbers for a spec, and every reason it cannot be built."""

    rails: int = 0
    servers: int = 0
    gpus: int = 0
    nics: int = 0
    nic_speed: int = 0
    leaves: int = 0
    planes: int = 0
    spines_per_plane: int = 0
    spines: int = 0
    leaf_uplinks: int = 0
    uplink_speed: int = 0
    downlink_mode: str = ""
    uplink_mode: str = ""
    spine_mode: str = ""
    downlink_cages: int = 0
    uplink_cages: int = 0
    spine_cages: int = 0
    spine_ports_used: int = 0
    server_links: int = 0
    fabric_links: int = 0
    ratio: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _mode_for(model, speed: int, role: str, problems: list[str]) -> tuple[str, int]:
    mode = model.breakout_for_speed(speed)
    if mode is None:
        speeds = ", ".join(f"{parse_breakout(m)[1]}G" for m in model.breakouts)
        problems.append(f"{role} model {model.id} cannot run ports at {speed}G (it offers {speeds})")
        return "", 1
    return mode, parse_breakout(mode)[0]


def format_ratio(ratio: float) -> str:
    return f"{ratio:.2f}:1"


def size(spec: BuildSpec, catalog: Catalog) -> Sizing:
    s = _size(spec, catalog)
    for count, limit, what in ((s.servers, MAX_SERVERS, "servers"), (s.leaves + s.spines, MAX_SWITCHES, "switches"),
                               (s.server_links + s.fabric_links, MAX_LINKS, "cables"),
                               (s.rails, MAX_RAILS, "rails"), (spec.sus, MAX_SU, "scalable units")):
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
    except KeyError as exc:
        p.append(str(exc.args[0]))
        return s
    if p:
        return s
    s.rails = spec.rails if spec.rails is not None else len(server.nics)
    if s.rails > len(server.nics):
        p.append(f"{s.rails} rails need {s.rails} rail NICs per server; {server.id} has {len(server.nics)}")
        return s
    order = server.rail_order()[: s.rails]
    s.nic_speed = max(server.nic(i).speed for i in order)
    s.servers = spec.sus * spec.servers_per_su
    s.gpus = s.servers * server.gpus
    s.nics = s.servers * s.rails
    s.leaves = spec.sus * s.rails
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

    s.planes = s.rails if spec.spine_planes == "per-rail" else 1
    leaves_per_plane = s.leaves // s.planes
    s.spine_mode, per_spine = _mode_for(spine, s.uplink_speed, "spine", p)
    spine_ports = spine.ports * per_spine
    uplinks_in_plane = leaves_per_plane * s.leaf_uplinks
    if spec.spines is not None:
        s.spines_per_plane = spec.spines
    else:
        needed = max(1, math.ceil(uplinks_in_plane / spine_ports))
        even = [d for d in range(needed, s.leaf_uplinks + 1) if s.leaf_uplinks % d == 0]
        s.spines_per_plane = even[0] if even else needed
    s.spines = s.spines_per_plane * s.planes
    s.fabric_links = s.leaves * s.leaf_uplinks
    if s.spines_per_plane > s.leaf_uplinks:
        p.append(
            f"each leaf has {s.leaf_uplinks} uplinks but must reach all {s.spines_per_plane} spines of its plane: "
            f"short by {s.spines_per_plane - s.leaf_uplinks} uplinks (fewer spines, more uplinks, "
            "or spine planes per rail)")
    s.spine_ports_used = math.ceil(uplinks_in_plane / s.spines_per_plane)
    s.spine_cages = math.ceil(s.spine_ports_used / per_spine)
    if s.spine_ports_used > spine_ports:
        hint = "more spines" + (" or spine planes per rail" if s.planes == 1 else "")
        p.append(
            f"each spine needs {s.spine_ports_used} ports at {s.uplink_speed}G ({leaves_per_plane} leaves x "
            f"{s.leaf_uplinks} uplinks over {s.spines_per_plane} spines); {spine.id} has {spine_ports}: "
            f"short by {s.spine_ports_used - spine_ports} ports ({hint})")
    return s


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
    if spec.oversubscription <= 0:
        p.append(f"oversubscription must be positive (got {spec.oversubscription})")
    if spec.spine_planes not in SPINE_PLANE_MODES:
        p.append(f"spine planes must be one of {', '.join(SPINE_PLANE_MODES)} (got {spec.spine_planes})")
    if spec.scheme not in SCHEMES:
        p.append(f"addressing scheme must be one of {', '.join(SCHEMES)} (got {spec.scheme})")
    if spec.spine_asn_mode not in SPINE_ASN_MODES:
        p.append(f"spine ASN mode must be one of {', '.join(SPINE_ASN_MODES)} (got {spec.spine_asn_mode})")
