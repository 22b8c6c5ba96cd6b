"""Hardware catalog files: the bundled ``resources/catalog/*.yaml`` and users' own model files."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..model.hardware import Catalog, NicSpec, ServerModel, SwitchModel, parse_breakout
from ..model.ids import is_valid_device_id
from ..resources import resources_dir
from .yamlio import Context, field, only_keys, parse, read_text

_SWITCH_KEYS = {"id", "vendor", "description", "ports", "speed", "lanes", "breakouts", "port_name",
                "lane_base", "nos", "redirect_to_nexthop"}
_SERVER_KEYS = {"id", "vendor", "description", "gpus", "nics", "mgmt_interface", "gid_index"}
_NIC_KEYS = {"index", "netdev", "rdma", "speed", "gpus", "fabric_plane"}


def parse_switch_model(ctx: Context, raw, path: tuple, builtin: bool) -> SwitchModel:
    if not isinstance(raw, dict):
        ctx.fail(path, "a switch model should be a mapping with id, ports, speed, lanes, breakouts")
    only_keys(ctx, raw, _SWITCH_KEYS, path)
    model_id = field(ctx, raw, "id", path, str)
    if not is_valid_device_id(model_id):
        ctx.fail(path + ("id",), f"'{model_id}' is not a usable model id (letters, digits, hyphens)")
    ports = field(ctx, raw, "ports", path, int)
    speed = field(ctx, raw, "speed", path, int)
    lanes = field(ctx, raw, "lanes", path, int)
    if ports < 1 or speed < 1 or lanes < 1:
        ctx.fail(path, "ports, speed and lanes must be positive")
    modes = field(ctx, raw, "breakouts", path, list, default=[f"1x{speed}G"])
    for i, mode in enumerate(modes):
        try:
            count, sub_speed = parse_breakout(str(mode))
        except ValueError as exc:
            ctx.fail(path + ("breakouts", i), str(exc))
        if lanes % count or count * sub_speed > speed:
            ctx.fail(path + ("breakouts", i),
                     f"{mode} does not fit a {speed}G cage of {lanes} lanes")
    native = f"1x{speed}G"
    modes = [native] + [m for m in modes if m != native]
    pattern = field(ctx, raw, "port_name", path, str, default="Ethernet{lane}")
    try:
        pattern.format(port=1, sub=0, sub1=1, lane=0)
    except (KeyError, IndexError, ValueError):
        ctx.fail(path + ("port_name",), f"'{pattern}' may use only {{port}}, {{sub}}, {{sub1}} and {{lane}}")
    return SwitchModel(
        id=model_id, vendor=field(ctx, raw, "vendor", path, str, default=""),
        description=field(ctx, raw, "description", path, str, default=""),
        ports=ports, speed=speed, lanes=lanes, breakouts=tuple(modes), port_name=pattern,
        lane_base=field(ctx, raw, "lane_base", path, int, default=0),
        nos=field(ctx, raw, "nos", path, str, default="sonic"),
        redirect_to_nexthop=field(ctx, raw, "redirect_to_nexthop", path, bool, default=True),
        builtin=builtin)


def parse_server_model(ctx: Context, raw, path: tuple, builtin: bool) -> ServerModel:
    if not isinstance(raw, dict):
        ctx.fail(path, "a server model should be a mapping with id, gpus and nics")
    only_keys(ctx, raw, _SERVER_KEYS, path)
    model_id = field(ctx, raw, "id", path, str)
    if not is_valid_device_id(model_id):
        ctx.fail(path + ("id",), f"'{model_id}' is not a usable model id (letters, digits, hyphens)")
    gpus = field(ctx, raw, "gpus", path, int)
    nics = []
    for i, nic in enumerate(field(ctx, raw, "nics", path, list)):
        npath = path + ("nics", i)
        if not isinstance(nic, dict):
            ctx.fail(npath, "a NIC should be a mapping with index, netdev, rdma, speed, gpus")
        only_keys(ctx, nic, _NIC_KEYS, npath)
        affinity = tuple(field(ctx, nic, "gpus", npath, list, default=[]))
        if any(not isinstance(g, int) or not 0 <= g < gpus for g in affinity):
            ctx.fail(npath + ("gpus",), f"GPU numbers must be whole numbers from 0 to {gpus - 1}")
        nics.append(NicSpec(
            index=field(ctx, nic, "index", npath, int, default=i),
            netdev=field(ctx, nic, "netdev", npath, str, default=f"eth{i}"),
            rdma=field(ctx, nic, "rdma", npath, str, default=f"mlx5_{i}"),
            speed=field(ctx, nic, "speed", npath, int), gpus=affinity,
            fabric_plane=_nic_plane(ctx, nic, npath)))
    if not nics:
        ctx.fail(path + ("nics",), "a server model needs at least one rail NIC")
    if len({n.index for n in nics}) != len(nics):
        ctx.fail(path + ("nics",), "two NICs have the same index")
    planes = {n.fabric_plane for n in nics}
    if planes != set(range(len(planes))):
        ctx.fail(path + ("nics",), f"NIC ports go to planes {', '.join(map(str, sorted(planes)))}: number the "
                 "planes from 0 without gaps")
    return ServerModel(
        id=model_id, vendor=field(ctx, raw, "vendor", path, str, default=""),
        description=field(ctx, raw, "description", path, str, default=""), gpus=gpus, nics=tuple(nics),
        mgmt_interface=field(ctx, raw, "mgmt_interface", path, str, default="eno1"),
        gid_index=field(ctx, raw, "gid_index", path, int, default=3), builtin=builtin)


def _nic_plane(ctx: Context, nic: dict, path: tuple) -> int:
    plane = field(ctx, nic, "fabric_plane", path, int, default=0)
    if plane < 0 or plane > 7:
        ctx.fail(path + ("fabric_plane",), f"a NIC port's plane is a number from 0 to 7, not {plane}")
    return plane


def parse_catalog(ctx: Context, raw, path: tuple, builtin: bool) -> Catalog:
    if not isinstance(raw, dict):
        ctx.fail(path, "a catalog should be a mapping with switch_models and/or server_models")
    only_keys(ctx, raw, {"switch_models", "server_models"}, path)
    catalog = Catalog()
    for i, item in enumerate(field(ctx, raw, "switch_models", path, list, default=[])):
        model = parse_switch_model(ctx, item, path + ("switch_models", i), builtin)
        if model.id in catalog.switches:
            ctx.fail(path + ("switch_models", i, "id"), f"switch model '{model.id}' is defined twice")
        catalog.switches[model.id] = model
    for i, item in enumerate(field(ctx, raw, "server_models", path, list, default=[])):
        model = parse_server_model(ctx, item, path + ("server_models", i), builtin)
        if model.id in catalog.servers:
            ctx.fail(path + ("server_models", i, "id"), f"server model '{model.id}' is defined twice")
        catalog.servers[model.id] = model
    return catalog


def load_catalog_file(path: Path, builtin: bool = False) -> Catalog:
    text = read_text(path)
    ctx = Context(str(path), text)
    return parse_catalog(ctx, parse(text, str(path)) or {}, (), builtin)


@lru_cache(maxsize=1)
def _builtin() -> Catalog:
    catalog = Catalog()
    for file in sorted((resources_dir() / "catalog").glob("*.yaml")):
        catalog = catalog.merged(load_catalog_file(file, builtin=True))
    return catalog


def builtin_catalog() -> Catalog:
    """The bundled models (a fresh copy: callers may add their own)."""
    base = _builtin()
    return Catalog(dict(base.switches), dict(base.servers))


def catalog_with(user_files: list[Path] | tuple = ()) -> Catalog:
    catalog = builtin_catalog()
    for file in user_files:
        catalog = catalog.merged(load_catalog_file(Path(file)))
    return catalog


def catalog_document(catalog: Catalog, switch_ids, server_ids) -> dict:
    """The catalog entries for the given models, as plain data (for embedding in a design file)."""
    doc: dict = {}
    if switch_ids:
        doc["switch_models"] = [_switch_doc(catalog.switches[i]) for i in sorted(switch_ids)]
    if server_ids:
        doc["server_models"] = [_server_doc(catalog.servers[i]) for i in sorted(server_ids)]
    return doc


def _switch_doc(m: SwitchModel) -> dict:
    return {"id": m.id, "vendor": m.vendor, "description": m.description, "ports": m.ports,
            "speed": m.speed, "lanes": m.lanes, "breakouts": list(m.breakouts), "port_name": m.port_name,
            "lane_base": m.lane_base, "nos": m.nos, "redirect_to_nexthop": m.redirect_to_nexthop}


def _server_doc(m: ServerModel) -> dict:
    return {"id": m.id, "vendor": m.vendor, "description": m.description, "gpus": m.gpus,
            "mgmt_interface": m.mgmt_interface, "gid_index": m.gid_index,
            "nics": [_nic_doc(n) for n in m.nics]}


def _nic_doc(n: NicSpec) -> dict:
    doc = {"index": n.index, "netdev": n.netdev, "rdma": n.rdma, "speed": n.speed, "gpus": list(n.gpus)}
    if n.fabric_plane:
        doc["fabric_plane"] = n.fabric_plane
    return doc
