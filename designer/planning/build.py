"""Build a fully wired fabric from a `BuildSpec`."""

from __future__ import annotations

from ..model.entities import AddressingSettings, AsnSettings, DesignSettings, Nic, Role, Server, Switch
from ..model.fabric import Fabric
from ..model.hardware import Catalog
from ..model.ids import endpoint
from ..model.validate import settings_problems
from .addressing import assign_addresses
from .errors import PlanningError
from .spec import BuildSpec, size


def settings_from(spec: BuildSpec) -> DesignSettings:
    return DesignSettings(
        name=spec.name, description=spec.description, max_oversubscription=spec.oversubscription,
        spine_planes=spec.spine_planes,
        addressing=AddressingSettings(spec.scheme, spec.rail_supernet, spec.rail_prefix, spec.fabric_pool,
                                      spec.loopback_pool, spec.mtu),
        asn=AsnSettings(spec.leaf_asn_base, spec.spine_asn_base, spec.spine_asn_mode))


def _width(count: int) -> int:
    return max(2, len(str(count)))


def server_id(su: int, number: int, width: int = 2) -> str:
    return f"su{su}-srv{number:0{width}d}"


def leaf_id(su: int, rail: int) -> str:
    return f"su{su}-leaf-r{rail}"


def spine_id(plane: int | None, number: int, width: int = 2) -> str:
    return f"spine-{number:0{width}d}" if plane is None else f"p{plane}-spine-{number:0{width}d}"


def make_server(catalog: Catalog, server_id_: str, model_id: str, su: int, rails: int | None = None,
                hostname: str | None = None) -> Server:
    """A server of ``model_id`` whose first ``rails`` NICs in GPU-affinity order carry rails 0..rails-1."""
    model = catalog.server(model_id)
    rail_of = model.rails_by_nic(rails)
    nics = tuple(
        Nic(server_id_, n.index, n.netdev, n.rdma, n.speed, n.gpus, rail_of.get(n.index))
        for n in sorted(model.nics, key=lambda n: n.index))
    return Server(server_id_, hostname or server_id_, model_id, su, nics, model.gpus)


def build(spec: BuildSpec, catalog: Catalog) -> Fabric:
    """A wired, addressed fabric; raises PlanningError listing every shortfall when it cannot work."""
    sizing = size(spec, catalog)
    settings = [f"{'.'.join(map(str, path[-1:]))}: {problem}" for path, problem in settings_problems(settings_from(spec))]
    if sizing.problems or settings:
        raise PlanningError(sizing.problems + settings)
    fabric = Fabric(catalog, settings_from(spec))
    leaf_model = catalog.switch(spec.leaf_model)
    spine_model = catalog.switch(spec.spine_model or spec.leaf_model)
    with fabric.batch():
        leaves = _add_leaves(fabric, spec, sizing, leaf_model)
        _add_servers(fabric, spec, sizing, leaves)
        if sizing.spines:
            _add_spines_and_uplinks(fabric, spec, sizing, leaves, leaf_model, spine_model)
        assign_addresses(fabric)
    return fabric


def _add_leaves(fabric, spec, sizing, model) -> dict[tuple[int, int], list[str]]:
    """Add every leaf; returns (su, rail) -> its downlink port names in cabling order."""
    down_cages = range(1, sizing.downlink_cages + 1)
    up_cages = range(model.ports - sizing.uplink_cages + 1, model.ports + 1)
    breakouts = tuple((c, sizing.downlink_mode) for c in down_cages if sizing.downlink_mode != model.native_mode)
    breakouts += tuple((c, sizing.uplink_mode) for c in up_cages if sizing.uplink_mode != model.native_mode)
    downlinks = [p.name for c in down_cages for p in model.cage_ports(c, sizing.downlink_mode)]
    leaves = {}
    for su in range(1, spec.sus + 1):
        for rail in range(sizing.rails):
            lid = leaf_id(su, rail)
            fabric.add_switch(Switch(lid, lid, Role.LEAF, model.id, su=su, rail=rail,
                                     breakouts=tuple(sorted(breakouts))))
            leaves[(su, rail)] = downlinks
    return leaves


def _add_servers(fabric, spec, sizing, leaves) -> None:
    width = _width(spec.servers_per_su)
    for su in range(1, spec.sus + 1):
        for i in range(spec.servers_per_su):
            server = make_server(fabric.catalog, server_id(su, i + 1, width), spec.server_model, su, sizing.rails)
            fabric.add_server(server)
            for nic in server.nics:
                if nic.rail is not None:
                    fabric.connect(nic.id, endpoint(leaf_id(su, nic.rail), leaves[(su, nic.rail)][i]))


def _add_spines_and_uplinks(fabric, spec, sizing, leaves, leaf_model, spine_model) -> None:
    width = _width(sizing.spines_per_plane)
    up_cages = range(leaf_model.ports - sizing.uplink_cages + 1, leaf_model.ports + 1)
    uplinks = [p.name for c in up_cages for p in leaf_model.cage_ports(c, sizing.uplink_mode)][: sizing.leaf_uplinks]
    spine_cages = range(1, sizing.spine_cages + 1)
    spine_ports = [p.name for c in spine_cages for p in spine_model.cage_ports(c, sizing.spine_mode)]
    breakouts = tuple((c, sizing.spine_mode) for c in spine_cages if sizing.spine_mode != spine_model.native_mode)
    per_rail = spec.spine_planes == "per-rail"
    for plane in range(sizing.planes):
        plane_id = plane if per_rail else None
        spines = [spine_id(plane_id, j + 1, width) for j in range(sizing.spines_per_plane)]
        for sid in spines:
            fabric.add_switch(Switch(sid, sid, Role.SPINE, spine_model.id, plane=plane_id, breakouts=breakouts))
        next_port = dict.fromkeys(spines, 0)
        plane_leaves = [key for key in sorted(leaves) if not per_rail or key[1] == plane]
        count = len(spines)
        for n, (su, rail) in enumerate(plane_leaves):
            lid = leaf_id(su, rail)
            for j, port in enumerate(uplinks):
                sid = spines[(j + n * len(uplinks)) % count]
                fabric.connect(endpoint(lid, port), endpoint(sid, spine_ports[next_port[sid]]))
                next_port[sid] += 1
