"""Build a fully wired fabric from a `BuildSpec`.

Ids: servers ``su1-srv07``; leaves ``su1-leaf-r3``; spines ``spine-04`` (``p3-spine-04`` with spine
planes per rail, ``sg2-spine-04`` in spine group 2 of a three-tier design); cores ``cg4-core-1``
(core group 4). In a multi-plane design every switch id starts with its plane, ``pl1-``.
"""

from __future__ import annotations

from ..model.entities import AddressingSettings, AsnSettings, DesignSettings, LoadBalancing, Nic, Role, Server, Switch
from ..model.fabric import Fabric
from ..model.floor import FloorSettings, settings_problems as floor_settings_problems
from ..model.gcpause import collector_paused
from ..model.limits import excerpt
from ..model.hardware import Catalog
from ..model.ids import endpoint
from ..model.validate import settings_problems
from .addressing import assign_addresses
from .errors import PlanningError
from .spec import BuildSpec, Sizing, is_planned, size


def settings_from(spec: BuildSpec, sizing: Sizing | None = None) -> DesignSettings:
    return DesignSettings(
        name=spec.name, description=spec.description, max_oversubscription=spec.oversubscription,
        spine_planes=spec.spine_planes, max_spine_oversubscription=spec.spine_oversubscription,
        fabric_planes=sizing.fabric_planes if sizing is not None else spec.fabric_planes or 1,
        core_asn=spec.core_asn, fabric_kind=spec.fabric_kind, load_balancing=LoadBalancing(spec.load_balancing, spec.qps),
        addressing=AddressingSettings(spec.scheme, spec.rail_supernet, spec.rail_prefix, spec.fabric_pool,
                                      spec.loopback_pool, spec.mtu),
        asn=AsnSettings(spec.leaf_asn_base, spec.spine_asn_base, spec.spine_asn_mode))


def problems_of(spec: BuildSpec, sizing: Sizing) -> list[str]:
    """Every reason ``spec`` cannot be built: its sizing's shortfalls, then its settings' problems."""
    settings = settings_from(spec, sizing)
    return sizing.problems + [f"{'.'.join(map(str, path[-1:]))}: {problem}"
                              for path, problem in settings_problems(settings)] + floor_problems(spec)


FLOORS = ("none", "superpod")


def floor_problems(spec: BuildSpec) -> list[str]:
    """What is wrong with the spec's floor parameters."""
    if spec.floor not in FLOORS:
        return [f"floor: {excerpt(spec.floor)} is not one of: {', '.join(FLOORS)}"]
    return [f"{name}: {problem}" for name, problem in floor_settings_problems(floor_settings(spec))]


def floor_settings(spec: BuildSpec) -> FloorSettings:
    return FloorSettings(servers_per_rack=spec.servers_per_rack, compute_rack_kw=spec.rack_power_kw)


def _with_floor(spec: BuildSpec, fabric: Fabric) -> Fabric:
    if spec.floor == "superpod":
        from .floor_layout import lay_out
        lay_out(fabric, floor_settings(spec))
    return fabric


def _width(count: int) -> int:
    return max(2, len(str(count)))


def _in_plane(fabric_plane: int | None, text: str) -> str:
    return text if fabric_plane is None else f"pl{fabric_plane}-{text}"


def server_id(su: int, number: int, width: int = 2) -> str:
    return f"su{su}-srv{number:0{width}d}"


def leaf_id(su: int, rail: int, fabric_plane: int | None = None) -> str:
    return _in_plane(fabric_plane, f"su{su}-leaf-r{rail}")


def spine_id(plane: int | None, number: int, width: int = 2, group: int | None = None,
             fabric_plane: int | None = None) -> str:
    text = f"spine-{number:0{width}d}" if plane is None else f"p{plane}-spine-{number:0{width}d}"
    return _in_plane(fabric_plane, text if group is None else f"sg{group}-{text}")


def core_id(group: int, number: int, width: int = 1, fabric_plane: int | None = None) -> str:
    return _in_plane(fabric_plane, f"cg{group}-core-{number:0{width}d}")


def make_server(catalog: Catalog, server_id_: str, model_id: str, su: int, rails: int | None = None,
                hostname: str | None = None, planes: int | None = None) -> Server:
    """A server of ``model_id`` whose first ``rails`` NICs in GPU-affinity order (in each of its first
    ``planes`` planes) carry rails 0..rails-1."""
    model = catalog.server(model_id)
    rail_of = model.rails_by_nic(rails, planes)
    nics = tuple(
        Nic(server_id_, n.index, n.netdev, n.rdma, n.speed, n.gpus, rail_of.get(n.index), n.fabric_plane)
        for n in sorted(model.nics, key=lambda n: n.index))
    return Server(server_id_, hostname or server_id_, model_id, su, nics, model.gpus)


@collector_paused()
def build(spec: BuildSpec, catalog: Catalog) -> Fabric:
    """A wired, addressed fabric; raises PlanningError listing every shortfall when it cannot work.

    A spec that plans for a final size (``final_sus``, ``final_servers_per_su``) is sized for it and
    holds its `GrowthPlan`: the SUs and servers built are exactly the final design's of those ids,
    cabled and addressed as the final design has them (`growth`)."""
    sizing = size(spec, catalog)
    problems = problems_of(spec, sizing)
    if problems:
        raise PlanningError(problems)
    settings = settings_from(spec, sizing)
    if is_planned(spec):
        from .growth import planned_design
        return _with_floor(spec, planned_design(spec, sizing, catalog))
    fabric = Fabric(catalog, settings)
    leaf_model = catalog.switch(spec.leaf_model)
    spine_model = catalog.switch(spec.spine_model or spec.leaf_model)
    multi = sizing.fabric_planes > 1
    with fabric.batch():
        leaves = {}
        for plane in range(sizing.fabric_planes):
            leaves.update(_add_leaves(fabric, spec, sizing, leaf_model, plane if multi else None))
        _add_servers(fabric, spec, sizing, leaves, multi)
        for plane in range(sizing.fabric_planes if sizing.spines else 0):
            label = plane if multi else None
            plane_leaves = {key: ports for key, ports in leaves.items() if key[0] == plane}
            if sizing.tiers == 3:
                from .core_build import add_three_tiers    # the third tier reuses this module's helpers
                add_three_tiers(fabric, spec, sizing, plane_leaves, leaf_model, spine_model, label)
            else:
                _add_spines_and_uplinks(fabric, spec, sizing, plane_leaves, leaf_model, spine_model, label)
        assign_addresses(fabric)
    return _with_floor(spec, fabric)


def _add_leaves(fabric, spec, sizing, model, fabric_plane) -> dict[tuple[int, int, int], list[str]]:
    """Add a plane's leaves; returns (plane, su, rail) -> the leaf's downlink port names in cabling order."""
    down_cages = range(1, sizing.downlink_cages + 1)
    up_cages = range(model.ports - sizing.uplink_cages + 1, model.ports + 1)
    breakouts = tuple((c, sizing.downlink_mode) for c in down_cages if sizing.downlink_mode != model.native_mode)
    breakouts += tuple((c, sizing.uplink_mode) for c in up_cages if sizing.uplink_mode != model.native_mode)
    downlinks = [p.name for c in down_cages for p in model.cage_ports(c, sizing.downlink_mode)]
    group_of = (lambda su: (su - 1) // sizing.sus_per_group + 1) if sizing.tiers == 3 else (lambda su: None)
    leaves = {}
    for su in range(1, spec.sus + 1):
        for rail in range(sizing.rails):
            lid = leaf_id(su, rail, fabric_plane)
            fabric.add_switch(Switch(lid, lid, Role.LEAF, model.id, su=su, rail=rail,
                                     breakouts=tuple(sorted(breakouts)), group=group_of(su),
                                     fabric_plane=fabric_plane or 0))
            leaves[(fabric_plane or 0, su, rail)] = downlinks
    return leaves


def _add_servers(fabric, spec, sizing, leaves, multi: bool) -> None:
    width = _width(spec.servers_per_su)
    for su in range(1, spec.sus + 1):
        for i in range(spec.servers_per_su):
            server = make_server(fabric.catalog, server_id(su, i + 1, width), spec.server_model, su, sizing.rails,
                                 planes=sizing.fabric_planes)
            fabric.add_server(server)
            for nic in server.nics:
                if nic.rail is not None:
                    key = (nic.fabric_plane, su, nic.rail)
                    lid = leaf_id(su, nic.rail, nic.fabric_plane if multi else None)
                    fabric.connect(nic.id, endpoint(lid, leaves[key][i]))


def uplink_ports(model, cages: int, mode: str, count: int) -> list[str]:
    """The first ``count`` port names of a switch's top ``cages`` cages (uplinks sit at the top)."""
    return [p.name for c in range(model.ports - cages + 1, model.ports + 1) for p in model.cage_ports(c, mode)][:count]


def mesh(fabric, lower: list[str], ports: list[str], upper: list[str], upper_ports: list[str],
         next_port: dict[str, int] | None = None) -> None:
    """Cable each of ``lower``'s ``ports`` round-robin to ``upper`` (device n starts at switch n * len(ports)),
    each upper switch taking its ``upper_ports`` in order (from ``next_port``, kept across calls if given)."""
    next_port = {} if next_port is None else next_port
    count = len(upper)
    for n, device in enumerate(lower):
        for j, port in enumerate(ports):
            target = upper[(j + n * len(ports)) % count]
            taken = next_port.get(target, 0)
            fabric.connect(endpoint(device, port), endpoint(target, upper_ports[taken]))
            next_port[target] = taken + 1


def _add_spines_and_uplinks(fabric, spec, sizing, leaves, leaf_model, spine_model, fabric_plane) -> None:
    width = _width(sizing.spines_per_plane)
    uplinks = uplink_ports(leaf_model, sizing.uplink_cages, sizing.uplink_mode, sizing.leaf_uplinks)
    spine_cages = range(1, sizing.spine_cages + 1)
    spine_ports = [p.name for c in spine_cages for p in spine_model.cage_ports(c, sizing.spine_mode)]
    breakouts = tuple((c, sizing.spine_mode) for c in spine_cages if sizing.spine_mode != spine_model.native_mode)
    per_rail = spec.spine_planes == "per-rail"
    for plane in range(sizing.planes):
        plane_id = plane if per_rail else None
        spines = [spine_id(plane_id, j + 1, width, fabric_plane=fabric_plane) for j in range(sizing.spines_per_plane)]
        for sid in spines:
            fabric.add_switch(Switch(sid, sid, Role.SPINE, spine_model.id, plane=plane_id, breakouts=breakouts,
                                     fabric_plane=fabric_plane or 0))
        plane_leaves = [leaf_id(su, rail, fabric_plane) for (_, su, rail) in sorted(leaves)
                        if not per_rail or rail == plane]
        mesh(fabric, plane_leaves, uplinks, spines, spine_ports)
