"""What FRR should converge to, so the checks can hold it to it: from the plan's wiring (the BGP sessions
of each switch's frr.conf) and ASNs, with a `Failure`'s cables and devices taken out.

A leaf's prefixes spread as eBGP path vectors do (`planning.pathvector`): shortest AS path, ECMP, a path
holding a switch's own ASN refused. So in three tiers a spine reaches a leaf of another spine group only
through the cores, and a spine that lost its way there (its cores, or the remote spine) has no route;
planes share no session, so nothing of one plane is reachable from another. This is the expectation;
every route the checks read comes from FRR itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..planning.pathvector import advertises, path_vector
from .plan import Candidate, PinCheck, Plan


@dataclass(frozen=True)
class Failure:
    """What is broken while the checks run (nothing, in the first pass)."""
    label: str = ""
    cables: frozenset[str] = frozenset()
    devices: frozenset[str] = frozenset()

    def tag(self, kind: str) -> str:
        return f"{kind} [{self.label}]" if self.label else kind


class Expectation:
    """Routes of one plan with one failure; each leaf's spread is computed once."""

    def __init__(self, plan: Plan, failure: Failure = Failure()):
        self.plan, self.failure = plan, failure
        self.asns = {s.device: s.asn for s in plan.switches.values()}
        self.sessions = {s.device: [x for x in s.sessions if x.cable not in failure.cables
                                    and x.peer not in failure.devices]
                         for s in plan.switches.values() if s.device not in failure.devices}
        self.adjacent = {device: [x.peer for x in sessions] for device, sessions in self.sessions.items()}
        self.leaves = [s.device for s in plan.leaves()]
        self._spread: dict[str, tuple[dict, dict]] = {}

    def spread(self, leaf: str) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple]]:
        """(switch -> next hops toward ``leaf``, switch -> its AS path); empty when the leaf is down."""
        found = self._spread.get(leaf)
        if found is None:
            found = self._spread[leaf] = (path_vector(self.adjacent, self.asns, leaf) if leaf in self.sessions
                                          else ({}, {}))
        return found

    def has_route(self, switch: str, leaf: str) -> bool:
        return switch != leaf and switch in self.spread(leaf)[0]

    def reached(self, switch: str) -> list[str]:
        """The leaves whose server prefixes ``switch`` should hold in its BGP table."""
        return [leaf for leaf in self.leaves if self.has_route(switch, leaf)]

    def offers(self, spine: str, leaf: str, to: str) -> bool:
        """Whether ``spine`` advertises ``leaf``'s prefixes to its neighbour ``to`` (which would refuse a path
        already holding its ASN)."""
        return self.has_route(spine, leaf) and advertises(self.spread(leaf)[1], spine, self.asns.get(to))

    def candidate(self, pin: PinCheck, to_leaf: str | None = None) -> Candidate | None:
        """The first candidate of ``pin`` whose uplink works and whose spine offers ``to_leaf`` (the pin's
        destination leaf by default): where the leaf's agent should send the source's traffic there."""
        to_leaf = pin.dest_leaf if to_leaf is None else to_leaf
        return next((c for c in pin.candidates if c.cable not in self.failure.cables
                     and c.spine not in self.failure.devices and self.offers(c.spine, to_leaf, pin.leaf_id)), None)

    def parts(self, switch: str, leaf: str) -> set[str]:
        """Every switch and cable on any ECMP path from ``switch`` down to ``leaf`` (``leaf`` included)."""
        hops = self.spread(leaf)[0]
        out, todo = set(), [switch]
        while todo:
            device = todo.pop()
            if device in out:
                continue
            out.add(device)
            for nxt in hops.get(device, ()):
                out |= {x.cable for x in self.sessions[device] if x.peer == nxt}
                todo.append(nxt)
        return out
