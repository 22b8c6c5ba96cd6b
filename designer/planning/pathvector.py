"""Where a leaf's prefixes spread over the eBGP fabric: a path-vector computation shared by the path
trace (`analysis.routing`) and the emulation's expectations (`emulation.checks`).

From the originating leaf outwards, hop by hop as eBGP advertises: each switch takes the neighbours that
offer the shortest AS path as its next hops (ECMP, as ``bestpath as-path multipath-relax`` allows) and
refuses any path that already holds its own ASN (eBGP loop prevention). So a spine forwards down to an
adjacent leaf, up to its cores for a leaf of another spine group, and a core down to that group's spine;
two spine groups that share an ASN cannot reach each other through the cores, exactly as on the switches.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..model.ids import natural_key


def path_vector(adjacent: Mapping[str, Iterable[str]], asns: Mapping[str, int | None],
                owner: str) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple]]:
    """(switch -> its next hops toward ``owner``, switch -> the AS path it holds, its own ASN first).

    ``adjacent`` maps a switch to the switches it has a working BGP session with; a switch missing from
    the result has no route to ``owner``'s prefixes."""
    hops: dict[str, tuple[str, ...]] = {owner: ()}
    path: dict[str, tuple] = {owner: (asns.get(owner),)}
    frontier = [owner]
    while frontier:
        offers: dict[str, list[str]] = {}
        for device in frontier:
            for neighbour in adjacent.get(device, ()):
                asn = asns.get(neighbour)
                if neighbour not in hops and (asn is None or asn not in path[device]):
                    offers.setdefault(neighbour, []).append(device)
        for neighbour, via in offers.items():
            hops[neighbour] = tuple(via)
            path[neighbour] = (asns.get(neighbour),) + path[via[0]]
        frontier = sorted(offers, key=natural_key)
    return hops, path


def advertises(path: Mapping[str, tuple], switch: str, to_asn: int | None) -> bool:
    """Whether ``switch`` holds a route it would advertise to a peer of ASN ``to_asn`` (one whose AS path
    does not hold that ASN already; the peer would refuse it)."""
    found = path.get(switch)
    return found is not None and (to_asn is None or to_asn not in found)
