"""BGP ASN plan in the style of RFC 7938 (section 5.2): every leaf its own private ASN; the spines of a
spine group share one (``shared``: with no core tier that is every spine), or there is one per spine
plane (``per-plane``), per spine (``per-spine``) or per spine group and spine plane (``per-group``);
every core has the one core ASN.

In a three-tier plane, spines of different spine groups must not share an ASN: a route from group A
reaches group B through the cores with A's spine ASN in its AS path, and B's spines, seeing their own
ASN, drop it (eBGP loop prevention). ``shared`` gives each group its own; with spine planes per rail
under a core tier, ``per-group`` also separates the rails. `checks` report the modes that break.
"""

from __future__ import annotations

from ..model.fabric import Fabric, asn_key


def group_key(spine) -> tuple[int, int]:
    """What spines sharing a per-group ASN have in common: the spine group and the spine plane."""
    return (spine.group or 0, -1 if spine.plane is None else spine.plane)


def plan_asns(fabric: Fabric) -> dict[str, int]:
    s = fabric.settings.asn
    pinned = {v for k, v in fabric.asns.items() if fabric.is_pinned(asn_key(k))}
    out: dict[str, int] = {}
    value = s.leaf_base
    for leaf in fabric.leaves():
        if fabric.is_pinned(asn_key(leaf.id)):
            continue
        while value in pinned:
            value += 1
        out[leaf.id] = value
        value += 1
    spines = fabric.spines()
    groups = {key: rank for rank, key in enumerate(sorted({group_key(spine) for spine in spines}))}
    shared = {group: rank for rank, group in enumerate(sorted({spine.group or 0 for spine in spines}))}
    for n, spine in enumerate(spines):
        if fabric.is_pinned(asn_key(spine.id)):
            continue
        if s.spine_mode == "per-spine":
            out[spine.id] = s.spine_base + n
        elif s.spine_mode == "per-plane":
            out[spine.id] = s.spine_base + (spine.plane or 0)
        elif s.spine_mode == "per-group":
            out[spine.id] = s.spine_base + groups[group_key(spine)]
        else:
            out[spine.id] = s.spine_base + shared[spine.group or 0]
    for core in fabric.cores():
        if not fabric.is_pinned(asn_key(core.id)):
            out[core.id] = fabric.settings.core_asn
    return out
