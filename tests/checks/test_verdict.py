"""The verdict a cabling gesture shows before the drop is what the full check reports after it."""

from __future__ import annotations

import itertools

import pytest

from designer.checks import check
from designer.checks.verdict import CABLE_RULES, cable_findings, cable_verdict
from designer.model.entities import Link
from designer.model.errors import ModelError
from designer.model.ids import natural_key
from designer.planning.wiring import free_port_pair
from tests.conftest import preset_fabric


def _designs():
    return {
        "three-tier": lambda: preset_fabric("b200-superpod", sus=4, core_tier="on", sus_per_group=2, servers_per_su=4),
        "twin-plane": lambda: preset_fabric("twin-plane-800g", servers_per_su=4),
        "per-rail spine planes": lambda: preset_fabric("rail-optimized-64x4", spine_planes="per-rail", sus=2, spines=2,
                                                       servers_per_su=4),
    }


def _room(f) -> list[str]:
    """Free one port on a spread of switches (and unplug a few NICs); returns the devices and NICs to try."""
    picks = []
    for tier in (f.leaves()[::5], f.spines()[::3], f.cores()[::2]):
        for switch in tier:
            links = f.links_of(switch.id)
            for link in {links[0].id: links[0], links[-1].id: links[-1]}.values() if links else ():
                f.disconnect(link.id)             # a downlink and an uplink port free
            picks.append(switch.id)
    for server in f.sorted_servers()[::3]:
        nic = server.nics[-1].id
        if f.link_at(nic):
            f.disconnect(f.link_at(nic).id)
        picks.append(nic)
    return picks


def _ends(f, x, y):
    if "/" in x:                                    # a NIC onto a switch: the port move_nic would take
        free = f.free_ports(y, f.nic(x).speed)
        if not free:
            raise ModelError("no port")
        return x, f"{y}/{free[0].name}"
    return free_port_pair(f, x, y)


def _caused(f, a, b) -> set[tuple[str, str]]:
    """What the full check reports after the cable is drawn, and not before, naming both its ends."""
    before = {(x.code, x.message) for x in check(f) if x.code in CABLE_RULES}
    link = f.connect(a, b)
    try:
        after = [x for x in check(f) if x.code in CABLE_RULES]
    finally:
        f.disconnect(link.id)
    ends = (a, b)
    return {(x.code, x.message) for x in after if (x.code, x.message) not in before
            and (link.id in x.ids or all(ep in x.ids or ep.split("/")[0] in x.ids for ep in ends))}


@pytest.mark.parametrize("design", sorted(_designs()))
def test_the_verdict_before_a_drop_is_what_the_checks_report_after_it(design):
    f = _designs()[design]()
    picks = _room(f)
    tried = set()
    for x, y in itertools.product(picks, picks):
        if x == y or "/" in y or (x, y) in tried or (y, x) in tried:
            continue
        tried.add((x, y))
        try:
            a, b = _ends(f, x, y)
        except ModelError:
            continue
        predicted = {(v.code, v.message) for v in cable_findings(f, a, b)}
        assert predicted == _caused(f, a, b), (a, b)
    codes = {v.code for x, y in tried for v in _safe_findings(f, x, y)}
    assert EXPECTED[design] <= codes and len(tried) >= 20          # the pairs tried break the rules in question


EXPECTED = {"three-tier": {"RD004", "RD018", "RD041", "RD042", "RD043"}, "twin-plane": {"RD004", "RD018", "RD044"},
            "per-rail spine planes": {"RD004", "RD006", "RD018"}}


def _safe_findings(f, x, y):
    try:
        return cable_findings(f, *_ends(f, x, y))
    except ModelError:
        return []


def test_the_verdicts_name_the_tier_group_and_plane_rules():
    f = _designs()["three-tier"]()
    _room(f)
    cases = {("su1-leaf-r0", "sg2-spine-01"): "RD043", ("su1-leaf-r0", "cg1-core-01"): "RD042",
             ("sg1-spine-01", "sg2-spine-01"): "RD018", ("su1-leaf-r0", "sg1-spine-01"): None}
    for (x, y), code in cases.items():
        for switch in (x, y):
            if not f.free_ports(switch):
                f.disconnect(f.links_of(switch)[0].id)
        verdict = cable_verdict(f, *free_port_pair(f, x, y))
        assert (verdict.ok if code is None else code in verdict.message), (x, y, verdict)
    t = _designs()["twin-plane"]()
    for switch in ("pl0-su1-leaf-r0", "pl1-spine-01"):
        t.disconnect(t.links_of(switch)[-1].id)
    verdict = cable_verdict(t, *free_port_pair(t, "pl0-su1-leaf-r0", "pl1-spine-01"))
    assert not verdict.ok and "RD044 would report" in verdict.message and "fabric plane 1" in verdict.message


def test_a_recabled_nic_is_judged_without_the_cable_it_leaves():
    f = _designs()["twin-plane"]()
    nic = "su1-srv01/nic1"                               # plane 1, rail 0
    old = f.link_at(nic)
    f.disconnect(f.link_at("su1-srv02/nic1").id)         # room on its own leaf
    target = f"{old.other(nic).split('/')[0]}/{f.free_ports(old.other(nic).split('/')[0], 400)[0].name}"
    f.disconnect(old.id)
    f.connect(nic, target)
    moved = f.link_at(nic)
    f.disconnect(moved.id)
    f.connect(old.a, old.b)
    assert cable_verdict(f, nic, target, gone=old).ok
    assert isinstance(Link(*sorted((nic, target), key=natural_key), 400), Link)
