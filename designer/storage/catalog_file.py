"""Hardware catalog files: the bundled ``resources/catalog/*.yaml`` and users' own model files."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..model.media import MediaCatalog
from ..model.hardware import Catalog, NicSpec, ServerModel, SwitchModel, parse_breakout, port_template
from ..model.ids import is_valid_device_id, is_valid_port_name
from ..model.limits import (MAX_CAGES, MAX_CATALOG_BYTES, MAX_GPUS, MAX_LANE_BASE, MAX_LANES, MAX_NIC_INDEX, MAX_NICS,
                            MAX_PORT_NAME, MAX_SPEED, excerpt)
from ..model.validate import GID_RANGE, PLANE_RANGE
from ..resources import resources_dir
from .yamlio import Context, field, only_keys, parse, read_text

_SWITCH_KEYS = {"id", "vendor", "description", "ports", "speed", "lanes", "breakouts", "port_name",
                "lane_base", "nos", "redirect_to_nexthop", "form_factor", "rack_units", "power_w", "weight_kg"}
_SERVER_KEYS = {"id", "vendor", "description", "gpus", "nics", "mgmt_interface", "gid_index", "nic_form_factor",
                "rack_units", "power_w", "weight_kg"}
_PHYSICAL = ("rack_units", "power_w", "weight_kg")
_NIC_KEYS = {"index", "netdev", "rdma", "speed", "gpus", "fabric_plane"}
_MAX_MODELS = 1_000
_NAME = 255


def parse_switch_model(ctx: Context, raw, path: tuple, builtin: bool) -> SwitchModel:
    if not isinstance(raw, dict):
        ctx.fail(path, "a switch model should be a mapping with id, ports, speed, lanes, breakouts")
    only_keys(ctx, raw, _SWITCH_KEYS, path)
    model_id = _model_id(ctx, raw, path)
    ports = field(ctx, raw, "ports", path, int, bounds=(1, MAX_CAGES))
    speed = field(ctx, raw, "speed", path, int, bounds=(1, MAX_SPEED))
    lanes = field(ctx, raw, "lanes", path, int, bounds=(1, MAX_LANES))
    modes = field(ctx, raw, "breakouts", path, list, default=[f"1x{speed}G"])
    if len(modes) > 16:
        ctx.fail(path + ("breakouts",), f"lists {len(modes)} modes; a switch model has at most 16")
    for i, mode in enumerate(modes):
        try:
            count, sub_speed = parse_breakout(str(mode))
        except ValueError as exc:
            ctx.fail(path + ("breakouts", i), str(exc))
        if lanes % count or count * sub_speed > speed:
            ctx.fail(path + ("breakouts", i),
                     f"{mode} does not fit a {speed}G cage of {lanes} lanes")
    native = f"1x{speed}G"
    modes = [native] + [str(m) for m in modes if m != native]
    pattern = field(ctx, raw, "port_name", path, str, default="Ethernet{lane}", max_len=MAX_PORT_NAME)
    try:
        port_template(pattern)
    except ValueError as exc:
        ctx.fail(path + ("port_name",), str(exc))
    model = SwitchModel(
        id=model_id, vendor=field(ctx, raw, "vendor", path, str, default=""),
        description=field(ctx, raw, "description", path, str, default=""),
        ports=ports, speed=speed, lanes=lanes, breakouts=tuple(modes), port_name=pattern,
        lane_base=field(ctx, raw, "lane_base", path, int, default=0, bounds=(0, MAX_LANE_BASE)),
        nos=field(ctx, raw, "nos", path, str, default="sonic", max_len=64),
        redirect_to_nexthop=field(ctx, raw, "redirect_to_nexthop", path, bool, default=True),
        builtin=builtin, form_factor=field(ctx, raw, "form_factor", path, str, default="", max_len=32),
        **_physical(ctx, raw, path, 1))
    problem = port_names_problem(model)
    if problem:
        ctx.fail(path + ("port_name",), problem)
    return model


def port_names_problem(model: SwitchModel) -> str | None:
    """What is wrong with the interface names the model's pattern gives, over every cage and mode:
    a name that is not a valid interface name, or one name for two different cages' ports."""
    owner: dict[str, int] = {}
    for cage in range(1, model.ports + 1):
        for mode in model.breakouts:
            names = [p.name for p in model.cage_ports(cage, mode)]
            if len(set(names)) != len(names):
                return (f"'{model.port_name}' gives the {mode} sub-ports of cage {cage} one name, {names[0]}; "
                        "add {sub} or {lane}")
            for name in names:
                if not is_valid_port_name(name):
                    return (f"'{model.port_name}' gives cage {cage} the name {excerpt(name)}, which is not an "
                            "interface name (a letter first, then letters, digits and _ . : / -, at most 63)")
                if owner.setdefault(name, cage) != cage:
                    return (f"'{model.port_name}' names a port of cage {owner[name]} and one of cage {cage} "
                            f"both {name}; add {{port}} or {{lane}} so every port's name is its own")
    return None


def _model_id(ctx: Context, raw: dict, path: tuple) -> str:
    model_id = field(ctx, raw, "id", path, str)
    if not is_valid_device_id(model_id):
        ctx.fail(path + ("id",), f"{excerpt(model_id)} is not a usable model id (letters, digits, hyphens)")
    return model_id


def parse_server_model(ctx: Context, raw, path: tuple, builtin: bool) -> ServerModel:
    if not isinstance(raw, dict):
        ctx.fail(path, "a server model should be a mapping with id, gpus and nics")
    only_keys(ctx, raw, _SERVER_KEYS, path)
    model_id = _model_id(ctx, raw, path)
    gpus = field(ctx, raw, "gpus", path, int, bounds=(0, MAX_GPUS))
    nics = []
    rows = field(ctx, raw, "nics", path, list)
    if len(rows) > MAX_NICS:
        ctx.fail(path + ("nics",), f"lists {len(rows):,} NICs; a server model has at most {MAX_NICS}")
    for i, nic in enumerate(rows):
        npath = path + ("nics", i)
        if not isinstance(nic, dict):
            ctx.fail(npath, "a NIC should be a mapping with index, netdev, rdma, speed, gpus")
        only_keys(ctx, nic, _NIC_KEYS, npath)
        affinity = tuple(field(ctx, nic, "gpus", npath, list, default=[]))
        if any(not isinstance(g, int) or isinstance(g, bool) or not 0 <= g < gpus for g in affinity) \
                or len(affinity) > gpus:
            ctx.fail(npath + ("gpus",), f"GPU numbers must be whole numbers from 0 to {gpus - 1}, each once")
        nics.append(NicSpec(
            index=field(ctx, nic, "index", npath, int, default=i, bounds=(0, MAX_NIC_INDEX)),
            netdev=field(ctx, nic, "netdev", npath, str, default=f"eth{i}", max_len=_NAME),
            rdma=field(ctx, nic, "rdma", npath, str, default=f"mlx5_{i}", max_len=_NAME),
            speed=field(ctx, nic, "speed", npath, int, bounds=(1, MAX_SPEED)), gpus=affinity,
            fabric_plane=field(ctx, nic, "fabric_plane", npath, int, default=0, bounds=PLANE_RANGE)))
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
        mgmt_interface=field(ctx, raw, "mgmt_interface", path, str, default="eno1", max_len=_NAME),
        gid_index=field(ctx, raw, "gid_index", path, int, default=3, bounds=GID_RANGE), builtin=builtin,
        nic_form_factor=field(ctx, raw, "nic_form_factor", path, str, default="", max_len=32),
        **_physical(ctx, raw, path, 4))


def _physical(ctx: Context, raw: dict, path: tuple, units: int) -> dict:
    """Height in rack units, power (W) and weight (kg) of a model (the latter two None when not given)."""
    return {"rack_units": field(ctx, raw, "rack_units", path, int, default=units, bounds=(1, 60)),
            "power_w": field(ctx, raw, "power_w", path, float, default=None, bounds=(0.0, 1e6)),
            "weight_kg": field(ctx, raw, "weight_kg", path, float, default=None, bounds=(0.0, 1e5))}


def _physical_doc(m, doc: dict, units: int, form_key: str) -> dict:
    """``doc`` with the physical keys a model sets away from their defaults (so older files stay as they were)."""
    if getattr(m, form_key):
        doc[form_key] = getattr(m, form_key)
    if m.rack_units != units:
        doc["rack_units"] = m.rack_units
    for key in ("power_w", "weight_kg"):
        if getattr(m, key) is not None:
            doc[key] = getattr(m, key)
    return doc


def _nic_plane(ctx: Context, nic: dict, path: tuple) -> int:
    plane = field(ctx, nic, "fabric_plane", path, int, default=0)
    if plane < 0 or plane > 7:
        ctx.fail(path + ("fabric_plane",), f"a NIC port's plane is a number from 0 to 7, not {plane}")
    return plane


def parse_catalog(ctx: Context, raw, path: tuple, builtin: bool) -> Catalog:
    if not isinstance(raw, dict):
        ctx.fail(path, "a catalog should be a mapping with switch_models and/or server_models")
    only_keys(ctx, raw, {"switch_models", "server_models", "media"}, path)
    catalog = Catalog()
    if raw.get("media") is not None:
        from .media_file import parse_media
        catalog.media = parse_media(ctx, raw["media"], path + ("media",))
    for key in ("switch_models", "server_models"):
        items = raw.get(key)
        if isinstance(items, list) and len(items) > _MAX_MODELS:
            ctx.fail(path + (key,), f"lists {len(items):,} models; a catalog has at most {_MAX_MODELS:,}")
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
    text = read_text(path, MAX_CATALOG_BYTES, "catalog file")
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
    return Catalog(dict(base.switches), dict(base.servers), base.media.merged(MediaCatalog()))


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
            "lane_base": m.lane_base, "nos": m.nos, "redirect_to_nexthop": m.redirect_to_nexthop} | \
        _physical_doc(m, {}, 1, "form_factor")


def _server_doc(m: ServerModel) -> dict:
    return {"id": m.id, "vendor": m.vendor, "description": m.description, "gpus": m.gpus,
            "mgmt_interface": m.mgmt_interface, "gid_index": m.gid_index,
            **_physical_doc(m, {}, 4, "nic_form_factor"), "nics": [_nic_doc(n) for n in m.nics]}


def _nic_doc(n: NicSpec) -> dict:
    doc = {"index": n.index, "netdev": n.netdev, "rdma": n.rdma, "speed": n.speed, "gpus": list(n.gpus)}
    if n.fabric_plane:
        doc["fabric_plane"] = n.fabric_plane
    return doc
