"""lldpd's two text forms of its neighbour table (`lldp` turns their rows into neighbours).

- ``lldpctl`` / ``lldpcli show neighbors`` (and SONiC's ``show lldp neighbors``, which prints it): one block
  per neighbour, opened by ``Interface:    Ethernet104, via: LLDP, RID: 6, Time: ...``, with indented
  ``SysName:``, ``PortID:    ifname Ethernet1`` (the ID's subtype, then the ID) and ``PortDescr:`` lines;
  blocks may be separated by dashed rules.
- ``lldpctl -f keyvalue``: ``lldp.<interface>.<key>=<value>`` lines, e.g. ``lldp.eth2.chassis.name=sw1``,
  ``lldp.eth2.port.ifname=TenGigabitEthernet0/2`` (the port ID under its subtype's name), ``lldp.eth2.port.descr=``.
  An interface name may hold dots (``eth0.100``): the key is the part from the first known field on.

Each reader returns rows ``(local port, system name, port id, port description)``, None for what is absent.
"""

from __future__ import annotations

import re

Row = tuple[str, str | None, str | None, str | None]

_INTERFACE = re.compile(r"^\s*Interface:\s+(\S+?),\s+via:")
_FIELD = re.compile(r"^\s*(SysName|PortID|PortDescr):\s*(.*?)\s*$")
_PORT_SUBTYPES = ("ifname", "mac", "local", "ip", "ifalias", "unhandled")
_KEYVALUE = re.compile(r"^lldp\.(\S+?)=(.*)$")
# The fields lldpd writes under an interface: the interface name ends before the first of these.
_KV_HEADS = ("via", "rid", "age", "chassis", "port", "vlan", "ppvid", "pi", "lldp-med", "unknown-tlvs", "ttl")
_KV_PORT_IDS = tuple(f"port.{subtype}" for subtype in _PORT_SUBTYPES)


def is_lldpctl_text(text: str) -> bool:
    return any(_INTERFACE.match(line) for line in text.splitlines())


def is_keyvalue(text: str) -> bool:
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
    return bool(lines) and sum(bool(_KEYVALUE.match(line)) for line in lines) * 2 > len(lines)


def _port_id(value: str) -> str | None:
    """``ifname Ethernet1`` -> ``Ethernet1``; a value without a subtype word is kept whole."""
    head, _, rest = value.partition(" ")
    return (rest.strip() or None) if head in _PORT_SUBTYPES else (value or None)


def read_lldpctl_text(text: str) -> list[Row]:
    rows: list[Row] = []
    current: dict | None = None
    for line in text.splitlines():
        m = _INTERFACE.match(line)
        if m:
            if current is not None:
                rows.append(_row(current))
            current = {"local": m.group(1)}
            continue
        f = _FIELD.match(line)
        if f and current is not None and f.group(1) not in current:
            current[f.group(1)] = f.group(2)
    if current is not None:
        rows.append(_row(current))
    return rows


def _row(block: dict) -> Row:
    port = block.get("PortID")
    return (block["local"], block.get("SysName") or None, _port_id(port) if port else None,
            block.get("PortDescr") or None)


def _split_key(path: str) -> tuple[str, str] | None:
    """``eth0.100.chassis.name`` -> (``eth0.100``, ``chassis.name``)."""
    parts = path.split(".")
    for cut in range(1, len(parts)):
        if parts[cut] in _KV_HEADS:
            return ".".join(parts[:cut]), ".".join(parts[cut:])
    return None


def read_keyvalue(text: str) -> list[Row]:
    found: dict[str, dict] = {}
    for line in text.splitlines():
        m = _KEYVALUE.match(line.strip())
        if not m:
            continue
        split = _split_key(m.group(1))
        if split is None:
            continue
        interface, key = split
        fields = found.setdefault(interface, {})
        fields.setdefault(key, m.group(2).strip())
    rows = []
    for interface, fields in found.items():
        port = next((fields[k] for k in _KV_PORT_IDS if k in fields), None)
        rows.append((interface, fields.get("chassis.name") or None, port or None, fields.get("port.descr") or None))
    return rows
