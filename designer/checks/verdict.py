"""What the checks would say about one cable before it is drawn: the window's cabling gestures show
it under the cursor, before the drop (a NIC onto a switch, a switch onto a switch, a cable's end
moved).

The verdict runs the catalogue's own wiring and tier rules, not a second copy of their conditions,
on a context narrowed to the switches around the cable: once as the design is and once with the
cable drawn (and the cable it replaces gone). A finding that appears only with the cable, and names
both of its ends, is what drawing it would cause; the worst one is the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ..model.entities import Link
from ..model.ids import natural_key, split_endpoint
from ..planning.topology import LeafLinks, SpineLinks, leaf_links, mesh_key, spine_links
from .context import Context
from .finding import Finding, Severity
from .registry import registered, run_guarded

# the rules one more cable can break (a cable only ever shrinks what RD006 and RD041 find missing,
# and the diff leaves those findings out; RD005, unconnected NICs, cannot come from drawing a cable)
CABLE_RULES = ("RD003", "RD004", "RD032", "RD006", "RD018", "RD019", "RD041", "RD042", "RD043", "RD044")


@dataclass(frozen=True)
class Verdict:
    severity: Severity | None      # None: the checks have nothing against the cable
    message: str                   # what the status line says before the drop
    code: str | None = None        # the worst finding's rule and message
    finding: str = ""

    @property
    def ok(self) -> bool:
        return self.severity is None


class CableContext(Context):
    """The design as the rules see it around one cable: the switches at its ends (and, for a core, the
    spines it already serves), with the cable drawn or not, and the cable it replaces gone."""

    def __init__(self, fabric, link: Link, drawn: bool, gone: Link | None = None):
        super().__init__(fabric)
        self.link, self.drawn, self.gone = link, drawn, gone
        ends = {split_endpoint(link.a)[0], split_endpoint(link.b)[0]}
        sharing = {ep.partition("/")[0] for dev in ends if dev in fabric.switches
                   and fabric.switches[dev].role.value == "core" for _, ep in fabric.cabled_ports(dev)}
        self._all_spines = self.spines
        self.leaves = [s for s in self.leaves if s.id in ends]
        self.spines = [s for s in self.spines if s.id in ends or s.id in sharing]
        self._ends = ends

    def _links(self, switch_id: str) -> list[Link]:
        links = [l for l in self.fabric.links_of(switch_id) if self.gone is None or l.id != self.gone.id]
        if self.drawn and switch_id in self._ends:
            links.append(self.link)
        return links

    def _split(self, switch_id: str, kinds: tuple[str, str]) -> tuple[tuple, tuple]:
        """(downlinks, uplinks) of a switch in this context, as `topology` gives them: (port, far end)."""
        f, lower, upper = self.fabric, [], []
        for link in self._links(switch_id):
            mine = link.a if link.a.startswith(switch_id + "/") else link.b
            port = f.port(mine)
            far = link.other(mine)
            far_dev = far.partition("/")[0]
            kind = "nic" if far_dev in f.servers else f.switches[far_dev].role.value if far_dev in f.switches else None
            if port is not None and kind in kinds:
                (lower if kind == kinds[0] else upper).append((port, far))
        order = {name: i for i, name in enumerate(f.ports(switch_id))}
        return (tuple(sorted(lower, key=lambda pf: order[pf[0].name])),
                tuple(sorted(upper, key=lambda pf: order[pf[0].name])))

    @cached_property
    def leaf_links(self) -> dict[str, LeafLinks]:
        return {leaf.id: LeafLinks(*self._split(leaf.id, ("nic", "spine"))) if leaf.id in self._ends
                else leaf_links(self.fabric, leaf.id) for leaf in self.leaves}

    @cached_property
    def spine_links(self) -> dict[str, SpineLinks]:
        return {spine.id: SpineLinks(*self._split(spine.id, ("leaf", "core"))) if spine.id in self._ends
                else spine_links(self.fabric, spine.id) for spine in self.spines}

    @cached_property
    def nics(self):
        out = {}
        for ep in (self.link.a, self.link.b):
            server = self.fabric.servers.get(split_endpoint(ep)[0])
            if server is not None:
                out.update((n.id, n) for n in server.nics)
        for links in self.leaf_links.values():
            for _, nic_id in links.downlinks:
                server = self.fabric.servers.get(split_endpoint(nic_id)[0])
                if server is not None:
                    out.update((n.id, n) for n in server.nics)
        return out

    @cached_property
    def cables(self):
        return self.cables_for([self.link] if self.drawn else [])

    def expected_spines(self, leaf) -> frozenset[str]:
        """Of every spine of the design, not only of the narrowed ones."""
        key = mesh_key(self.fabric, leaf)
        return frozenset(s.id for s in self._all_spines if mesh_key(self.fabric, s) == key)


def _names_both_ends(finding: Finding, link: Link) -> bool:
    ids = set(finding.ids)
    if link.id in ids:
        return True
    return all(ep in ids or split_endpoint(ep)[0] in ids for ep in (link.a, link.b))


def cable_findings(fabric, a: str, b: str, gone: Link | None = None) -> list[Finding]:
    """The findings drawing a cable between endpoints ``a`` and ``b`` would cause (``gone``: the cable
    the gesture takes away at the same time, a re-cabled NIC's or a moved cable's), worst first."""
    speeds = [fabric.endpoint_speed(ep) for ep in (a, b)]
    link = Link(*sorted((a, b), key=natural_key), min(s for s in speeds if s is not None) if any(speeds) else 0)
    rules = [r for r in registered() if r.code in CABLE_RULES]
    without, with_it = CableContext(fabric, link, False, gone), CableContext(fabric, link, True, gone)
    before = {(f.code, f.message) for r in rules for f in run_guarded(r, without)}
    after = [f for r in rules for f in run_guarded(r, with_it)]
    new = [f for f in after if (f.code, f.message) not in before and _names_both_ends(f, link)]
    return sorted(new, key=lambda f: (f.severity.rank, f.code))


def cable_verdict(fabric, a: str, b: str, gone: Link | None = None) -> Verdict:
    """The worst finding a cable ``a``-``b`` would cause, as a line for the status bar before the drop."""
    found = cable_findings(fabric, a, b, gone)
    if not found:
        return Verdict(None, f"drop to cable {a} to {b}")
    worst = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    word = "report" if worst.severity is Severity.ERROR else "warn"
    return Verdict(worst.severity, f"drop to cable {a} to {b} anyway? {worst.code} would {word}: {worst.message}{more}",
                   worst.code, worst.message)
