"""Stage 2 for SONiC: a switch's plain dict -> ``config_db.json`` (CONFIG_DB tables; pure data,
so it is written by the json encoder rather than a template).

DEVICE_METADATA deliberately carries no ``hwsku``/``platform``: they name the image's own platform
files, and a guessed value would stop the switch from booting its config. ``config load`` merges
these tables into the running CONFIG_DB, keeping the device's own values.
``docker_routing_config_mode: split-unified`` makes FRR read the bundle's ``frr.conf`` as is.
"""

from __future__ import annotations

import json
import json.encoder

from .qos import qos_tables

DEVICE_TYPE = {"leaf": "LeafRouter", "spine": "SpineRouter"}


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
        "BGP_NEIGHBOR": {n["ip"]: {
            "asn": str(n["asn"]), "name": n["name"], "local_addr": n["local_addr"],
            "holdtime": str(sw["bgp"]["holdtime"]), "keepalive": str(sw["bgp"]["keepalive"]),
            "admin_status": "up",
        } for n in sw["bgp"]["neighbors"]},
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
        rules = {}
        for r in ppd["local"]:
            rules[f"{table}|{r['rule']}"] = {"PRIORITY": str(r["priority"]), "PACKET_ACTION": "FORWARD",
                                             "DST_IP": r["prefix"]}
        for r in ppd["pins"]:
            rules[f"{table}|{r['rule']}"] = {"PRIORITY": str(r["priority"]), "PACKET_ACTION": r["redirect"],
                                             "SRC_IP": r["source_prefix"]}
        db["ACL_RULE"] = rules
    db.update(qos_tables([p["name"] for p in sw["ports"] if p["cabled"]]))
    return db


def _value(value) -> str:
    """JSON for a CONFIG_DB entry: a flat object of strings (or lists of strings), keys sorted.

    CONFIG_DB entries have exactly this shape; formatting them directly with the C string encoder
    is several times faster than json.dumps per entry. Any other shape is a programming error."""
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_string, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_string(k)}: {_value(value[k])}" for k in sorted(value)) + "}"
    raise TypeError(f"CONFIG_DB values are strings, lists or objects, not {type(value).__name__}")


_string = json.encoder.encode_basestring_ascii


def config_db_json(sw: dict) -> str:
    """Tables and keys sorted, one line per entry: readable, diffable and fast for 500-port tables."""
    db = config_db(sw)
    lines = ["{"]
    for t, table in enumerate(sorted(db)):
        lines.append(f"  {_string(table)}: {{")
        entries = db[table]
        keys = sorted(entries)
        last = len(keys) - 1
        for k, key in enumerate(keys):
            lines.append(f"    {_string(key)}: {_value(entries[key])}{',' if k < last else ''}")
        lines.append("  }" + ("," if t < len(db) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"
