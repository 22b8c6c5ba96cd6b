"""What hovering an object on the canvas says, computed from the model when asked (never stale):
a NIC's address, rail, speed, fabric plane and the port it is cabled to; a switch's role, rail or
plane, spine or core group, fabric plane, ports in use, loopback and ASN; a server's model and SU; a cable's ends, speed, rail and addresses. The
findings that name the object follow."""

from __future__ import annotations

from ..model.ids import split_endpoint
from ..planning.addressing import loopback_key, svi_key

MAX_FINDINGS = 4
HINTS = {  # what the mouse can do with it (F1 lists every gesture)
    "nic": "drag onto a switch to cable it there; right-click for more",
    "server": "right-click: cable its NICs to their rail leaves, trace a path, duplicate…",
    "leaf": "drag sideways onto another lane to change its rail; Shift+drag to a spine to cable it",
    "spine": "Shift+drag to a leaf or a core to cable it; right-click for more",
    "core": "Shift+drag to a spine to cable it; right-click for more",
    "cable": "drag an end (just off the device) onto another device to move that end",
}


def tooltip(fabric, model_id: str, findings=()) -> str:
    if model_id in fabric.links:
        lines, kind = _cable(fabric, model_id), "cable"
    elif model_id in fabric.servers:
        lines, kind = _server(fabric, fabric.servers[model_id]), "server"
    elif model_id in fabric.switches:
        lines, kind = _switch(fabric, fabric.switches[model_id]), fabric.switches[model_id].role.value
    elif "/" in model_id and split_endpoint(model_id)[0] in fabric.servers:
        lines, kind = _nic(fabric, model_id), "nic"
    else:
        return model_id
    named = [f for f in findings if model_id in f.ids]
    for f in named[:MAX_FINDINGS]:
        lines.append(f"{f.severity.value.upper()} {f.code}: {f.message}")
    if len(named) > MAX_FINDINGS:
        lines.append(f"... and {len(named) - MAX_FINDINGS} more findings")
    lines.append(HINTS[kind])
    return "\n".join(lines)


def _address(fabric, key: str) -> str:
    value = fabric.addresses.get(key)
    if value is None:
        return "no address"
    return value + (" (pinned)" if fabric.is_pinned(key) else "")


def _nic(fabric, nic_id: str) -> list[str]:
    nic = fabric.nic(nic_id)
    peer = fabric.peer(nic_id)
    return [f"{nic_id}  ({nic.netdev} / {nic.rdma})",
            f"rail {nic.rail if nic.rail is not None else '-'}, {nic.speed}G, GPUs {', '.join(map(str, nic.gpus)) or '-'}"
            + (f", fabric plane {nic.fabric_plane}" if fabric.settings.fabric_planes > 1 or nic.fabric_plane else ""),
            f"address: {_address(fabric, nic_id)}",
            f"cabled to: {peer}" if peer else "not cabled: drag it onto its rail's leaf"]


def _server(fabric, server) -> list[str]:
    cabled = sum(1 for n in server.nics if fabric.peer(n.id))
    name = server.id if server.hostname == server.id else f"{server.id} ({server.hostname})"
    return [name, f"{server.model}, SU{server.su}, {server.gpus} GPUs",
            f"{cabled} of {len(server.nics)} NICs cabled"]


def _switch(fabric, switch) -> list[str]:
    ports = fabric.ports(switch.id)
    used = len(fabric.cabled_ports(switch.id))
    name = switch.id if switch.hostname == switch.id else f"{switch.id} ({switch.hostname})"
    role = switch.role.value
    where = (f"leaf of rail {switch.rail}, SU{switch.su}" if role == "leaf"
             else f"{role}{'' if switch.plane is None else f' of plane {switch.plane}'}")
    if switch.group is not None:
        where += f", {'core' if role == 'core' else 'spine'} group {switch.group}"
    if fabric.settings.fabric_planes > 1 or switch.fabric_plane:
        where += f", fabric plane {switch.fabric_plane}"
    lines = [name, f"{switch.model}: {where}", f"{used} of {len(ports)} ports cabled",
             f"loopback: {_address(fabric, loopback_key(switch.id))}, ASN {fabric.asns.get(switch.id, '-')}"]
    if svi_key(switch.id) in fabric.addresses:
        lines.append(f"gateway: {_address(fabric, svi_key(switch.id))}")
    return lines


def _cable(fabric, link_id: str) -> list[str]:
    link = fabric.links[link_id]
    lines = [f"{link.a}  --  {link.b}", f"{link.speed}G"]
    for ep in (link.a, link.b):
        if ep in fabric.addresses:
            lines.append(f"{ep}: {_address(fabric, ep)}")
    return lines
