"""Stage 2 for SONiC: a switch's plain dict -> ``config_db.json`` (CONFIG_DB tables; pure data,
so it is written by the json encoder rather than a template).

DEVICE_METADATA deliberately carries no ``hwsku``/``platform``: they name the image's own platform
files, and a guessed value would stop the switch from booting its config. ``config load`` merges
these tables into the running CONFIG_DB, keeping the device's own values.

Device type: a leaf faces servers, which SONiC calls ``ToRRouter`` (T0); a spine is SONiC's
``LeafRouter`` (T1); a core (super-spine, the third tier) is ``SpineRouter`` (T2). SONiC picks the
buffer defaults and cable lengths by this name (sonic-buildimage files/build_templates/
buffers_config.j2: torrouter -> t0, leafrouter -> t1, spinerouter -> t2; LowerSpineRouter,
UpperSpineRouter and FabricSpineRouter are its chassis and regional variants of T2).

BGP has one source of truth, the bundle's frr.conf: no BGP_NEIGHBOR rows. bgpcfgd runs in every
routing mode (docker-fpm-frr supervisord.conf.j2) and renders each BGP_NEIGHBOR row into FRR on
top of whatever frr.conf says (bgpcfgd managers_bgp.py, BGPPeerMgrBase). With
``docker_routing_config_mode: split-unified`` docker-fpm-frr's docker_init.sh generates nothing:
it keeps /etc/frr/frr.conf (the switch's /etc/sonic/frr/frr.conf), appends its two fpm lines if
missing, and ``vtysh -b`` loads it. The mode is read when the bgp container starts, so a change
needs ``systemctl restart bgp`` (the deploy does it).

PPD: the ACL table and the local-destination FORWARD rules only. SONiC's YANG has no way to say
"redirect to this next hop" (sonic-types packet_action is DROP/ACCEPT/FORWARD/REDIRECT/DO_NOT_NAT/
DISABLE_TRIM; sonic-acl.yang has no REDIRECT_ACTION), so the per-source pins are installed at run
time by the bundle's PPD agent (ppd/rail-ppd-agent.py, per leaf ppd-pins.json).
"""

from __future__ import annotations

import json
import json.encoder

import orjson

from .qos import qos_tables

DEVICE_TYPE = {"leaf": "ToRRouter", "spine": "LeafRouter", "core": "SpineRouter"}


def config_db(sw: dict) -> dict:
    db: dict[str, dict] = {
        "DEVICE_METADATA": {"localhost": {
            "hostname": sw["hostname"],
            "bgp_asn": str(sw["asn"]),
            "type": DEVICE_TYPE[sw["role"]],
            "docker_routing_config_mode": "split-unified",
        }},
        "PORT": {p["name"]: {
            "alias": p["alias"], "index": str(p["index"]), "lanes": p["lanes"], "speed": p["speed"],
            "fec": p["fec"], "mtu": p["mtu"], "admin_status": p["admin_status"],
            **({"description": p["description"]} if p["description"] else {}),
        } for p in sw["ports"]},
        "LOOPBACK_INTERFACE": {"Loopback0": {}, f"Loopback0|{sw['loopback']}": {}},
        "INTERFACE": {},
    }
    for i in sw["interfaces"]:
        db["INTERFACE"][i["port"]] = {}
        db["INTERFACE"][f"{i['port']}|{i['address']}"] = {}
    if sw["breakouts"]:
        db["BREAKOUT_CFG"] = {b["port"]: {"brkout_mode": b["mode"]} for b in sw["breakouts"]}
    vlan = sw["vlan"]
    if vlan:
        db["VLAN"] = {vlan["name"]: {"vlanid": str(vlan["vlanid"]), "mtu": str(sw["mtu"])}}
        db["VLAN_MEMBER"] = {f"{vlan['name']}|{m}": {"tagging_mode": "untagged"} for m in vlan["members"]}
        db["VLAN_INTERFACE"] = {vlan["name"]: {}, f"{vlan['name']}|{vlan['address']}": {}}
    ppd = sw["ppd"]
    if ppd:
        table = ppd["acl_table"]
        db["ACL_TABLE"] = {table: {"type": "L3", "stage": "ingress", "ports": ppd["ports"],
                                   "policy_desc": f"{ppd['name']} proactive path definition"}}
        db["ACL_RULE"] = {f"{table}|{r['rule']}": {"PRIORITY": str(r["priority"]), "PACKET_ACTION": "FORWARD",
                                                   "DST_IP": r["prefix"]} for r in ppd["local"]}
    db.update(qos_tables([p["name"] for p in sw["ports"] if p["cabled"]], set(sw["downlinks"])))
    return db


def config_db_json(sw: dict) -> str:
    """Tables and keys sorted, one line per entry: readable, diffable and fast for 500-port tables.

    Each entry is written as ``json.dumps(entry, sort_keys=True)`` would (`_entry`); `_one_line_entries`
    gets the same bytes from orjson for the documents every switch has (ASCII strings)."""
    db = config_db(sw)
    return _one_line_entries(db) or _formatted(db)


_string = json.encoder.encode_basestring_ascii
_entry = json.JSONEncoder(sort_keys=True).encode


def _formatted(db: dict[str, dict]) -> str:
    lines = ["{"]
    for t, name in enumerate(sorted(db)):
        lines.append(f"  {_string(name)}: {{")
        entries = db[name]
        keys = sorted(entries)
        lines += [f"    {_string(key)}: {_entry(entries[key])}," for key in keys]
        if keys:
            lines[-1] = lines[-1][:-1]
        lines.append("  }," if t < len(db) - 1 else "  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# orjson's OPT_INDENT_2 layout -> ours. A raw line break only ever stands between JSON tokens (inside
# strings it is escaped), so each pattern below can only match structure; its indentation says the
# depth: 2 a table, 4 an entry, 6 an entry's field, 8 an item of a field's list. First the lists and
# fields go onto their entry's line with json.dumps' ", " separator, then an empty table gets its own
# closing line as `_formatted` writes it.
_ONTO_ONE_LINE = (
    (b",\n        ", b", "), (b"[\n        ", b"["), (b"\n      ]", b"]"),
    (b",\n      ", b", "), (b"{\n      ", b"{"), (b"\n    }", b"}"),
    (b"{},\n  \"", b"{\n  },\n  \""), (b"{}\n}", b"{\n  }\n}"),
)
_DEEPER_THAN_AN_ENTRY = b"\n      "


def _one_line_entries(db: dict[str, dict]) -> str | None:
    """`_formatted`'s text from one orjson call and a few replaces, or None when this document is not
    of the shape the replaces handle: entries deeper than a list of strings (a nested object stays on
    lines of its own, caught by its indentation), or text orjson escapes differently from
    ``json.dumps(ensure_ascii=True)``, which it does only for bytes above 0x7E (written raw, not as
    ``\\uXXXX``). CONFIG_DB entries are flat objects of strings and lists of strings; numbers and
    floats have no place in them (orjson writes floats its own way)."""
    if not db:
        return None                          # orjson: "{}" on one line
    text = orjson.dumps(db, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    if not text.isascii() or b"\x7f" in text:
        return None
    for pattern, replacement in _ONTO_ONE_LINE:
        text = text.replace(pattern, replacement)
    if _DEEPER_THAN_AN_ENTRY in text:
        return None
    return text.decode() + "\n"
