"""The Fabric aggregate: owns every entity and is the only code that changes them.

Each mutation method validates its input, changes the state and emits one `Event`.
`batch()` folds many edits into one RESET event (the planner uses it); when someone listens, the
RESET carries the events it folded, so a listener can look at just what they name.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import Collection, Iterator, Mapping, Sequence

from . import events as ev
from .addressing import check_cidr, check_cidrs
from .entities import DesignSettings, Link, Nic, Rail, Role, ScalableUnit, Server, Switch
from .errors import ModelError
from .floor_edits import FloorEdits
from .ids import (address_key_problem, address_keys_problem, endpoint, endpoint_before, hostname_problem,
                  is_valid_device_id, split_endpoint)
from .limits import MAX_FABRIC_PLANES, MAX_RAILS, MAX_SU, excerpt
from .queries import FabricQueries, Listener, asn_key  # noqa: F401 (asn_key: imported from here too)


class Fabric(FloorEdits, FabricQueries):
    """The design. Read with the `FabricQueries` methods; change only through the methods below."""

    # ------------------------------------------------------------------ events
    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(event)`` after every change (one RESET event per `batch`)."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling a listener `subscribe` added."""
        self._listeners.remove(listener)

    def _emit(self, kind: str, *ids: str) -> None:
        if self._batch_depth:
            self._batched = True
            if self._folded is not None:
                self._folded.append(ev.Event(kind, ids))
            return
        self._tell(ev.Event(kind, ids))

    def _tell(self, event: ev.Event) -> None:
        for listener in list(self._listeners):
            listener(event)

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Fold every change made inside into one RESET event (with the folded events as its parts
        when someone listens; a design built with no listener records nothing)."""
        if not self._batch_depth:
            self._folded = [] if self._listeners else None
        self._batch_depth += 1
        try:
            yield
        finally:
            self._batch_depth -= 1
            if not self._batch_depth:
                folded, self._folded = self._folded, None
                if self._batched:
                    self._batched = False
                    self._tell(ev.Event(ev.RESET, (), None if folded is None else tuple(folded)))

    # ------------------------------------------------------------------ rails and SUs
    def _ensure_rail(self, index: int | None) -> None:
        if index is not None and index not in self._rails:
            if not 0 <= index < MAX_RAILS:
                raise ModelError(f"rail {index} is not valid; rails count from 0 to {MAX_RAILS - 1}")
            self._rails[index] = Rail(index, f"rail{index}")

    def _ensure_su(self, index: int | None) -> None:
        if index is not None and index not in self._sus:
            if not 1 <= index <= MAX_SU:
                raise ModelError(f"SU {index} is not valid; scalable units count from 1 to {MAX_SU}")
            self._sus[index] = ScalableUnit(index, f"SU{index}")

    def set_rail_name(self, index: int, name: str) -> None:
        """Name rail ``index`` (adding the rail if the design has none of that number yet)."""
        self._ensure_rail(index)
        self._rails[index] = Rail(index, name)
        self._emit(ev.SETTINGS_CHANGED)

    def set_su_name(self, index: int, name: str) -> None:
        """Name scalable unit ``index`` (adding it if needed)."""
        self._ensure_su(index)
        self._sus[index] = ScalableUnit(index, name)
        self._emit(ev.SETTINGS_CHANGED)

    def forget_unused(self, sus=(), rails=()) -> None:
        """Drop the given SUs and rails if nothing uses them any more (an undone edit that made them)."""
        used_sus = {d.su for d in (*self._servers.values(), *self._switches.values())}
        used_rails = {s.rail for s in self._switches.values()} | {n.rail for s in self._servers.values() for n in s.nics}
        gone = [("su", i) for i in sus if i in self._sus and i not in used_sus]
        gone += [("rail", i) for i in rails if i in self._rails and i not in used_rails]
        for kind, index in gone:
            del (self._sus if kind == "su" else self._rails)[index]
        if gone:
            self._emit(ev.SETTINGS_CHANGED)

    # ------------------------------------------------------------------ devices
    def _check_new_device(self, device_id: str, hostname: str) -> None:
        if not is_valid_device_id(device_id):
            raise ModelError(
                f"{excerpt(device_id)} is not a valid device id: use letters, digits and hyphens "
                "(no '/', '.', spaces), at most 63 characters", (device_id,))
        if self.has_device(device_id):
            raise ModelError(f"a device with id '{device_id}' already exists", (device_id,))
        self._check_hostname(device_id, hostname)

    def _check_hostname(self, device_id: str, hostname: str) -> None:
        problem = hostname_problem(hostname)
        if problem:
            raise ModelError(f"{excerpt(hostname)} is not a valid host name for {device_id}: {problem}", (device_id,))
        owner = self._hostnames.get(hostname)
        if owner is not None and owner != device_id:
            raise ModelError(f"host name '{hostname}' is already used by {owner}", (device_id, owner))

    def add_server(self, server: Server) -> None:
        """Add a server with its NICs; refuses a duplicate id or host name, or an unknown model."""
        self._check_new_device(server.id, server.hostname)
        if server.model not in self.catalog.servers:
            _unknown("server", server.model, self.catalog.servers, server.id)
        rails = self._rails
        for nic in server.nics:
            if nic.server_id != server.id:
                raise ModelError(f"NIC {nic.id} does not belong to server {server.id}", (server.id,))
            plane = nic.fabric_plane
            if plane.__class__ is not int or not 0 <= plane < MAX_FABRIC_PLANES:   # (a design loads 10^5 NICs)
                _check_plane(nic.id, plane)
        if len({n.index for n in server.nics}) != len(server.nics):
            raise ModelError(f"server {server.id} lists a NIC index twice", (server.id,))
        _check_gid_index(server.id, server.gid_index)
        self._ensure_su(server.su)
        for nic in server.nics:
            if nic.rail not in rails:
                self._ensure_rail(nic.rail)
        self._servers[server.id] = server
        self._hostnames[server.hostname] = server.id
        self._emit(ev.SERVER_ADDED, server.id)

    def add_switch(self, switch: Switch) -> None:
        """Add a switch; refuses a duplicate id or host name, an unknown model, a leaf without an SU or
        rail, a group or plane out of range."""
        self._check_new_device(switch.id, switch.hostname)
        if switch.model not in self.catalog.switches:
            _unknown("switch", switch.model, self.catalog.switches, switch.id)
        model = self.catalog.switches[switch.model]
        for cage, mode in switch.breakouts:
            _check_breakout(model, switch.id, cage, mode)
        if switch.role is Role.LEAF and switch.rail is None:
            raise ModelError(f"leaf {switch.id} needs a rail", (switch.id,))
        if switch.role is Role.LEAF and switch.su is None:
            raise ModelError(f"leaf {switch.id} needs an SU (the scalable unit whose servers it serves)", (switch.id,))
        if switch.role is Role.CORE and (switch.rail is not None or switch.su is not None):
            raise ModelError(f"core {switch.id} belongs to no rail and no SU", (switch.id,))
        _check_group(switch.id, switch.group)
        _check_plane(switch.id, switch.fabric_plane)
        if switch.plane is not None and not 0 <= switch.plane < MAX_RAILS:
            raise ModelError(f"plane {switch.plane} of {switch.id} is not valid; planes count from 0 to "
                             f"{MAX_RAILS - 1}", (switch.id,))
        self._ensure_su(switch.su)
        self._ensure_rail(switch.rail)
        self._switches[switch.id] = switch
        self._hostnames[switch.hostname] = switch.id
        self._emit(ev.SWITCH_ADDED, switch.id)

    def remove_device(self, device_id: str) -> tuple[Server | Switch, list[Link]]:
        """Remove a server or switch with its cables; returns them so an undo can put them back."""
        device = self.device(device_id)
        removed = []
        with self.batch():
            for link in self.links_of(device_id):
                removed.append(self.disconnect(link.id))
        plan_gone = self._drop_plan(device_id)
        if isinstance(device, Server):
            del self._servers[device_id]
            kind = ev.SERVER_REMOVED
        else:
            del self._switches[device_id]
            self._ports.pop(device_id, None)
            self._cabled.pop(device_id, None)
            kind = ev.SWITCH_REMOVED
        del self._hostnames[device.hostname]
        self._emit(kind, device_id)
        if plan_gone:
            self._emit(ev.PLAN_CHANGED, *plan_gone)
        return device, removed

    def _drop_plan(self, device_id: str) -> tuple[str, ...]:
        """Forget a removed device's addresses and ASN (pinned or not): a saved ASN of a switch that is
        gone made the design file unreadable, and its addresses held their pool slots for ever."""
        addresses, asn = self.plan_of(device_id)
        for key in addresses:
            del self._addresses[key]
            self._pinned.discard(key)
        self._keys_of.pop(device_id, None)
        if asn is not None:
            del self._asns[device_id]
            self._pinned.discard(asn_key(device_id))
        return (*addresses, device_id) if addresses or asn is not None else ()

    def set_hostname(self, device_id: str, hostname: str) -> None:
        """Rename a device's host name (its id stays); refuses an invalid name or one another device has."""
        device = self.device(device_id)
        self._check_hostname(device_id, hostname)
        del self._hostnames[device.hostname]
        self._hostnames[hostname] = device_id
        self._replace_device(replace(device, hostname=hostname))

    def _replace_device(self, device: Server | Switch) -> None:
        if isinstance(device, Server):
            self._servers[device.id] = device
            self._emit(ev.SERVER_CHANGED, device.id)
        else:
            self._switches[device.id] = device
            self._emit(ev.SWITCH_CHANGED, device.id)

    def set_switch_rail(self, switch_id: str, rail: int) -> None:
        """Move a leaf to another rail (its cables stay; checks then report NICs of the old rail)."""
        switch = self._switch(switch_id)
        if switch.role is not Role.LEAF:
            raise ModelError(f"{switch_id} is a {switch.role.value}; only leaves belong to a rail", (switch_id,))
        self._ensure_rail(rail)
        self._replace_device(replace(switch, rail=rail))

    def set_switch_group(self, switch_id: str, group: int | None) -> None:
        """Put a switch in spine group ``group`` (a core: core group), or in none."""
        switch = self._switch(switch_id)
        _check_group(switch_id, group)
        self._replace_device(replace(switch, group=group))

    def set_switch_fabric_plane(self, switch_id: str, plane: int) -> None:
        """Move a switch to another plane of a multi-plane design (its cables stay as they are)."""
        switch = self._switch(switch_id)
        _check_plane(switch_id, plane)
        self._replace_device(replace(switch, fabric_plane=plane))

    def set_breakout(self, switch_id: str, cage: int, mode: str) -> None:
        """Set how a switch cage breaks out (``'2x400G'``...); refuses a mode the model lacks, and any
        change of a cage that has cables (disconnect them first)."""
        switch = self._switch(switch_id)
        model = self.catalog.switch(switch.model)
        _check_breakout(model, switch_id, cage, mode)
        current = switch.breakout_of(cage, model.native_mode)
        if current == mode:
            return
        cabled = [endpoint(switch_id, p.name) for p in model.cage_ports(cage, current)
                  if endpoint(switch_id, p.name) in self._link_at]
        if cabled:
            raise ModelError(
                f"cage {cage} of {switch_id} has cables on {', '.join(cabled)}; disconnect them "
                f"before changing its breakout to {mode}", (switch_id,))
        rest = tuple((c, m) for c, m in switch.breakouts if c != cage)
        if mode != model.native_mode:
            rest = tuple(sorted(rest + ((cage, mode),)))
        self._ports.pop(switch_id, None)
        self._cabled.pop(switch_id, None)
        self._replace_device(replace(switch, breakouts=rest))

    def set_switch_model(self, switch_id: str, model_id: str) -> None:
        """Give a switch another model of the catalog; refuses a model that lacks one of its breakouts or
        one of its cabled ports (by name, at the same speed), naming them."""
        switch = self._switch(switch_id)
        model = self.catalog.switches.get(model_id)
        if model is None:
            _unknown("switch", model_id, self.catalog.switches, switch_id)
        for cage, mode in switch.breakouts:
            _check_breakout(model, switch_id, cage, mode)
        ports = {p.name: p for c in range(1, model.ports + 1)
                 for p in model.cage_ports(c, switch.breakout_of(c, model.native_mode))}
        lost = [f"{port.name} ({port.speed}G)" for port, _ in self.cabled_ports(switch_id)
                if port.name not in ports or ports[port.name].speed != port.speed]
        if lost:
            raise ModelError(f"{model_id} has no port for the cables of {switch_id} on {', '.join(lost[:4])}"
                             + (f" and {len(lost) - 4} more" if len(lost) > 4 else ""), (switch_id,))
        self._ports.pop(switch_id, None)
        self._cabled.pop(switch_id, None)
        self._replace_device(replace(switch, model=model_id))

    def set_server_place(self, server_id: str, rack: str | None, position: int | None) -> None:
        """Record where a server stands (`set_place` for a server only)."""
        if server_id not in self._servers:
            raise ModelError(f"there is no server '{server_id}'", (server_id,))
        self.set_place(server_id, rack, position)

    # ------------------------------------------------------------------ NICs
    def _replace_nic(self, nic: Nic) -> None:
        server = self._servers[nic.server_id]
        nics = tuple(nic if n.index == nic.index else n for n in server.nics)
        self._replace_device(replace(server, nics=nics))

    def set_nic_rail(self, nic_id: str, rail: int | None) -> None:
        """Give a NIC another rail (None: no rail); its cable stays where it is."""
        nic = self.nic(nic_id)
        self._ensure_rail(rail)
        self._replace_nic(replace(nic, rail=rail))

    def set_gid_index(self, server_id: str, gid_index: int | None) -> None:
        """Record the RoCE v2 GID index read on a server (None: use its model's)."""
        server = self._servers.get(server_id)
        if server is None:
            raise ModelError(f"there is no server '{server_id}'", (server_id,))
        _check_gid_index(server_id, gid_index)
        self._replace_device(replace(server, gid_index=gid_index))

    def set_nic_names(self, nic_id: str, netdev: str, rdma: str) -> None:
        """Set a NIC's netdev and RDMA device names (as `ibdev2netdev` reports them)."""
        nic = self.nic(nic_id)
        self._replace_nic(replace(nic, netdev=netdev, rdma=rdma))

    # ------------------------------------------------------------------ cables
    def connect(self, a: str, b: str) -> Link:
        """Cable two endpoints (a NIC or a switch port each) and return the `Link`, which runs at the slower
        end's speed; refuses a busy or unknown end, two ends on one device, or two NICs."""
        link_at = self._link_at
        # the common case inline (a design cables 10^5 times): two free, known ends of two devices
        dev_a, _, name_a = a.partition("/")
        dev_b, _, name_b = b.partition("/")
        speed_a, speed_b = self._speed_at(dev_a, name_a), self._speed_at(dev_b, name_b)
        if speed_a is None or speed_b is None or a in link_at or b in link_at or not name_a or not name_b:
            dev_a, speed_a = self._free_end(a)
            dev_b, speed_b = self._free_end(b)
        if dev_a == dev_b:
            raise ModelError(f"{a} and {b} are on the same device", (a, b))
        servers = self._servers
        if dev_a in servers and dev_b in servers:
            raise ModelError(f"{a} and {b} are both server NICs; a NIC cables to a switch port", (a, b))
        if endpoint_before(b, dev_b, a, dev_a):
            a, b = b, a
        link = Link(a, b, speed_a if speed_a < speed_b else speed_b)
        link_id = f"{a}~{b}"           # link.id, without the property call
        self._links[link_id] = link
        link_at[a] = link_id
        link_at[b] = link_id
        cabled = self._cabled
        if cabled:
            cabled.pop(dev_a, None)
            cabled.pop(dev_b, None)
        self._emit(ev.LINK_ADDED, link_id)
        return link

    def _free_end(self, ep: str) -> tuple[str, int]:
        """(device id, speed) of an uncabled NIC or switch port, for `connect`."""
        device, sep, name = ep.partition("/")
        if not (sep and device and name):
            split_endpoint(ep)               # raises its ValueError
        speed = self._speed_at(device, name)
        if speed is None:
            raise ModelError(f"{excerpt(ep)} is not a NIC or a switch port of this design", (ep,))
        if ep in self._link_at:
            raise ModelError(f"{ep} is already cabled to {self.peer(ep)}", (ep,))
        return device, speed

    def disconnect(self, link_id: str) -> Link:
        """Remove the cable ``link_id`` and return it."""
        link = self._links.pop(link_id, None)
        if link is None:
            raise ModelError(f"there is no cable '{link_id}'", (link_id,))
        del self._link_at[link.a]
        del self._link_at[link.b]
        self._media.pop(link_id, None)          # a cable's media goes with it
        self._cabled.pop(split_endpoint(link.a)[0], None)
        self._cabled.pop(split_endpoint(link.b)[0], None)
        self._emit(ev.LINK_REMOVED, link.id)
        return link

    def move_nic(self, nic_id: str, switch_id: str, port: str | None = None) -> tuple[Link | None, Link]:
        """Re-cable a NIC onto ``switch_id`` (a free port of the NIC's speed unless ``port`` is named)."""
        nic = self.nic(nic_id)
        self._switch(switch_id)
        if port is None:
            free = self.free_ports(switch_id, nic.speed)
            if not free:
                raise ModelError(f"{switch_id} has no free {nic.speed}G port for {nic_id}", (nic_id, switch_id))
            port = free[0].name
        target = endpoint(switch_id, port)
        old = self.link_at(nic_id)
        if old is not None and old.other(nic_id) == target:
            return old, old
        if target in self._link_at:
            raise ModelError(f"{target} is already cabled to {self.peer(target)}", (target,))
        with self.batch():
            if old is not None:
                self.disconnect(old.id)
            new = self.connect(nic_id, target)
        return old, new

    # ------------------------------------------------------------------ addresses and ASNs
    def set_address(self, key: str, cidr: str | None, pinned: bool = False) -> None:
        """Set (or clear, with None) one address; ``pinned`` keeps it through re-planning."""
        if cidr is None:
            self._addresses.pop(key, None)
            self._pinned.discard(key)
            self._index_keys((), (key,))
        else:
            problem = address_key_problem(key)
            if problem:
                raise ModelError(problem, (key,))
            self._addresses[key] = check_cidr(cidr, key)
            (self._pinned.add if pinned else self._pinned.discard)(key)
            self._index_keys((key,))
        self._emit(ev.PLAN_CHANGED, key)

    def set_addresses(self, keys: Sequence[str], cidrs: Sequence[str], pinned: Collection[str] = ()) -> None:
        """`set_address` of each key to its CIDR (pinned when in ``pinned``, a few of ``keys``), as one event:
        a design file's table. Every pair is checked before anything changes: a bad one raises with nothing set."""
        if len(keys) != len(cidrs):
            raise ModelError(f"{len(keys):,} address keys for {len(cidrs):,} addresses")
        pins = set(pinned)
        if pins and not pins.issubset(keys):
            raise ModelError(f"{sorted(pins.difference(keys))[0]} is pinned but has no address here")
        bad = address_keys_problem(keys)
        if bad:
            raise ModelError(bad[1], (bad[0],))
        self._addresses.update(zip(keys, check_cidrs(cidrs, keys)))
        self._pinned.difference_update(keys)
        self._pinned.update(pins)
        self._index_keys(keys)
        self._emit(ev.PLAN_CHANGED, *keys)

    def _index_keys(self, added: Sequence[str], removed: Sequence[str] = ()) -> None:
        """Keep `plan_of`'s index of address keys by device (when it was built) in step with the table."""
        keys_of = self._keys_of
        if keys_of is None:
            return
        for key in removed:
            device = key.partition("/")[0]
            keys_of.get(device, {}).pop(key, None)
        for key in added:
            keys_of.setdefault(key.partition("/")[0], {})[key] = None

    def set_asn(self, switch_id: str, asn: int | None, pinned: bool = False) -> None:
        """Set (or clear, with None) a switch's ASN; ``pinned`` keeps it through re-planning."""
        self._switch(switch_id)
        if asn is None:
            self._asns.pop(switch_id, None)
            self._pinned.discard(asn_key(switch_id))
        else:
            if not isinstance(asn, int) or not 1 <= asn <= 4294967294:
                raise ModelError(f"ASN {asn!r} for {switch_id} is not a valid 4-byte ASN (1..4294967294)",
                                 (switch_id,))
            self._asns[switch_id] = asn
            (self._pinned.add if pinned else self._pinned.discard)(asn_key(switch_id))
        self._emit(ev.PLAN_CHANGED, switch_id)

    def replace_plan(self, addresses: Mapping[str, str], asns: Mapping[str, int]) -> None:
        """Install a planner result: every unpinned address and ASN is replaced, pinned ones are kept."""
        self._addresses = {k: v for k, v in self._addresses.items() if k in self._pinned}
        self._addresses.update((k, v) for k, v in addresses.items() if k not in self._pinned)
        self._asns = {k: v for k, v in self._asns.items() if asn_key(k) in self._pinned}
        self._asns.update((k, v) for k, v in asns.items() if asn_key(k) not in self._pinned)
        self._keys_of = None
        self._emit(ev.PLAN_CHANGED)

    # ------------------------------------------------------------------ settings
    def set_settings(self, settings: DesignSettings) -> None:
        """Replace the design's settings (addresses are not re-planned: `assign` does that)."""
        self._settings = settings
        self._emit(ev.SETTINGS_CHANGED)

    # ------------------------------------------------------------------ snapshots
    def snapshot(self) -> "Fabric":
        """A copy of the design as it is now that another thread may own: its tables are copied, the
        (frozen) entities in them are shared, and it has no listeners. Costs one copy of each table
        (a few ms at 4,096 servers); the window checks such a copy off its GUI thread."""
        copy = object.__new__(type(self))
        copy._listeners = []
        copy._take_state(self)
        return copy

    def catch_up(self, source: "Fabric", events: Sequence[ev.Event] | None) -> None:
        """Become a snapshot of ``source`` again and tell this copy's listeners so: one RESET folding
        ``events``, what changed ``source`` since this copy was taken or last caught up (None: say
        anything may have changed). Entities are compared by identity downstream, so the listeners can
        look only at what the events name."""
        if self._batch_depth:
            raise ModelError("a snapshot cannot catch up inside a batch")
        self._take_state(source)
        self._tell(ev.Event(ev.RESET, (), None if events is None else tuple(events)))

    def _take_state(self, source: "Fabric") -> None:
        for name in _STATE:
            value = getattr(source, name)
            setattr(self, name, value.copy() if isinstance(value, (dict, set)) else value)
        self._keys_of = None                # its inner tables change in place: rebuilt when first asked
        self._batch_depth, self._batched, self._folded = 0, False, None

    # ------------------------------------------------------------------ helpers
    def _switch(self, switch_id: str) -> Switch:
        switch = self._switches.get(switch_id)
        if switch is None:
            raise ModelError(f"there is no switch '{switch_id}'", (switch_id,))
        return switch


# What `snapshot` copies: every attribute of a design's state (tables copied, values shared). The
# listeners, the batch bookkeeping and the per-state values computed for the original are not state.
_STATE = ("catalog", "_settings", "_servers", "_switches", "_links", "_link_at", "_rails", "_sus", "_addresses",
          "_asns", "_pinned", "_ports", "_port_tables", "_cabled", "_hostnames", "_floor_settings", "_rows",
          "_racks", "_media")
NOT_STATE = frozenset({"_listeners", "_batch_depth", "_batched", "_folded", "_keys_of", "_per_state_values"})


def _unknown(kind: str, model_id: str, known: Mapping, device_id: str):
    raise ModelError(
        f"{device_id} uses {kind} model '{model_id}', which is not in the catalog "
        f"(known: {', '.join(sorted(known)) or 'none'})", (device_id,))


def _check_group(device_id: str, group) -> None:
    if group is not None and (not isinstance(group, int) or isinstance(group, bool) or group < 1):
        raise ModelError(f"group {group!r} of {device_id} is not valid; groups count from 1", (device_id,))


def _check_plane(device_id: str, plane) -> None:
    if not isinstance(plane, int) or isinstance(plane, bool) or not 0 <= plane < MAX_FABRIC_PLANES:
        raise ModelError(f"fabric plane {excerpt(plane)} of {device_id} is not valid; planes count from 0 to "
                         f"{MAX_FABRIC_PLANES - 1}", (device_id.partition("/")[0],))


def _check_gid_index(server_id: str, gid_index) -> None:
    if gid_index is not None and not (isinstance(gid_index, int) and 0 <= gid_index <= 255):
        raise ModelError(f"GID index {gid_index!r} for {server_id} is not a whole number from 0 to 255",
                         (server_id,))


def _check_breakout(model, switch_id: str, cage: int, mode: str) -> None:
    if not 1 <= cage <= model.ports:
        raise ModelError(f"{switch_id} ({model.id}) has cages 1..{model.ports}; there is no cage {cage}",
                         (switch_id,))
    if not model.supports(mode):
        raise ModelError(
            f"{model.id} does not support breakout {mode} (it supports {', '.join(model.breakouts)})",
            (switch_id,))
