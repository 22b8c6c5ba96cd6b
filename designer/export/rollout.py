"""The rollout plan of a change bundle (`export --since`): which devices change, in which waves.

Order (issue 17): devices that carry no traffic yet first (every device the new design adds: their
configs go on before anything existing points at them); then the existing spines, then the cores,
that change, in groups: within each mesh scope (the spines one leaf meshes with: fabric plane, spine
group, spine plane; for cores, every core of the fabric plane, since traffic between spine groups
crosses all the core groups) a wave drains at most ``max_drain`` of the scope's switches (at least
one), so a leaf never loses more than that share of its uplinks at once; then the
existing leaves that change, at most one per SU and fabric plane per wave (an SU loses at most one
rail at a time); then the existing hosts that change.

Each switch of a wave that carries traffic is drained with SONiC's traffic shift (TSA), applied with
the bundle's ``rail-switch-apply.py``, checked (its BGP sessions up with the designed peers and ASNs,
LLDP neighbours as designed) and undrained (TSB). A BGP peer that is itself changed in a later wave is
checked there, not here: its side of the session is not configured yet.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..planning.topology import mesh_key
from .switch_data import switch_data

DEFAULT_MAX_DRAIN = 1 / 8


@dataclass
class Wave:
    name: str
    kind: str                         # "new", "spines", "cores", "leaves", "hosts"
    drain: bool                       # TSA before, TSB after
    switches: list[str] = field(default_factory=list)     # device ids, natural order
    hosts: list[str] = field(default_factory=list)
    shares: dict[str, str] = field(default_factory=dict)   # scope -> "2 of 16" drained


def parse_share(text: str) -> float:
    """``1/8``, ``0.125`` or ``12.5%`` as a fraction in (0, 1]; ValueError with the reason otherwise."""
    value = text.strip()
    try:
        if value.endswith("%"):
            share = float(value[:-1]) / 100
        elif "/" in value:
            top, bottom = value.split("/", 1)
            share = int(top) / int(bottom)
        else:
            share = float(value)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a share: write it as 1/8, 0.125 or 12.5%") from None
    if not 0 < share <= 1:
        raise ValueError(f"{text!r} is not a share between 0 and 1 (1/8 drains one spine in eight at a time)")
    return share


def plan_waves(new: Fabric, changed: set[str], added: set[str], max_drain: float = DEFAULT_MAX_DRAIN) -> list[Wave]:
    """The waves that roll out ``changed`` devices (ids of ``new``; ``added`` among them are new)."""
    waves: list[Wave] = []
    fresh = sorted(added & changed, key=natural_key)
    if fresh:
        waves.append(Wave("new devices (no traffic yet)", "new", False,
                          [d for d in fresh if d in new.switches], [d for d in fresh if d in new.servers]))
    existing = changed - added
    for role, kind, scope in ((Role.SPINE, "spines", lambda s: _scope_name(new, mesh_key(new, s))),
                              (Role.CORE, "cores", lambda s: f"the cores of fabric plane {s.fabric_plane}")):
        waves.extend(_drained_groups(new, _switches(new, existing, role), role, kind, scope, max_drain))
    leaves = _switches(new, existing, Role.LEAF)
    per_su: dict[tuple, list[str]] = defaultdict(list)
    for leaf in leaves:
        per_su[(leaf.fabric_plane, leaf.su)].append(leaf.id)
    for n in range(max((len(v) for v in per_su.values()), default=0)):
        ids = sorted((ids[n] for ids in per_su.values() if n < len(ids)), key=natural_key)
        waves.append(Wave(f"leaves, round {n + 1} (one per SU)", "leaves", True, ids))
    hosts = sorted((d for d in existing if d in new.servers), key=natural_key)
    if hosts:
        waves.append(Wave("hosts with changes", "hosts", False, [], hosts))
    return waves


def _switches(fabric: Fabric, ids: set[str], role: Role) -> list:
    return sorted((fabric.switches[i] for i in ids if i in fabric.switches and fabric.switches[i].role is role),
                  key=lambda s: natural_key(s.id))


def _scope_name(fabric: Fabric, key: tuple) -> str:
    plane, group, spine_plane = key
    parts = [f"fabric plane {plane}"] if fabric.settings.fabric_planes > 1 else []
    parts += [f"spine group {group}"] if group is not None else []
    parts += [f"spine plane {spine_plane}"] if spine_plane is not None else []
    return ", ".join(parts) or "the spines"


def _drained_groups(fabric, switches, role, kind, scope_of, max_drain) -> list[Wave]:
    """Waves of ``switches`` taking at most ``max_drain`` of each scope's switches (at least one)."""
    scopes: dict[str, list[str]] = defaultdict(list)
    for s in switches:
        scopes[scope_of(s)].append(s.id)
    sizes = _scope_sizes(fabric, role, scope_of)
    chunks: dict[str, list[list[str]]] = {}
    for name, ids in scopes.items():
        k = max(1, int(max_drain * sizes[name] + 1e-9))
        chunks[name] = [ids[i:i + k] for i in range(0, len(ids), k)]
    waves = []
    for n in range(max((len(c) for c in chunks.values()), default=0)):
        wave = Wave(f"{kind}, group {n + 1}", kind, True)
        for name in sorted(chunks):
            if n < len(chunks[name]):
                wave.switches += chunks[name][n]
                wave.shares[name] = f"{len(chunks[name][n])} of {sizes[name]}"
        wave.switches.sort(key=natural_key)
        waves.append(wave)
    return waves


def _scope_sizes(fabric: Fabric, role: Role, scope_of) -> dict[str, int]:
    """How many switches of ``role`` each scope has (the whole of it, changed or not)."""
    sizes: dict[str, int] = defaultdict(int)
    for s in fabric.switches.values():
        if s.role is role:
            sizes[scope_of(s)] += 1
    return sizes


def expectations(fabric: Fabric, switch_id: str, later: set[str]) -> dict:
    """What a switch must show once applied: its BGP sessions (peer address and ASN) and LLDP neighbours
    toward other switches (local port, peer host name and port); sessions to ``later`` devices (rolled out in a later wave)
    are left out, their side is not configured yet."""
    data = switch_data(fabric, switch_id)
    host_of = {s.hostname: s.id for s in fabric.switches.values()}
    neighbors = [{"ip": n["ip"], "asn": n["asn"], "name": n["name"]} for n in data["bgp"]["neighbors"]
                 if host_of.get(n["name"]) not in later]
    lldp = sorted(({"port": n["local_port"], "peer": n["name"], "peer_port": n["peer_port"]}
                   for n in data["bgp"]["neighbors"]), key=lambda p: natural_key(p["port"]))
    return {"hostname": data["hostname"], "bgp": neighbors, "lldp": lldp}
