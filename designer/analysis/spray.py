"""Adaptive routing / per-packet spraying as the ideal: every switch splits each flow evenly over all
its choices toward the destination, so a flow's rate reaches each link in a fixed proportion and no
trial is random.

This is the best any load balancing can do on the designed links: hashing (ecmp, qp-hash) tends to it
as the number of independently hashed parts grows. What it leaves out is what makes real spraying
harder: packets of one flow arrive out of order (the receiving NIC must reorder, or the transport must
tolerate it: NCCL's adaptive-routing mode on ConnectX, NVIDIA Spectrum-X's SuperNIC), the switches
must choose ports by queue depth per packet or per flowlet (Spectrum-X adaptive routing, Arista's DLB,
Broadcom's cognitive routing: vendor features that SONiC's CONFIG_DB does not model), and a real
switch's choice reacts to congestion rather than splitting exactly evenly.
"""

from __future__ import annotations

_NEGLIGIBLE = 1e-12


class Spread:
    """A flow placed as even splits along the walk that `collisions._Hops` describes."""

    def __init__(self, hops):
        self.hops = hops
        self.memo: dict[tuple[str, str], dict[int, float]] = {}
        self.first: dict[tuple[int, str], list[tuple[int, float]]] = {}   # (id of a first-hop list, leaf) -> split

    def below(self, switch: str, dst_leaf: str) -> dict[int, float]:
        """link -> the share of what ``switch`` forwards toward ``dst_leaf`` that crosses it."""
        key = (switch, dst_leaf)
        found = self.memo.get(key)
        if found is None:
            found = {} if switch == dst_leaf else self.split(self.hops(switch, dst_leaf), dst_leaf)
            self.memo[key] = found
        return found

    def split(self, choices: list[tuple[int, str]], dst_leaf: str) -> dict[int, float]:
        out: dict[int, float] = {}
        part = 1.0 / len(choices) if choices else 0.0
        for link, hop in choices:
            out[link] = out.get(link, 0.0) + part
            for deeper, share in self.below(hop, dst_leaf).items():
                out[deeper] = out.get(deeper, 0.0) + part * share
        return out

    def place(self, rate: float, fixed: list[int], first: list, dst_leaf: str, count: list, demand: list) -> list[int]:
        """Adds the flow to ``count`` (once per link it sends any part over) and ``demand``; returns those links."""
        path = list(fixed)
        for i in fixed:
            count[i] += 1
            demand[i] += rate
        key = (id(first), dst_leaf)        # the first-hop lists are shared per leaf pair and live as long as this
        parts = self.first.get(key)
        if parts is None:
            parts = self.first[key] = [(l, x) for l, x in self.split(first, dst_leaf).items() if x > _NEGLIGIBLE]
        for link, share in parts:
            path.append(link)
            count[link] += 1
            demand[link] += rate * share
        return path
