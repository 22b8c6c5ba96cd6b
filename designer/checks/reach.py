"""Reach rules: what the network can and cannot carry between rails."""

from __future__ import annotations

from ..planning.reach import rail_groups
from .finding import Severity
from .registry import rule


@rule("RD030", "Rails without a network path between them", Severity.INFO,
      "Nothing to fix if this is a rail-only or per-rail-plane design: cross-rail traffic then stays inside the "
      "servers (NVLink with NCCL's PXN), and nccl.env sets NCCL_CROSS_NIC=0 so NCCL never pairs NICs of "
      "different rails. If rails must reach each other over the network, give them shared spines.")
def isolated_rails(ctx):
    groups = rail_groups(ctx.leaves, ctx.leaf_links)
    if len(groups) < 2:
        return
    why = "no spines" if not ctx.spines else "no spine is shared by leaves of different rails"
    shown = [f"rail {g[0]}" if len(g) == 1 else f"rails {', '.join(map(str, g))}" for g in groups]
    leaves = [leaf.id for leaf in ctx.leaves]
    apart = " | ".join(shown)
    yield (f"the network joins no two of these rail groups ({why}): {apart}; a NIC reaches only "
           "NICs of its own group, so cross-rail traffic must cross NVLink inside a server (PXN)", leaves)
