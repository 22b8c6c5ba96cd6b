"""Stage 1 of a leaf's proactive path definition (DOMAIN.md section 6) as plain data.

Both writers express the same two-step policy on the leaf's downlinks:
1. destinations local to the leaf (its server subnet, or its downlink /31s) forward normally;
2. everything else from a NIC's source address goes to that downlink's pinned uplink and spine.
The ordering numbers (FRR ``seq``, SONiC ACL ``PRIORITY``) and the SONiC redirect action are
decided here. FRR numbers pbr-map sequences 1..700, so local rules take 1..99 and pins 100 on.
"""

from __future__ import annotations

from ..model.addressing import cidr_str, network_of, size
from ..model.fabric import Fabric
from ..planning.ppd import leaf_ppd
from ..planning.topology import leaf_links
from .errors import ExportError

LOCAL_SEQ_FIRST, PIN_SEQ_FIRST, FRR_SEQ_MAX = 1, 100, 700
LOCAL_PRIORITY_TOP, PIN_PRIORITY_TOP = 9000, 5000      # SONiC: the higher PRIORITY matches first
ACL_TABLE = "PPD"


def local_prefixes(fabric: Fabric, leaf_id: str, vlan: dict | None, interfaces: list[dict],
                   downlinks: list[str]) -> list[str]:
    """The leaf's own server destinations, as few prefixes as cover exactly them."""
    if vlan is not None:
        return [vlan["subnet"]]
    down = set(downlinks)
    return collapse([network_of(i["address"]) for i in interfaces if i["port"] in down])


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
    """The leaf's PPD: local-destination rules, then one pin per downlink. None without uplinks."""
    plan = leaf_ppd(fabric, leaf_id, leaf_links(fabric, leaf_id))
    if not plan.bindings:
        return None
    if len(local) >= PIN_SEQ_FIRST - LOCAL_SEQ_FIRST or PIN_SEQ_FIRST + len(plan.bindings) - 1 > FRR_SEQ_MAX:
        raise ExportError(f"leaf '{leaf_id}' needs {len(local)} local and {len(plan.bindings)} pinned PBR rules; "
                          f"FRR allows sequences 1..{FRR_SEQ_MAX} (at most 99 local prefixes, "
                          f"{FRR_SEQ_MAX - PIN_SEQ_FIRST + 1} pins)")
    locals_ = [{"prefix": prefix, "seq": LOCAL_SEQ_FIRST + i, "priority": LOCAL_PRIORITY_TOP - i,
                "rule": f"LOCAL_{i + 1}"} for i, prefix in enumerate(local)]
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
            "next_hop": b.next_hop, "seq": PIN_SEQ_FIRST + i, "priority": PIN_PRIORITY_TOP - i,
            "rule": f"PIN_{b.downlink}", "redirect": redirect_action(b.next_hop, b.uplink),
        })
    return {"name": f"PPD-{hostname}", "acl_table": ACL_TABLE, "n": plan.n, "downlinks": plan.downlinks,
            "uplinks": plan.uplinks, "ports": [b.downlink for b in plan.bindings],
            "local": locals_, "pins": pins}
