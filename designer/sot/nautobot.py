"""The design in Nautobot (2.x / 3.x REST API) through pynautobot: read what the server holds as a `State`,
and write changes with its bulk endpoints (one request per kind and batch, not one per object).

Nautobot specifics: the site is a Location of a "Site" location type; devices, racks, interfaces,
locations and cables have the status "Planned" (a design, not yet a running fabric), prefixes and
addresses "Active", in the "Global" namespace; an address is put on its interface by an
ip-address-to-interface assignment. Nautobot has no ASN object: ASNs ride in each device's
``rail_designer`` custom field. Everything created carries the ``rail-designer`` tag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .changes import CREATE, DELETE, UPDATE, Change
from .desired import KINDS, TAG, State
from .errors import SotError, client_module
from .rest import Rest, reason

ENDPOINTS = {"manufacturer": ("dcim", "manufacturers"), "device_type": ("dcim", "device_types"),
             "role": ("extras", "roles"), "location": ("dcim", "locations"), "rack": ("dcim", "racks"),
             "device": ("dcim", "devices"), "interface": ("dcim", "interfaces"), "cable": ("dcim", "cables"),
             "prefix": ("ipam", "prefixes"), "ip": ("ipam", "ip_addresses")}
LOCATION_TYPE = "Site"
# key, type, content types: the custom fields the push defines.
CUSTOM_FIELDS = (("su", "integer", ["dcim.device"]),
                 ("rail", "integer", ["dcim.device", "dcim.interface"]),
                 ("plane", "integer", ["dcim.device", "dcim.interface"]),
                 ("gpu_index", "text", ["dcim.interface"]),
                 ("rail_designer", "json", ["dcim.device", "dcim.location"]))
# Manufacturers and roles take no tags in Nautobot: they are shared (never changed or deleted by the push).
TAG_TYPES = ["dcim.devicetype", "dcim.location", "dcim.rack", "dcim.device",
             "dcim.interface", "dcim.cable", "ipam.prefix", "ipam.ipaddress"]
PLANNED, ACTIVE = "Planned", "Active"
BATCH = 500                               # objects per bulk request
_VERBS = {"post": "create", "patch": "update", "delete": "delete"}


@dataclass
class Held:
    """What the server holds, as a `State`, plus the server ids of each object by kind and key."""

    state: State = field(default_factory=State)
    owned: dict[str, set[str]] = field(default_factory=lambda: {k: set() for k in KINDS})
    ids: dict[str, dict[str, str]] = field(default_factory=lambda: {k: {} for k in KINDS})
    assignments: dict[str, str] = field(default_factory=dict)   # ip key -> assignment id
    links: list[tuple[str, str]] = field(default_factory=list)  # every cable of the site, by interface keys
    setup: list[Change] = field(default_factory=list)         # tag, custom fields, location type to create


def _value(v):
    """A choice field's value ({'value': ..., 'label': ...}) or a nested object's id, else the value."""
    if isinstance(v, dict):
        return v.get("value", v.get("id"))
    return v


def _tag_ids(record: dict) -> set[str]:
    return {t if isinstance(t, str) else t.get("id") for t in record.get("tags") or ()}


class Nautobot:
    def __init__(self, url: str, token: str):
        pynautobot = client_module("pynautobot")
        self.url = url
        self.api = pynautobot.api(url, token=token)
        self.rest = Rest("Nautobot", url, token, self.api.http_session)
        self._meta: dict[str, str] = {}

    # ------------------------------------------------------------------------------------ requests
    def _endpoint(self, kind_or_path: str):
        app, name = ENDPOINTS.get(kind_or_path) or kind_or_path.split(".")
        return getattr(getattr(self.api, app), name)

    def _list(self, endpoint: str, **filters) -> list[dict]:
        """Every object of an endpoint matching ``filters``, as plain dicts (related objects as their ids)."""
        app, name = ENDPOINTS.get(endpoint) or endpoint.split(".")
        return self.rest.pages(f"{app}/{name.replace('_', '-')}", depth=0, exclude_m2m="false", **filters)

    def _send(self, method: str, url: str, **kwargs):
        return self.rest.send(method, url, **kwargs)

    def _bulk(self, method: str, kind: str, bodies: list) -> list[str]:
        """Create (the new ids, in order), update or delete objects through pynautobot's bulk calls."""
        import pynautobot
        endpoint = self._endpoint(kind)
        out = []
        for start in range(0, len(bodies), BATCH):
            batch = bodies[start:start + BATCH]
            try:
                if method == "post":
                    out.extend(record.id for record in endpoint.create(batch))
                elif method == "patch":
                    endpoint.update(batch)
                else:
                    endpoint.delete([body["id"] for body in batch])
            except pynautobot.RequestError as exc:
                raise SotError(f"Nautobot refused to {_VERBS[method]} {len(batch):,} {kind.rsplit('.', 1)[-1]} "
                               f"objects ({exc.req.status_code}): {reason(exc.req)}") from None
        return out

    # ------------------------------------------------------------------------------------ reading
    @staticmethod
    def fit(want: State) -> State:
        """``want`` in what Nautobot can hold: no ASN objects (the ASNs stay in the devices' rail_designer),
        and a broken-out cage's sub-ports as interfaces of their own (labelled etp<cage>a, b ...) without the
        cage as their parent, since Nautobot lets only virtual interfaces have a parent."""
        want.objects["asn"] = {}
        interfaces = want.objects["interface"]
        parents = {f"{i['device']}/{i['parent']}" for i in interfaces.values() if i["parent"]}
        for key in parents:
            del interfaces[key]
        for key, i in interfaces.items():
            if i["parent"]:
                interfaces[key] = {**i, "parent": None}
        return want

    def read(self, want: State) -> Held:
        """What the server holds of the objects ``want`` names (its site's, the tool's, and the shared kinds)."""
        site = next(iter(want.objects["location"]))
        held = self.read_site(site)
        for cidr in want.objects["prefix"].keys() - held.state.objects["prefix"].keys():
            for r in self._list("prefix", prefix=cidr, namespace="Global"):
                if r["prefix"] == cidr:           # someone else's (or another design's): used as it is
                    self._hold(held, "prefix", cidr, r, {"description": r.get("description"),
                                                         "type": _value(r.get("type"))}, owned=False)
        return held

    def design_sites(self) -> list[str]:
        """The sites a push wrote (their rail_designer field holds a design)."""
        return sorted(r["name"] for r in self._list("location", location_type=LOCATION_TYPE)
                      if isinstance((r.get("custom_fields") or {}).get("rail_designer"), dict))

    def read_site(self, site: str) -> Held:
        """Everything at the site ``site``, the tool's prefixes and addresses, and the shared kinds."""
        held = Held()
        self._read_setup(held)
        names = {r["id"]: r["name"] for r in self._list("manufacturer")}
        for r in self._list("manufacturer"):
            self._hold(held, "manufacturer", r["name"], r, {})
        types = {}
        for r in self._list("device_type"):
            types[r["id"]] = r["model"]
            self._hold(held, "device_type", r["model"], r, {
                "manufacturer": names.get(_value(r["manufacturer"])), "part_number": r.get("part_number"),
                "u_height": r.get("u_height"), "is_full_depth": r.get("is_full_depth"), "comments": r.get("comments")})
        roles = {}
        for r in self._list("role"):
            roles[r["id"]] = r["name"]
            self._hold(held, "role", r["name"], r, {"color": r.get("color")})
        locations = self._list("location", name=site)
        for r in locations:
            self._hold(held, "location", r["name"], r, {"design": (r.get("custom_fields") or {}).get("rail_designer")})
        if locations:
            self._read_site(held, locations[0], site, types, roles)
            if "tag" in self._meta:
                self._read_prefixes_and_ips(held, locations[0]["id"], site)
        return held

    def _hold(self, held: Held, kind: str, key: str, record: dict, fields: dict, owned: bool = True) -> None:
        held.state.objects[kind][key] = fields
        held.ids[kind][key] = record["id"]
        if owned and self._meta.get("tag") in _tag_ids(record):
            held.owned[kind].add(key)

    def _read_site(self, held: Held, location: dict, site: str, types: dict, roles: dict) -> None:
        racks = {}
        for r in self._list("rack", location=location["id"]):
            racks[r["id"]] = r["name"]
            self._hold(held, "rack", r["name"], r, {"location": site, "u_height": r.get("u_height")})
        devices = {}
        for r in self._list("device", location=location["id"]):
            devices[r["id"]] = r["name"]
            cf = r.get("custom_fields") or {}
            self._hold(held, "device", r["name"], r, {
                "device_type": types.get(_value(r["device_type"])), "role": roles.get(_value(r["role"])),
                "location": site, "rack": racks.get(_value(r.get("rack"))), "position": r.get("position"),
                "face": _value(r.get("face")),
                "cf": {k: cf.get(k) for k in ("su", "rail", "plane", "rail_designer")}})
        interfaces = self._list("interface", location=location["id"])
        names = {r["id"]: f"{devices.get(_value(r['device']))}/{r['name']}" for r in interfaces}
        for r in interfaces:
            cf = r.get("custom_fields") or {}
            parent = _value(r.get("parent_interface"))
            self._hold(held, "interface", names[r["id"]], r, {
                "device": devices.get(_value(r["device"])), "name": r["name"], "type": _value(r.get("type")),
                "parent": names.get(parent, "/").split("/", 1)[1] if parent else None, "label": r.get("label"),
                "cf": {k: cf.get(k) for k in ("rail", "plane", "gpu_index")}})
        self._interfaces = names
        for r in self._list("cable", location=location["name"]):   # by name: its filter takes names
            ends = [names.get(r.get(f"termination_{side}_id")) for side in "ab"]
            if None not in ends:
                held.links.append((ends[0], ends[1]))
            if not r.get("label") or self._meta.get("tag") not in _tag_ids(r):
                continue                     # not the tool's: pull reads it, push leaves it alone
            self._hold(held, "cable", r["label"], r, {"a": ends[0], "b": ends[1], "type": _value(r.get("type")),
                                                     "length": r.get("length"), "label": r.get("label")})

    def _read_prefixes_and_ips(self, held: Held, location_id: str, site: str) -> None:
        """The tool's prefixes at the site, and its addresses on the site's interfaces (another design's, or
        an address someone moved elsewhere, are not this design's to change)."""
        for r in self._list("prefix", tags=TAG, location=location_id):
            self._hold(held, "prefix", r["prefix"], r, {"description": r.get("description"),
                                                        "type": _value(r.get("type")), "location": site})
        ips = {r["id"]: r["address"] for r in self._list("ip", tags=TAG)}
        on = {}
        for a in self._list("ipam.ip_address_to_interface") if ips else ():   # (a list of ids outgrows a URL)
            if _value(a["ip_address"]) in ips:
                on[_value(a["ip_address"])] = a
        names = getattr(self, "_interfaces", {})
        for ip_id, address in ips.items():
            assignment = on.get(ip_id)
            where = names.get(_value(assignment["interface"])) if assignment else None
            if where is None:
                continue
            held.state.objects["ip"][address] = {"interface": where}
            held.ids["ip"][address] = ip_id
            held.owned["ip"].add(address)
            if assignment:
                held.assignments[address] = assignment["id"]

    def _read_setup(self, held: Held) -> None:
        """The tag, custom fields, location type, statuses and namespace the push needs; those missing
        become changes of their own."""
        for r in self._list("extras.tags", name=TAG):
            self._meta["tag"] = r["id"]
        if "tag" not in self._meta:
            held.setup.append(Change("tag", TAG, CREATE))
        have = {r["key"]: r for r in self._list("extras.custom_fields")}
        for key, kind, types in CUSTOM_FIELDS:
            found = have.get(key)
            if found is None:
                held.setup.append(Change("custom_field", key, CREATE))
            elif _value(found.get("type")) != kind:
                raise SotError(f"Nautobot already has a custom field '{key}' of type {_value(found.get('type'))}; "
                               f"rail-designer needs it to be {kind}: rename that one")
            elif not set(types) <= set(found.get("content_types") or ()):
                held.setup.append(Change("custom_field", key, UPDATE,
                                         (("content_types", sorted(found.get("content_types") or ()),
                                           sorted(set(types) | set(found.get("content_types") or ()))),)))
                self._meta[f"cf:{key}"] = found["id"]
        for r in self._list("dcim.location_types", name=LOCATION_TYPE):
            self._meta["location_type"] = r["id"]
            if not {"dcim.device", "dcim.rack"} <= set(r.get("content_types") or ()):
                held.setup.append(Change("location_type", LOCATION_TYPE, UPDATE, (
                    ("content_types", sorted(r.get("content_types") or ()), "dcim.device, dcim.rack ..."),)))
        if "location_type" not in self._meta:
            held.setup.append(Change("location_type", LOCATION_TYPE, CREATE))
        for name in (PLANNED, ACTIVE):
            found = self._list("extras.statuses", name=name)
            if not found:
                raise SotError(f"Nautobot has no status '{name}' (a default one): create it, for devices, racks, "
                               "interfaces, cables, locations, prefixes and IP addresses")
            self._meta[name] = found[0]["id"]
        found = self._list("ipam.namespaces", name="Global")
        if not found:
            raise SotError("Nautobot has no 'Global' namespace (a default one)")
        self._meta["namespace"] = found[0]["id"]

    # ------------------------------------------------------------------------------------ writing
    def apply(self, want: State, held: Held, changes: list[Change]) -> None:
        self._apply_setup(held.setup)
        ids = held.ids
        by_kind: dict[tuple[str, str], list[Change]] = {}
        for c in changes:
            by_kind.setdefault((c.kind, c.action), []).append(c)
        for kind in KINDS:
            creates = by_kind.get((kind, CREATE), [])
            updates = by_kind.get((kind, UPDATE), [])
            if kind == "interface":          # parents before the sub-ports that name them
                creates.sort(key=lambda c: want.objects[kind][c.key]["parent"] is not None)
                for parents in (False, True):
                    batch = [c for c in creates if (want.objects[kind][c.key]["parent"] is not None) == parents]
                    self._create(kind, batch, want, ids)
            elif kind == "ip":
                self._create(kind, creates, want, ids)
                self._assign(creates + updates, want, held)
                continue
            else:
                self._create(kind, creates, want, ids)
            if updates:
                self._bulk("patch", kind, [{"id": ids[kind][c.key], **self._body(kind, c.key, want, ids)}
                                           for c in updates])
        for kind in reversed(KINDS):
            deletes = by_kind.get((kind, DELETE), [])
            if deletes:
                self._bulk("delete", kind, [{"id": ids[kind][c.key]} for c in deletes])

    def _create(self, kind: str, creates: list[Change], want: State, ids) -> None:
        if not creates:
            return
        made = self._bulk("post", kind, [self._body(kind, c.key, want, ids) for c in creates])
        for change, made_id in zip(creates, made):
            ids[kind][change.key] = made_id
        if kind == "cable":      # Nautobot 3.2 drops the tags of a cable it creates: they are set after
            self._bulk("patch", kind, [{"id": made_id, "tags": [self._meta["tag"]]} for made_id in made])

    def _assign(self, changes: list[Change], want: State, held: Held) -> None:
        stale = [{"id": held.assignments[c.key]} for c in changes if c.key in held.assignments]
        if stale:
            self._bulk("delete", "ipam.ip_address_to_interface", stale)
        bodies = []
        for c in changes:
            where = want.objects["ip"][c.key]["interface"]
            bodies.append({"ip_address": held.ids["ip"][c.key], "interface": held.ids["interface"][where]})
        if bodies:
            self._bulk("post", "ipam.ip_address_to_interface", bodies)

    def _body(self, kind: str, key: str, want: State, ids) -> dict:
        f = want.objects[kind][key]
        m = self._meta
        tags = [m["tag"]]
        if kind == "manufacturer":
            return {"name": key}
        if kind == "device_type":
            return {"model": key, "manufacturer": ids["manufacturer"][f["manufacturer"]], "tags": tags,
                    "part_number": f["part_number"], "u_height": f["u_height"], "is_full_depth": f["is_full_depth"],
                    "comments": f["comments"]}
        if kind == "role":
            return {"name": key, "color": f["color"], "content_types": ["dcim.device"]}
        if kind == "location":
            return {"name": key, "location_type": m["location_type"], "status": m[PLANNED], "tags": tags,
                    "custom_fields": {"rail_designer": f["design"]}}
        if kind == "rack":
            return {"name": key, "location": ids["location"][f["location"]], "status": m[PLANNED],
                    "u_height": f["u_height"], "tags": tags}
        if kind == "device":
            return {"name": key, "device_type": ids["device_type"][f["device_type"]], "role": ids["role"][f["role"]],
                    "location": ids["location"][f["location"]], "status": m[PLANNED], "tags": tags,
                    "rack": ids["rack"][f["rack"]] if f["rack"] else None, "position": f["position"],
                    "face": f["face"] or "", "custom_fields": f["cf"]}
        if kind == "interface":
            parent = f"{f['device']}/{f['parent']}" if f["parent"] else None
            return {"device": ids["device"][f["device"]], "name": f["name"], "type": f["type"],
                    "status": m[PLANNED], "label": f["label"], "tags": tags, "custom_fields": f["cf"],
                    "parent_interface": ids["interface"][parent] if parent else None}
        if kind == "cable":
            return {"termination_a_type": "dcim.interface", "termination_a_id": ids["interface"][f["a"]],
                    "termination_b_type": "dcim.interface", "termination_b_id": ids["interface"][f["b"]],
                    "status": m[PLANNED], "type": f["type"] or "", "label": f["label"], "tags": tags,
                    "length": f["length"], "length_unit": "m" if f["length"] else ""}
        if kind == "prefix":
            return {"prefix": key, "namespace": m["namespace"], "status": m[ACTIVE], "type": f["type"],
                    "description": f["description"], "tags": tags, "location": ids["location"][f["location"]]}
        if kind == "ip":
            return {"address": key, "namespace": m["namespace"], "status": m[ACTIVE], "type": "host", "tags": tags}
        raise AssertionError(kind)

    def _apply_setup(self, setup: list[Change]) -> None:
        for change in setup:
            if change.kind == "tag":
                made = self._send("post", f"{self.api.base_url}/extras/tags/",
                                  json={"name": TAG, "content_types": TAG_TYPES,
                                        "description": "created and kept by rail-designer sot push"})
                self._meta["tag"] = made["id"]
            elif change.kind == "custom_field":
                key, kind, types = next(cf for cf in CUSTOM_FIELDS if cf[0] == change.key)
                if change.action == CREATE:
                    self._send("post", f"{self.api.base_url}/extras/custom-fields/",
                               json={"key": key, "label": key.replace("_", " "), "type": kind,
                                     "content_types": types, "description": "written by rail-designer"})
                else:
                    self._send("patch", f"{self.api.base_url}/extras/custom-fields/{self._meta[f'cf:{key}']}/",
                               json={"content_types": list(change.fields[0][2])})
            elif change.kind == "location_type":
                types = ["dcim.device", "dcim.rack", "ipam.prefix"]
                if change.action == CREATE:
                    made = self._send("post", f"{self.api.base_url}/dcim/location-types/",
                                      json={"name": LOCATION_TYPE, "content_types": types})
                    self._meta["location_type"] = made["id"]
                else:
                    found = self._send("get", f"{self.api.base_url}/dcim/location-types/{self._meta['location_type']}/")
                    self._send("patch", f"{self.api.base_url}/dcim/location-types/{self._meta['location_type']}/",
                               json={"content_types": sorted(set(found["content_types"]) | set(types))})
