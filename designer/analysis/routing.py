"""The forwarding state the bundle configures, computed from the design (no exported files needed).

Every device's decision comes from the model and plan exactly as the exporters derive it:

- Host (DOMAIN.md section 5): a cabled, addressed rail NIC on rail k has table ``100 + k`` holding its
  own subnet and a default route via its gateway, a rule ``from <NIC address> lookup <table>`` at
  priority ``1000 + k``, and a main-table route for the rail's supernet (`planning.addressing.rail_pool`)
  via the same gateway. Gateway: subnet-per-leaf -> the leaf's ``<leaf>/svi`` address; p2p31 -> the
  address of the leaf port the NIC is cabled to. A NIC without an address or gateway gets nothing.
- Leaf: its local prefixes are the svi subnet (subnet-per-leaf) or its downlink /31s (p2p31). Local
  destinations are delivered; anything else from a pinned source follows the PPD binding
  (`planning.ppd`); other traffic uses BGP (ECMP over uplinks to spines that reach the destination).
  A design whose load balancing is not ``ppd`` pins nothing (`settings.load_balancing`).
- Spines and cores: ordinary L3 over eBGP: a leaf's prefixes spread out hop by hop as eBGP path vectors
  do (`planning.pathvector`: shortest AS path, ECMP, a path holding the switch's own ASN refused).
- Multi-plane: each NIC port's table and rule are its plane's (`planning.host_tables.host_table`); planes
  share no switch, so a flow stays in its plane.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..planning.host_tables import host_table, rule_priority  # the host exporter's table/priority plan
from ..model.addressing import cidr_str, ip_int, ip_str, network_of, split_cidr
from ..model.entities import TIER_RANK, Role
from ..model.fabric import Fabric
from ..model.ids import endpoint, natural_key, split_endpoint
from ..planning.addressing import rail_pool, svi_key
from ..planning.pathvector import path_vector
from ..planning.ppd import Binding, ppd_plan
from ..planning.topology import all_leaf_links


@dataclass(frozen=True, slots=True)
class HostNic:
    """What a host's policy routing holds for one rail NIC (None fields: not configured)."""

    nic_id: str
    netdev: str
    rail: int | None
    leaf_ep: str | None         # the leaf port it is cabled to
    address: int | None
    prefix: int | None
    gateway: int | None
    table: int | None
    priority: int | None
    supernet: tuple[int, int] | None
    has_rule: bool = True        # False: a bundle read from disk lacks this NIC's policy rule
    plane: int = 0               # the fabric plane of the port

    @property
    def configured(self) -> bool:
        return self.table is not None

    def in_subnet(self, addr: int) -> bool:
        return self.address is not None and _contains((self.address, self.prefix), addr)

    def rule_text(self) -> str:
        return f"rule {self.priority}: from {ip_str(self.address)} lookup {self.table}"


def _contains(net: tuple[int, int], addr: int) -> bool:
    base, prefix = net
    mask = (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    return (addr & mask) == (base & mask)


def net_str(net: tuple[int, int]) -> str:
    base, prefix = net
    mask = (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    return cidr_str(base & mask, prefix)


class Forwarding:
    """Lookup tables over one fabric: build once, then ask many questions."""

    def __init__(self, fabric: Fabric, host_nics: dict[str, HostNic] | None = None):
        self.fabric = fabric
        self.p2p = fabric.settings.addressing.scheme == "p2p31"
        self.leaf_links = all_leaf_links(fabric)
        self.ppd = ppd_plan(fabric)
        # The pins the leaves run (what a trace follows): only a design balancing load by PPD configures
        # them. pin_of_nic is the plan either way, so the collision analysis can still ask "what if ppd".
        pinned = fabric.settings.load_balancing.mode == "ppd"
        self.pins: dict[str, dict[int, Binding]] = {}         # leaf -> source address -> binding
        self.pin_of_nic: dict[str, tuple[str, Binding]] = {}   # NIC id -> (leaf, binding)
        for leaf, plan in self.ppd.items():
            for b in plan.bindings:
                self.pin_of_nic[b.nic] = (leaf, b)
                if b.source is not None and pinned:
                    self.pins.setdefault(leaf, {})[ip_int(b.source)] = b
        self.host_nics = host_nics if host_nics is not None else {nic.id: self._host_nic(nic)
                                                                  for nic in fabric.nics()}
        self.local: dict[str, list[tuple[tuple[int, int], str | None]]] = {}   # leaf -> (net, port or None)
        self._prefixes: list[tuple[int, tuple[int, int], str]] = []          # (prefix len, net, leaf)
        for leaf_id, links in self.leaf_links.items():
            self.local[leaf_id] = self._local_prefixes(leaf_id, links)
            for net, _ in self.local[leaf_id]:
                self._prefixes.append((net[1], net, leaf_id))
        self._prefixes.sort(key=lambda p: (-p[0], natural_key(p[2])))
        self.owner_of_address = {h.address: h.nic_id for h in self.host_nics.values() if h.address is not None}
        # spine -> leaf -> [(spine port, leaf port)] and leaf -> spine -> [leaf port]
        self.spine_links: dict[str, dict[str, list[tuple[str, str]]]] = {s.id: {} for s in fabric.spines()}
        self.uplinks: dict[str, dict[str, list[str]]] = {}
        for leaf_id, links in self.leaf_links.items():
            for port, spine_ep in links.uplinks:
                spine, spine_port = split_endpoint(spine_ep)
                self.spine_links[spine].setdefault(leaf_id, []).append((spine_port, port.name))
                self.uplinks.setdefault(leaf_id, {}).setdefault(spine, []).append(port.name)
        self.adjacent = self._switch_adjacency()
        self._routes: dict[str, dict[str, tuple[str, ...]]] = {}

    def _switch_adjacency(self) -> dict[str, dict[str, list[tuple[str, str]]]]:
        """switch -> neighbouring switch -> [(own port, its port)], each cable once per direction, in the
        lower tier's front-panel order (leaf uplinks first, then spine uplinks, then the rest)."""
        fabric, out, seen = self.fabric, {}, set()
        for switch in sorted(fabric.switches.values(), key=lambda s: (TIER_RANK[s.role], natural_key(s.id))):
            for port, peer in fabric.cabled_ports(switch.id):
                other, other_port = split_endpoint(peer)
                link = (switch.id, port.name) if switch.id < other else (other, other_port)
                if other not in fabric.switches or link in seen:
                    continue
                seen.add(link)
                out.setdefault(switch.id, {}).setdefault(other, []).append((port.name, other_port))
                out.setdefault(other, {}).setdefault(switch.id, []).append((other_port, port.name))
        return out

    def routes(self, owner: str) -> dict[str, tuple[str, ...]]:
        """switch -> its next hops toward leaf ``owner``'s prefixes (absent: no route), computed once per leaf."""
        found = self._routes.get(owner)
        if found is None:
            found = self._routes[owner] = path_vector(self.adjacent, self.fabric.asns, owner)[0]
        return found

    def next_ports(self, device: str, owner: str) -> list[tuple[str, str]]:
        """(port, next-hop switch) for every link ``device`` may forward on toward ``owner`` (ECMP)."""
        return [(port, hop) for hop in self.routes(owner).get(device, ())
                for port, _ in self.adjacent[device][hop]]

    # -- hosts ---------------------------------------------------------------------------------
    def _ip(self, key: str) -> int | None:
        cidr = self.fabric.addresses.get(key)
        return split_cidr(cidr)[0] if cidr else None

    def _host_nic(self, nic) -> HostNic:
        leaf_ep = self.fabric.peer(nic.id)
        cidr = self.fabric.addresses.get(nic.id)
        address, prefix = split_cidr(cidr) if cidr else (None, None)
        gateway = None
        if leaf_ep is not None and split_endpoint(leaf_ep)[0] in self.fabric.switches:
            gateway = self._ip(leaf_ep) if self.p2p else self._ip(svi_key(split_endpoint(leaf_ep)[0]))
        ok = nic.rail is not None and leaf_ep is not None and address is not None and gateway is not None
        plane = nic.fabric_plane
        return HostNic(nic.id, nic.netdev, nic.rail, leaf_ep, address, prefix, gateway,
                       host_table(nic.rail, plane) if ok else None, rule_priority(nic.rail, plane) if ok else None,
                       self._supernet(nic.rail, plane) if ok else None, plane=plane)

    def _supernet(self, rail: int, plane: int) -> tuple[int, int] | None:
        return rail_pool(self.fabric, rail, plane) if plane < self.fabric.settings.fabric_planes else None

    def server_nics(self, server_id: str) -> list[HostNic]:
        server = self.fabric.servers[server_id]
        return [self.host_nics[n.id] for n in sorted(server.nics, key=lambda n: n.index)]

    def table_routes(self, server_id: str, table: int, addr: int) -> HostNic:
        """The NIC whose route in ``table`` carries ``addr``. NICs sharing a table number (two NICs on one
        rail) all add their subnet routes, but the default route is replaced by each: the exporter writes
        NICs in rail then index order, so the last one's default survives."""
        nics = sorted((h for h in self.server_nics(server_id) if h.table == table),
                      key=lambda h: (h.plane, h.rail, natural_key(h.nic_id)))
        return next((h for h in nics if h.in_subnet(addr)), nics[-1])

    def main_route(self, server_id: str, addr: int) -> HostNic | None:
        """The main-table rail-supernet route a host would use for ``addr`` (first NIC in rail order)."""
        for h in sorted(self.server_nics(server_id),
                        key=lambda h: (h.rail if h.rail is not None else 1 << 30, h.plane)):
            if h.supernet is not None and h.gateway is not None and _contains(h.supernet, addr):
                return h
        return None

    def local_owner(self, server_id: str, addr: int) -> HostNic | None:
        for h in self.server_nics(server_id):
            if h.address == addr:
                return h
        return None

    # -- switches ------------------------------------------------------------------------------
    def _local_prefixes(self, leaf_id: str, links) -> list[tuple[tuple[int, int], str | None]]:
        if not self.p2p:
            svi = self.fabric.addresses.get(svi_key(leaf_id))
            return [(network_of(svi), None)] if svi and links.downlinks else []
        out = []
        for port, _ in links.downlinks:
            cidr = self.fabric.addresses.get(endpoint(leaf_id, port.name))
            if cidr:
                out.append((network_of(cidr), port.name))
        return out

    def owning_leaf(self, addr: int) -> str | None:
        """The leaf whose advertised prefixes hold ``addr`` (longest match), as BGP would pick."""
        for _, net, leaf in self._prefixes:
            if _contains(net, addr):
                return leaf
        return None

    def local_delivery(self, leaf_id: str, addr: int) -> tuple[str, str] | None:
        """(leaf port, why) when ``addr`` is local to the leaf, else None."""
        for net, port in self.local.get(leaf_id, []):
            if not _contains(net, addr):
                continue
            if port is not None:
                return port, f"{ip_str(addr)} is in the connected /31 {net_str(net)} of {port}"
            for p, nic_id in self.leaf_links[leaf_id].downlinks:
                if self.host_nics[nic_id].address == addr:
                    return p.name, (f"{ip_str(addr)} is in the server subnet {net_str(net)} (Vlan SVI); "
                                    f"ARP answered by {nic_id} on {p.name}")
            return "", f"{ip_str(addr)} is in the server subnet {net_str(net)} but no NIC behind the leaf has it"
        return None

    def spines_reaching(self, leaf_id: str, target_leaf: str) -> list[str]:
        """The spines ``leaf_id`` forwards to for ``target_leaf``'s prefixes (its BGP next hops)."""
        return [s for s in self.routes(target_leaf).get(leaf_id, ()) if s in self.uplinks.get(leaf_id, {})]

    def leaf_of(self, nic_id: str) -> str | None:
        h = self.host_nics.get(nic_id)
        if h is None or h.leaf_ep is None:
            return None
        device = split_endpoint(h.leaf_ep)[0]
        sw = self.fabric.switches.get(device)
        return device if sw is not None and sw.role is Role.LEAF else None


def address_text(addr: int | None) -> str:
    return ip_str(addr) if addr is not None else "(none)"
