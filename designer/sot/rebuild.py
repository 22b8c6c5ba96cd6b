"""`pull`: a design rebuilt from what a source of truth holds for it.

From native objects: the devices (name, role, device type -> catalog model, rack, unit, the su / rail /
plane custom fields), every cable between two of the site's interfaces (whoever made it), and every
address on an interface. From the ``rail_designer`` custom fields: the design-wide part of the design
file (the site's) and each device's fields that no object holds (host name, spine group, breakouts,
NIC overrides, ASN, pinned flags). The result goes through the design-file reader, so a source of
truth that does not make a valid design is refused with the reader's message.
"""

from __future__ import annotations

from ..model.ids import natural_key
from .desired import ROLES, SERVER_ROLE
from .devicetypes import model_of
from .errors import SotError

_ROLE_OF = {name: role.value for role, name in ROLES.items()}


def endpoint_of(device: dict, interface: dict) -> str:
    """The design endpoint an interface stands for: a server NIC and a virtual interface by their label
    (``nic3``, ``lo``, ``svi``), a switch port by its name."""
    by_label = device["role"] == SERVER_ROLE or interface["type"] == "virtual"
    return f"{interface['device']}/{interface['label'] if by_label else interface['name']}"


def design_text(site: str, objects: dict, links: list[tuple[str, str]], source: str) -> str:
    """The design file text for what the server holds. ``objects``: the pulled `State.objects`;
    ``links``: every cable of the site as (interface key, interface key)."""
    from ..storage.records import write as write_document
    location = objects["location"].get(site)
    if location is None or not isinstance(location.get("design"), dict):
        raise SotError(f"{source} has no site '{site}' written by rail-designer (its rail_designer field holds "
                       "the design's settings): push the design first, or name the site with --site")
    doc = dict(location["design"])
    devices = objects["device"]
    interfaces = objects["interface"]
    ends = {key: endpoint_of(devices[i["device"]], i) for key, i in interfaces.items() if i["device"] in devices}
    switches, servers, asns, pinned = [], [], [], set()
    for name in sorted(devices, key=natural_key):
        d = devices[name]
        extras = dict(d["cf"].get("rail_designer") or {})
        if d["role"] not in _ROLE_OF and d["role"] != SERVER_ROLE:
            continue                           # not a fabric device (a console server, a PDU ...)
        pinned.update(f"{name}/{port}" for port in extras.pop("pinned", ()))
        asn, asn_pinned = extras.pop("asn", None), extras.pop("asn_pinned", False)
        if asn is not None:
            asns.append(f"{name} {asn}" + (" pinned" if asn_pinned else ""))
        record = {"id": name}
        if d["role"] != SERVER_ROLE:
            record["role"] = _ROLE_OF[d["role"]]
        record["model"] = model_of(d["device_type"])
        for key in ("su", "rail", "plane"):
            if d["cf"].get(key) is not None:
                record[key] = d["cf"][key]
        if d.get("rack"):
            record["rack"] = d["rack"]
        if d.get("position") is not None:
            record["position"] = int(d["position"])
        record.update(extras)
        (servers if d["role"] == SERVER_ROLE else switches).append(record)
    doc["switches"], doc["servers"] = switches, servers
    cables = sorted(f"{ends[a]} -- {ends[b]}" for a, b in links if a in ends and b in ends)
    addresses = []
    for cidr, ip in objects["ip"].items():
        where = ends.get(ip.get("interface"))
        if where is not None:
            addresses.append((where, cidr))
    lines = [f"{key} {cidr}" + (" pinned" if key in pinned else "") for key, cidr in
             sorted(addresses, key=lambda kc: natural_key(kc[0]))]
    parts = [write_document(doc)]
    for table, rows in (("links", cables), ("asns", asns), ("addresses", lines)):
        parts.append(f"{table}: |\n  " + "\n  ".join(rows) + "\n" if rows else f"{table}: ''\n")
    return "".join(parts)
