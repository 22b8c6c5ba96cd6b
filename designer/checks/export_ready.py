"""Rules for what export needs: every refusal of the exporters' stage 1 has a rule here (or in the
catalogue before it), so a design `validate` passes always exports, and one export would refuse
fails `validate` with the code printed here. Export's own raise stays as the last guard.

| export refuses                                          | rule  |
|---------------------------------------------------------|-------|
| a NIC cabled to a leaf without an address               | RD013 |
| a switch without an ASN (or one out of range), loopback, or leaf gateway | RD015 |
| a cable end between two switches, or a p2p31 leaf downlink, without an address | RD025 |
| an address outside the pool it belongs to (not refused: routes break) | RD026 |
| a netdev, RDMA, management or switch interface name unfit for configs | RD027 |
| more PPD rules on a leaf than its ACL priority ranges hold | RD028 |
| an address key on a server that names none of its NICs   | RD029 |
| a NIC port whose rail and plane get no host routing table | RD031 |
| a NIC cabled to a spine or core (checks/wiring.py)       | RD032 |
| an invalid host name / two devices with one host name    | RD010 / RD011 |
"""

from __future__ import annotations

import ipaddress

from ..model.addressing import HOST_BITS, cidr_str, size
from ..model.entities import TIER_RANK
from ..model.ids import is_valid_port_name, natural_key, natural_sorted, netdev_problem, rdma_problem
from ..model.errors import ModelError
from ..planning.addressing import loopback_key, plane_part, rail_pool, svi_key
from ..planning.host_tables import table_problem
from ..planning.ppd import MAX_LOCAL, MAX_PINS
from .context import LEAF_SPINE, SPINE_CORE, network
from .finding import Severity
from .registry import ASSIGN, listing, rule


@rule("RD025", "Switch port without an address", Severity.ERROR,
      f"Give the port an address: run {ASSIGN}, which re-plans every address that is not pinned; or pin one "
      "by hand.")
def unaddressed_ports(ctx):
    p2p = ctx.scheme == "p2p31"
    for leaf in ctx.leaves:
        links = ctx.leaf_links[leaf.id]
        ends = [f"{leaf.id}/{port.name}" for port, _ in links.downlinks] if p2p else []
        for port, spine_ep in links.uplinks:
            ends += [f"{leaf.id}/{port.name}", spine_ep]
        missing = [ep for ep in ends if ep not in ctx.addresses]
        if missing:
            yield (f"{len(missing)} switch port(s) cabled to or from {leaf.id} have no address (their configs need "
                   f"one): {listing(missing)}", natural_sorted(missing))
    # Every other cable between two switches gets a BGP session too: spine-core, and the ones RD018 and
    # RD042 report (leaf-leaf, spine-spine, leaf-core). The live checker runs this part once on all
    # cables, the per-leaf part above for each touched leaf.
    for link, (a, _, kind_a, _), (b, _, kind_b, _) in ctx.cables:
        if kind_a in TIER_RANK and kind_b in TIER_RANK and (kind_a, kind_b) not in LEAF_SPINE:
            missing = [ep for ep in (a, b) if ep not in ctx.addresses]
            if missing:
                low, high = sorted((kind_a, kind_b), key=TIER_RANK.get)
                joins = f"two {low}s" if low == high else f"a {low} and a {high}"
                yield (f"cable {link.a} - {link.b} joins {joins} and {listing(missing)} have no address",
                       natural_sorted(missing))


class _Pools:
    """The pools an address can belong to, as (first, last, CIDR text), per fabric plane (one plane:
    the whole pool); computed on demand."""

    def __init__(self, ctx):
        self.ctx, self.known = ctx, {}
        self.planes = ctx.settings.fabric_planes

    def _name(self, name: str, plane: int) -> str:
        # a switch on plane 1 of a one-plane design (RD044's finding) has no pool, and must not
        # hide plane 0's: the name is also the cache key
        return name if self.planes == 1 and plane == 0 else f"plane {plane} {name}"

    def _add(self, name: str, start: int, prefix: int) -> str | None:
        # beyond IPv4 the pool does not exist; RD009 reports the supernet as too small
        self.known[name] = (start, start + size(prefix) - 1, cidr_str(start, prefix)) \
            if start + size(prefix) <= 1 << 32 else None
        return name if self.known[name] else None

    def _pool(self, name: str, locate) -> str | None:
        if name not in self.known:
            try:
                return self._add(name, *locate())
            except ModelError:   # a plane the design does not have (RD049) or a pool too small to split (RD009)
                self.known[name] = None
        return name if self.known[name] else None

    def rail(self, rail: int | None, plane: int = 0) -> str | None:
        if rail is None:
            return None
        return self._pool(self._name(f"rail {rail} pool", plane), lambda: rail_pool(self.ctx.fabric, rail, plane))

    def fabric(self, plane: int = 0) -> str | None:
        return self._part("fabric pool", self.ctx.settings.addressing.fabric_pool, plane)

    def loopback(self, plane: int = 0) -> str | None:
        return self._part("loopback pool", self.ctx.settings.addressing.loopback_pool, plane)

    def _part(self, what: str, cidr: str, plane: int) -> str | None:
        return self._pool(self._name(what, plane), lambda: plane_part(cidr, what, plane, self.planes))


@rule("RD026", "Address outside its pool", Severity.ERROR,
      "Pin an address from the right pool (or unpin it and re-plan): NICs and leaf gateways or downlinks from "
      "their rail's pool, switch-to-switch /31s from the fabric pool, loopbacks from the loopback pool (each "
      "from its fabric plane's part of the pool). Hosts route each rail's whole pool through that rail's NIC, "
      "so an address outside it is unreachable.")
def out_of_pool(ctx):
    pools, addresses = _Pools(ctx), ctx.addresses
    for leaf in ctx.leaves:                  # per leaf: the window's live checker re-runs only touched leaves
        plane, leaf_id = leaf.fabric_plane, leaf.id
        links, rail = ctx.leaf_links[leaf_id], pools.rail(leaf.rail, plane)
        # a NIC's address comes from the leaf it is cabled to (its subnet or /31 is the leaf's);
        # a NIC on another rail's leaf is RD004's finding, not this one's
        downlinks = [key for port, nic_id in links.downlinks for key in (nic_id, f"{leaf_id}/{port.name}")]
        uplinks = [key for port, spine_ep in links.uplinks for key in (f"{leaf_id}/{port.name}", spine_ep)]
        runs = ((rail, (svi_key(leaf_id),)), (pools.loopback(plane), (loopback_key(leaf_id),)), (rail, downlinks),
                (pools.fabric(plane), uplinks))
        yield from _report(pools, addresses, runs, f"on {leaf_id} and its cables")
    if ctx.cables:          # once per whole-design pass (the live checker's per-leaf passes have no cables)
        yield from _report(pools, addresses, [(pools.loopback(s.fabric_plane), (loopback_key(s.id),))
                                              for s in ctx.spines + ctx.cores], "of spines and cores")
        by_plane: dict[int, list[str]] = {}
        for _, (a, dev_a, kind_a, _), (b, _, kind_b, _) in ctx.cables:
            if (kind_a, kind_b) in SPINE_CORE:
                by_plane.setdefault(ctx.switches[dev_a].fabric_plane, []).extend((a, b))
        runs = [(pools.fabric(plane), keys) for plane, keys in sorted(by_plane.items())]
        yield from _report(pools, addresses, runs, "on spine-core cables", in_order=True)


def _report(pools: _Pools, addresses: dict, runs, where: str, in_order: bool = False):
    """One finding for the keys of ``runs`` ((pool, keys), in the order to list them or, ``in_order``, to
    be listed in natural order) whose address lies outside their pool (None: no pool to judge by)."""
    bad = []
    for pool, keys in runs:
        if pool is None:
            continue
        first, last, _ = pools.known[pool]
        for key in keys:
            value = addresses.get(key)
            if value is not None:
                span = HOST_BITS[value[1]]
                start = value[0] & ~span
                if start < first or start + span > last:
                    bad.append((key, pool))
    if bad:
        if in_order:
            bad.sort(key=lambda kp: natural_key(kp[0]))
        shown = listing(f"{k} {cidr_str(*addresses[k])} (not in the {p} {pools.known[p][2]})" for k, p in bad)
        yield f"{len(bad)} address(es) {where} lie outside their pools: {shown}", natural_sorted(k for k, _ in bad)


@rule("RD027", "Name that cannot be written into configs", Severity.ERROR,
      "Rename it: Linux interface names have 1-15 letters, digits, '.', '-' or '_' and start with a letter, "
      "one per NIC of a server (`rail-designer apply-nics` reads the real ones from ibdev2netdev); RDMA names "
      "up to 64 such characters. A switch model's port_name must give valid interface names.")
def unexportable_names(ctx):
    netdev_verdicts: dict[str, str | None] = {}   # a design repeats a few names on every server: judge each once
    rdma_verdicts: dict[str, str | None] = {}
    for nic in ctx.nics.values():        # every NIC: a cable or a rail puts its name in a config
        netdev = nic.netdev
        if netdev not in netdev_verdicts:
            netdev_verdicts[netdev] = netdev_problem(netdev) or (
                None if is_valid_port_name(netdev) else "it must start with a letter and hold no '..'")
        problem = netdev_verdicts[netdev]
        if problem:
            yield f"{nic.id}'s interface name {netdev[:40]!r} cannot be exported: {problem}", (nic.id,)
        if nic.rail is not None:
            if nic.rdma not in rdma_verdicts:
                rdma_verdicts[nic.rdma] = rdma_problem(nic.rdma)
            problem = rdma_verdicts[nic.rdma]
            if problem:
                yield f"{nic.id}'s RDMA device name {nic.rdma[:40]!r} cannot be exported: {problem}", (nic.id,)
    for server in ctx.servers.values():
        for what, names in (("interface", [n.netdev for n in server.nics]),
                            ("RDMA device", [n.rdma for n in server.nics if n.rail is not None])):
            if len(set(names)) == len(names):
                continue
            twice = sorted({n for n in names if names.count(n) > 1})
            nics = [n.id for n in server.nics if (n.netdev if what == "interface" else n.rdma) in twice]
            yield (f"{server.id} has two NICs with one {what} name ({listing(repr(n[:40]) for n in twice)}): "
                   f"{listing(nics)}", nics)
    catalog = ctx.fabric.catalog.servers
    by_model: dict[str, list[str]] = {}
    for server in ctx.servers.values():
        by_model.setdefault(server.model, []).append(server.id)
    for model_id in sorted(m for m in by_model if m in catalog):
        problem = netdev_problem(catalog[model_id].mgmt_interface)
        if problem:
            servers = natural_sorted(by_model[model_id])
            yield (f"server model {model_id}'s management interface {catalog[model_id].mgmt_interface[:40]!r} "
                   f"cannot be exported: {problem} ({len(servers)} server(s): {listing(servers)})", servers)
    yield from _switch_port_names(ctx)


def _switch_port_names(ctx):
    verdicts: dict[tuple, list[str]] = {}
    for switch_id in natural_sorted(ctx.usable_switches):
        switch = ctx.switches[switch_id]
        layout = (switch.model, switch.breakouts)
        if layout not in verdicts:
            verdicts[layout] = [name for name in ctx.fabric.ports(switch_id) if not is_valid_port_name(name)]
        if verdicts[layout]:
            yield (f"{switch_id} ({switch.model}) has interface names configs cannot hold: "
                   f"{listing(repr(n[:40]) for n in verdicts[layout])}", (switch_id,))


@rule("RD028", "More PPD rules on a leaf than it can hold", Severity.ERROR,
      f"A leaf's PPD ACL holds at most {MAX_LOCAL} local-destination prefixes and {MAX_PINS} pinned downlinks "
      "(the exporter's ACL priority ranges). Spread the servers over more leaves, or re-plan the downlink /31s "
      "so they collapse into fewer prefixes.")
def ppd_rule_count(ctx):
    p2p = ctx.scheme == "p2p31"
    for leaf in ctx.leaves:
        links = ctx.leaf_links[leaf.id]
        if not links.uplinks or not links.downlinks:
            continue
        pins = len(links.downlinks)
        local = 1
        if p2p and pins > MAX_LOCAL:
            nets = [ipaddress.IPv4Network((network(*ctx.addresses[k])[0], ctx.addresses[k][1]))
                    for k in (f"{leaf.id}/{port.name}" for port, _ in links.downlinks) if k in ctx.addresses]
            local = len(list(ipaddress.collapse_addresses(nets)))
        if local > MAX_LOCAL or pins > MAX_PINS:
            yield (f"{leaf.id} needs {local} local-prefix and {pins} pinned-path PPD rules; a leaf holds at most "
                   f"{MAX_LOCAL} and {MAX_PINS}", (leaf.id,))


@rule("RD029", "Address for a server interface that does not exist", Severity.ERROR,
      "Clear the address, or fix its key to name one of the server's NICs (nic0, nic1, ...); "
      f"{ASSIGN} drops unpinned addresses of interfaces that are gone.")
def addresses_for_missing_nics(ctx):
    bad: dict[str, list[str]] = {}
    servers, nics = ctx.servers, ctx.nics
    for key in ctx.fabric.addresses:
        if key not in nics:                      # most keys are NICs: one lookup, no split
            device = key.partition("/")[0]
            if device in servers:
                bad.setdefault(device, []).append(key)
    for server_id in natural_sorted(bad):
        keys = natural_sorted(bad[server_id])
        yield f"{server_id} has no interface for the address(es) of {listing(keys)}", keys


@rule("RD031", "NIC port with no host routing table", Severity.ERROR,
      "Move the NIC to another rail (rails 53-55 of plane 1 would use Linux's reserved tables 253-255), or "
      "use fewer rails per plane.")
def ports_without_host_table(ctx):
    bad: dict[str, list[str]] = {}
    for nic in ctx.nics.values():
        if nic.rail is not None:
            problem = table_problem(nic.rail, nic.fabric_plane)
            if problem:
                bad.setdefault(problem, []).append(nic.id)
    for problem in sorted(bad):
        ids = natural_sorted(bad[problem])
        yield f"{listing(ids)}: {problem}", ids
