"""Stage 1 of a leaf's proactive path definition (DOMAIN.md section 6) as plain data.

The policy on the leaf's downlinks has two steps:
1. destinations local to the leaf (its server subnet, or its downlink /31s) forward normally: YANG-valid
   ``PACKET_ACTION: FORWARD`` rules in config_db.json's ``ACL_TABLE``;
2. everything else from a NIC's source address goes to a pinned uplink and spine. SONiC's YANG cannot
   express a redirect target and orchagent drops a redirect whose next hop is not resolved yet, so these
   pins are installed at run time by ``ppd/rail-ppd-agent.py`` from ``switches/<leaf>/ppd-pins.json``
   (`pins_file`): per source an ordered candidate list, the primary first.

The ordering numbers (SONiC ACL ``PRIORITY``: the higher matches first) are decided here:
local rules from 9000 down, the agent's per-destination exceptions from 8000 down, pins from 5000 down.
"""

from __future__ import annotations

from ..model.addressing import cidr_str, network_of, size
from ..model.fabric import Fabric
from ..model.ids import endpoint
from ..planning.addressing import svi_key
from ..planning.ppd import MAX_LOCAL, MAX_PINS, ppd_plan
from ..planning.topology import LeafLinks, all_leaf_links, all_spine_links
from .errors import ExportError
from ..model.memo import per_state

LOCAL_PRIORITY_TOP, EXCEPTION_PRIORITY_TOP, PIN_PRIORITY_TOP = 9000, 8000, 5000
ACL_TABLE = "PPD"
PINS_FORMAT = 1
LINUX_TABLE_BASE, LINUX_PREF_BASE = 200, 10000         # the agent's linux backend: tables 200+, pref = 10000 - PRIORITY


def collapse(networks: list[tuple[int, int]]) -> list[str]:
    """The fewest CIDR blocks covering exactly the union of ``networks`` ((address, prefix) pairs).

    Same result as ipaddress.collapse_addresses, on plain integers (it runs for every leaf)."""
    ranges: list[list[int]] = []
    for start, end in sorted((net, net + size(prefix)) for net, prefix in networks):
        if ranges and start <= ranges[-1][1]:
            ranges[-1][1] = max(ranges[-1][1], end)
        else:
            ranges.append([start, end])
    out = []
    for start, end in ranges:
        while start < end:
            block = (start & -start) if start else 1 << 32
            while block > end - start:
                block >>= 1
            out.append(cidr_str(start, 32 - block.bit_length() + 1))
            start += block
    return out


def redirect_action(next_hop: str, uplink: str) -> str:
    """SONiC's redirect-to-next-hop: ``REDIRECT:<ip>@<interface>``.

    sonic-swss orchagent/aclorch.cpp (AclRule getRedirectObjectId) tries the text after
    ``REDIRECT:`` as a port, then as a NextHopKey, then as a next-hop group; orchagent/nexthopkey.h
    splits a NextHopKey at NH_DELIMITER '@' (ip@alias) and a group at ','. A '|' separator
    (as in the project's first notes) would not parse.
    """
    return f"REDIRECT:{next_hop}@{uplink}"


def leaf_ppd_data(fabric: Fabric, leaf_id: str, hostname: str, local: list[str]) -> dict | None:
    """The leaf's PPD: local-destination rules, then one pin per downlink. None without uplinks, and None
    when the design balances load another way (`settings.load_balancing`: the leaves hash instead)."""
    if fabric.settings.load_balancing.mode != "ppd":
        return None
    plan = per_state(fabric, ppd_plan)[leaf_id]      # once per fabric state: the switch and PPD parts both ask
    if not plan.bindings:
        return None
    if len(local) > MAX_LOCAL or len(plan.bindings) > MAX_PINS:
        raise ExportError(f"leaf '{leaf_id}' needs {len(local)} local and {len(plan.bindings)} pinned PPD rules; "
                          f"the ACL priorities allow at most {MAX_LOCAL} local prefixes and {MAX_PINS} pins")
    locals_ = [{"prefix": prefix, "priority": LOCAL_PRIORITY_TOP - i, "rule": f"LOCAL_{i + 1}"}
               for i, prefix in enumerate(local)]
    pins = []
    for i, b in enumerate(plan.bindings):
        if b.source is None:
            raise ExportError(f"{b.nic} behind {leaf_id}/{b.downlink} has no address, so its path cannot be pinned; "
                              "plan the addresses before exporting")
        if b.next_hop is None:
            raise ExportError(f"{b.spine}/{b.spine_port} (uplink {leaf_id}/{b.uplink}) has no address, so it "
                              "cannot be a PPD next hop; plan the addresses before exporting")
        pins.append({
            "downlink": b.downlink, "nic": b.nic, "source": b.source, "source_prefix": f"{b.source}/32",
            "uplink": b.uplink, "spine": fabric.switches[b.spine].hostname, "spine_port": b.spine_port,
            "next_hop": b.next_hop, "priority": PIN_PRIORITY_TOP - i,
            "exception_priority": EXCEPTION_PRIORITY_TOP - i,
            "rule": f"PIN_{b.downlink}", "redirect": redirect_action(b.next_hop, b.uplink),
        })
    return {"name": f"PPD-{hostname}", "acl_table": ACL_TABLE, "n": plan.n, "downlinks": plan.downlinks,
            "uplinks": plan.uplinks, "ports": [b.downlink for b in plan.bindings],
            "local": locals_, "pins": pins}


def links_of(fabric: Fabric, leaf_id: str) -> LeafLinks:
    """`planning.topology.leaf_links`, computed for every leaf once per state of the fabric: the switch and
    PPD parts ask for each leaf's several times."""
    return per_state(fabric, all_leaf_links)[leaf_id]


def leaf_server_prefixes(fabric: Fabric, leaf_id: str, links: LeafLinks) -> list[str]:
    """What a leaf advertises for its servers: the gateway's subnet on a subnet-per-leaf leaf, else its
    downlink /31s collapsed (as few prefixes as cover exactly them)."""
    if not links.downlinks:
        return []
    if fabric.settings.addressing.scheme != "p2p31":
        svi = fabric.addresses.get(svi_key(leaf_id))
        return [cidr_str(*network_of(svi))] if svi else []
    return collapse([network_of(cidr) for port, _ in links.downlinks
                     if (cidr := fabric.addresses.get(endpoint(leaf_id, port.name)))])


def _build_wiring(fabric: Fabric) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Leaf id -> (the spines it is wired to, the cores those spines are wired to), in natural leaf order."""
    cores_of = {spine: frozenset(ep.partition("/")[0] for _, ep in links.uplinks)
                for spine, links in all_spine_links(fabric).items()}
    wiring = {}
    for leaf, links in per_state(fabric, all_leaf_links).items():
        spines = frozenset(ep.partition("/")[0] for _, ep in links.uplinks)
        wiring[leaf] = (spines, frozenset().union(*(cores_of[s] for s in spines)))
    return wiring


def _build_leaf_index(fabric: Fabric) -> dict[str, tuple[frozenset[str], frozenset[str], list[str]]]:
    links = per_state(fabric, all_leaf_links)
    return {leaf: (spines, cores, leaf_server_prefixes(fabric, leaf, links[leaf]))
            for leaf, (spines, cores) in per_state(fabric, _build_wiring).items()}


def _leaf_index(fabric: Fabric) -> dict[str, tuple[frozenset[str], frozenset[str], list[str]]]:
    """Leaf id -> (the spines it is wired to, the cores those spines are wired to, its server prefixes), in
    natural leaf order. Computed once per state of the fabric (every leaf's pins file needs all of it)."""
    return per_state(fabric, _build_leaf_index)


def server_prefixes(fabric: Fabric, leaf_id: str) -> list[str]:
    """`leaf_server_prefixes` of a leaf, from the index."""
    return _leaf_index(fabric)[leaf_id][2]


def _build_reach(fabric: Fabric) -> dict[tuple[frozenset[str], frozenset[str]], list[str]]:
    """(spines, cores) of a leaf -> every leaf sharing one of those spines or cores, in natural order.
    Leaves wired alike (a rail's leaves on the same spines) share one answer, and each answer is found
    through the spines' and cores' own leaf lists, not by comparing every pair of leaves."""
    index = per_state(fabric, _build_wiring)
    order = {leaf: i for i, leaf in enumerate(index)}
    on_spine: dict[str, list[str]] = {}
    on_core: dict[str, list[str]] = {}
    for leaf, (spines, cores) in index.items():
        for spine in spines:
            on_spine.setdefault(spine, []).append(leaf)
        for core in cores:
            on_core.setdefault(core, []).append(leaf)
    reach = {}
    for spines, cores in index.values():
        if (spines, cores) not in reach:
            found = set().union(*(on_spine[s] for s in spines), *(on_core[c] for c in cores))
            reach[spines, cores] = sorted(found, key=order.__getitem__)
    return reach


def reachable_leaves(fabric: Fabric, leaf_id: str) -> list[str]:
    """The other leaves whose servers this leaf's spines can carry traffic to, in natural order: those that
    share a spine with it, and (three tiers) those whose spines share a core with its spines, which the
    spines reach only through the cores."""
    spines, cores = per_state(fabric, _build_wiring)[leaf_id]
    return [other for other in per_state(fabric, _build_reach)[spines, cores] if other != leaf_id]


def reach_groups(fabric: Fabric) -> dict[str, list[str]]:
    """Leaf id -> the leaves its spines reach, itself included (`reachable_leaves` is this without the
    leaf): leaves wired alike share one list object, so a caller comparing designs compares each once."""
    reach = per_state(fabric, _build_reach)
    return {leaf: reach[wired] for leaf, wired in per_state(fabric, _build_wiring).items()}


def candidate_order(primary: int, offset: int, uplinks: int) -> list[int]:
    """Uplink indexes to try for a source: its primary, then the others in a rotation that starts
    ``offset`` places after the primary (sources sharing a primary spread over the fallbacks)."""
    start = primary + 1 + offset
    rotation = [(start + k) % uplinks for k in range(uplinks)]
    return [primary] + [i for i in rotation if i != primary]


def pins_file(fabric: Fabric, leaf_id: str, hostname: str, ppd: dict, vlan: str | None) -> dict:
    """``switches/<leaf>/ppd-pins.json``: what rail-ppd-agent needs on this leaf.

    Per pinned source an ordered candidate list of uplink ports (``uplinks`` gives each one's next hop and
    spine): the primary from the 1:1 / n:1 rule first, then the other uplinks. ``destinations`` are the
    server prefixes of every other leaf this leaf's spines can reach (`reachable_leaves`: sharing a spine,
    or in three tiers a core): when the chosen spine does not advertise one of them (it lost its link to
    that leaf, or, for a leaf of another spine group, its way through the cores), the agent sends the
    source's traffic to that prefix by the next candidate that does. ``l3_interface`` is where a source's packets enter the router:
    the server VLAN (``vlan``) or the downlink port itself."""
    links = links_of(fabric, leaf_id)
    uplinks = {}
    for port, ep in links.uplinks:
        spine_id, _, spine_port = ep.partition("/")
        next_hop = fabric.addresses.get(ep)
        if next_hop is None:
            raise ExportError(f"{ep} (uplink {leaf_id}/{port.name}) has no address, so it cannot be a PPD next hop; "
                              "plan the addresses before exporting")
        uplinks[port.name] = {"next_hop": next_hop.partition("/")[0], "spine": fabric.switches[spine_id].hostname,
                              "spine_port": spine_port}
    names = list(uplinks)
    index = {name: i for i, name in enumerate(names)}
    shared: dict[str, int] = {}
    pins = []
    for pin in ppd["pins"]:
        offset = shared.get(pin["uplink"], 0)
        shared[pin["uplink"]] = offset + 1
        order = candidate_order(index[pin["uplink"]], offset, len(names))
        pins.append({"rule": pin["rule"], "nic": pin["nic"], "downlink": pin["downlink"],
                     "l3_interface": vlan or pin["downlink"], "source": pin["source_prefix"],
                     "priority": pin["priority"], "exception_priority": pin["exception_priority"],
                     "candidates": [names[i] for i in order]})
    index = _leaf_index(fabric)
    destinations = [prefix for other in reachable_leaves(fabric, leaf_id) for prefix in index[other][2]]
    return {
        "format": PINS_FORMAT,
        "hostname": hostname,
        "acl_table": ppd["acl_table"],
        "local": [r["prefix"] for r in ppd["local"]],
        "destinations": destinations,
        "uplinks": uplinks,
        "pins": pins,
        "linux": {"table_base": LINUX_TABLE_BASE, "pref_base": LINUX_PREF_BASE},
    }
