"""A switch's exported config_db.json turned into Linux configuration, the way SONiC applies it.

On SONiC, portmgrd sets each PORT's MTU and admin status on its netdev, vlanmgrd makes ``Vlan<id>`` a
bridge holding the VLAN_MEMBER ports, intfmgrd adds the INTERFACE / VLAN_INTERFACE / LOOPBACK_INTERFACE
addresses, and orchagent programs the ACL_TABLE's rules into the ASIC. Here the same tables, read from
the rendered file, become `ip -batch` lines:

- PORT ``admin_status: up`` -> ``link set dev <port> mtu <mtu> up`` (only ports that have a cable here);
- ``Loopback0|<a>`` -> an address on ``lo`` (SONiC makes a Loopback0 netdev; same routing effect);
- ``<port>|<a>`` and ``Vlan<id>|<a>`` -> addresses; VLAN + VLAN_MEMBER -> a bridge and its members;
- an ACL rule with ``PACKET_ACTION: FORWARD`` and ``DST_IP`` on an ingress L3 table -> ``ip rule to <dst>
  iif <where the bound ports' packets enter routing> lookup main`` at pref ``10000 - PRIORITY`` (the
  same order the PPD agent's rules use). REDIRECT rules are left out: installing pins is
  rail-ppd-agent's job; they are counted so the report can say so.
- ``SWITCH_HASH|GLOBAL ecmp_hash`` -> the kernel's multipath hash (``net.ipv4.fib_multipath_hash_policy``,
  per namespace): 1 (source and destination address, protocol, source and destination port) when the
  fields name an L4 port, else 0 (addresses only), the nearest Linux has to the ASIC's field list.
  Without the table the kernel's default, 0, stays (SONiC's own default hashes the 5-tuple too, so the
  emulation is stricter there than a switch).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Callable

from ..export.ppd_data import LINUX_PREF_BASE
from .errors import EmulationError


HASH_POLICY = "net.ipv4.fib_multipath_hash_policy"


@dataclass
class Applied:
    lines: list[str] = field(default_factory=list)
    skipped_redirects: int = 0
    sysctls: list[str] = field(default_factory=list)


def _entries(db: dict, table: str) -> list[tuple[str, str]]:
    """(object, address) of every ``object|address`` key of an interface table."""
    out = []
    for key in sorted(db.get(table, {})):
        name, sep, address = key.partition("|")
        if sep:
            out.append((name, address))
    return out


def apply_config_db(text: str, hostname: str, ifname: Callable[[str], str], cabled: set[str]) -> Applied:
    """``ifname`` maps a SONiC port name to its interface in the namespace; ``cabled`` holds the ports
    that have a veth here."""
    try:
        db = json.loads(text)
    except ValueError as exc:
        raise EmulationError(f"{hostname}/config_db.json is not JSON: {exc}") from None
    out = Applied(["link set dev lo up"])
    for port, entry in sorted(db.get("PORT", {}).items()):
        if entry.get("admin_status") == "up" and port in cabled:
            out.lines.append(f"link set dev {ifname(port)} mtu {entry.get('mtu', '9100')} up")
    for _, address in _entries(db, "LOOPBACK_INTERFACE"):
        out.lines.append(f"address add {address} dev lo")
    for port, address in _entries(db, "INTERFACE"):
        out.lines.append(f"address add {address} dev {ifname(port)}")
    members: dict[str, str] = {}
    for vlan in sorted(db.get("VLAN", {})):
        out.lines.append(f"link add {vlan} type bridge")
        for key in sorted(db.get("VLAN_MEMBER", {})):
            name, _, port = key.partition("|")
            if name == vlan:
                out.lines.append(f"link set dev {ifname(port)} master {vlan}")
                members[port] = vlan
        out.lines += [f"address add {a} dev {vlan}" for v, a in _entries(db, "VLAN_INTERFACE") if v == vlan]
        out.lines.append(f"link set dev {vlan} up")
    _acl(db, out, lambda port: members.get(port) or ifname(port))
    fields = db.get("SWITCH_HASH", {}).get("GLOBAL", {}).get("ecmp_hash")
    if fields:
        l4 = bool({"L4_SRC_PORT", "L4_DST_PORT"} & set(fields))
        out.sysctls.append(f"{HASH_POLICY}={1 if l4 else 0}")
    return out


def _acl(db: dict, out: Applied, l3_interface: Callable[[str], str]) -> None:
    tables = db.get("ACL_TABLE", {})
    for key, rule in sorted(db.get("ACL_RULE", {}).items(), key=lambda kv: -int(kv[1].get("PRIORITY", "0"))):
        table, _, name = key.partition("|")
        spec = tables.get(table)
        if spec is None or spec.get("type") != "L3" or spec.get("stage", "ingress") != "ingress":
            continue
        action = rule.get("PACKET_ACTION", "")
        if action.startswith("REDIRECT"):
            out.skipped_redirects += 1
            continue
        if action != "FORWARD" or "DST_IP" not in rule or set(rule) - {"PRIORITY", "PACKET_ACTION", "DST_IP"}:
            raise EmulationError(f"ACL rule {key}: the emulation models FORWARD rules matching DST_IP only")
        pref = LINUX_PREF_BASE - int(rule["PRIORITY"])
        for iif in sorted({l3_interface(port) for port in spec.get("ports", [])}):
            out.lines.append(f"rule add to {rule['DST_IP']} iif {iif} lookup main pref {pref}")
