"""The inter-server flows of a collective, NIC to NIC, with the rate each flow asks for.

What is modelled (PXN throughout: NCCL moves data over NVLink to the GPU whose NIC is on the
peer's rail, so every inter-server flow goes from a NIC on rail k to a NIC on rail k):

- ``rail-ring``: for each rail, one ring over every server that has a cabled NIC on that rail, in
  natural server order; each NIC sends ONE flow to the next server's NIC on the same rail, at the NIC's
  line rate. All rails run at once (like nccl-tests with one channel per NIC).
- ``allreduce-ring``: NCCL's ring all-reduce. Every step of the ring (reduce-scatter then all-gather)
  sends the same neighbour-to-neighbour traffic, so the flows are the rail-ring's, on all rails at once,
  with the same server order on every rail - but NCCL runs two channels per NIC, i.e. two queue pairs
  with different UDP source ports, each at half the NIC's rate. Under PPD both are pinned alike (same
  source address); under ECMP they hash independently.
- ``alltoall``: every server's NIC k sends to the NIC k of every other server at once; a NIC's rate is
  split evenly over its S - 1 peers.

Servers' intra-node (NVLink) traffic is not on the fabric and is not modelled. In a multi-plane
design each plane runs its own rings (a rail of a plane is its own set of NICs): flows stay in their plane.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.fabric import Fabric
from ..model.ids import natural_key
from . import AnalysisError

PATTERNS = ("rail-ring", "allreduce-ring", "alltoall")
ALLREDUCE_CHANNELS_PER_NIC = 2


@dataclass(frozen=True, slots=True)
class Flow:
    src: str            # NIC id
    dst: str            # NIC id
    rate: float         # Gb/s the flow asks for
    rail: int
    plane: int = 0      # fabric plane


def rail_members(fabric: Fabric, servers: list[str] | None = None) -> dict[tuple[int, int], list[str]]:
    """(fabric plane, rail) -> the NIC ids on that rail of that plane that are cabled, one per server, in
    natural server order (or in the order of ``servers``, taking only those)."""
    out: dict[tuple[int, int], list[str]] = {}
    chosen = fabric.sorted_servers() if servers is None else [fabric.servers[s] for s in servers]
    for server in chosen:
        for nic in sorted(server.nics, key=lambda n: n.index):
            if nic.rail is not None and fabric.peer(nic.id) is not None:
                members = out.setdefault((nic.fabric_plane, nic.rail), [])
                if not members or not members[-1].startswith(server.id + "/"):
                    members.append(nic.id)
    return {key: out[key] for key in sorted(out)}


def flows(fabric: Fabric, pattern: str, servers: list[str] | None = None) -> list[Flow]:
    """The pattern's flows over every server, or over ``servers`` only, ringed in that order."""
    if pattern not in PATTERNS:
        raise AnalysisError(f"unknown pattern '{pattern}'; use one of {', '.join(PATTERNS)}")
    out: list[Flow] = []
    for (plane, rail), nics in rail_members(fabric, servers).items():
        count = len(nics)
        if count < 2:
            continue
        speed = {n: float(fabric.nic(n).speed) for n in nics}
        if pattern == "alltoall":
            out.extend(Flow(s, d, speed[s] / (count - 1), rail, plane) for s in nics for d in nics if s != d)
            continue
        channels = ALLREDUCE_CHANNELS_PER_NIC if pattern == "allreduce-ring" else 1
        for i, s in enumerate(nics):
            d = nics[(i + 1) % count]
            out.extend(Flow(s, d, speed[s] / channels, rail, plane) for _ in range(channels))
    out.sort(key=lambda f: (natural_key(f.src), natural_key(f.dst)))
    return out
