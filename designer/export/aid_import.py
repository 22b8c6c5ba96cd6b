"""Rebuild a design from an AID document: the inverse of `aid_data.aid_document`.

The document is parsed with bounds (`storage.jsonio`), checked against the AID schema and the
size limits (one message: where and what), its settings checked like a design file's
(`model.validate`), then replayed through the Fabric's own mutators, so every model rule applies
to imported data too. Addresses and ASNs are installed exactly as written, with their pins.
"""

from __future__ import annotations

import functools
from typing import Callable, NoReturn

from ..model.entities import AddressingSettings, AsnSettings, DesignSettings, Nic, Role, Server, Switch
from ..model.floor import SETTING_BOUNDS, FloorSettings, Rack, Row
from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.hardware import Catalog
from ..model.limits import MAX_LINKS, MAX_RAILS, MAX_SERVERS, MAX_SPEED, MAX_SU, MAX_SWITCHES, excerpt
from ..model.validate import settings_problems
from ..storage.jsonio import JsonInputError, parse_json
from ..storage.plan_settings import read_plan_settings
from ..storage.yamlio import Context, dotted
from .aid_data import KIND_KEY, parse_breakouts
from .aid_schema import aid_schema
from .errors import ExportError

# Rows per sheet: every device, NIC and port, cable, and address of the largest design.
_MAX_ROWS = {"devices": MAX_SERVERS + MAX_SWITCHES, "interfaces": 4 * MAX_LINKS, "links": MAX_LINKS,
             "ip_plan": 4 * MAX_LINKS}
_MAX_MESSAGE = 600


class AidError(ExportError):
    """An AID document that cannot be turned into a design; the message says where."""

    def __init__(self, message: str):
        if len(message) > _MAX_MESSAGE:       # a last guard: values are quoted through excerpt()
            message = message[: _MAX_MESSAGE - 3] + "..."
        super().__init__(message)


def _where(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "the document"


def validate(data) -> None:
    _check_sizes(data)
    errors = [] if _fast_check()(data) else _schema_errors(data)
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise AidError(f"{_where(first.absolute_path)}: {_schema_message(first)}{more}")
    for path, problem in settings_problems(_settings(data["design"])):
        raise AidError(f"design.{'.'.join(map(str, path[1:] if path[0] == 'settings' else path))}: {problem}")
    for key, top in (("rails", MAX_RAILS - 1), ("sus", MAX_SU)):
        for n, row in enumerate(data["design"][key]):
            if row["index"] > top:
                raise AidError(f"design.{key}[{n}].index: {row['index']} is out of range: use up to {top}")


# The only keywords the AID schema uses: each means the same in draft 7, which fastjsonschema compiles, as
# in the schema's draft 2020-12 (a test holds the schema to this list).
SAME_IN_DRAFT_7 = frozenset({"$schema", "$id", "title", "description", "type", "properties", "required",
                             "additionalProperties", "items", "enum", "const", "minimum", "maximum",
                             "exclusiveMinimum"})


@functools.cache
def _fast_check() -> Callable[[object], bool]:
    """True when the document passes the AID schema: the schema compiled to Python code (fastjsonschema),
    25x jsonschema's speed on the 250,000 rows of a 4,096-server AID. It only says yes or no."""
    import fastjsonschema
    compiled = fastjsonschema.compile({**aid_schema(), "$schema": "http://json-schema.org/draft-07/schema#"})

    def passes(data) -> bool:
        try:
            compiled(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True
    return passes


def _schema_errors(data) -> list:
    """jsonschema's errors, shallowest first: they say what is wrong where."""
    import jsonschema
    validator = jsonschema.Draft202012Validator(aid_schema())
    return sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))


def _check_sizes(data) -> None:
    """Row counts within the limits, before the schema walks every row."""
    if not isinstance(data, dict):
        return
    for sheet, limit in _MAX_ROWS.items():
        rows = data.get(sheet)
        if isinstance(rows, list) and len(rows) > limit:
            raise AidError(f"{sheet}: {len(rows):,} rows; an AID has at most {limit:,}")


def _schema_message(error) -> str:
    """jsonschema's message, unless it would quote a long value (it repeats the whole instance)."""
    if len(error.message) <= 160:
        return error.message
    if error.validator == "type":
        return f"{excerpt(error.instance)} is not of type {error.validator_value!r}"
    return f"{excerpt(error.instance)} fails the schema's '{error.validator}' rule"


class _HeaderContext(Context):
    """Reports a header key the design file's readers refuse as the AID's ``design.<key>`` path."""

    def __init__(self):
        super().__init__("", "")

    def fail(self, path: tuple, message: str) -> NoReturn:
        raise AidError(f"{dotted(('design',) + path[1:])}: {message}")


def _settings(design: dict) -> DesignSettings:
    asn = dict(design["asn"])
    default = DesignSettings()
    planned = read_plan_settings(_HeaderContext(), design)
    return DesignSettings(
        name=design["name"], description=design["description"],
        max_oversubscription=float(design["max_oversubscription"]), spine_planes=design["spine_planes"],
        max_spine_oversubscription=float(design.get("max_spine_oversubscription", default.max_spine_oversubscription)),
        fabric_planes=design.get("fabric_planes", default.fabric_planes),
        core_asn=asn.pop("core_asn", default.core_asn), fabric_kind=design.get(KIND_KEY, default.fabric_kind),
        addressing=AddressingSettings(**design["addressing"]), asn=AsnSettings(**asn), **planned)


def _nics(server_id: str, rows: list[dict]) -> tuple[Nic, ...]:
    nics = []
    for row in rows:
        index = row["interface"][3:]
        if not row["interface"].startswith("nic") or not index.isdigit():
            raise AidError(f"interface {excerpt(row['interface'])} of server {server_id} is not a NIC name like nic0")
        if not 0 < row["speed"] <= MAX_SPEED:
            raise AidError(f"{server_id}/{row['interface']}: speed {excerpt(row['speed'])} is out of range: "
                           f"use 1 to {MAX_SPEED}")
        gpus = tuple(int(g) for g in (row["gpus"] or "").split(",") if g.strip())
        nics.append(Nic(server_id, int(index), row["netdev"] or "", row["rdma"] or "", row["speed"], gpus,
                        row["notes"], row.get("fabric_plane") or 0))
    return tuple(sorted(nics, key=lambda n: n.index))


def _replay(fabric: Fabric, data: dict) -> None:
    nic_rows: dict[str, list[dict]] = {}
    for row in data["interfaces"]:
        if row["kind"] == "nic":
            nic_rows.setdefault(row["device"], []).append(row)
    for n, row in enumerate(data["devices"]):
        where = f"devices[{n}] ({excerpt(row['id'])})"
        try:
            if row["role"] == "server":
                fabric.add_server(Server(row["id"], row["hostname"], row["model"], row["su"],
                                         _nics(row["id"], nic_rows.pop(row["id"], [])), row["gpus"] or 0,
                                         row["rack"], row["position"], row["gid_index"]))
            else:
                fabric.add_switch(Switch(row["id"], row["hostname"], Role(row["role"]), row["model"], row["su"],
                                         row["rail"], row["plane"], parse_breakouts(row["breakouts"]),
                                         row.get("group"), row.get("fabric_plane") or 0, row["rack"],
                                         row["position"]))
        except (ModelError, ValueError) as exc:
            raise AidError(f"{where}: {exc}") from None
    if nic_rows:
        device = sorted(nic_rows)[0]
        raise AidError(f"interfaces: NIC rows name '{device}', which is not a server in devices")
    for n, row in enumerate(data["links"]):
        try:
            fabric.connect(f"{row['a_device']}/{row['a_port']}", f"{row['b_device']}/{row['b_port']}")
        except (ModelError, ValueError) as exc:
            raise AidError(f"links[{n}] ({excerpt(row['link'])}): {exc}") from None
    for n, row in enumerate(data["ip_plan"]):
        try:
            fabric.set_address(row["key"], row["address"], row["pinned"])
        except ModelError as exc:
            raise AidError(f"ip_plan[{n}] ({excerpt(row['key'])}): {exc}") from None
    for n, row in enumerate(data["devices"]):
        if row["asn"] is not None:
            try:
                fabric.set_asn(row["id"], row["asn"], row["asn_pinned"])
            except ModelError as exc:
                raise AidError(f"devices[{n}] ({excerpt(row['id'])}): {exc}") from None


def _floor(fabric: Fabric, floor: dict | None) -> None:
    """The header's floor: its settings, rows and racks (validated by the model, as a design file's)."""
    if floor is None:
        return
    where = "design.floor.settings"
    try:
        extra = sorted(set(floor["settings"]) - set(SETTING_BOUNDS))
        if extra:
            raise ModelError(f"unknown setting {excerpt(extra[0])}")
        fabric.set_floor(FloorSettings(**floor["settings"]))
        for n, row in enumerate(floor["rows"]):
            where = f"design.floor.rows[{n}]"
            fabric.add_row(Row(**row))
        for n, rack in enumerate(floor["racks"]):
            where = f"design.floor.racks[{n}]"
            fabric.add_rack(Rack(**rack))
    except ModelError as exc:
        raise AidError(f"{where}: {exc}") from None


def fabric_from_aid(data, catalog: Catalog) -> Fabric:
    """A Fabric from a parsed AID document; raises AidError with one readable message."""
    validate(data)
    fabric = Fabric(catalog, _settings(data["design"]))
    with fabric.batch():
        _floor(fabric, data["design"].get("floor"))
        _replay(fabric, data)
        for rail in data["design"]["rails"]:
            if rail["index"] in fabric.rails:
                fabric.set_rail_name(rail["index"], rail["name"])
        for su in data["design"]["sus"]:
            if su["index"] in fabric.sus:
                fabric.set_su_name(su["index"], su["name"])
    if KIND_KEY in data["design"]:
        _check_derived(data, fabric)
    return fabric


DERIVED = {"devices": ("id", ("guid", "nccl_ib_hca")), "interfaces": (("device", "interface"), ("guid",))}


def _check_derived(data, fabric: Fabric) -> None:
    """The InfiniBand columns are derived from the design (GUIDs from ids, NCCL_IB_HCA from the NICs), so
    an edited cell would be lost on import: refuse it instead, naming the cell."""
    from .aid_data import aid_document
    derived = aid_document(fabric)
    for sheet, (key, cells) in DERIVED.items():
        def row_key(row):
            return tuple(row[k] for k in key) if isinstance(key, tuple) else row[key]
        want = {row_key(row): row for row in derived[sheet]}
        for n, row in enumerate(data[sheet]):
            expected = want.get(row_key(row), {})
            for cell in cells:
                if cell in row and row[cell] != expected.get(cell):
                    raise AidError(f"{sheet}[{n}].{cell}: {excerpt(row[cell])} is not the design's "
                                   f"{excerpt(expected.get(cell))}; this column is derived from the design (GUIDs "
                                   "from its ids, NCCL_IB_HCA from the NICs) and is not read back. Change the design "
                                   "instead (verify --ibnetdiscover matches a fabric's real GUIDs by node description)")


def load_aid_text(text: str, file: str, catalog: Catalog) -> Fabric:
    """Parse AID JSON text and rebuild the design; errors name the file."""
    try:
        data = parse_json(text)
    except JsonInputError as exc:
        raise AidError(f"{file}{f':{exc.line}' if exc.line else ''}: {exc.message}") from None
    try:
        return fabric_from_aid(data, catalog)
    except AidError as exc:
        raise AidError(f"{file}: {exc}") from None
