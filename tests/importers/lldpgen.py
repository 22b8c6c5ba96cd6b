"""Write the LLDP dumps a cabled network would give: lldpctl JSON on hosts, SONiC tables on switches.

Used by the property tests: the dumps of a network cabled exactly as designed must verify clean,
and changing the cables handed in here must be reported as exactly that change.
"""

from __future__ import annotations

import json

from designer.model.ids import natural_key, split_endpoint


def _describe(fabric, ep):
    """(host name, port ID as LLDP would send it) for a design endpoint."""
    device, port = split_endpoint(ep)
    if device in fabric.servers:
        return fabric.servers[device].hostname, fabric.nic(ep).netdev
    return fabric.switches[device].hostname, port


def dumps_for(fabric, cables, json0_hosts=()):
    """file name -> text for every device, from ``cables`` (pairs of endpoints)."""
    seen = {}
    for a, b in cables:
        seen.setdefault(split_endpoint(a)[0], []).append((a, b))
        seen.setdefault(split_endpoint(b)[0], []).append((b, a))
    files = {}
    for device in sorted(seen, key=natural_key):
        rows = sorted(seen[device], key=lambda r: natural_key(r[0]))
        if device in fabric.servers:
            host = fabric.servers[device].hostname
            if device in json0_hosts:
                files[f"{host}.json"] = _json0(fabric, rows)
            else:
                files[f"{host}.json"] = _json(fabric, rows)
        else:
            files[f"{fabric.switches[device].hostname}.txt"] = _sonic(fabric, rows)
    return files


def _json(fabric, rows):
    interfaces = []
    for local, remote in rows:
        name, port = _describe(fabric, remote)
        interfaces.append({_describe(fabric, local)[1]: {
            "via": "LLDP", "rid": "1", "age": "0 day, 00:10:00",
            "chassis": {name: {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}, "descr": "SONiC",
                               "capability": [{"type": "Router", "enabled": True}]}},
            "port": {"id": {"type": "ifname", "value": port}, "descr": port, "ttl": "120"}}})
    body = interfaces[0] if len(interfaces) == 1 else interfaces
    return json.dumps({"lldp": {"interface": body}}, indent=2)


def _json0(fabric, rows):
    interfaces = []
    for local, remote in rows:
        name, port = _describe(fabric, remote)
        interfaces.append({
            "name": _describe(fabric, local)[1], "via": "LLDP", "rid": "1", "age": "0 day, 00:10:00",
            "chassis": [{"id": [{"type": "mac", "value": "0c:42:a1:00:00:01"}], "name": [{"value": name}],
                         "descr": [{"value": "SONiC"}]}],
            "port": [{"id": [{"type": "ifname", "value": port}], "descr": [{"value": port}],
                      "ttl": [{"value": "120"}]}]})
    return json.dumps({"lldp": [{"interface": interfaces}]}, indent=2)


def _sonic(fabric, rows):
    table = [("LocalPort", "RemoteDevice", "RemotePortID", "Capability", "RemotePortDescr")]
    for local, remote in rows:
        name, port = _describe(fabric, remote)
        is_host = split_endpoint(remote)[0] in fabric.servers
        table.append((split_endpoint(local)[1], name, port, "" if is_host else "BR",
                      "Mellanox ConnectX-7 port" if is_host else f"to {port}"))
    widths = [max(len(r[k]) for r in table) + 2 for k in range(5)]
    fmt = lambda r: "".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
    lines = ["Capability codes: (R) Router, (B) Bridge, (O) Other", fmt(table[0]),
             "".join(("-" * (w - 2)).ljust(w) for w in widths).rstrip()]
    lines += [fmt(r) for r in table[1:]]
    lines += ["-" * 40, f"Total entries displayed:  {len(rows)}"]
    return "\n".join(lines) + "\n"
