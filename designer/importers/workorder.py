"""The re-cabling work order: the fewest moves that turn the cables found into the planned ones.

A wrong cable that shares an end with an unmet planned cable becomes that cable with one move
(the shared end stays, the other end is re-plugged). Pairing wrong and unmet cables is a
maximum matching between them; among maximum matchings the one that keeps server NIC ends
in place is preferred (moving the switch end is the easier job). Wrong cables left over are
removed, unmet planned cables left over are added. Two swapped cables give two moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint

_KIND_ORDER = {"cross-rail": 0, "miswired": 1, "unplanned": 2}


@dataclass(frozen=True, slots=True)
class Move:
    action: str               # "move", "remove", "add" or "check" (a planned port holds an unknown neighbour)
    keep: str | None          # move: the end that stays plugged in
    unplug: str | None        # move: where the other end comes out; remove: one end of the cable
    plug: str | None          # move: where it goes in; add: one end of the new cable
    other: str | None         # remove / add: the cable's other end
    text: str


def _label(fabric: Fabric, ep: str) -> str:
    device = split_endpoint(ep)[0]
    if device in fabric.servers:
        return f"{ep} ({fabric.nic(ep).netdev})"
    return ep


def work_order(fabric: Fabric, wrong: list[tuple[str, str]], unmet: list[tuple[str, str]],
               kinds: dict[tuple[str, str], str], unknown: dict[str, str] | None = None) -> list[Move]:
    """Moves for ``wrong`` cables and ``unmet`` planned ones; a planned cable whose port LLDP shows
    holding an ``unknown`` neighbour gets a 'check' step (likely a host name the design does not know)."""
    unknown = unknown or {}
    checks = []
    for u in [u for u in unmet if set(u) & set(unknown)]:
        ep = min(set(u) & set(unknown), key=natural_key)
        checks.append((3, 0, natural_key(u[0]), natural_key(u[1]), Move(
            "check", None, ep, None, _other(u, ep),
            f"check {_label(fabric, ep)}: LLDP sees {unknown[ep]} there, the plan wants "
            f"{_label(fabric, _other(u, ep))}")))
    unmet = [u for u in unmet if not set(u) & set(unknown)]
    graph = nx.Graph()
    for i, w in enumerate(wrong):
        graph.add_node(("w", i))
    for j, u in enumerate(unmet):
        graph.add_node(("u", j))
    for i, w in enumerate(wrong):
        for j, u in enumerate(unmet):
            shared = set(w) & set(u)
            if shared:
                end = min(shared, key=natural_key)
                graph.add_edge(("w", i), ("u", j), weight=2 if split_endpoint(end)[0] in fabric.servers else 1,
                               end=end)
    pairs = {}
    for x, y in nx.max_weight_matching(graph, maxcardinality=True):
        w_node, u_node = (x, y) if x[0] == "w" else (y, x)
        pairs[w_node[1]] = u_node[1]
    moves: list[tuple] = []
    for i, w in enumerate(wrong):
        rank = (_KIND_ORDER.get(kinds.get(w, "unplanned"), 2), natural_key(w[0]), natural_key(w[1]))
        if i in pairs:
            u = unmet[pairs[i]]
            keep = graph.edges[("w", i), ("u", pairs[i])]["end"]
            out, into = _other(w, keep), _other(u, keep)
            moves.append((0,) + rank + (Move("move", keep, out, into, None,
                                             f"at {_label(fabric, keep)}: unplug the far end from "
                                             f"{_label(fabric, out)} and plug it into {_label(fabric, into)}"),))
        else:
            moves.append((1,) + rank + (Move("remove", None, w[0], None, w[1],
                                             f"remove the cable {_label(fabric, w[0])} - {_label(fabric, w[1])}"),))
    matched = set(pairs.values())
    for j, u in enumerate(unmet):
        if j not in matched:
            moves.append((2, 0, natural_key(u[0]), natural_key(u[1]),
                          Move("add", None, None, u[0], u[1],
                               f"add a cable {_label(fabric, u[0])} - {_label(fabric, u[1])}")))
    return [entry[-1] for entry in sorted(moves + checks, key=lambda e: e[:-1])]


def _other(cable: tuple[str, str], end: str) -> str:
    return cable[1] if cable[0] == end else cable[0]
