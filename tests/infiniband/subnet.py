"""Shared by the InfiniBand tests that run the real subnet manager: small IB designs and their bundles."""

from __future__ import annotations

from functools import lru_cache

import designer
from designer.infiniband.sim import missing_tools
from tests.ci import need

# 2 SUs x 4 servers x 2 rails, two spines (two-tier); two SU groups of one SU through two cores (three-tier).
SHAPES = {
    "two-tier": dict(sus=2, servers_per_su=4, rails=2, spines=2),
    "three-tier": dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4, rails=2, spines=2),
}


def need_ibsim() -> None:
    gone = missing_tools()
    need(not gone, f"the InfiniBand proof needs {', '.join(gone)} (Debian: opensm ibsim-utils libumad2sim0 "
                   "infiniband-diags)")


@lru_cache(maxsize=None)
def ib_design(shape: str):
    """The design (built once; treat it as read-only)."""
    return designer.build(designer.spec("superpod-h100-ib", **SHAPES[shape]))


def export(shape: str, out):
    fabric = ib_design(shape)
    designer.export_bundle(fabric, out, parts=["infiniband"])
    return fabric, out
