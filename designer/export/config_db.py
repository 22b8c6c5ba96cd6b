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

Load balancing other than PPD (`export.load_balancing`): no ACL table, and ``SWITCH_HASH|GLOBAL`` with the
hash fields for ecmp and qp-hash.
"""

from __future__ import annotations

import json

from ..model.lossless import Lossless
from .jsondump import deep_on_one_line
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
    if sw["load_balancing"]["hash"]:
        db["SWITCH_HASH"] = sw["load_balancing"]["hash"]
    db.update(qos_tables([p["name"] for p in sw["ports"] if p["cabled"]], set(sw["downlinks"]),
                         Lossless(**sw["lossless"]), sw.get("cable_lengths")))
    return db


def config_db_json(sw: dict) -> str:
    return config_db_text(config_db(sw))


def config_db_text(db: dict) -> str:
    """Tables and keys sorted, one line per entry (as ``json.dumps(entry, sort_keys=True)`` writes it):
    readable, diffable and fast for 500-port tables. An empty table keeps its closing brace on a line of
    its own."""
    text = deep_on_one_line(db, depth=2, sort_keys=True) + "\n"
    for name in (name for name, entries in db.items() if not entries):
        text = text.replace(f"\n  {json.dumps(name)}: {{}}", f"\n  {json.dumps(name)}: {{\n  }}")
    return text
