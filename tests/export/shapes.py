"""Small designs of the shapes past two tiers and one plane, shared by the export, SONiC and emulation tests."""

from __future__ import annotations

from functools import lru_cache

from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset

# Three tiers (a core tier forced on two SUs, one spine group each) and twin-plane NICs, small.
NEW_SHAPES = {
    "b200-three-tier-p2p31": ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4,
                                                    rails=2, spines=2)),
    "b200-three-tier-subnet": ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4,
                                                     rails=2, scheme="subnet-per-leaf")),
    "b200-three-tier-per-rail": ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4,
                                                       rails=2, spine_planes="per-rail", spine_asn_mode="per-group")),
    "b200-three-tier-2to1": ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=4,
                                                   rails=2, spines=2, spine_oversubscription=2.0)),
    "twin-plane-p2p31": ("twin-plane-800g", dict(servers_per_su=4, rails=2)),
    "twin-plane-subnet": ("twin-plane-800g", dict(servers_per_su=4, rails=2, scheme="subnet-per-leaf")),
}


@lru_cache(maxsize=None)
def new_shape(name: str):
    """The design (built once; treat it as read-only)."""
    preset, overrides = NEW_SHAPES[name]
    return build(load_preset(preset).spec(**overrides), builtin_catalog())


def design(name: str, **overrides):
    """A new shape by its NEW_SHAPES name, else a preset with ``overrides`` (the export tests' one lookup)."""
    from tests.export.helpers_hosts import fabric
    return new_shape(name) if name in NEW_SHAPES else fabric(name, **overrides)
