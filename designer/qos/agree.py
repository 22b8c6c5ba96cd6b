"""Compare each host NIC with the switch port it is cabled to (codes RD070-RD074).

The host NIC classifies what it sends by DSCP (``mlnx_qos --trust dscp``) through its DSCP -> priority
table. roce-qos.sh does not set that table (no ``--dscp2prio``), so the NIC keeps mlx5's default,
priority = DSCP >> 3 (DSCP 26 -> 3, 48 -> 6): `nic_priority`. The switch classifies by its port's
``dscp_to_tc_map`` (SONiC: a DSCP the map lacks is class 0), pauses the classes ``pfc_enable`` lists,
buffers class c in ``tc_to_pg_map[c]`` and queues it in ``tc_to_queue_map[c]``; PFC frames for priority p
pause ``pfc_to_pg_map[p]`` / ``pfc_to_queue_map[p]``; a queue marks ECN when its ``QUEUE`` entry names a
WRED profile whose ``ecn`` marks green packets. Port MTU is SONiC's IP MTU (9100 when PORT has none),
the same measure as a Linux netdev's MTU.
"""

from __future__ import annotations

from dataclasses import dataclass

from .sides import HostNic, Sides, Switch, Value

SONIC_DEFAULT_MTU = 9100
GREEN_ECN = {"ecn_green", "ecn_green_yellow", "ecn_green_red", "ecn_all"}

CODES = {
    "RD070": ("DSCP -> class: the switch puts the host's RoCE data or CNP DSCP in another class than the "
              "priority the host sends it on",
              "make roce-qos.sh / nccl.env and the switch's DSCP_TO_TC_MAP agree (export the bundle again)"),
    "RD071": ("PFC: the priorities with PFC differ between host and switch, RoCE data rides a class with PFC on "
              "neither end, or the lossless class's PG / queue maps disagree with the PFC priority maps",
              "make mlnx_qos --pfc and PORT_QOS_MAP.pfc_enable (and the TC/PFC -> PG/queue maps) agree"),
    "RD072": ("trust: host and switch do not both classify by DSCP", "set mlnx_qos --trust dscp on the host and "
              "bind a DSCP_TO_TC_MAP on the switch port (PORT_QOS_MAP.dscp_to_tc_map)"),
    "RD073": ("ECN: the switch marks ECN on the RoCE queue and the host does not take part (Not-ECT ToS, "
              "roce_np / roce_rp off), or the host expects ECN and the queue marks none",
              "use an ECT ToS (106 = DSCP 26 | ECT(0)) with roce_np/roce_rp enabled, and a WRED profile with ecn"),
    "RD074": ("MTU: the host NIC's MTU is above its switch port's or the fabric's path MTU",
              "lower the host MTU (design: addressing mtu) or raise the switch ports' MTU"),
}


@dataclass(frozen=True)
class Disagreement:
    code: str
    host: str                    # host:netdev
    switch: str                  # switch:port
    what: str
    host_value: str
    switch_value: str
    host_source: str
    switch_source: str

    @property
    def message(self) -> str:
        return (f"{self.what}: host {self.host} {self.host_value} ({self.host_source}); switch {self.switch} "
                f"{self.switch_value} ({self.switch_source})")


def nic_priority(dscp: int) -> int:
    """The NIC's priority for ``dscp`` under trust dscp: mlx5's default DSCP -> priority table."""
    return dscp >> 3


def as_int(text: str | None) -> int | None:
    """A whole number as the files write it (decimal or 0x...), else None."""
    try:
        return int(str(text).strip(), 0)
    except ValueError:
        return None


class Port:
    """One switch port's QoS as its config_db.json binds it (``PORT_QOS_MAP|global`` where the port names none)."""

    def __init__(self, switch: Switch, port: str):
        self.switch, self.port, self.db = switch, port, switch.db
        self.label = f"{switch.name}:{port}"
        own = self.db.get("PORT_QOS_MAP", {}).get(port) or {}
        shared = self.db.get("PORT_QOS_MAP", {}).get("global") or {}
        self.qos = {**shared, **own}
        self.where = f"{switch.source}: PORT_QOS_MAP|{port}"

    def map_of(self, field: str, table: str) -> dict | None:
        name = self.qos.get(field)
        found = self.db.get(table, {}).get(name) if name else None
        return found if isinstance(found, dict) else None

    def queue(self, tc: int) -> int:
        """The egress queue of traffic class ``tc`` (its own number where TC_TO_QUEUE_MAP names none)."""
        queue, _ = self.lookup("tc_to_queue_map", "TC_TO_QUEUE_MAP", tc)
        return tc if queue is None else queue

    def lookup(self, field: str, table: str, key: int) -> tuple[int | None, str]:
        """The value ``key`` maps to through the port's ``field`` map, and where that was read."""
        name, found = self.qos.get(field), self.map_of(field, table)
        if found is None:
            return None, f"{self.where} binds no {table}" if not name else f"{table} has no '{name}'"
        return as_int(found.get(str(key))), f"{self.switch.source}: {table}|{name}[{key}]"

    def dscp_class(self, dscp: int) -> tuple[int, str]:
        tc, where = self.lookup("dscp_to_tc_map", "DSCP_TO_TC_MAP", dscp)
        return (0, where + " (absent: the default class 0)") if tc is None else (tc, where)

    def pfc(self) -> set[int]:
        return {v for v in map(as_int, str(self.qos.get("pfc_enable", "")).split(",")) if v is not None}

    def ecn(self, queue: int) -> tuple[bool, str]:
        entry = self.db.get("QUEUE", {}).get(f"{self.port}|{queue}") or _range_entry(self.db, self.port, queue)
        where = f"{self.switch.source}: QUEUE|{self.port}|{queue}"
        name = (entry or {}).get("wred_profile")
        if not name:
            return False, f"{where} has no wred_profile"
        mode = self.db.get("WRED_PROFILE", {}).get(name, {}).get("ecn", "ecn_none")
        return mode in GREEN_ECN, f"{self.switch.source}: WRED_PROFILE|{name} ecn {mode}"

    def mtu(self) -> tuple[int | None, str]:
        text = self.db.get("PORT", {}).get(self.port, {}).get("mtu")
        where = f"{self.switch.source}: PORT|{self.port} mtu"
        return (SONIC_DEFAULT_MTU, where + f" (absent: SONiC's {SONIC_DEFAULT_MTU})") if text is None else (as_int(text), where)


def _range_entry(db: dict, port: str, queue: int) -> dict | None:
    """A QUEUE key of the form ``<port>|3-4`` that covers ``queue``."""
    for key, entry in db.get("QUEUE", {}).items():
        name, _, span = key.partition("|")
        low, dash, high = span.partition("-")
        if name == port and dash and as_int(low) is not None and as_int(high) is not None and as_int(low) <= queue <= as_int(high):
            return entry
    return None


def flags_on(text: str | None) -> set[int]:
    """The positions set to 1 in a comma list of flags (mlnx_qos --pfc 0,0,0,1,...)."""
    return {i for i, flag in enumerate(str(text or "").split(",")) if flag.strip() == "1"}


def _names(values: set[int]) -> str:
    return ", ".join(map(str, sorted(values))) or "none"


def compare_pair(nic: HostNic, port: Port, path_mtu: tuple[int, str, str] | None) -> list[Disagreement]:
    out: list[Disagreement] = []

    def differ(code: str, what: str, host: str, switch: str, host_src: str, switch_src: str) -> None:
        out.append(Disagreement(code, nic.label, port.label, what, host, switch, host_src, switch_src))

    has_map = port.map_of("dscp_to_tc_map", "DSCP_TO_TC_MAP") is not None
    if nic.trust.text != "dscp" or not has_map:
        switch = f"trusts dscp ({port.qos['dscp_to_tc_map']})" if has_map else "classifies by no DSCP map (all class 0)"
        differ("RD072", "trust", f"trusts {nic.trust.text or 'nothing set'}", switch, nic.trust.source, port.where)
        return out + _mtu(nic, port, path_mtu)
    data = [(m, as_int(m.text)) for m in nic.markings if m.text is not None]
    for m, tos in data:
        if tos is None or not 0 <= tos <= 255:
            differ("RD070", "RoCE data DSCP", f"sets ToS '{m.text}' (not a byte)", "-", m.source, port.where)
            continue
        dscp = tos >> 2
        tc, where = port.dscp_class(dscp)
        if tc != nic_priority(dscp):
            differ("RD070", "RoCE data DSCP", f"marks DSCP {dscp} (ToS {tos}) and sends it on priority "
                   f"{nic_priority(dscp)}", f"maps DSCP {dscp} to class {tc}", m.source, where)
    cnp, cnp_prio = as_int(nic.cnp_dscp.text), as_int(nic.cnp_priority.text)
    if cnp is not None:
        tc, where = port.dscp_class(cnp)
        if tc != cnp_prio:
            differ("RD070", "CNP DSCP", f"sends CNPs with DSCP {cnp} on priority {nic.cnp_priority.text}",
                   f"maps DSCP {cnp} to class {tc}", f"{nic.cnp_dscp.source}, {nic.cnp_priority.source}", where)
    host_pfc, switch_pfc = flags_on(nic.pfc.text), port.pfc()
    if host_pfc != switch_pfc:
        differ("RD071", "PFC priorities", f"PFC on {_names(host_pfc)}", f"pfc_enable {_names(switch_pfc)}",
               nic.pfc.source, port.where)
    valid = [(m, tos) for m, tos in data if tos is not None and 0 <= tos <= 255]
    for dscp in sorted({tos >> 2 for _, tos in valid}):
        tc, _ = port.dscp_class(dscp)
        if tc != nic_priority(dscp):
            continue                            # RD070 said it: the class's PFC, PG, queue and ECN are beside the point
        if tc not in switch_pfc and tc not in host_pfc:
            differ("RD071", "RoCE data priority", f"sends RoCE data on priority {tc} without PFC (PFC on "
                   f"{_names(host_pfc)})", f"has no PFC on class {tc} (pfc_enable {_names(switch_pfc)})",
                   nic.pfc.source, port.where)
        out += _lossless_maps(nic, port, tc) if tc in switch_pfc else []
        out += _ecn(nic, port, tc, nic_priority(dscp), [(m, t) for m, t in valid if t >> 2 == dscp])
    return list(dict.fromkeys(out + _mtu(nic, port, path_mtu)))      # one line per distinct disagreement


def _lossless_maps(nic: HostNic, port: Port, tc: int) -> list[Disagreement]:
    """The lossless class's PG and queue against the PG and queue PFC priority ``tc`` pauses."""
    out = []
    for what, data_map, pfc_map in (("PG", ("tc_to_pg_map", "TC_TO_PRIORITY_GROUP_MAP"),
                                     ("pfc_to_pg_map", "PFC_PRIORITY_TO_PRIORITY_GROUP_MAP")),
                                    ("queue", ("tc_to_queue_map", "TC_TO_QUEUE_MAP"),
                                     ("pfc_to_queue_map", "MAP_PFC_PRIORITY_TO_QUEUE"))):
        if port.map_of(*pfc_map) is None:
            continue                               # not bound: the SAI pauses the class's own PG / queue
        held, held_at = port.lookup(*data_map, tc)
        paused, paused_at = port.lookup(*pfc_map, tc)
        if held != paused:
            out.append(Disagreement("RD071", nic.label, port.label, f"lossless {what}",
                                    f"pauses priority {tc} on PFC", f"buffers class {tc} in {what} {held} but PFC "
                                    f"priority {tc} pauses {what} {paused}", nic.pfc.source, f"{held_at}; {paused_at}"))
    return out


def _ecn(nic: HostNic, port: Port, tc: int, priority: int, data: list[tuple[Value, int]]) -> list[Disagreement]:
    queue = port.queue(tc)
    marks, where = port.ecn(queue)
    np, rp = nic.ecn_np.get(priority), nic.ecn_rp.get(priority)
    out = []

    def differ(host: str, switch: str, source: str) -> None:
        out.append(Disagreement("RD073", nic.label, port.label, "ECN", host, switch, source, where))

    if marks:
        for m, tos in data:
            if tos & 3 == 0:
                differ(f"sends RoCE data Not-ECT (ToS {tos})", f"marks ECN on queue {queue}: it drops Not-ECT "
                       "packets instead", m.source)
        for name, value in (("roce_np (CNPs on marked packets)", np), ("roce_rp (rate cut on CNPs)", rp)):
            if value is None or value.text != "1":
                differ(f"has {name} {'unset' if value is None else value.text} on priority {priority}",
                       f"marks ECN on queue {queue}", value.source if value else f"no write for priority {priority}")
    elif any(tos & 3 for _, tos in data) or (np and np.text == "1") or (rp and rp.text == "1"):
        differ(f"expects ECN (ECT ToS, roce_np/roce_rp {np.text if np else '-'}/{rp.text if rp else '-'} on "
               f"priority {priority})", f"marks no ECN on queue {queue}", data[0][0].source)
    return out


def _mtu(nic: HostNic, port: Port, path_mtu: tuple[int, str, str] | None) -> list[Disagreement]:
    out = []
    port_mtu, where = port.mtu()
    for value in nic.mtus:
        if value.text is None:
            continue                             # a dump that could not read it (drift reports that)
        mtu = as_int(value.text)
        if mtu is None:
            out.append(Disagreement("RD074", nic.label, port.label, "MTU", f"MTU '{value.text}' (not a number)",
                                    f"port MTU {port_mtu}", value.source, where))
            continue
        if port_mtu is not None and mtu > port_mtu:
            out.append(Disagreement("RD074", nic.label, port.label, "MTU", f"MTU {mtu}", f"port MTU {port_mtu}",
                                    value.source, where))
        elif path_mtu is not None and mtu > path_mtu[0]:
            lowest, label, at = path_mtu
            out.append(Disagreement("RD074", nic.label, port.label, "path MTU", f"MTU {mtu}",
                                    f"leads into a fabric whose port {label} has MTU {lowest}", value.source, at))
    return out


def path_mtus(sides: Sides) -> dict[str, tuple[int, str, str]]:
    """Switch -> the lowest MTU of any switch-to-switch port of its fabric (the switches such links join), with
    that port and where its MTU was read. A path through the fabric may cross any of them."""
    neighbours: dict[str, set[str]] = {}
    for a, _, b, _ in sides.fabric_links:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    out: dict[str, tuple[int, str, str]] = {}
    for start in sorted(neighbours):
        if start in out:
            continue
        seen, todo = {start}, [start]
        while todo:
            for peer in neighbours[todo.pop()] - seen:
                seen.add(peer)
                todo.append(peer)
        ends = [(switch, port) for a, ap, b, bp in sides.fabric_links if a in seen
                for switch, port in ((a, ap), (b, bp))]
        mtus = ((Port(sides.switches[s], p).mtu(), f"{s}:{p}") for s, p in ends)
        lowest = min((mtu or 0, label, where) for (mtu, where), label in mtus)
        out.update(dict.fromkeys(seen, lowest))
    return out
