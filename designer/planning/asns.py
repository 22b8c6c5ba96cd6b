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


def _shared_key(spine) -> int:
    return spine.group or 0


# What the spines that share one ASN have in common, per spine ASN mode (the others: per-spine, per-plane).
SHARING = {"shared": _shared_key, "per-group": group_key}


def plan_asns(fabric: Fabric, fixed: dict[str, int] | None = None) -> dict[str, int]:
    """Every unpinned switch's ASN. ``fixed``: ASNs that stay as given (a planned design's, `growth`),
    as pinned ones do; the other leaves take the lowest values neither holds."""
    s = fabric.settings.asn
    fixed = {k: v for k, v in (fixed or {}).items() if not fabric.is_pinned(asn_key(k))}
    pinned = {v for k, v in fabric.asns.items() if fabric.is_pinned(asn_key(k))} | set(fixed.values())
    out: dict[str, int] = dict(fixed)
    value = s.leaf_base
    for leaf in fabric.leaves():
        if fabric.is_pinned(asn_key(leaf.id)) or leaf.id in fixed:
            continue
        while value in pinned:
            value += 1
        out[leaf.id] = value
        value += 1
    spines = fabric.spines()
    key = SHARING.get(s.spine_mode, _shared_key)
    ranks = {k: rank for rank, k in enumerate(sorted({key(spine) for spine in spines}))}
    for n, spine in enumerate(spines):
        if fabric.is_pinned(asn_key(spine.id)) or spine.id in fixed:
            continue
        if s.spine_mode == "per-spine":
            out[spine.id] = s.spine_base + n
        elif s.spine_mode == "per-plane":
            out[spine.id] = s.spine_base + (spine.plane or 0)
        else:
            out[spine.id] = s.spine_base + ranks[key(spine)]
    for core in fabric.cores():
        if not fabric.is_pinned(asn_key(core.id)) and core.id not in fixed:
            out[core.id] = fabric.settings.core_asn
    return out


def next_asn(fabric: Fabric, switch, used: set[int]) -> int:
    """The ASN `plan_asns` gives a switch added to a planned design, without renumbering any other:
    a leaf the lowest unused from the leaf base; a core the core ASN; a spine its sharers' ASN (the
    spines of its spine group, under ``shared``), else the spine base plus its group's rank (or the
    next value no other spine holds). ``used``: the ASNs held now."""
    s = fabric.settings.asn
    role = switch.role.value
    if role == "core":
        return fabric.settings.core_asn
    if role == "leaf" or s.spine_mode == "per-spine":
        value = s.leaf_base if role == "leaf" else s.spine_base
        taken = used if role == "leaf" else {v for k, v in fabric.asns.items() if _is_spine(fabric, k)}
        while value in taken:
            value += 1
        return value
    if s.spine_mode == "per-plane":
        return s.spine_base + (switch.plane or 0)
    key = SHARING.get(s.spine_mode, _shared_key)
    spines = [sp for sp in fabric.spines() if sp.id != switch.id] + [switch]
    sharer = next((fabric.asns[sp.id] for sp in spines if sp.id in fabric.asns and sp.id != switch.id
                   and key(sp) == key(switch)), None)
    if sharer is not None:
        return sharer
    value = s.spine_base + sorted({key(sp) for sp in spines}).index(key(switch))
    others = {v for k, v in fabric.asns.items() if _is_spine(fabric, k) and k != switch.id}
    while value in others:
        value += 1
    return value


def _is_spine(fabric: Fabric, switch_id: str) -> bool:
    switch = fabric.switches.get(switch_id)
    return switch is not None and switch.role.value == "spine"
