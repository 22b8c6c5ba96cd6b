"""Stage 1 of the scheduler part: the fabric as the tree a topology-aware scheduler places jobs on.

The lowest level is the SU, not the leaf. In a rail-optimized fabric every server of an SU is cabled
to all of the SU's rail leaves (one NIC per rail), so the eight leaves of an SU hold the same servers.
Slurm's topology/tree wants each node under one leaf switch: given the rail leaves themselves it
warns "Multiple leaf switches contain nodes" and can no longer tell SUs apart. The SU is the block in
which any two servers are one switch apart on every rail, which is what a job placed "under one
switch" wants.

Above it: with two tiers, one switch over every SU whose leaves have spine uplinks (each rail's
spines reach every SU); with three tiers, a switch per spine group over its SUs and one over the
spine groups whose spines have core uplinks. An SU without uplinks stays a tree of its own (Slurm:
jobs do not span it and the rest), which is what the cabling says.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.entities import Role
from ..model.fabric import Fabric
from ..model.ids import natural_key, split_endpoint


@dataclass(frozen=True)
class Block:
    """One SU as the scheduler sees it: its cabled servers and the switch above it (None: none)."""

    name: str                       # "su3"
    hostnames: tuple[str, ...]      # natural order
    above: str | None               # "spines", "sg2" or None


@dataclass(frozen=True)
class Tree:
    blocks: tuple[Block, ...]
    groups: tuple[tuple[str, tuple[str, ...]], ...]   # three tiers: ("sg1", ("su1", "su2", ...)), ...
    top: tuple[str, tuple[str, ...]] | None           # ("spines", blocks) or ("cores", groups) or None
    uncabled: tuple[str, ...]                         # servers with no NIC on a leaf: in no block

    def top_of(self, block: Block) -> str | None:
        """The top switch a block reaches, or None."""
        if self.top is None:
            return None
        name, children = self.top
        return name if (block.above in children if self.groups else block.name in children) else None

    def roots(self) -> list[str]:
        """The SUs and spine groups with nothing above them, the top switch aside."""
        on_top = set(self.top[1]) if self.top else set()
        return [b.name for b in self.blocks if b.above is None] + [g for g, _ in self.groups if g not in on_top]


def _far_role(fabric: Fabric, far: str) -> Role | None:
    switch = fabric.switches.get(split_endpoint(far)[0])
    return switch.role if switch else None


def _reaches(fabric: Fabric, switch_id: str, role: Role) -> bool:
    return any(_far_role(fabric, far) is role for _, far in fabric.cabled_ports(switch_id))


def tree(fabric: Fabric) -> Tree:
    """The scheduler's tree of ``fabric``, from its cabling."""
    leaves = {leaf.id: leaf for leaf in fabric.leaves()}
    servers_of: dict[int, list[str]] = {}
    leaves_of: dict[int, set[str]] = {}
    uncabled = []
    for server in fabric.sorted_servers():
        cabled = {split_endpoint(peer)[0] for nic in server.nics
                  if (peer := fabric.peer(nic.id)) is not None and split_endpoint(peer)[0] in leaves}
        if not cabled:
            uncabled.append(server.hostname)
            continue
        servers_of.setdefault(server.su, []).append(server.hostname)
        leaves_of.setdefault(server.su, set()).update(cabled)
    three_tier = bool(fabric.cores())
    blocks, members = [], {}
    for su in sorted(servers_of):
        up = sorted(l for l in leaves_of[su] if _reaches(fabric, l, Role.SPINE))
        if not up:
            above = None
        elif three_tier:
            above = f"sg{_group(fabric, leaves[up[0]])}"
        else:
            above = "spines"
        blocks.append(Block(f"su{su}", tuple(servers_of[su]), above))
        if above:
            members.setdefault(above, []).append(f"su{su}")
    groups: tuple = ()
    top = None
    if three_tier:
        groups = tuple(sorted(((g, tuple(b)) for g, b in members.items()), key=lambda item: natural_key(item[0])))
        reaching = {f"sg{s.group}" for s in fabric.spines() if s.group is not None and _reaches(fabric, s.id, Role.CORE)}
        top_children = tuple(g for g, _ in groups if g in reaching)
        top = ("cores", top_children) if top_children else None
    elif members:
        top = ("spines", tuple(members["spines"]))
    return Tree(tuple(blocks), groups, top, tuple(uncabled))


def _group(fabric: Fabric, leaf) -> int:
    """A leaf's spine group: its own, or that of the first spine it is cabled to."""
    if leaf.group is not None:
        return leaf.group
    for _, far in fabric.cabled_ports(leaf.id):
        switch = fabric.switches.get(split_endpoint(far)[0])
        if switch is not None and switch.role is Role.SPINE and switch.group is not None:
            return switch.group
    return 1
