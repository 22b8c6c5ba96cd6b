"""Rebuild a design from an AID document: the inverse of `aid_data.aid_document`.

The document is first checked against the AID schema (one message: where and what), then
replayed through the Fabric's own mutators, so every model rule applies to imported data too.
Addresses and ASNs are installed exactly as written, with their pins.
"""

from __future__ import annotations

import json

from ..model.entities import AddressingSettings, AsnSettings, DesignSettings, Nic, Role, Server, Switch
from ..model.errors import ModelError
from ..model.fabric import Fabric
from ..model.hardware import Catalog
from .aid_data import parse_breakouts
from .aid_schema import aid_schema
from .errors import ExportError


class AidError(ExportError):
    """An AID document that cannot be turned into a design; the message says where."""


def _where(path) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "the document"


def validate(data) -> None:
    try:
        import jsonschema
    except ImportError:                       # pragma: no cover - jsonschema ships with the designer
        raise AidError("checking an AID needs the 'jsonschema' package; install it with pip") from None
    validator = jsonschema.Draft202012Validator(aid_schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if errors:
        first = errors[0]
        more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
        raise AidError(f"{_where(first.absolute_path)}: {first.message}{more}")


def _settings(design: dict) -> DesignSettings:
    asn = dict(design["asn"])
    default = DesignSettings()
    return DesignSettings(
        name=design["name"], description=design["description"],
        max_oversubscription=float(design["max_oversubscription"]), spine_planes=design["spine_planes"],
        max_spine_oversubscription=float(design.get("max_spine_oversubscription", default.max_spine_oversubscription)),
        fabric_planes=design.get("fabric_planes", default.fabric_planes),
        core_asn=asn.pop("core_asn", default.core_asn),
        addressing=AddressingSettings(**design["addressing"]), asn=AsnSettings(**asn))


def _nics(server_id: str, rows: list[dict]) -> tuple[Nic, ...]:
    nics = []
    for row in rows:
        index = row["interface"][3:]
        if not row["interface"].startswith("nic") or not index.isdigit():
            raise AidError(f"interface '{row['interface']}' of server {server_id} is not a NIC name like nic0")
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
        where = f"devices[{n}] ({row['id']})"
        try:
            if row["role"] == "server":
                fabric.add_server(Server(row["id"], row["hostname"], row["model"], row["su"],
                                         _nics(row["id"], nic_rows.pop(row["id"], [])), row["gpus"] or 0,
                                         row["rack"], row["position"], row["gid_index"]))
            else:
                fabric.add_switch(Switch(row["id"], row["hostname"], Role(row["role"]), row["model"], row["su"],
                                         row["rail"], row["plane"], parse_breakouts(row["breakouts"]),
                                         row.get("group"), row.get("fabric_plane") or 0))
        except (ModelError, ValueError) as exc:
            raise AidError(f"{where}: {exc}") from None
    if nic_rows:
        device = sorted(nic_rows)[0]
        raise AidError(f"interfaces: NIC rows name '{device}', which is not a server in devices")
    for n, row in enumerate(data["links"]):
        try:
            fabric.connect(f"{row['a_device']}/{row['a_port']}", f"{row['b_device']}/{row['b_port']}")
        except (ModelError, ValueError) as exc:
            raise AidError(f"links[{n}] ({row['link']}): {exc}") from None
    for n, row in enumerate(data["ip_plan"]):
        try:
            fabric.set_address(row["key"], row["address"], row["pinned"])
        except ModelError as exc:
            raise AidError(f"ip_plan[{n}] ({row['key']}): {exc}") from None
    for n, row in enumerate(data["devices"]):
        if row["asn"] is not None:
            try:
                fabric.set_asn(row["id"], row["asn"], row["asn_pinned"])
            except ModelError as exc:
                raise AidError(f"devices[{n}] ({row['id']}): {exc}") from None


def fabric_from_aid(data, catalog: Catalog) -> Fabric:
    """A Fabric from a parsed AID document; raises AidError with one readable message."""
    validate(data)
    fabric = Fabric(catalog, _settings(data["design"]))
    with fabric.batch():
        _replay(fabric, data)
        for rail in data["design"]["rails"]:
            if rail["index"] in fabric.rails:
                fabric.set_rail_name(rail["index"], rail["name"])
        for su in data["design"]["sus"]:
            if su["index"] in fabric.sus:
                fabric.set_su_name(su["index"], su["name"])
    return fabric


def load_aid_text(text: str, file: str, catalog: Catalog) -> Fabric:
    """Parse AID JSON text and rebuild the design; errors name the file."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AidError(f"{file}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    try:
        return fabric_from_aid(data, catalog)
    except AidError as exc:
        raise AidError(f"{file}: {exc}") from None
