"""Place a collective's flows on the designed links and predict the bandwidth each flow gets.

Path of a flow from NIC s (leaf Ls) to NIC d (leaf Ld):
- NIC s -> Ls; if Ls == Ld, Ls -> NIC d and no uplink is used.
- Otherwise Ls -> spine: ``ppd``: the uplink the PPD plan pins s's downlink to (`planning.ppd`);
  ``ecmp``: a uniform random choice among Ls's uplinks to the spines BGP offers for Ld (a per-flow hash);
  ``qp-hash``: the flow is ``qps`` queue pairs (NCCL_IB_QPS_PER_CONNECTION), each carrying 1/qps of its
  rate (NCCL_IB_SPLIT_DATA_ON_QPS=1 splits every message evenly) and each hashed on its own, at every hop;
  ``adaptive``: per-packet spraying / adaptive routing as the ideal: every switch spreads each flow
  evenly over all its choices, so no choice is random and one trial is exact (`spray`).
- Above the leaf, ordinary L3 (`routing.Forwarding.routes`): at each spine or core a uniform choice
  among its links toward Ld (per QP under qp-hash, an even split under adaptive). In two tiers that is
  the spine's parallel links to Ld; in three, a spine of another group goes up to its cores, a core down
  to Ld's spine, that spine to Ld.
- Ld -> NIC d.

Bandwidth: a directed link of capacity C carrying flows whose rates sum to R gives each of them the
share min(1, C / R) of its rate; a flow gets the smallest share along its path; the collective runs at
its slowest flow, so the predicted bus-bandwidth fraction is the minimum over flows. With equal link
and NIC speeds and one full-rate flow per NIC this is exactly 1/k for a link shared by k flows. A flow
split over QPs (or sprayed) runs at the share of the worst link any of its parts crosses: NCCL's split
mode finishes a message when its slowest QP does. An upstream collision is a leaf->spine link asked
for more than its capacity; ``max_uplink_load`` is, per trial, the highest leaf->spine demand/capacity.

Random choices use ``random.Random(seed)``; with no choice to make (PPD and no parallel spine links)
one trial is exact and only one is run.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass

from ..model.ids import endpoint, natural_key, split_endpoint
from . import AnalysisError
from .flows import Flow
from .routing import Forwarding
from .spray import Spread

ROUTINGS = ("ppd", "ecmp", "qp-hash", "adaptive")
MAX_QPS = 128          # NCCL_IB_QPS_PER_CONNECTION values past this make no sense (NCCL caps it lower)
TOLERANCE = 1 + 1e-9      # rates are sums of fractions: ignore rounding when comparing to capacity


@dataclass(frozen=True, slots=True)
class LinkLoad:
    link: str            # "from-endpoint -> to-endpoint"
    capacity: float      # Gb/s
    tier: str            # "up" (leaf -> spine), "down" (spine -> leaf), "up2" (spine -> core),
    #                      "dn2" (core -> spine) or "host" (NIC <-> leaf)
    mean_flows: float    # flows (under qp-hash: queue pairs) that cross it; under adaptive, flows that
    max_flows: int       # send any part over it
    mean_demand: float   # Gb/s asked of it, mean over trials

    @property
    def utilisation(self) -> float:
        return self.mean_demand / self.capacity if self.capacity else 0.0


@dataclass
class Analysis:
    pattern: str
    routing: str
    trials: int
    seed: int
    flows: int
    unroutable: list[tuple[str, str, str]]    # (src, dst, why)
    links: list[LinkLoad]                     # every loaded link, natural order
    fraction: list[float]                     # per trial: the collective's bus-bandwidth fraction
    mean_flow_fraction: list[float]           # per trial: mean of the flows' fractions
    upstream_collision_free: int              # trials with no oversubscribed leaf->spine link
    max_uplink_load: list[float]              # per trial: the busiest leaf->spine link's demand / capacity
    qps: int = 1                              # queue pairs per flow (qp-hash), else 1

    @property
    def busiest(self) -> LinkLoad | None:
        """The most utilised link; among equals a leaf-spine link, then the one with most flows."""
        return max(self.links, key=lambda l: (round(l.utilisation, 9), l.tier != "host", l.mean_flows), default=None)


class _Links:
    """Directed links as small integers, with their capacity."""

    def __init__(self, fabric):
        self.fabric = fabric
        self.index: dict[tuple[str, str], int] = {}
        self.names: list[tuple[str, str]] = []
        self.capacity: list[float] = []

    def of(self, a: str, b: str) -> int:
        key = (a, b)
        if key not in self.index:
            self.index[key] = len(self.names)
            self.names.append(key)
            self.capacity.append(float(self.fabric.endpoint_speed(a) or 0))
        return self.index[key]


def _route(fw: Forwarding, links: _Links, flow: Flow, routing: str, cache: dict):
    """(fixed link indices, first choices, destination leaf) or a reason. Choices are [(link index, next
    switch)]; the walk goes on from the next switch through `_Hops` until it reaches the destination leaf."""
    fabric = fw.fabric
    src_leaf, dst_leaf = _leaf(fw, flow.src, cache), _leaf(fw, flow.dst, cache)
    if src_leaf is None or dst_leaf is None:
        return f"{flow.src if src_leaf is None else flow.dst} is not cabled to a leaf"
    fixed = [links.of(flow.src, fabric.peer(flow.src)), links.of(fabric.peer(flow.dst), flow.dst)]
    if src_leaf == dst_leaf:
        return fixed, [], dst_leaf
    # PPD choices depend on the source NIC's pin, ECMP choices only on the two leaves.
    key = (flow.src if routing == "ppd" else src_leaf, dst_leaf)
    if key not in cache:
        cache[key] = _first_hop(fw, links, flow.src, src_leaf, dst_leaf, routing)
    first = cache[key]
    return first if isinstance(first, str) else (fixed, first, dst_leaf)


def _leaf(fw: Forwarding, nic_id: str, cache: dict) -> str | None:
    if nic_id not in cache:
        cache[nic_id] = fw.leaf_of(nic_id)
    return cache[nic_id]


def _first_hop(fw: Forwarding, links: _Links, src: str, src_leaf: str, dst_leaf: str, routing: str):
    if routing == "ppd":
        pinned = fw.pin_of_nic.get(src)
        if pinned is None:
            return f"{src_leaf} has no uplinks: no path to {dst_leaf}"
        candidates = [(pinned[1].uplink, pinned[1].spine)]
    else:
        candidates = [(p, s) for s in fw.spines_reaching(src_leaf, dst_leaf) for p in fw.uplinks[src_leaf][s]]
    routes = fw.routes(dst_leaf)
    options = [(links.of(endpoint(src_leaf, port), fw.fabric.peer(endpoint(src_leaf, port))), spine)
               for port, spine in candidates if spine in routes]
    if not options:
        why = "it has no uplinks" if not fw.uplinks.get(src_leaf) else f"no spine it uses is wired to {dst_leaf}"
        return f"{src_leaf} cannot reach {dst_leaf}: {why}"
    return options


class _Hops:
    """Each switch's choices toward a destination leaf as [(link index, next switch)], built on demand."""

    def __init__(self, fw: Forwarding, links: _Links):
        self.fw, self.links, self.memo, self.below = fw, links, {}, {}

    def __call__(self, switch: str, dst_leaf: str) -> list[tuple[int, str]]:
        key = (switch, dst_leaf)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = [(self.links.of(endpoint(switch, port), self.fw.fabric.peer(endpoint(switch, port))),
                                       hop) for port, hop in self.fw.next_ports(switch, dst_leaf)]
        return found

    def branches(self, switch: str, dst_leaf: str) -> bool:
        """Whether ``switch`` or any switch after it toward ``dst_leaf`` has more than one choice. Visits every
        such switch once, so every link a walk can take has its index before the trials start."""
        key = (switch, dst_leaf)
        found = self.below.get(key)
        if found is None:
            choices = [] if switch == dst_leaf else self(switch, dst_leaf)
            found = len(choices) > 1
            for _, hop in choices:
                found = self.branches(hop, dst_leaf) or found
            self.below[key] = found
        return found


def analyze(fw: Forwarding, flow_list: list[Flow], routing: str = "ppd", trials: int = 100,
            seed: int = 0, pattern: str = "", qps: int = 1) -> Analysis:
    """``qps`` is the queue pairs per flow under ``qp-hash`` (ignored, i.e. 1, under the other routings)."""
    if routing not in ROUTINGS:
        raise AnalysisError(f"unknown routing '{routing}'; use one of {', '.join(ROUTINGS)}")
    if trials < 1:
        raise AnalysisError(f"--trials must be at least 1, not {trials}")
    if not 1 <= qps <= MAX_QPS:
        raise AnalysisError(f"--qps must be between 1 and {MAX_QPS}, not {qps}")
    qps = qps if routing == "qp-hash" else 1
    links = _Links(fw.fabric)
    hops = _Hops(fw, links)
    routed, unroutable, cache, walked = [], [], {}, set()
    random_choice = False
    for f in flow_list:
        r = _route(fw, links, f, routing, cache)
        if isinstance(r, str):
            unroutable.append((f.src, f.dst, r))
            continue
        routed.append((f.rate, *r))
        first, dst_leaf = r[1], r[2]
        if (id(first), dst_leaf) in walked:        # first-hop lists are shared per leaf pair (or pinned NIC)
            continue
        walked.add((id(first), dst_leaf))
        below = [hops.branches(hop, dst_leaf) for _, hop in first]     # (visits them all)
        random_choice = random_choice or len(first) > 1 or any(below)
    trials = trials if random_choice and routing != "adaptive" else 1
    tiers = [link_tier(fw.fabric, a, b) for a, b in links.names]
    upstream = [i for i, t in enumerate(tiers) if t == "up"]
    n = len(links.names)
    cap = links.capacity
    place = Spread(hops).place if routing == "adaptive" else _Sampler(hops, random.Random(seed).random, qps).place
    sum_flows, max_flows, sum_demand = [0] * n, [0] * n, [0.0] * n
    fraction, mean_fraction, free, worst_up = [], [], 0, []
    for _ in range(trials):
        count, demand = [0] * n, [0.0] * n
        paths = [place(rate, fixed, choices, dst_leaf, count, demand) for rate, fixed, choices, dst_leaf in routed]
        slowest, mean, clean, busiest = trial_figures(cap, demand, paths, upstream)
        fraction.append(slowest)
        mean_fraction.append(mean)
        free += clean
        worst_up.append(busiest)
        for i in range(n):
            sum_flows[i] += count[i]
            sum_demand[i] += demand[i]
            if count[i] > max_flows[i]:
                max_flows[i] = count[i]
    loads = [LinkLoad(f"{a} -> {b}", cap[i], tiers[i], sum_flows[i] / trials, max_flows[i], sum_demand[i] / trials)
             for i, (a, b) in enumerate(links.names) if max_flows[i]]
    loads.sort(key=lambda l: natural_key(l.link))
    return Analysis(pattern, routing, trials, seed, len(flow_list), unroutable, loads, fraction, mean_fraction, free,
                    worst_up, qps)


def trial_figures(cap: list[float], demand: list[float], paths: list[list[int]],
                  upstream: list[int]) -> tuple[float, float, bool, float]:
    """One placement's figures, links as indexes: the collective's fraction (its slowest flow's share: a flow
    sharing its worst link with k-1 others gets 1/k), the mean of the flows' shares, whether no leaf->spine
    link (``upstream``) is over capacity, and the busiest leaf->spine link's demand / capacity."""
    share = [c / d if d > c * TOLERANCE else 1.0 for c, d in zip(cap, demand)]
    per_flow = [min(share[i] for i in p) for p in paths]
    return (min(per_flow, default=1.0), sum(per_flow) / len(per_flow) if per_flow else 1.0,
            not any(demand[i] > cap[i] * TOLERANCE for i in upstream),
            max((demand[i] / cap[i] for i in upstream if cap[i]), default=0.0))


class _Sampler:
    """One hashed walk per flow (ppd, ecmp) or per queue pair (qp-hash), each QP at rate / qps."""

    def __init__(self, hops: _Hops, rnd, qps: int):
        self.hops, self.rnd, self.qps = hops, rnd, qps      # int(rnd() * k) is uniform on 0..k-1 for small k

    def place(self, rate: float, fixed: list[int], first: list, dst_leaf: str, count: list, demand: list) -> list[int]:
        """Adds the flow to ``count`` and ``demand``; returns every link it crosses."""
        rnd, hops, part = self.rnd, self.hops, rate / self.qps
        for i in fixed:
            count[i] += 1
            demand[i] += rate
        path = list(fixed)
        for _ in range(self.qps):
            choices = first
            while choices:
                link, hop = choices[int(rnd() * len(choices))] if len(choices) > 1 else choices[0]
                path.append(link)
                count[link] += 1
                demand[link] += part
                choices = hops(hop, dst_leaf) if hop != dst_leaf else None
        return path


_TIERS = {("leaf", "spine"): "up", ("spine", "leaf"): "down", ("spine", "core"): "up2", ("core", "spine"): "dn2"}


def link_tier(fabric, a: str, b: str) -> str:
    """The tier of the directed link from endpoint ``a`` to ``b``: up, down, up2, dn2 or host."""
    switches = fabric.switches
    roles = tuple(switches[d].role.value if d in switches else "host" for d in (split_endpoint(a)[0],
                                                                              split_endpoint(b)[0]))
    return _TIERS.get(roles, "host")


def summary(a: Analysis) -> dict:
    """The distribution over trials as plain numbers."""
    def dist(values: list[float]) -> dict:
        return {"min": min(values), "median": statistics.median(values), "mean": statistics.fmean(values),
                "max": max(values)} if values else {}
    return {"fraction": dist(a.fraction), "mean_flow_fraction": dist(a.mean_flow_fraction),
            "max_uplink_load": dist(a.max_uplink_load),
            "upstream_collision_free_share": a.upstream_collision_free / a.trials}
