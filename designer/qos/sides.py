"""Both ends of every server cable, as the bundle's files (or the devices' dumps) say they are set.

A host NIC's side comes from the files the host applies, parsed back:
- ``roce-qos.sh``: each ``roce_nic NETDEV RDMA`` call with what its function sets (``mlnx_qos --trust
  --pfc``, ``cma_roce_tos -t``, the sysfs writes: traffic_class, ECN roce_np / roce_rp enable per
  priority, cnp_dscp, cnp_802p_prio); drift's own parser (`drift.host.roce_expected`), so both read the
  script alike;
- ``nccl.env``: ``NCCL_IB_TC``, the ToS NCCL puts on its queue pairs (it overrides the rdma_cm default);
- ``netplan.yaml`` (``ethernets.<netdev>.mtu``) and ``policy-routing.sh`` (the MTU of each ``rail_nic``
  call): the two ways a host applies its MTU; each is compared.
A switch port's side is the switch's config_db.json. Who is cabled to whom: ``cabling.csv``, or, in a
bundle written without the cabling part, each switch PORT's ``description`` (``<host>:<port>``).

With dumps (`rail-dump.sh`, `rail-switch-apply.py dump`), a dumped device's side is what it runs instead:
roce-qos.txt and ip-address.json on a host (nccl.env is read from the bundle: no process runs it),
config_db.json on a switch.
"""

from __future__ import annotations

import csv
import io
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..drift.dumps import Dump, DriftInputError, bundle_devices, bundle_text, read_dumps
from ..drift.host import key_values, rail_nics, roce_calls, roce_expected
from ..errors import DesignerError
from ..model.limits import excerpt
from .netplan import mtus as netplan_mtus


class QosInputError(DesignerError):
    """A bundle (or dump) whose QoS cannot be read at all: the message names the file."""


class NothingToCompare(QosInputError):
    """A bundle without a host NIC cabled to a switch port whose files both sides have."""


@dataclass(frozen=True)
class Value:
    """One setting as a file states it: ``text`` None when the file does not set it."""
    text: str | None
    source: str                  # where: 'hosts/h/roce-qos.sh: cma_roce_tos' ...


@dataclass
class HostNic:
    host: str
    netdev: str
    rdma: str
    trust: Value
    pfc: Value                   # mlnx_qos's 8 flags, '0,0,0,1,0,0,0,0'
    markings: list[Value]        # each ToS byte RoCE data leaves with
    ecn_np: dict[int, Value]     # priority -> roce_np/enable (notification point: sends CNPs)
    ecn_rp: dict[int, Value]     # priority -> roce_rp/enable (reaction point: slows down on CNPs)
    cnp_dscp: Value
    cnp_priority: Value
    mtus: list[Value]

    @property
    def label(self) -> str:
        return f"{self.host}:{self.netdev}"


@dataclass
class Switch:
    name: str
    db: dict
    source: str                  # 'switches/<name>/config_db.json' or the dump's file


@dataclass
class Sides:
    hosts: dict[str, list[HostNic]] = field(default_factory=dict)   # empty when read with hosts=False
    host_sources: dict[str, tuple[Path, Dump | None]] = field(default_factory=dict)   # folder, dump: read_host's
    switches: dict[str, Switch] = field(default_factory=dict)
    server_links: list[tuple[str, str, str, str]] = field(default_factory=list)   # host, netdev, switch, port
    fabric_links: list[tuple[str, str, str, str]] = field(default_factory=list)   # switch, port, switch, port
    dumped: list[str] = field(default_factory=list)                                # devices read from dumps


def _config_db(path: Path, text: str) -> dict:
    try:
        db = json.loads(text)
    except ValueError as exc:
        raise QosInputError(f"{path}: not valid JSON ({exc}); export the bundle again") from None
    if not isinstance(db, dict) or not all(isinstance(t, dict) for t in db.values()):
        raise QosInputError(f"{path}: not a CONFIG_DB object (table -> key -> fields)")
    bad = next((f"{table}|{key}" for table, entries in db.items() for key, fields in entries.items()
                if not isinstance(fields, dict)), None)
    if bad is not None:
        raise QosInputError(f"{path}: {excerpt(bad)} is not an object of fields; a CONFIG_DB is table -> key -> fields")
    return db


def _netplan_mtus(path: Path, text: str | None) -> dict[str, str]:
    if text is None:
        return {}
    try:
        return netplan_mtus(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        raise QosInputError(f"{path}{where}: not valid YAML ({getattr(exc, 'problem', None) or exc}); "
                            "export the bundle again") from None


def _nccl_tc(text: str | None) -> str | None:
    for line in (text or "").splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.strip() == "NCCL_IB_TC":
            return value.strip()
    return None


def _by_priority(values: dict[str, str], at) -> dict[str, dict[int, Value]]:
    """``<folder>/<priority>`` keys grouped by folder (the ECN enables of every NIC, read in one pass);
    ``at(key)`` says where each was read."""
    out: dict[str, dict[int, Value]] = {}
    for key, value in values.items():
        head, _, tail = key.rpartition("/")
        if tail.isdigit():
            out.setdefault(head, {})[int(tail)] = Value(value, at(key))
    return out


def read_host(host: str, folder: Path, dump: Dump | None = None) -> list[HostNic]:
    rel = f"hosts/{host}"
    script = bundle_text(folder / "roce-qos.sh")
    if script is None:
        return []                                        # every cabled NIC of it then sets no RoCE QoS (RD072)
    calls = roce_calls(script)
    values, where = roce_expected(script, calls), f"{rel}/roce-qos.sh"
    ran: dict[str, str] = {}
    if dump is not None and dump.has("roce-qos.txt"):
        ran = key_values(dump.text("roce-qos.txt"))
        # what the dump could not read (no mlnx_qos there, a sysfs file missing) stays the script's, and says so
        where, values = f"{dump.folder}/roce-qos.txt", {**values, **ran}

    def at(key: str) -> str:
        return f"{where}: {key}" if not ran or key in ran else f"{rel}/roce-qos.sh (not in the dump): {key}"
    nccl_tc = _nccl_tc(bundle_text(folder / "nccl.env"))
    netplan = _netplan_mtus(folder / "netplan.yaml", bundle_text(folder / "netplan.yaml"))
    routing = {n.netdev: n.mtu for n in rail_nics(folder / "policy-routing.sh",
                                                  bundle_text(folder / "policy-routing.sh") or "")}
    running = _dump_mtus(dump) if dump is not None and dump.has("ip-address.json") else None
    enables = _by_priority(values, at)
    out = []
    for dev, rdma in calls:
        sysfs = f"/sys/class/net/{dev}/ecn"
        tc_file = f"/sys/class/infiniband/{rdma}/tc/1/traffic_class"
        markings = [Value(values.get(f"roce_tos {rdma}"), at(f"roce_tos {rdma}") if ran else
                          f"{where}: cma_roce_tos -d {rdma}"), Value(values.get(tc_file), at(tc_file))]
        if nccl_tc is not None:
            markings.append(Value(nccl_tc, f"{rel}/nccl.env: NCCL_IB_TC"))
        if running is not None:
            mtus = [Value(running.get(dev), f"{dump.folder}/ip-address.json: {dev} mtu")]
        else:
            mtus = ([Value(netplan[dev], f"{rel}/netplan.yaml: ethernets.{dev}.mtu")] if dev in netplan else [])
            mtus += [Value(routing[dev], f"{rel}/policy-routing.sh: rail_nic {dev} mtu")] if dev in routing else []
        mlnx = (lambda key, flag: at(key) if ran else f"{where}: mlnx_qos -i {dev} {flag}")
        out.append(HostNic(
            host, dev, rdma, Value(values.get(f"trust {dev}"), mlnx(f"trust {dev}", "--trust")),
            Value(values.get(f"pfc {dev}"), mlnx(f"pfc {dev}", "--pfc")), markings,
            enables.get(f"{sysfs}/roce_np/enable", {}), enables.get(f"{sysfs}/roce_rp/enable", {}),
            Value(values.get(f"{sysfs}/roce_np/cnp_dscp"), at(f"{sysfs}/roce_np/cnp_dscp")),
            Value(values.get(f"{sysfs}/roce_np/cnp_802p_prio"), at(f"{sysfs}/roce_np/cnp_802p_prio")), mtus))
    return out


def _dump_mtus(dump: Dump) -> dict[str, str]:
    links = dump.json("ip-address.json")
    return {str(link.get("ifname")): str(link.get("mtu")) for link in links if isinstance(link, dict)} \
        if isinstance(links, list) else {}


def _cabling(root: Path, sides: Sides) -> bool:
    text = bundle_text(root / "cabling.csv")
    if text is None:
        return False
    rows = csv.reader(io.StringIO(text))
    header = next(rows, [])
    wanted = ("a_device", "a_port", "b_device", "b_port")
    if not set(wanted) <= set(header):
        raise QosInputError(f"{root / 'cabling.csv'}: lacks the a_device, a_port, b_device and b_port columns")
    # the last column of a name, as csv.DictReader reads it; a short row's missing cells are None
    at = [max(i for i, name in enumerate(header) if name == key) for key in wanted]
    for row in rows:
        if row:                                  # DictReader skips blank lines too
            _link(sides, *(row[i] if i < len(row) else None for i in at))
    return True


def _link(sides: Sides, a: str, a_port: str, b: str, b_port: str) -> None:
    if a in sides.switches and b in sides.switches:
        sides.fabric_links.append((a, a_port, b, b_port))
    elif a in sides.switches and b in sides.host_sources:
        sides.server_links.append((b, b_port, a, a_port))
    elif b in sides.switches and a in sides.host_sources:
        sides.server_links.append((a, a_port, b, b_port))


def _descriptions(sides: Sides) -> None:
    """Links from each switch PORT's description ``peer:port`` (each switch-switch link appears twice: kept once)."""
    for name, switch in sorted(sides.switches.items()):
        for port, entry in sorted(switch.db.get("PORT", {}).items()):
            peer, sep, peer_port = str(entry.get("description", "")).rpartition(":")
            if sep and (peer in sides.host_sources or (peer in sides.switches and (name, port) < (peer, peer_port))):
                _link(sides, name, port, peer, peer_port)


def read_sides(bundle: Path, dumps: Path | None = None, hosts: bool = True) -> Sides:
    """Both sides of the bundle; ``hosts=False`` leaves each host's files unread (`read_host_of` reads one)."""
    with readable():
        return _read(bundle, dumps, hosts)


def read_host_of(sides: Sides, host: str) -> list[HostNic]:
    """One host's side, read from its files (or its dump) as `read_sides` does."""
    with readable():
        return read_host(host, *sides.host_sources[host])


@contextmanager
def readable():
    """A drift reader's refusal as this check's (the same message)."""
    try:
        yield
    except DriftInputError as exc:
        raise QosInputError(str(exc)) from None


def _read(bundle: Path, dumps: Path | None, hosts: bool) -> Sides:
    devices = bundle_devices(bundle)
    found = read_dumps(dumps) if dumps is not None else {}
    sides = Sides()
    for name, folder in devices.switches.items():
        dump = found.get(name)
        if dump is not None and dump.kind == "switch" and dump.has("config_db.json"):
            sides.switches[name] = Switch(name, _config_db(dump.folder / "config_db.json", dump.text("config_db.json")),
                                          str(dump.folder / "config_db.json"))
            sides.dumped.append(name)
        else:
            path = folder / "config_db.json"
            sides.switches[name] = Switch(name, _config_db(path, bundle_text(path) or ""),
                                          f"switches/{name}/config_db.json")
    for name, folder in devices.hosts.items():
        dump = found.get(name)
        dump = dump if dump is not None and dump.kind == "host" else None
        sides.host_sources[name] = (folder, dump)
        if hosts:
            sides.hosts[name] = read_host(name, folder, dump)
        if dump is not None:
            sides.dumped.append(name)
    if not _cabling(bundle, sides):
        _descriptions(sides)
    return sides
