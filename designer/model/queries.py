"""The read side of the Fabric aggregate: its state and every question asked of it.

`Fabric` (fabric.py) adds the only methods that change this state.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator, Mapping

from . import events as ev
from .entities import DesignSettings, Link, Nic, Rail, Role, ScalableUnit, Server, Switch
from .errors import ModelError
from .hardware import Catalog, Port
from .ids import endpoint, natural_key, split_endpoint
from .limits import MAX_NIC_INDEX

Listener = Callable[[ev.Event], None]


# 'nic<index>' -> index for every index a catalog may give a NIC (looked up, not parsed, on every
# cable end). Exact names only: 'nic03' or other digit forms name no NIC, as a NIC's id is 'nic3'.
_NIC_INDEX = {f"nic{i}": i for i in range(MAX_NIC_INDEX + 1)}
_NIC_NAME = re.compile(r"nic(?:0|[1-9][0-9]*)\Z").match


def nic_index(port: str) -> int | None:
    """``'nic3'`` -> 3; None for anything else."""
    index = _NIC_INDEX.get(port)
    if index is None and _NIC_NAME(port):      # a model built in code may number past the catalog's limit
        return int(port[3:])
    return index


def asn_key(switch_id: str) -> str:
    """The pin key of a switch's ASN (addresses are pinned by their own key)."""
    return f"{switch_id}/asn"


class FabricQueries:
    def __init__(self, catalog: Catalog, settings: DesignSettings | None = None):
        self.catalog = catalog
        self._settings = settings or DesignSettings()
        self._servers: dict[str, Server] = {}
        self._switches: dict[str, Switch] = {}
        self._links: dict[str, Link] = {}
        self._link_at: dict[str, str] = {}          # endpoint -> link id
        self._rails: dict[int, Rail] = {}
        self._sus: dict[int, ScalableUnit] = {}
        self._addresses: dict[str, str] = {}        # address key -> "a.b.c.d/len"
        self._keys_of: dict[str, dict[str, None]] | None = None   # device id -> its address keys, in table order
                                                                    # (built when first asked, then kept)
        self._asns: dict[str, int] = {}
        self._pinned: set[str] = set()
        self._ports: dict[str, dict[str, Port]] = {}  # switch id -> port name -> Port
        self._port_tables: dict[tuple, dict[str, Port]] = {}
        self._cabled: dict[str, tuple[tuple[Port, str], ...]] = {}   # memo of cabled_ports()
        self._hostnames: dict[str, str] = {}          # hostname -> device id
        self._floor_settings = None                   # FloorSettings, or None: the design has no floor
        self._rows: dict = {}                         # row id -> floor.Row
        self._racks: dict = {}                        # rack id -> floor.Rack
        self._media: dict[str, str] = {}              # cable id -> the media chosen by hand (planning.media)
        self._listeners: list[Listener] = []
        self._batch_depth = 0
        self._batched = False
        self._folded: list | None = None              # the events a batch folded (None: nobody listens)

    # ------------------------------------------------------------------ reading
    @property
    def settings(self) -> DesignSettings:
        """The design's settings: name, allowed ratios, planes, addressing pools, ASN bases, growth plan."""
        return self._settings

    @property
    def servers(self) -> Mapping[str, Server]:
        """Server id -> `Server`, read-only."""
        return self._servers

    @property
    def switches(self) -> Mapping[str, Switch]:
        """Switch id -> `Switch` (leaves, spines and cores), read-only."""
        return self._switches

    @property
    def links(self) -> Mapping[str, Link]:
        """Cable id (``a~b``) -> `Link`, read-only."""
        return self._links

    @property
    def rails(self) -> Mapping[int, Rail]:
        """Rail index -> `Rail` (its name), read-only."""
        return self._rails

    @property
    def sus(self) -> Mapping[int, ScalableUnit]:
        """SU index -> `ScalableUnit` (its name), read-only."""
        return self._sus

    @property
    def addresses(self) -> Mapping[str, str]:
        """Address key (a NIC id, a switch endpoint, ``<leaf>/svi``, ``<switch>/lo``) -> CIDR, read-only."""
        return self._addresses

    @property
    def asns(self) -> Mapping[str, int]:
        """Switch id -> its BGP ASN, read-only."""
        return self._asns

    @property
    def pinned(self) -> frozenset[str]:
        """The keys whose values re-planning keeps: address keys, and ``<switch>/asn`` for pinned ASNs."""
        return frozenset(self._pinned)

    def is_pinned(self, key: str) -> bool:
        """Whether re-planning keeps the value of ``key`` (an address key or `asn_key` of a switch)."""
        return key in self._pinned

    def plan_of(self, device_id: str) -> tuple[dict[str, tuple[str, bool]], tuple[int, bool] | None]:
        """What the plan holds for a device: its addresses (key -> (CIDR, pinned)) and its ASN (ASN,
        pinned) or None; what `remove_device` drops with it, for an undo to put back."""
        if self._keys_of is None:              # one walk of the table, then kept up to date by each change
            keys_of: dict[str, dict[str, None]] = {}
            for key in self._addresses:
                keys_of.setdefault(key.partition("/")[0], {})[key] = None
            self._keys_of = keys_of
        table, pinned = self._addresses, self._pinned
        addresses = {k: (table[k], k in pinned) for k in self._keys_of.get(device_id, ())}
        asn = self._asns.get(device_id)
        return addresses, None if asn is None else (asn, asn_key(device_id) in self._pinned)

    def leaves(self) -> list[Switch]:
        """The leaf (rail) switches, in natural id order."""
        return sorted((s for s in self._switches.values() if s.role is Role.LEAF), key=lambda s: natural_key(s.id))

    def spines(self) -> list[Switch]:
        """The spines, in natural id order."""
        return sorted((s for s in self._switches.values() if s.role is Role.SPINE), key=lambda s: natural_key(s.id))

    def cores(self) -> list[Switch]:
        """The cores (the third tier), in natural id order."""
        return sorted((s for s in self._switches.values() if s.role is Role.CORE), key=lambda s: natural_key(s.id))

    def sorted_servers(self) -> list[Server]:
        """The servers, in natural id order (``su1-srv2`` before ``su1-srv10``)."""
        return sorted(self._servers.values(), key=lambda s: natural_key(s.id))

    def sorted_links(self) -> list[Link]:
        """Cables by the natural order of their ``a`` ends, then of their ``b`` ends."""
        links = list(self._links.values())
        keys = list(map(natural_key, [link.a for link in links]))
        if len(set(keys)) < len(keys):   # two ends whose texts share a key ('srv01/nic0', 'srv1/nic0')
            return sorted(links, key=lambda l: (natural_key(l.a), natural_key(l.b)))
        return [links[i] for i in sorted(range(len(links)), key=keys.__getitem__)]

    def device(self, device_id: str) -> Server | Switch:
        """The server or switch of ``device_id``; raises ModelError naming it when there is none."""
        found = self._servers.get(device_id) or self._switches.get(device_id)
        if found is None:
            raise ModelError(f"there is no device '{device_id}'", (device_id,))
        return found

    def has_device(self, device_id: str) -> bool:
        """Whether a server or switch has the id ``device_id``."""
        return device_id in self._servers or device_id in self._switches

    def hostname_owner(self, hostname: str) -> str | None:
        """The id of the device whose host name is ``hostname``, or None."""
        return self._hostnames.get(hostname)

    def nic(self, nic_id: str) -> Nic:
        """The `Nic` of ``nic_id`` (``<server>/nic<k>``); raises ModelError when there is none."""
        server_id, port = split_endpoint(nic_id)
        server = self._servers.get(server_id)
        index = nic_index(port)
        if server is None or index is None:
            raise ModelError(f"there is no NIC '{nic_id}'", (nic_id,))
        try:
            return server.nic(index)
        except KeyError:
            raise ModelError(f"there is no NIC '{nic_id}'", (nic_id,)) from None

    def nics(self) -> Iterator[Nic]:
        """Every NIC of every server, server by server in natural order."""
        for server in self.sorted_servers():
            yield from server.nics

    def ports(self, switch_id: str) -> Mapping[str, Port]:
        """The usable ports of a switch under its current breakouts, in cage order."""
        cached = self._ports.get(switch_id)
        if cached is None:
            switch = self._switches[switch_id]
            layout = (switch.model, switch.breakouts)
            cached = self._port_tables.get(layout)
            if cached is None:   # switches of one model and breakout share one (read-only) table
                model = self.catalog.switch(switch.model)
                cached = {}
                for cage in range(1, model.ports + 1):
                    for port in model.cage_ports(cage, switch.breakout_of(cage, model.native_mode)):
                        cached[port.name] = port
                self._port_tables[layout] = cached
            self._ports[switch_id] = cached
        return cached

    def cabled_ports(self, switch_id: str) -> tuple[tuple[Port, str], ...]:
        """(port, far endpoint) for each cabled port of a switch, in front-panel order.

        Memoised: every check and exporter asks it for every leaf, and only a cable change or a
        breakout change on the switch itself can change the answer.
        """
        found = self._cabled.get(switch_id)
        if found is None:
            link_at, links = self._link_at, self._links
            found = []
            prefix = switch_id + "/"
            for name, port in self.ports(switch_id).items():
                ep = prefix + name
                link_id = link_at.get(ep)
                if link_id is not None:
                    link = links[link_id]
                    found.append((port, link.b if ep == link.a else link.a))
            found = self._cabled[switch_id] = tuple(found)
        return found

    def port(self, ep: str) -> Port | None:
        """The switch `Port` an endpoint names, or None (a NIC end, or a port the switch does not have)."""
        device, name = split_endpoint(ep)
        if device not in self._switches:
            return None
        return self.ports(device).get(name)

    def endpoint_speed(self, ep: str) -> int | None:
        """The speed in Gb/s of a cable end (switch port or NIC), or None when it names neither."""
        device, name = split_endpoint(ep)
        return self._speed_at(device, name)

    def _speed_at(self, device: str, name: str) -> int | None:
        """The speed of port ``name`` of a switch or NIC ``name`` of a server; None when there is none."""
        if device in self._switches:
            port = (self._ports.get(device) or self.ports(device)).get(name)
            return port.speed if port else None
        server = self._servers.get(device)
        index = nic_index(name) if server is not None else None
        if index is not None:
            nics = server.nics
            if index < len(nics) and nics[index].index == index:   # NICs are usually numbered from 0
                return nics[index].speed
            for nic in nics:
                if nic.index == index:
                    return nic.speed
        return None

    def link_at(self, ep: str) -> Link | None:
        """The cable on endpoint ``ep``, or None when it is free."""
        link_id = self._link_at.get(ep)
        return self._links[link_id] if link_id else None

    def peer(self, ep: str) -> str | None:
        """The endpoint at the other end of the cable on ``ep``, or None when it is free."""
        link = self.link_at(ep)
        return link.other(ep) if link else None

    def links_of(self, device_id: str) -> list[Link]:
        """The device's cables in port order (front-panel order on switches, NIC order on servers)."""
        if device_id in self._switches:
            ports = [endpoint(device_id, name) for name in self.ports(device_id)]
        elif device_id in self._servers:
            ports = [nic.id for nic in self._servers[device_id].nics]
        else:
            raise ModelError(f"there is no device '{device_id}'", (device_id,))
        return [self._links[self._link_at[ep]] for ep in ports if ep in self._link_at]

    def free_ports(self, switch_id: str, speed: int | None = None) -> list[Port]:
        """The ports of a switch with no cable (only those of ``speed`` Gb/s when given), in cage order."""
        return [
            p for p in self.ports(switch_id).values()
            if endpoint(switch_id, p.name) not in self._link_at and (speed is None or p.speed == speed)
        ]

