"""Stage 1 of the switch export: one plain dict per switch, every name and number decided here.

The SONiC and FRR writers only format this dict. Keys (all values are str, int, bool, list, dict):

``hostname role asn router_id loopback mtu model nos redirect_to_nexthop`` — the device; ``group`` and
``fabric_plane`` (its spine or core group, its plane; None / 0 in two tiers and one plane) and ``where``
(the same as text for NOTES.txt, empty when there is neither);
``ports`` — every front-panel port (cabled ones admin up) with SONiC's lanes/speed strings;
``breakouts`` — the cage modes when any cage is broken out; ``interfaces`` — routed /31 ports;
``vlan`` — the server VLAN of a subnet-per-leaf leaf (else None); ``bgp`` — timers, neighbours,
the networks to advertise and the ``discard`` routes that let FRR advertise them; ``ppd`` — the
leaf's pinned paths (else None), see `ppd_data`; ``lossless`` — the ECN and PFC watchdog values (the
fields of `model.lossless.Lossless`: the design's overrides over the defaults).
"""

from __future__ import annotations

from dataclasses import asdict
from functools import lru_cache

from ..model.addressing import cidr_str, network_of
from ..model.entities import SWITCH_PORT_MTU, Role, Switch
from ..model.fabric import Fabric
from ..model.hardware import Port, SwitchModel
from ..model.ids import endpoint, is_valid_port_name
from ..model.lossless import resolve
from ..planning.addressing import loopback_key, svi_key
from .floor_data import port_lengths
from .errors import ExportError, require_hostname, require_port_name
from .load_balancing import switch_hash, switch_notes
from .ppd_data import leaf_ppd_data, server_prefixes

SERVER_VLAN = 1000                 # the one VLAN that holds a subnet-per-leaf leaf's servers
BGP_KEEPALIVE, BGP_HOLDTIME = 3, 9
RS_FEC_FROM_GBPS = 200             # PAM4 lanes (50G and up per lane) need RS-FEC


def address_of(fabric: Fabric, key: str, what: str) -> str:
    """The CIDR stored under ``key``; a missing one is an export error that says how to fix it."""
    cidr = fabric.addresses.get(key)
    if cidr is None:
        raise ExportError(f"{what} '{key}' has no address; plan the addresses (rail-designer assign) "
                          "or set one by hand before exporting")
    return cidr


def ip_of(cidr: str) -> str:
    return cidr.partition("/")[0]


@lru_cache(maxsize=4096)
def _port_strings(port: Port) -> tuple[tuple[str, object], ...]:
    """The SONiC strings that depend on the port alone (ports are shared by every switch of a model)."""
    return (("name", port.name), ("alias", port.alias), ("index", port.cage),
            ("lanes", ",".join(map(str, port.lanes))), ("speed", str(port.speed * 1000)),
            ("fec", "rs" if port.speed >= RS_FEC_FROM_GBPS else "none"), ("mtu", str(SWITCH_PORT_MTU)),
            ("breakout", port.breakout))


def port_entry(port: Port, peer_host: str | None, peer_port: str | None) -> dict:
    entry = dict(_port_strings(port))
    entry["admin_status"] = "up" if peer_host else "down"
    entry["description"] = f"{peer_host}:{peer_port}" if peer_host else ""
    entry["cabled"] = peer_host is not None
    return entry


def _peer(fabric: Fabric, peer_ep: str) -> tuple[str, str, Switch | None]:
    """(host name, port as the peer calls it, the peer if it is a switch) of the far end of a cable."""
    device_id, _, port = peer_ep.partition("/")
    switch = fabric.switches.get(device_id)
    device = switch or fabric.servers[device_id]
    if switch is None:
        port = fabric.nic(peer_ep).netdev
    # Peer names land in config lines (descriptions): refuse any that could break a line.
    return _checked_hostname(device.hostname, device_id), _checked_port(port, device_id), switch


def breakout_entries(fabric: Fabric, switch: Switch) -> list[dict]:
    """Every cage's mode, keyed by its first port, when any cage leaves the native mode."""
    if not switch.breakouts:
        return []
    return [dict(entry) for entry in _breakouts(fabric.catalog.switch(switch.model), switch.breakouts)]


@lru_cache(maxsize=256)
def _breakouts(model: SwitchModel, breakouts: tuple[tuple[int, str], ...]) -> tuple[tuple, ...]:
    modes = dict(breakouts)
    out = []
    for cage in range(1, model.ports + 1):
        mode = modes.get(cage, model.native_mode)
        out.append((("port", model.cage_ports(cage, mode)[0].name), ("cage", cage), ("mode", mode)))
    return tuple(out)


def switch_data(fabric: Fabric, switch_id: str) -> dict:
    """Everything the switch's config_db.json, frr.conf and NOTES.txt say, as plain data."""
    switch = fabric.switches[switch_id]
    hostname = require_hostname(switch.hostname, switch_id)
    model = fabric.catalog.switch(switch.model)
    is_leaf = switch.role is Role.LEAF
    ports, interfaces, neighbors, downlinks = [], [], [], []
    peers = {port.name: peer_ep for port, peer_ep in fabric.cabled_ports(switch_id)}
    p2p31 = fabric.settings.addressing.scheme == "p2p31"
    for port in fabric.ports(switch_id).values():
        _checked_port(port.name, switch_id)
        peer_ep = peers.get(port.name)
        if peer_ep is None:
            ports.append(port_entry(port, None, None))
            continue
        peer_host, peer_port, peer = _peer(fabric, peer_ep)
        ports.append(port_entry(port, peer_host, peer_port))
        ep = endpoint(switch_id, port.name)
        if peer is not None:
            local = address_of(fabric, ep, "switch port")
            remote = address_of(fabric, peer_ep, "switch port")
            interfaces.append({"port": port.name, "address": local})
            neighbors.append({"ip": ip_of(remote), "asn": _asn(fabric, peer.id), "name": peer_host,
                              "peer_port": peer_port, "local_port": port.name, "local_addr": ip_of(local)})
        else:
            downlinks.append(port.name)
            if p2p31:
                interfaces.append({"port": port.name, "address": address_of(fabric, ep, "leaf downlink")})
    loopback = address_of(fabric, loopback_key(switch_id), "loopback")
    vlan = _vlan(fabric, switch_id, downlinks) if is_leaf and downlinks else None
    local = server_prefixes(fabric, switch_id) if is_leaf else []
    ppd = leaf_ppd_data(fabric, switch_id, hostname, local) if is_leaf and downlinks else None
    networks = [loopback] + local
    lb = fabric.settings.load_balancing
    return {
        "id": switch_id,
        "hostname": hostname,
        "role": switch.role.value,
        "model": switch.model,
        "vendor": model.vendor,
        "nos": model.nos,
        "redirect_to_nexthop": model.redirect_to_nexthop,
        "su": switch.su, "rail": switch.rail, "plane": switch.plane,
        "group": switch.group, "fabric_plane": switch.fabric_plane, "where": _where(fabric, switch),
        "asn": _asn(fabric, switch_id),
        "loopback": loopback,
        "router_id": ip_of(loopback),
        "mtu": SWITCH_PORT_MTU,
        "ports": ports,
        "breakouts": breakout_entries(fabric, switch),
        "interfaces": interfaces,
        "downlinks": downlinks,
        "vlan": vlan,
        "bgp": {
            "keepalive": BGP_KEEPALIVE, "holdtime": BGP_HOLDTIME, "maximum_paths": 64,
            "neighbors": neighbors,
            "networks": networks,
            "discard": discard_routes(networks, [loopback] + [i["address"] for i in interfaces]
                                      + ([vlan["address"]] if vlan else [])),
        },
        "ppd": ppd,
        "lossless": asdict(resolve(fabric.settings.lossless)),
        "load_balancing": {"mode": lb.mode, "hash": switch_hash(lb), "notes": switch_notes(lb)},
        "cable_lengths": port_lengths(fabric, switch_id),     # None without a floor: the QoS defaults
    }


def _where(fabric: Fabric, switch: Switch) -> str:
    """``' of spine group 2, fabric plane 1'``: the switch's place past two tiers and one plane ('' in them)."""
    parts = []
    if switch.group is not None:
        parts.append(f"{'core' if switch.role is Role.CORE else 'spine'} group {switch.group}")
    if fabric.settings.fabric_planes > 1:
        parts.append(f"fabric plane {switch.fabric_plane}")
    return f" of {', '.join(parts)}" if parts else ""


def discard_routes(networks: list[str], connected: list[str]) -> list[str]:
    """The advertised networks that no connected route matches exactly (a p2p31 leaf's aggregate of its
    downlink /31s). FRR sends a ``network`` only when that exact prefix is in the RIB (``bgp network
    import-check``, on by default since 7.4), so each one gets a discard route (``blackhole``, staticd,
    which SONiC's bgp container runs): the /31s inside it are longer and still win."""
    lengths = {prefix.partition("/")[2] for prefix in networks}       # only these can match exactly
    exact = {cidr_str(*network_of(cidr)) for cidr in connected if cidr.partition("/")[2] in lengths}
    return [prefix for prefix in networks if prefix not in exact]


@lru_cache(maxsize=65536)
def _checked_hostname(hostname: str, device_id: str) -> str:
    return require_hostname(hostname, device_id)


@lru_cache(maxsize=65536)
def _valid_port_name(name: str) -> bool:
    return is_valid_port_name(name)


def _checked_port(name: str, device_id: str) -> str:
    """`require_port_name` with the verdict on the name remembered (every switch of a model has the same ports)."""
    return name if _valid_port_name(name) else require_port_name(name, device_id)


def _asn(fabric: Fabric, switch_id: str) -> int:
    asn = fabric.asns.get(switch_id)
    if asn is None:
        raise ExportError(f"switch '{switch_id}' has no BGP ASN; plan the addresses and ASNs before exporting")
    return asn


def _vlan(fabric: Fabric, leaf_id: str, downlinks: list[str]) -> dict | None:
    if fabric.settings.addressing.scheme == "p2p31":
        return None
    svi = address_of(fabric, svi_key(leaf_id), "leaf gateway")
    net, prefix = network_of(svi)
    return {"name": f"Vlan{SERVER_VLAN}", "vlanid": SERVER_VLAN, "address": svi,
            "subnet": cidr_str(net, prefix), "members": list(downlinks)}

