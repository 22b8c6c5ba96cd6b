"""The design file (``*.fabric.yaml``): versioned, canonical, atomically saved.

Layout (format_version 1), in this order:
  format_version, name, description, settings, models (only the catalog models the design
  uses that are not bundled), rails, sus, floor (only in a design that has one: `floor_file`),
  switches, servers (NIC fields only where they differ from the server model), then three *tables*:
  links, asns, addresses, and a fourth, media, only when a cable's media was chosen by hand.
Three-tier and multi-plane keys (a switch's ``group`` and ``fabric_plane``, the settings
``max_spine_oversubscription``, ``fabric_planes``, ``fabric_kind``, ``load_balancing`` and ``asn.core_asn``) and the
ECN / PFC watchdog overrides (``settings.lossless``, `lossless_file`) are written
only when set or not at their defaults, so two-tier, one-plane designs read and write as before.

A table is a YAML literal block with one record per line, words separated by spaces:
  links:      ``<endpoint> -- <endpoint>``
  asns:       ``<switch id> <asn> [pinned]``
  addresses:  ``<key> <a.b.c.d/len> [pinned]``
  media:      ``<cable id> <media id>``
Tables keep a 50,000-cable design quick to load and save and read well in a diff.
Everything is written in natural id order, so an unchanged design saves to identical bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..model.entities import (ETHERNET, FABRIC_KINDS, SCHEMES, SPINE_ASN_MODES, SPINE_PLANE_MODES,
                              AddressingSettings, AsnSettings, DesignSettings, Nic, Role, Server, Switch)
from ..model.errors import ModelError
from ..model.fabric import Fabric, asn_key
from ..model.floor import floor_dict
from ..model.gcpause import collector_paused
from ..model.hardware import Catalog, breakout_runs, cage_range
from ..model.ids import natural_key
from ..model.limits import MAX_CAGES, MAX_DESIGN_BYTES, MAX_LINKS, MAX_SERVERS, MAX_SWITCHES, excerpt
from ..model.validate import (GID_RANGE, GROUP_RANGE, PLANE_RANGE, POSITION_RANGE, RAIL_RANGE, SU_RANGE,
                              settings_problems)
from .floor_file import read_floor
from .catalog_file import builtin_catalog, catalog_document, catalog_with, parse_catalog
from .plan_settings import KEYS as PLAN_KEYS, read_plan_settings, write_plan_settings
from .records import read as read_document, write as write_document
from .atomic import RefusedWrite, write_atomic, write_problem
from .yamlio import Context, FileFormatError, field, only_keys, read_text

FORMAT_VERSION = 1
LINK_SEPARATOR = " -- "
PINNED = "pinned"
_TOP_KEYS = {"format_version", "name", "description", "settings", "models", "rails", "sus", "floor", "switches",
             "servers", "links", "asns", "addresses", "media"}
_TABLES = ("links", "asns", "addresses")
_NAME = 255                            # characters of an interface or device name the file may hold
_ASN = re.compile(r"^[0-9]{1,10}\Z")    # ASCII digits only: str.isdigit() also accepts '²'


# ---------------------------------------------------------------------------------------- writing
def to_document(fabric: Fabric) -> dict:
    s = fabric.settings
    a, asn = s.addressing, s.asn
    custom_switch = {sw.model for sw in fabric.switches.values() if not fabric.catalog.switch(sw.model).builtin}
    custom_server = {sv.model for sv in fabric.servers.values() if not fabric.catalog.server(sv.model).builtin}
    doc: dict = {
        "format_version": FORMAT_VERSION,
        "name": s.name,
        "description": s.description,
        "settings": {
            "max_oversubscription": s.max_oversubscription,
            "spine_planes": s.spine_planes,
            "addressing": {"scheme": a.scheme, "rail_supernet": a.rail_supernet, "rail_prefix": a.rail_prefix,
                           "fabric_pool": a.fabric_pool, "loopback_pool": a.loopback_pool, "mtu": a.mtu},
            "asn": {"leaf_base": asn.leaf_base, "spine_base": asn.spine_base, "spine_mode": asn.spine_mode},
        },
    }
    _write_tier_settings(doc["settings"], s)
    models = catalog_document(fabric.catalog, custom_switch, custom_server)
    if models:
        doc["models"] = models
    doc["rails"] = [{"index": r.index, "name": r.name} for _, r in sorted(fabric.rails.items())]
    doc["sus"] = [{"index": u.index, "name": u.name} for _, u in sorted(fabric.sus.items())]
    if fabric.floor is not None:
        doc["floor"] = floor_dict(fabric.floor)
    doc["switches"] = [_switch_doc(sw) for sw in sorted(fabric.switches.values(), key=lambda x: natural_key(x.id))]
    doc["servers"] = [_server_doc(fabric, sv) for sv in fabric.sorted_servers()]
    return doc


def _write_tier_settings(doc: dict, s: DesignSettings) -> None:
    """The third-tier and multi-plane settings, only where they differ from the defaults (so a design
    without them is written exactly as before they existed)."""
    d = DesignSettings()
    for key in ("max_spine_oversubscription", "fabric_planes"):
        if getattr(s, key) != getattr(d, key):
            doc[key] = getattr(s, key)
    if s.core_asn != d.core_asn:
        doc["asn"]["core_asn"] = s.core_asn
    if s.fabric_kind != d.fabric_kind:
        doc["fabric_kind"] = s.fabric_kind
    write_plan_settings(doc, s)


def tables(fabric: Fabric) -> dict[str, list[str]]:
    """The design's table sections, one record per line."""
    pinned, asns, addresses = fabric.pinned, fabric.asns, fabric.addresses
    flag = f" {PINNED}"
    return {
        "links": [f"{l.a}{LINK_SEPARATOR}{l.b}" for l in fabric.sorted_links()],
        "asns": [f"{k} {asns[k]}{flag if asn_key(k) in pinned else ''}" for k in sorted(asns, key=natural_key)],
        "addresses": [f"{k} {addresses[k]}{flag}" if k in pinned else f"{k} {addresses[k]}"
                      for k in sorted(addresses, key=natural_key)],
    }


def _switch_doc(sw: Switch) -> dict:
    out = {"id": sw.id, "hostname": sw.hostname, "role": sw.role.value, "model": sw.model}
    for key in ("su", "rail", "plane", "group"):
        value = getattr(sw, key)
        if value is not None:
            out[key] = value
    if sw.fabric_plane:
        out["fabric_plane"] = sw.fabric_plane
    if sw.rack is not None:
        out["rack"] = sw.rack
    if sw.position is not None:
        out["position"] = sw.position
    if sw.breakouts:
        out["breakouts"] = dict(breakout_runs(sw.breakouts))
    return out


def _server_doc(fabric: Fabric, sv: Server) -> dict:
    out = {"id": sv.id, "hostname": sv.hostname, "model": sv.model, "su": sv.su}
    if sv.rack is not None:
        out["rack"] = sv.rack
    if sv.position is not None:
        out["position"] = sv.position
    if sv.gid_index is not None:
        out["gid_index"] = sv.gid_index
    model = fabric.catalog.server(sv.model)
    default_rail = model.rails_by_nic(len(fabric.rails) or None, fabric.settings.fabric_planes)
    overrides = {}
    for nic in sv.nics:
        spec = model.nic(nic.index)
        diff = {}
        if nic.rail != default_rail.get(nic.index):
            diff["rail"] = nic.rail
        if nic.netdev != spec.netdev:
            diff["netdev"] = nic.netdev
        if nic.rdma != spec.rdma:
            diff["rdma"] = nic.rdma
        if diff:
            overrides[nic.port] = diff
    if overrides:
        out["nics"] = overrides
    return out


@collector_paused()
def dumps(fabric: Fabric) -> str:
    parts = [write_document(to_document(fabric))]
    for name, lines in tables(fabric).items():
        if lines:
            parts.append(f"{name}: |\n  " + "\n  ".join(lines) + "\n")
        else:
            parts.append(f"{name}: ''\n")
    media = fabric.media_overrides
    if media:                                  # only a design with overrides has the table
        parts.append("media: |\n  " + "\n  ".join(f"{k} {media[k]}" for k in sorted(media, key=natural_key)) + "\n")
    return "".join(parts)


def save(fabric: Fabric, path: Path, force: bool = False, verify: bool = False) -> list[Path]:
    """Write the design atomically (keeping the file's mode, owner and symlink; a read-only file only
    with ``force``); returns the leftovers of killed saves it removed. Raises FileFormatError (readable)
    if the file cannot be written, and with ``verify`` also when the text would not load again
    (importers use it: nothing is saved that a later command cannot open); SaveRefused, a kind of it, when
    only ``force`` would replace the file."""
    text = dumps(fabric)
    if verify:
        try:
            loads(text, str(path), fabric.catalog)
        except FileFormatError as exc:
            raise FileFormatError(str(path), f"was not written: the design would not load again ({exc.message})",
                                  exc.line, exc.field) from None
    try:
        return write_atomic(Path(path), text, force=force)
    except RefusedWrite as exc:
        raise SaveRefused(str(path), write_problem(exc), exc.reason) from None
    except OSError as exc:
        raise FileFormatError(str(path), write_problem(exc)) from None


class SaveRefused(FileFormatError):
    """The file is there and only a forced save would replace it (read-only, or an owner the save cannot
    keep); ``reason`` says which, for a window that asks its user instead of pointing at --force."""

    def __init__(self, file: str, message: str, reason: str):
        super().__init__(file, message)
        self.reason = reason


# ---------------------------------------------------------------------------------------- reading
def load(path: Path, extra_catalogs: list[Path] | tuple = ()) -> Fabric:
    path = Path(path)
    text = read_text(path, MAX_DESIGN_BYTES, "design file")
    return loads(text, str(path), catalog_with(extra_catalogs) if extra_catalogs else None)


@collector_paused()
def loads(text: str, file: str = "<design>", catalog: Catalog | None = None) -> Fabric:
    if len(text) > MAX_DESIGN_BYTES:
        raise FileFormatError(file, f"has {len(text):,} characters; a design file has at most {MAX_DESIGN_BYTES:,}")
    ctx = Context(file, text)
    raw = read_document(text, file)
    if not isinstance(raw, dict):
        raise FileFormatError(file, "is not a design file: expected a mapping with format_version, switches, "
                              "servers and links at the top")
    version = raw.get("format_version")
    if version is None:
        ctx.fail((), "the field 'format_version' is missing (is this a rail-designer design file?)")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        ctx.fail(("format_version",), f"should be a whole number, not {excerpt(version)}")
    if version > FORMAT_VERSION:
        ctx.fail(("format_version",), f"the file is format {version}, written by a newer rail-designer; "
                 f"this one reads up to format {FORMAT_VERSION}")
    only_keys(ctx, raw, _TOP_KEYS, ())
    catalog = catalog or builtin_catalog()
    if raw.get("models") is not None:
        catalog = catalog.merged(parse_catalog(ctx, raw["models"], ("models",), builtin=False))
    fabric = Fabric(catalog, _settings(ctx, raw))
    with fabric.batch():
        _read_rails_and_sus(ctx, raw, fabric)
        read_floor(ctx, raw, fabric)
        _read_switches(ctx, raw, fabric)
        _read_servers(ctx, raw, fabric)
        _read_links(ctx, raw, fabric)
        _read_plan(ctx, raw, fabric)
        _read_media(ctx, raw, fabric)
    return fabric


def _settings(ctx: Context, raw: dict) -> DesignSettings:
    s = field(ctx, raw, "settings", (), dict, default={})
    only_keys(ctx, s, {"max_oversubscription", "spine_planes", "addressing", "asn", "max_spine_oversubscription",
                       "fabric_planes", "fabric_kind", *PLAN_KEYS}, ("settings",))
    a = field(ctx, s, "addressing", ("settings",), dict, default={})
    p = ("settings", "addressing")
    only_keys(ctx, a, {"scheme", "rail_supernet", "rail_prefix", "fabric_pool", "loopback_pool", "mtu"}, p)
    d = AddressingSettings()
    addressing = AddressingSettings(
        scheme=field(ctx, a, "scheme", p, str, d.scheme, SCHEMES),
        rail_supernet=field(ctx, a, "rail_supernet", p, str, d.rail_supernet),
        rail_prefix=field(ctx, a, "rail_prefix", p, int, d.rail_prefix),
        fabric_pool=field(ctx, a, "fabric_pool", p, str, d.fabric_pool),
        loopback_pool=field(ctx, a, "loopback_pool", p, str, d.loopback_pool),
        mtu=field(ctx, a, "mtu", p, int, d.mtu))
    n = field(ctx, s, "asn", ("settings",), dict, default={})
    p = ("settings", "asn")
    only_keys(ctx, n, {"leaf_base", "spine_base", "spine_mode", "core_asn"}, p)
    dn = AsnSettings()
    asn = AsnSettings(field(ctx, n, "leaf_base", p, int, dn.leaf_base),
                      field(ctx, n, "spine_base", p, int, dn.spine_base),
                      field(ctx, n, "spine_mode", p, str, dn.spine_mode, SPINE_ASN_MODES))
    core_asn = field(ctx, n, "core_asn", p, int, DesignSettings().core_asn)
    planes = field(ctx, s, "fabric_planes", ("settings",), int, 1)
    settings = DesignSettings(
        name=str(field(ctx, raw, "name", (), (str, int), "fabric")),
        description=field(ctx, raw, "description", (), str, ""),
        max_oversubscription=field(ctx, s, "max_oversubscription", ("settings",), float, 1.0),
        spine_planes=field(ctx, s, "spine_planes", ("settings",), str, "shared", SPINE_PLANE_MODES),
        max_spine_oversubscription=field(ctx, s, "max_spine_oversubscription", ("settings",), float, 1.0),
        fabric_planes=planes, core_asn=core_asn, addressing=addressing, asn=asn,
        fabric_kind=field(ctx, s, "fabric_kind", ("settings",), str, ETHERNET, FABRIC_KINDS),
        **read_plan_settings(ctx, s))
    for path, problem in settings_problems(settings):
        ctx.fail(path, problem)
    return settings


def _items(ctx: Context, raw: dict, key: str, limit: int | None = None) -> list:
    items = field(ctx, raw, key, (), list, default=[])
    if limit is not None and len(items) > limit:
        ctx.fail((key,), f"lists {len(items):,} entries; a design has at most {limit:,}")
    return items


def _read_rails_and_sus(ctx, raw, fabric) -> None:
    for key, setter in (("rails", fabric.set_rail_name), ("sus", fabric.set_su_name)):
        for i, item in enumerate(_items(ctx, raw, key)):
            path = (key, i)
            if not isinstance(item, dict):
                ctx.fail(path, "should be a mapping with index and name")
            only_keys(ctx, item, {"index", "name"}, path)
            index = field(ctx, item, "index", path, int, bounds=RAIL_RANGE if key == "rails" else SU_RANGE)
            name = str(field(ctx, item, "name", path, (str, int)))
            try:
                setter(index, name)
            except ModelError as exc:
                ctx.fail(path, str(exc))


def _read_switches(ctx, raw, fabric) -> None:
    for i, item in enumerate(_items(ctx, raw, "switches", MAX_SWITCHES)):
        path = ("switches", i)
        if not isinstance(item, dict):
            ctx.fail(path, "a switch should be a mapping with id, role and model")
        only_keys(ctx, item, {"id", "hostname", "role", "model", "su", "rail", "plane", "breakouts", "group",
                              "fabric_plane", "rack", "position"}, path)
        sid = field(ctx, item, "id", path, str)
        role = Role(field(ctx, item, "role", path, str, choices=tuple(r.value for r in Role)))
        model = field(ctx, item, "model", path, str)
        if model not in fabric.catalog.switches:
            ctx.fail(path + ("model",), f"unknown switch model {excerpt(model)}; known: "
                     f"{', '.join(sorted(fabric.catalog.switches))} (or add it under 'models:')")
        breakouts = _expand_breakouts(ctx, field(ctx, item, "breakouts", path, dict, {}), path + ("breakouts",))
        switch = Switch(sid, str(field(ctx, item, "hostname", path, (str, int), sid)), role, model,
                        su=field(ctx, item, "su", path, int, None, bounds=SU_RANGE),
                        rail=field(ctx, item, "rail", path, int, None, bounds=RAIL_RANGE),
                        plane=field(ctx, item, "plane", path, int, None, bounds=RAIL_RANGE), breakouts=breakouts,
                        group=field(ctx, item, "group", path, int, None, bounds=GROUP_RANGE),
                        fabric_plane=field(ctx, item, "fabric_plane", path, int, 0, bounds=PLANE_RANGE),
                        rack=_opt_str(field(ctx, item, "rack", path, (str, int), None, max_len=_NAME)),
                        position=field(ctx, item, "position", path, int, None, bounds=POSITION_RANGE))
        try:
            fabric.add_switch(switch)
        except ModelError as exc:
            ctx.fail(path, str(exc))


def _expand_breakouts(ctx, raw: dict, path: tuple) -> tuple:
    if len(raw) > MAX_CAGES:
        ctx.fail(path, f"lists {len(raw):,} cage ranges; a switch has at most {MAX_CAGES:,} cages")
    out = {}
    for key, mode in raw.items():
        try:
            cages = cage_range(str(key))
        except ValueError as exc:
            ctx.fail(path + (key,), str(exc))
        for cage in cages:
            if cage in out:
                ctx.fail(path + (key,), f"cage {cage} is listed twice")
            out[cage] = mode if isinstance(mode, str) else str(mode)[:40]
    return tuple(sorted(out.items()))


def _read_servers(ctx, raw, fabric) -> None:
    rails, planes = len(fabric.rails) or None, fabric.settings.fabric_planes
    layouts: dict[str, tuple] = {}     # model id -> (NIC specs in index order, default rails, NIC names)
    for i, item in enumerate(_items(ctx, raw, "servers", MAX_SERVERS)):
        path = ("servers", i)
        if not isinstance(item, dict):
            ctx.fail(path, "a server should be a mapping with id, model and su")
        only_keys(ctx, item, {"id", "hostname", "model", "su", "rack", "position", "gid_index", "nics"}, path)
        sid = field(ctx, item, "id", path, str)
        model_id = field(ctx, item, "model", path, str)
        if model_id not in fabric.catalog.servers:
            ctx.fail(path + ("model",), f"unknown server model {excerpt(model_id)}; known: "
                     f"{', '.join(sorted(fabric.catalog.servers))} (or add it under 'models:')")
        model = fabric.catalog.server(model_id)
        if model_id not in layouts:
            layouts[model_id] = (sorted(model.nics, key=lambda n: n.index), model.rails_by_nic(rails, planes),
                                 {f"nic{n.index}" for n in model.nics})
        specs, default_rail, known = layouts[model_id]
        overrides = field(ctx, item, "nics", path, dict, {})
        nics = []
        for spec in specs:
            o = overrides.get(f"nic{spec.index}") if overrides else None
            if not o:          # as the model has it (the usual case)
                nics.append(Nic(sid, spec.index, spec.netdev, spec.rdma, spec.speed, spec.gpus,
                                default_rail.get(spec.index), spec.fabric_plane))
                continue
            npath = path + ("nics", f"nic{spec.index}")
            if not isinstance(o, dict):
                ctx.fail(npath, "should be a mapping of rail, netdev, rdma")
            only_keys(ctx, o, {"rail", "netdev", "rdma"}, npath)
            rail = o["rail"] if "rail" in o else default_rail.get(spec.index)
            if rail is not None and (not isinstance(rail, int) or isinstance(rail, bool)
                                     or not RAIL_RANGE[0] <= rail <= RAIL_RANGE[1]):
                ctx.fail(npath + ("rail",), f"a rail is a whole number from {RAIL_RANGE[0]} to {RAIL_RANGE[1]}, "
                         f"not {excerpt(rail)}")
            nics.append(Nic(sid, spec.index, field(ctx, o, "netdev", npath, str, spec.netdev, max_len=_NAME),
                            field(ctx, o, "rdma", npath, str, spec.rdma, max_len=_NAME), spec.speed, spec.gpus, rail,
                            spec.fabric_plane))
        for name in overrides:
            if name not in known:
                ctx.fail(path + ("nics", name), f"server model {model_id} has no NIC {excerpt(name)} "
                         f"(it has {', '.join(sorted(known, key=natural_key))})")
        server = Server(sid, str(field(ctx, item, "hostname", path, (str, int), sid)), model_id,
                        field(ctx, item, "su", path, int, bounds=SU_RANGE), tuple(nics), model.gpus,
                        rack=_opt_str(field(ctx, item, "rack", path, (str, int), None, max_len=_NAME)),
                        position=field(ctx, item, "position", path, int, None, bounds=POSITION_RANGE),
                        gid_index=field(ctx, item, "gid_index", path, int, None, bounds=GID_RANGE))
        try:
            fabric.add_server(server)
        except ModelError as exc:
            ctx.fail(path, str(exc))


def _opt_str(value) -> str | None:
    return None if value is None else str(value)


def _table(ctx: Context, raw: dict, name: str) -> list[tuple[int | None, list[str]]]:
    """(line number or None, words) for each non-blank record of a table section."""
    value = raw.get(name)
    if value is None or value == "":
        return []
    if not isinstance(value, str):
        ctx.fail((name,), f"should be a block of lines ('{name}: |' then one record per line), "
                 f"not {type(value).__name__}")
    match = re.search(rf"^{name}:", ctx.text, re.MULTILINE)   # a top-level key: no need to compose YAML
    lines = value.split("\n")
    if len(lines) > MAX_LINKS * 2:
        ctx.fail((name,), f"has {len(lines):,} lines; a design's tables have at most {MAX_LINKS * 2:,}")
    if not match:
        return [(None, words) for line in lines if (words := line.split())]
    first = ctx.text.count("\n", 0, match.start()) + 2        # the line after '<name>: |'
    return [(first + offset, words) for offset, line in enumerate(lines) if (words := line.split())]


def _table_fail(ctx: Context, name: str, line: int | None, message: str):
    raise FileFormatError(ctx.file, message, line, name)


def _pinned_flag(ctx, name, line, words, arity) -> bool:
    if len(words) == arity:
        return False
    if len(words) == arity + 1 and words[-1] == PINNED:
        return True
    _table_fail(ctx, name, line, f"{excerpt(' '.join(words))} should be {arity} words, optionally followed by 'pinned'")


def _read_links(ctx, raw, fabric) -> None:
    sep = LINK_SEPARATOR.strip()
    rows = _table(ctx, raw, "links")
    if len(rows) + len(fabric.links) > MAX_LINKS:
        _table_fail(ctx, "links", rows[MAX_LINKS - len(fabric.links)][0], f"a design has at most {MAX_LINKS:,} cables")
    connect = fabric.connect
    for line, words in rows:
        if len(words) != 3 or words[1] != sep:
            _table_fail(ctx, "links", line, f"a link should read 'device/port {sep} device/port', "
                        f"not {excerpt(' '.join(words))}")
        try:
            connect(words[0], words[2])
        except (ModelError, ValueError) as exc:
            _table_fail(ctx, "links", line, str(exc))


def _read_plan(ctx, raw, fabric) -> None:
    for line, words in _table(ctx, raw, "asns"):
        pinned = _pinned_flag(ctx, "asns", line, words, 2)
        if not _ASN.match(words[1]):
            _table_fail(ctx, "asns", line, f"the ASN of {excerpt(words[0])} should be a whole number from 1 to "
                        f"4294967294, not {excerpt(words[1])}")
        try:
            fabric.set_asn(words[0], int(words[1]), pinned=pinned)
        except ModelError as exc:
            _table_fail(ctx, "asns", line, str(exc))
    plain = _plain_addresses(raw.get("addresses"))
    if plain is not None:
        try:
            fabric.set_addresses(*plain)          # all at once, or nothing
            return
        except ModelError:
            pass                                  # the located pass below says where
    for line, words in _table(ctx, raw, "addresses"):
        pinned = _pinned_flag(ctx, "addresses", line, words, 2)
        try:
            fabric.set_address(words[0], words[1], pinned=pinned)
        except ModelError as exc:
            _table_fail(ctx, "addresses", line, str(exc))


def _read_media(ctx, raw, fabric) -> None:
    """The per-cable media overrides: ``<cable id> <media id>``."""
    for line, words in _table(ctx, raw, "media"):
        if len(words) != 2:
            _table_fail(ctx, "media", line, f"{excerpt(' '.join(words))} should be a cable id and a media id")
        try:
            fabric.set_media(words[0], words[1])
        except ModelError as exc:
            _table_fail(ctx, "media", line, str(exc))


def _plain_addresses(value) -> tuple[list[str], list[str], list[str]] | None:
    """(keys, addresses, pinned keys) of an address table whose every record is ``key address`` or
    ``key address pinned`` with no key twice, read in a few passes over the whole block (10^5 records
    at 4,096 servers); None for anything else, which the located line-by-line pass reads or refuses."""
    if not isinstance(value, str):
        return None
    lines = value.split("\n")
    if len(lines) > MAX_LINKS * 2:
        return None
    rows = list(map(str.split, lines))
    lengths = set(map(len, rows))
    if not lengths <= {0, 2, 3}:
        return None
    if 0 in lengths:
        rows = [row for row in rows if row]
    pinned = [row[0] for row in rows if len(row) == 3 and row[2] == PINNED] if 3 in lengths else []
    keys = [row[0] for row in rows]
    if (3 in lengths and len(pinned) != sum(len(row) == 3 for row in rows)) or len(set(keys)) != len(keys):
        return None                               # a third word that is not 'pinned', or a key twice
    return keys, [row[1] for row in rows], pinned
