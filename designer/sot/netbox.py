"""The design in NetBox (4.x REST API) through pynetbox: the same `State` as Nautobot's, in NetBox's shapes.

NetBox specifics: a Site (not a location), device roles, slugs on manufacturers, device types, roles and
sites, status "planned" (devices, racks, sites, cables) and "active" (prefixes, addresses; the rail
supernet "container"), cables by ``a_terminations`` / ``b_terminations``, an address assigned to its
interface directly (``assigned_object_type`` / ``_id``), and ASN objects (under a private RIR the push
creates) linked to the site. Custom fields are defined with ``object_types``.

NetBox is not on PyPI, so no NetBox server runs in the tests: every request body this module sends
is validated against NetBox's published OpenAPI document instead (tests/sot/test_netbox_schema.py).
"""

from __future__ import annotations

import re

from .changes import CREATE, DELETE, UPDATE, Change
from .desired import KINDS, TAG, State
from .errors import SotError, client_module
from .nautobot import BATCH, Held
from .rest import Rest

ENDPOINTS = {"manufacturer": ("dcim", "manufacturers"), "device_type": ("dcim", "device-types"),
             "role": ("dcim", "device-roles"), "location": ("dcim", "sites"), "asn": ("ipam", "asns"),
             "rack": ("dcim", "racks"), "device": ("dcim", "devices"), "interface": ("dcim", "interfaces"),
             "cable": ("dcim", "cables"), "prefix": ("ipam", "prefixes"), "ip": ("ipam", "ip-addresses")}
RIR = "rail-designer private"
CUSTOM_FIELDS = (("su", "integer", ["dcim.device"]),
                 ("rail", "integer", ["dcim.device", "dcim.interface"]),
                 ("plane", "integer", ["dcim.device", "dcim.interface"]),
                 ("gpu_index", "text", ["dcim.interface"]),
                 ("rail_designer", "json", ["dcim.device", "dcim.site"]))


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9_]+", "-", name.lower()).strip("-")[:100] or "x"


def setup_bodies() -> list[tuple[str, dict]]:
    """(endpoint, body) of the tag, the custom fields and the RIR a first push creates."""
    bodies = [("extras/tags", {"name": TAG, "slug": TAG, "description": "created and kept by rail-designer sot push"}),
              ("ipam/rirs", {"name": RIR, "slug": slug(RIR), "is_private": True, "tags": [{"name": TAG, "slug": TAG}]})]
    for key, kind, types in CUSTOM_FIELDS:
        bodies.append(("extras/custom-fields", {"name": key, "label": key.replace("_", " "), "type": kind,
                                                "object_types": types, "description": "written by rail-designer"}))
    return bodies


def body(kind: str, key: str, want: State, ids: dict, meta: dict) -> dict:
    """The request body that creates (or, PATCHed, updates) one object. ``ids``: kind -> key -> NetBox id of
    the objects it names; ``meta``: the RIR's id."""
    f = want.objects[kind][key]
    tags = [{"name": TAG, "slug": TAG}]
    if kind == "manufacturer":
        return {"name": key, "slug": slug(key)}
    if kind == "device_type":
        return {"model": key, "slug": slug(key), "manufacturer": ids["manufacturer"][f["manufacturer"]],
                "part_number": f["part_number"], "u_height": f["u_height"], "is_full_depth": f["is_full_depth"],
                "comments": f["comments"], "tags": tags}
    if kind == "role":
        return {"name": key, "slug": slug(key), "color": f["color"]}
    if kind == "location":
        return {"name": key, "slug": slug(key), "status": "planned", "tags": tags,
                "custom_fields": {"rail_designer": f["design"]}}
    if kind == "asn":
        return {"asn": int(key), "rir": meta["rir"], "sites": [ids["location"][f["location"]]], "tags": tags}
    if kind == "rack":
        return {"name": key, "site": ids["location"][f["location"]], "status": "planned", "u_height": f["u_height"],
                "tags": tags}
    if kind == "device":
        out = {"name": key, "device_type": ids["device_type"][f["device_type"]], "role": ids["role"][f["role"]],
               "site": ids["location"][f["location"]], "status": "planned", "tags": tags,
               "custom_fields": f["cf"]}
        if f["rack"]:
            out.update(rack=ids["rack"][f["rack"]], position=f["position"], face=f["face"] or "front")
        return out
    if kind == "interface":
        parent = f"{f['device']}/{f['parent']}" if f["parent"] else None
        out = {"device": ids["device"][f["device"]], "name": f["name"], "type": f["type"], "label": f["label"],
               "tags": tags, "custom_fields": f["cf"]}
        if parent:                           # (the bulk PATCH schema takes no null parent)
            out["parent"] = ids["interface"][parent]
        return out
    if kind == "cable":
        out = {"a_terminations": [{"object_type": "dcim.interface", "object_id": ids["interface"][f["a"]]}],
               "b_terminations": [{"object_type": "dcim.interface", "object_id": ids["interface"][f["b"]]}],
               "status": "planned", "label": f["label"], "tags": tags}
        if f["type"]:
            out["type"] = f["type"]
        if f["length"]:
            out.update(length=f["length"], length_unit="m")
        return out
    if kind == "prefix":
        return {"prefix": key, "status": "container" if f["type"] == "container" else "active",
                "description": f["description"], "tags": tags, "scope_type": "dcim.site",
                "scope_id": ids["location"][f["location"]]}
    if kind == "ip":
        return {"address": key, "status": "active", "assigned_object_type": "dcim.interface",
                "assigned_object_id": ids["interface"][f["interface"]], "tags": tags}
    raise AssertionError(kind)


def _name(v):
    if isinstance(v, dict):
        return v.get("value") if "value" in v else v.get("name") or v.get("model") or v.get("display")
    return v


class NetBox:
    def __init__(self, url: str, token: str):
        pynetbox = client_module("pynetbox")
        self.url = url
        self.api = pynetbox.api(url, token=token)
        self.rest = Rest("NetBox", url, token, self.api.http_session)
        self.meta: dict[str, int] = {}

    @staticmethod
    def fit(want: State) -> State:
        return want

    def _send(self, method: str, path_or_url: str, **kwargs):
        return self.rest.send(method, path_or_url, **kwargs)

    def _list(self, path: str, **filters) -> list[dict]:
        return self.rest.pages(path, **filters)

    # ------------------------------------------------------------------------------------ reading
    def design_sites(self) -> list[str]:
        return sorted(r["name"] for r in self._list("dcim/sites")
                      if isinstance((r.get("custom_fields") or {}).get("rail_designer"), dict))

    def read(self, want: State) -> Held:
        held = self.read_site(next(iter(want.objects["location"])))
        for cidr in want.objects["prefix"].keys() - held.state.objects["prefix"].keys():
            for r in self._list("ipam/prefixes", prefix=cidr):
                held.state.objects["prefix"][cidr] = {"description": r.get("description"), "type": None}
                held.ids["prefix"][cidr] = r["id"]          # someone else's (or another design's): used as is
        return held

    def _hold(self, held: Held, kind: str, key: str, record: dict, fields: dict) -> None:
        held.state.objects[kind][key] = fields
        held.ids[kind][key] = record["id"]
        if TAG in {t.get("slug") or t.get("name") for t in record.get("tags") or ()}:
            held.owned[kind].add(key)

    def read_site(self, site: str) -> Held:
        held = Held()
        self._read_setup(held)
        for r in self._list("dcim/manufacturers"):
            self._hold(held, "manufacturer", r["name"], r, {})
        for r in self._list("dcim/device-types"):
            self._hold(held, "device_type", r["model"], r, {
                "manufacturer": _name(r["manufacturer"]), "part_number": r.get("part_number"),
                "u_height": r.get("u_height"), "is_full_depth": r.get("is_full_depth"), "comments": r.get("comments")})
        for r in self._list("dcim/device-roles"):
            self._hold(held, "role", r["name"], r, {"color": r.get("color")})
        sites = self._list("dcim/sites", name=site)
        for r in sites:
            self._hold(held, "location", r["name"], r, {"design": (r.get("custom_fields") or {}).get("rail_designer")})
        if not sites:
            return held
        site_id = sites[0]["id"]
        for r in self._list("ipam/asns", site_id=site_id):
            self._hold(held, "asn", str(r["asn"]), r, {"location": site})
        for r in self._list("dcim/racks", site_id=site_id):
            self._hold(held, "rack", r["name"], r, {"location": site, "u_height": r.get("u_height")})
        for r in self._list("dcim/devices", site_id=site_id):
            cf = r.get("custom_fields") or {}
            self._hold(held, "device", r["name"], r, {
                "device_type": _name(r["device_type"]), "role": _name(r["role"]), "location": site,
                "rack": _name(r.get("rack")), "position": r.get("position"), "face": _name(r.get("face")),
                "cf": {k: cf.get(k) for k in ("su", "rail", "plane", "rail_designer")}})
        names = {}
        for r in self._list("dcim/interfaces", site_id=site_id):
            key = f"{_name(r['device'])}/{r['name']}"
            names[r["id"]] = key
            cf = r.get("custom_fields") or {}
            self._hold(held, "interface", key, r, {
                "device": _name(r["device"]), "name": r["name"], "type": _name(r.get("type")),
                "parent": _name(r.get("parent")), "label": r.get("label"),
                "cf": {k: cf.get(k) for k in ("rail", "plane", "gpu_index")}})
        for r in self._list("dcim/cables", site_id=site_id):
            a = [names.get(t.get("object_id")) for t in r.get("a_terminations") or ()]
            b = [names.get(t.get("object_id")) for t in r.get("b_terminations") or ()]
            if len(a) == 1 and len(b) == 1 and None not in a + b:
                held.links.append((a[0], b[0]))
            if r.get("label") and TAG in {t.get("slug") for t in r.get("tags") or ()}:
                self._hold(held, "cable", r["label"], r, {
                    "a": a[0] if len(a) == 1 else None, "b": b[0] if len(b) == 1 else None,
                    "type": _name(r.get("type")), "length": r.get("length"), "label": r["label"]})
        for r in self._list("ipam/prefixes", tag=TAG, site_id=site_id):
            self._hold(held, "prefix", r["prefix"], r, {"description": r.get("description"), "location": site,
                                                        "type": "container" if _name(r.get("status")) == "container"
                                                        else "network"})
        for r in self._list("ipam/ip-addresses", tag=TAG):           # (no site filter: kept by interface below)
            on = names.get(r.get("assigned_object_id")) if r.get("assigned_object_type") == "dcim.interface" else None
            if on is not None:               # on this site's interfaces only: another design's are not ours
                self._hold(held, "ip", r["address"], r, {"interface": on})
        return held

    def _read_setup(self, held: Held) -> None:
        if not self._list("extras/tags", slug=TAG):
            held.setup.append(Change("tag", TAG, CREATE))
        rirs = self._list("ipam/rirs", slug=slug(RIR))
        if rirs:
            self.meta["rir"] = rirs[0]["id"]
        else:
            held.setup.append(Change("rir", RIR, CREATE))
        have = {r["name"]: r for r in self._list("extras/custom-fields")}
        for key, kind, _types in CUSTOM_FIELDS:
            found = have.get(key)
            if found is None:
                held.setup.append(Change("custom_field", key, CREATE))
            elif _name(found.get("type")) != kind:
                raise SotError(f"NetBox already has a custom field '{key}' of type {_name(found.get('type'))}; "
                               f"rail-designer needs it to be {kind}: rename that one")

    # ------------------------------------------------------------------------------------ writing
    def apply(self, want: State, held: Held, changes: list[Change]) -> None:
        needed = {(c.kind, c.key) for c in held.setup}
        for path, data in setup_bodies():
            key = data.get("name")
            kind = {"extras/tags": "tag", "ipam/rirs": "rir"}.get(path, "custom_field")
            if (kind, key) in needed:
                made = self._send("post", path, json=data)
                if kind == "rir":
                    self.meta["rir"] = made["id"]
        ids = held.ids
        for kind in KINDS:
            todo = [c for c in changes if c.kind == kind and c.action == CREATE]
            if kind == "interface":
                todo.sort(key=lambda c: want.objects[kind][c.key]["parent"] is not None)
                groups = [[c for c in todo if want.objects[kind][c.key]["parent"] is None],
                          [c for c in todo if want.objects[kind][c.key]["parent"] is not None]]
            else:
                groups = [todo]
            for group in groups:
                for start in range(0, len(group), BATCH):
                    batch = group[start:start + BATCH]
                    made = self._send("post", "/".join(ENDPOINTS[kind]),
                                      json=[body(kind, c.key, want, ids, self.meta) for c in batch])
                    for change, record in zip(batch, made):
                        ids[kind][change.key] = record["id"]
            updates = [c for c in changes if c.kind == kind and c.action == UPDATE]
            for start in range(0, len(updates), BATCH):
                self._send("patch", "/".join(ENDPOINTS[kind]),
                           json=[{"id": ids[kind][c.key], **body(kind, c.key, want, ids, self.meta)}
                                 for c in updates[start:start + BATCH]])
        for kind in reversed(KINDS):
            gone = [{"id": ids[kind][c.key]} for c in changes if c.kind == kind and c.action == DELETE]
            for start in range(0, len(gone), BATCH):
                self._send("delete", "/".join(ENDPOINTS[kind]), json=gone[start:start + BATCH])
