"""Property: after any sequence of real edits, `LiveChecker.run()` equals a full `check()`."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from designer.checks import check
from designer.checks.incremental import LiveChecker
from designer.model.errors import ModelError
from designer.planning.addressing import assign_addresses
from designer.planning.build import build
from designer.planning.errors import PlanningError
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset

CATALOG = builtin_catalog()
PRESETS = {"default": {}, "rail-optimized-64x4": {"sus": 1},
           # three tiers: 2 spine groups of 2 spines, 2 core groups of 2 cores
           "superpod-su": {"sus": 2, "servers_per_su": 4, "rails": 4, "core_tier": "on", "sus_per_group": 1, "spines": 2,
                           "cores": 4},
           "twin-plane-800g": {"servers_per_su": 3, "rails": 4}}


def _pick(items, n):
    items = sorted(items)
    return items[n % len(items)] if items else None


def _edit(f, op: str, n: int, m: int) -> None:
    nics = [nic.id for nic in f.nics()]
    leaves = [leaf.id for leaf in f.leaves()]
    switches = sorted(f.switches)
    if op == "move" and nics and leaves:
        f.move_nic(_pick(nics, n), _pick(leaves, m))
    elif op == "disconnect" and f.links:
        f.disconnect(_pick(f.links, n))
    elif op == "connect" and nics and switches:
        switch = _pick(switches, m)
        free = f.free_ports(switch)
        if free:
            f.connect(_pick(nics, n), f"{switch}/{free[n % len(free)].name}")
    elif op == "address" and f.addresses:
        key = _pick(f.addresses, n)
        f.set_address(key, [None, "10.0.0.1/24", "10.254.0.0/31", "10.0.0.0/8", "10.255.0.9/32"][m % 5],
                      pinned=bool(m % 2))
    elif op == "hostname":
        f.set_hostname(_pick([*f.servers, *switches], n), ["dup", "Bad_Name", f"h{m}"][m % 3])
    elif op == "switch-rail" and leaves:
        f.set_switch_rail(_pick(leaves, n), m % 4)
    elif op == "nic-rail" and nics:
        f.set_nic_rail(_pick(nics, n), [None, 0, 1, 2, 3][m % 5])
    elif op == "breakout" and switches:
        switch = f.switches[_pick(switches, n)]
        model = CATALOG.switches[switch.model]
        cabled = {port.cage for port, _ in f.cabled_ports(switch.id)}
        cages = [c for c in range(1, model.ports + 1) if c not in cabled]
        if cages:
            f.set_breakout(switch.id, _pick(cages, m), _pick(model.breakouts, m))
    elif op == "replan":
        assign_addresses(f)
    elif op == "remove-add":
        device, links = f.remove_device(_pick([*f.servers, *switches], n))
        if m % 2:
            (f.add_server if device.id.find("srv") >= 0 else f.add_switch)(device)
            for link in links:
                f.connect(link.a, link.b)
    elif op == "group" and switches:
        f.set_switch_group(_pick(switches, n), [None, 1, 2, 3][m % 4])
    elif op == "fabric-plane" and switches:
        f.set_switch_fabric_plane(_pick(switches, n), m % 3)
    elif op == "recable":
        # a switch-to-switch cable moves its upper end to another switch (another group, core group or plane)
        uplinks = [l for l in f.sorted_links() if l.a.partition("/")[0] in f.switches
                   and l.b.partition("/")[0] in f.switches]
        if uplinks and switches:
            link = uplinks[n % len(uplinks)]
            target = _pick(switches, m)
            free = f.free_ports(target, f.endpoint_speed(link.a))
            if free:
                f.disconnect(link.id)
                f.connect(link.a, f"{target}/{free[0].name}")
    elif op == "nic-names" and nics:
        f.set_nic_names(_pick(nics, n), ["ens1np0", "a-netdev-of-20-chars", "0bad", "eth0"][m % 4],
                        ["mlx5_0", "mlx5 0"][n % 2])
    elif op == "stray-address" and f.servers:
        f.set_address(f"{_pick(f.servers, n)}/nic{9 + m % 2}", "10.0.0.77/24", pinned=bool(m % 2))
    elif op == "move-rack" and f.racks:
        rows = sorted(f.rows)
        f.move_rack(_pick(f.racks, n), _pick(rows, m), 1 + m % 12)      # a taken slot is refused
    elif op == "place" and f.racks:
        f.set_place(_pick([*f.servers, *switches], n), _pick(f.racks, m), [1, 5, 20, 41, 60][m % 5])
    elif op == "media" and f.links:
        f.set_media(_pick(f.links, n), [None, "optics-smf-mpo12", "optics-mmf-mpo12"][m % 3])
    elif op == "settings":
        s = f.settings
        addressing = dataclasses.replace(s.addressing, fabric_pool=["10.254.0.0/16", "10.0.0.0/16"][m % 2],
                                         scheme=["subnet-per-leaf", "p2p31"][n % 2], mtu=[9000, 9216, 9100][n % 3])
        f.set_settings(dataclasses.replace(s, max_oversubscription=[1.0, 3.0][m % 2], addressing=addressing))


edits = st.lists(st.tuples(st.sampled_from(["move", "disconnect", "connect", "address", "hostname", "switch-rail",
                                            "nic-rail", "breakout", "replan", "remove-add", "settings", "group",
                                            "fabric-plane", "recable", "nic-names", "stray-address", "move-rack",
                                            "place", "media"]),
                           st.integers(0, 200), st.integers(0, 200)), min_size=1, max_size=12)


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=edits)
# a spine put on plane 1 of a one-plane design once hid every plane 0 loopback pool from the live pass
@example(steps=[("address", 26, 1), ("fabric-plane", 4, 1)])
def test_live_checker_always_equals_full_check(preset, steps):
    f = build(load_preset(preset).spec(**PRESETS[preset]), CATALOG)
    live = LiveChecker(f)
    assert live.run() == check(f)
    for op, n, m in steps:
        try:
            _edit(f, op, n, m)
        except (ModelError, PlanningError):
            pass    # a refused edit changes nothing
        assert live.run() == check(f), (op, n, m)
    live.close()


@pytest.mark.parametrize("preset", ["default", "superpod-su"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=edits, cuts=st.lists(st.integers(0, 60), min_size=12, max_size=12))
def test_a_pass_cut_short_by_an_edit_leaves_nothing_stale(preset, steps, cuts):
    """The window runs `steps()` in slices and drops the pass when an edit arrives: after each edit
    only ``cut`` steps run, then the next edit; whatever was not re-run is re-run by a later pass."""
    f = build(load_preset(preset).spec(**PRESETS[preset]), CATALOG)
    live = LiveChecker(f)
    assert live.run() == check(f)
    for (op, n, m), cut in zip(steps, cuts):
        try:
            _edit(f, op, n, m)
        except (ModelError, PlanningError):
            pass
        assert live.edited or live.run() == check(f)
        for i, _ in enumerate(live.steps()):
            if i >= cut:
                break                    # the next edit arrives here
    assert live.run() == check(f)
    live.close()
