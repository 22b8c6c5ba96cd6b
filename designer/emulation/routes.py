"""The routes eBGP would install on each switch, computed from the exported switch data.

The emulation does not run FRR. Instead every switch gets static routes equal to what its eBGP
sessions would converge to: each switch advertises ``bgp.networks`` (its loopback and, on a leaf, its
server prefixes); a receiver keeps only paths free of its own ASN (eBGP loop prevention: spines that
share an ASN never learn each other's routes through a leaf), picks the shortest AS path and, with
``maximum-paths``, installs every equally short next hop (one per parallel link).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from ..model.ids import natural_key


@dataclass(frozen=True, slots=True)
class Route:
    prefix: str
    nexthops: tuple[tuple[str, str], ...]     # (next-hop address, local port name), sorted


def _adjacency(data: dict[str, dict]) -> dict[str, list[tuple[str, str, str]]]:
    """switch id -> [(peer switch id, peer address, local port)] from the BGP neighbour lists."""
    by_host = {d["hostname"]: sid for sid, d in data.items()}
    return {sid: [(by_host[n["name"]], n["ip"], n["local_port"]) for n in d["bgp"]["neighbors"]
                  if n["name"] in by_host]
            for sid, d in data.items()}


def _distances(adj, origin: str, allowed: set[str]) -> dict[str, int]:
    """Hops from ``origin`` to every switch reachable through ``allowed`` switches only."""
    dist = {origin: 0}
    queue = deque([origin])
    while queue:
        node = queue.popleft()
        for peer, _, _ in adj[node]:
            if peer in allowed and peer not in dist:
                dist[peer] = dist[node] + 1
                queue.append(peer)
    return dist


def ebgp_routes(data: dict[str, dict]) -> dict[str, list[Route]]:
    """switch id -> its routes to every other switch's advertised networks, in a stable order."""
    adj = _adjacency(data)
    order = sorted(data, key=natural_key)
    out: dict[str, list[Route]] = {}
    cache: dict[tuple[str, int], dict[str, int]] = {}
    for sid in order:
        asn = data[sid]["asn"]
        seen: set[str] = set()
        routes = []
        for origin in order:
            if origin == sid or data[origin]["asn"] == asn:
                continue
            key = (origin, asn)
            if key not in cache:
                cache[key] = _distances(adj, origin, {x for x in data if data[x]["asn"] != asn})
            dist = cache[key]
            candidates = [(dist[peer], ip, port) for peer, ip, port in adj[sid] if peer in dist]
            if not candidates:
                continue
            best = min(c[0] for c in candidates)
            hops = tuple(sorted(((ip, port) for d, ip, port in candidates if d == best),
                                key=lambda h: natural_key(h[1])))
            for prefix in data[origin]["bgp"]["networks"]:
                if prefix not in seen:
                    seen.add(prefix)
                    routes.append(Route(prefix, hops))
        out[sid] = routes
    return out
