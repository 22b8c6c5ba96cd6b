"""FRR's running configuration against the bundle's frr.conf: the BGP facts both say.

Both texts are read by one parser (`facts`): the ``router bgp`` instance (ASN, router-id), each
neighbour's remote-as and its other lines (a ``shutdown`` shows there), the ``network`` statements, the
instance's other lines and the static routes. Descriptions and interface stanzas are not compared.
FRR's ``show running-config`` leaves out what equals the ``frr defaults datacenter`` profile, so a
bundle line among `PROFILE_DEFAULTS` that FRR does not print is not drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .findings import DriftFinding

# Lines frr.conf writes whose values are the datacenter profile's own defaults (FRR 7-10): never printed.
PROFILE_DEFAULTS = frozenset({"no bgp ebgp-requires-policy", "timers bgp 3 9"})


@dataclass
class FrrFacts:
    asn: str | None = None
    router_id: str | None = None
    neighbours: dict[str, str | None] = field(default_factory=dict)     # peer -> remote-as
    neighbour_lines: set[str] = field(default_factory=set)              # other 'neighbor ...' lines
    networks: set[str] = field(default_factory=set)                     # 'afi prefix'
    settings: set[str] = field(default_factory=set)                     # other lines of the instance
    statics: set[str] = field(default_factory=set)                      # 'ip route ...'


def facts(text: str) -> FrrFacts:
    out = FrrFacts()
    in_bgp, family = False, ""
    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line or line.startswith("!"):
            continue
        words = line.split()
        if not raw[:1].isspace():                       # a top-level line ends any block
            in_bgp, family = False, ""
            if words[:2] == ["router", "bgp"] and len(words) == 3:
                in_bgp, out.asn = True, words[2]
            elif words[:2] == ["ip", "route"] or words[:2] == ["ipv6", "route"]:
                out.statics.add(line)
            continue
        if not in_bgp:
            continue
        if words[0] == "address-family":
            family = " ".join(words[1:])
        elif words[0] == "exit-address-family":
            family = ""
        elif words[:2] == ["bgp", "router-id"] and len(words) == 3:
            out.router_id = words[2]
        elif words[0] == "neighbor" and len(words) >= 3:
            if words[2] == "remote-as" and len(words) == 4:
                out.neighbours[words[1]] = words[3]
            elif words[2] != "description":
                out.neighbour_lines.add(f"{family + ': ' if family else ''}{line}")
        elif words[0] == "network" and len(words) >= 2:
            out.networks.add(f"{family}: {' '.join(words[1:])}")
        else:
            out.settings.add(f"{family + ': ' if family else ''}{line}")
    return out


def compare_frr(device: str, ours_text: str, running_text: str) -> list[DriftFinding]:
    """DR011 instance, DR010 neighbours, DR012 networks, DR013 other settings and static routes."""
    ours, have = facts(ours_text), facts(running_text)
    out: list[DriftFinding] = []
    for what, want, got in (("router bgp", ours.asn, have.asn), ("bgp router-id", ours.router_id, have.router_id)):
        if want != got:
            out.append(DriftFinding("DR011", device, what, f"{what} is {got or 'not configured'} in FRR, "
                                    f"{want or 'none'} in the bundle", want, got))
    for peer in sorted(set(ours.neighbours) | set(have.neighbours)):
        want, got = ours.neighbours.get(peer), have.neighbours.get(peer)
        if want == got:
            continue
        key = f"neighbor {peer}"
        if got is None:
            message = f"{key} (remote-as {want}) is not configured in FRR"
        elif want is None:
            message = f"{key} remote-as {got} is configured in FRR, not in the bundle"
        else:
            message = f"{key} remote-as is {got} in FRR, {want} in the bundle"
        out.append(DriftFinding("DR010", device, key, message, want, got))
    out += _sets(device, "DR010", ours.neighbour_lines, have.neighbour_lines)
    out += _sets(device, "DR012", ours.networks, have.networks)
    out += _sets(device, "DR013", ours.settings - PROFILE_DEFAULTS, have.settings - PROFILE_DEFAULTS)
    out += _sets(device, "DR013", ours.statics, have.statics)
    return out


def _sets(device: str, code: str, want: set[str], have: set[str]) -> list[DriftFinding]:
    out = [DriftFinding(code, device, line, f"'{line}' is in the bundle's frr.conf, not in FRR", line, None)
           for line in sorted(want - have)]
    out += [DriftFinding(code, device, line, f"'{line}' runs in FRR, not in the bundle's frr.conf", None, line)
            for line in sorted(have - want)]
    return out
