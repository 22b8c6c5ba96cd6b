"""The third tier and multi-plane NICs in the planner: sizes, wiring, addresses and ASNs."""

from __future__ import annotations

from collections import Counter

import pytest

from designer.model import Role
from designer.model.addressing import split_cidr
from designer.model.ids import split_endpoint
from designer.planning.addressing import assign_addresses, rail_pool, requirements
from designer.planning.build import build
from designer.planning.errors import PlanningError
from designer.planning.spec import BuildSpec, size
from designer.planning.topology import all_leaf_links, all_spine_links
from tests.conftest import preset_fabric


def _device(ep: str) -> str:
    return split_endpoint(ep)[0]


def test_core_tier_off_by_default_keeps_the_two_tier_refusal(catalog):
    spec = BuildSpec(sus=12, servers_per_su=32, leaf_model="generic-64x400g")
    problems = size(spec, catalog).problems
    assert any("must reach all 48 spines" in p and "or a core tier" in p for p in problems)


def test_auto_core_tier_only_when_one_spine_tier_cannot_mesh(catalog):
    auto = dict(servers_per_su=32, leaf_model="generic-64x400g", core_tier="auto")
    assert size(BuildSpec(sus=8, **auto), catalog).tiers == 2
    s = size(BuildSpec(sus=12, **auto), catalog)
    assert (s.tiers, s.sus_per_group, s.groups, s.spines_per_plane, s.spine_uplinks) == (3, 4, 3, 32, 32)
    assert (s.cores_per_group, s.cores) == (2, 64) and not s.problems     # 3 groups x 32 uplinks over 64 ports


def test_asking_for_cores_turns_the_tier_on(catalog):
    s = size(BuildSpec(sus=2, servers_per_su=32, leaf_model="generic-64x400g", cores=32), catalog)
    # one group of 16 leaves over 16 spines; 32 cores make 16 core groups of 2
    assert (s.tiers, s.groups, s.spines_per_plane, s.core_groups, s.cores_per_group) == (3, 1, 16, 16, 2)
    assert s.cores == 32 and not s.problems


def test_three_tier_shortfalls_say_by_how_much(catalog):
    base = dict(servers_per_su=32, leaf_model="generic-64x400g", core_tier="on")
    problems = size(BuildSpec(sus=4, sus_per_group=8, **base), catalog).problems
    assert any("must reach all 64 spines of its spine group: short by 32 uplinks" in p for p in problems)
    problems = size(BuildSpec(sus=4, cores=48, **base), catalog).problems
    assert any("48 cores per plane do not split into 32 core groups" in p for p in problems)
    problems = size(BuildSpec(sus=4, spine_uplinks=40, **base), catalog).problems
    assert any("each spine needs 72 ports" in p and "short by 8 ports" in p for p in problems)
    problems = size(BuildSpec(sus=4, spines=0, **base), catalog).problems
    assert any("a core tier needs spines" in p for p in problems)


def test_two_to_one_at_the_spines_halves_the_core_uplinks(catalog):
    s = size(BuildSpec(sus=16, servers_per_su=32, leaf_model="generic-64x400g", core_tier="on",
                       spine_oversubscription=2), catalog)
    # a spine of 64 ports takes up to 42 leaf uplinks (and 21 core uplinks): groups hold 5 SUs (40 leaves),
    # whose 1,280 uplinks spread over 32 spines (a divisor of the 32 leaf uplinks): 40 down, 20 up each
    assert (s.sus_per_group, s.spines_per_plane, s.spine_ports_used, s.spine_uplinks) == (5, 32, 40, 20)
    assert s.spine_ratio == 2.0 and not s.problems


@pytest.fixture(scope="module")
def three_tier():
    return preset_fabric("b200-superpod", sus=16)


def test_every_leaf_meshes_with_every_spine_of_its_group_and_no_other(three_tier):
    f = three_tier
    for leaf_id, links in all_leaf_links(f).items():
        leaf = f.switches[leaf_id]
        assert leaf.group == (leaf.su - 1) // 4 + 1
        reached = Counter(_device(ep) for _, ep in links.uplinks)
        group = {s.id for s in f.spines() if s.group == leaf.group}
        assert set(reached) == group and set(reached.values()) == {1}


def test_spine_j_of_every_group_feeds_core_group_j_evenly(three_tier):
    f = three_tier
    by_core: dict[str, Counter] = {}
    for spine_id, links in all_spine_links(f).items():
        spine = f.switches[spine_id]
        position = int(spine_id.rsplit("-", 1)[1])
        cores = Counter(_device(ep) for _, ep in links.uplinks)
        assert {f.switches[c].group for c in cores} == {position}
        assert len(cores) == 2 and set(cores.values()) == {16} and len(links.downlinks) == 32
        for core in cores:
            by_core.setdefault(core, Counter())[spine.group] += cores[core]
    assert len(by_core) == 64
    assert all(counts == Counter({1: 16, 2: 16, 3: 16, 4: 16}) for counts in by_core.values())


def test_spine_core_links_get_31s_from_the_fabric_pool_with_the_core_even(three_tier):
    f = three_tier
    links = all_spine_links(f)["sg2-spine-07"]
    for port, core_ep in links.uplinks:
        core_addr, core_len = split_cidr(f.addresses[core_ep])
        spine_addr, spine_len = split_cidr(f.addresses[f"sg2-spine-07/{port.name}"])
        assert core_len == spine_len == 31 and core_addr % 2 == 0 and spine_addr == core_addr + 1
    assert all(f"{s.id}/lo" in f.addresses for s in f.cores())
    ips = [v.split("/")[0] for v in f.addresses.values()]
    assert len(ips) == len(set(ips))


def test_asns_follow_rfc_7938(three_tier):
    f = three_tier
    leaf_asns = [f.asns[l.id] for l in f.leaves()]
    assert len(set(leaf_asns)) == len(leaf_asns)                       # each leaf its own
    by_group = {}
    for spine in f.spines():
        by_group.setdefault(spine.group, set()).add(f.asns[spine.id])
    assert all(len(v) == 1 for v in by_group.values())                  # one per spine group ...
    assert len({next(iter(v)) for v in by_group.values()}) == 4        # ... different between groups
    assert {f.asns[c.id] for c in f.cores()} == {4200200000}            # cores share one
    assert f.settings.asn.spine_mode == "shared"            # shared: one ASN per spine group


def test_replanning_keeps_pins_at_every_tier():
    f = preset_fabric("b200-superpod", sus=16)
    f.set_address("cg3-core-02/Ethernet8", "10.252.200.0/31", pinned=True)
    f.set_asn("cg1-core-01", 65001, pinned=True)
    assign_addresses(f)
    assert f.addresses["cg3-core-02/Ethernet8"] == "10.252.200.0/31"
    assert f.addresses[f.peer("cg3-core-02/Ethernet8")] == "10.252.200.1/31"   # the partner follows the pin
    assert f.asns["cg1-core-01"] == 65001 and f.asns["cg1-core-02"] == 4200200000
    once = dict(f.addresses)
    assign_addresses(f)
    assert f.addresses == once
    ips = [v.split("/")[0] for v in f.addresses.values()]
    assert len(ips) == len(set(ips))


def test_same_spec_same_design():
    from designer.storage import dumps
    spec = dict(sus=5, servers_per_su=8, server_model="hgx-h100-8x400g", leaf_model="generic-64x400g",
                core_tier="on", sus_per_group=2, leaf_uplinks=8)
    assert dumps(build(BuildSpec(**spec), preset_fabric("default").catalog)) == \
        dumps(build(BuildSpec(**spec), preset_fabric("default").catalog))


def test_a_partial_last_group_keeps_full_spines(catalog):
    f = build(BuildSpec(sus=5, servers_per_su=8, leaf_model="generic-64x400g", core_tier="on",
                        sus_per_group=2, leaf_uplinks=8), catalog)
    groups = Counter(s.group for s in f.spines())
    assert groups == Counter({1: 4, 2: 4, 3: 4})
    full, last = all_spine_links(f)["sg1-spine-01"], all_spine_links(f)["sg3-spine-01"]
    assert len(full.downlinks) == 32 and len(full.uplinks) == 32
    assert len(last.downlinks) == 16 and len(last.uplinks) == 32      # one SU's 8 leaves, full uplinks


# ---------------------------------------------------------------------------- multi-plane

@pytest.fixture(scope="module")
def twin():
    return preset_fabric("twin-plane-800g", servers_per_su=16)


def test_twin_plane_ports_go_to_the_leaf_of_their_plane_and_rail(twin):
    f = twin
    assert f.settings.fabric_planes == 2
    for nic in f.nics():
        leaf = f.switches[_device(f.peer(nic.id))]
        server = f.servers[nic.server_id]
        assert (leaf.fabric_plane, leaf.su, leaf.rail) == (nic.fabric_plane, server.su, nic.rail)
    assert {(n.index, n.rail, n.fabric_plane) for n in f.servers["su1-srv01"].nics} == \
        {(2 * k + p, k, p) for k in range(8) for p in range(2)}


def test_each_plane_has_its_own_leaves_spines_and_cables(twin):
    f = twin
    for plane in (0, 1):
        leaves = [l for l in f.leaves() if l.fabric_plane == plane]
        spines = {s.id for s in f.spines() if s.fabric_plane == plane}
        assert len(leaves) == 8 and all(l.id.startswith(f"pl{plane}-") for l in leaves)
        for leaf in leaves:
            assert {_device(ep) for _, ep in all_leaf_links(f)[leaf.id].uplinks} == spines


def test_each_plane_draws_on_its_own_part_of_every_pool(twin):
    f = twin
    assert rail_pool(f, 3, 0) == (split_cidr("10.3.0.0/16")[0], 16)
    assert rail_pool(f, 3, 1) == (split_cidr("10.11.0.0/16")[0], 16)
    for key, cidr in f.addresses.items():
        device = f.switches.get(_device(key)) or f.servers[_device(key)]
        plane = device.fabric_plane if device.id in f.switches else f.nic(key).fabric_plane
        addr = split_cidr(cidr)[0]
        second = (addr >> 16 & 255)
        if key.endswith("/lo"):
            assert (addr >> 15 & 1) == plane                           # 10.255.0.0/17 and 10.255.128.0/17
        elif second < 16:
            assert second // 8 == plane                                # 10.0.0.0/13 and 10.8.0.0/13
        else:
            assert (addr >> 15 & 1) == plane                           # fabric pool halves
    names = {n.name for n in requirements(f)}
    assert {"plane 0 rail 7 pool", "plane 1 fabric pool", "plane 1 loopback pool"} <= names


def test_one_plane_of_a_twin_plane_server(catalog):
    f = build(BuildSpec(servers_per_su=4, server_model="b300-8x800g-twin-plane", leaf_model="nvidia-sn5600",
                        uplink_speed=800, fabric_planes=1), catalog)
    assert f.settings.fabric_planes == 1 and not any(s.id.startswith("pl") for s in f.switches.values())
    assert all(n.rail is None for n in f.nics() if n.fabric_plane == 1)


def test_more_planes_than_the_nics_have_is_refused(catalog):
    with pytest.raises(PlanningError, match="2 fabric planes need NIC ports on 2 planes; hgx-h100-8x400g's NICs go to 1"):
        build(BuildSpec(fabric_planes=2, leaf_model="generic-64x400g"), catalog)


def test_pools_too_small_for_a_plane_say_needs_and_has(catalog):
    spec = BuildSpec(servers_per_su=64, server_model="b300-8x800g-twin-plane", leaf_model="nvidia-sn5600",
                     uplink_speed=800, loopback_pool="10.255.0.0/28")
    with pytest.raises(PlanningError, match=r"plane 1 loopback pool 10\.255\.0\.8/29 is too small: it needs "
                                            r"12 addresses \(12 switch loopbacks\) and has 8"):
        build(spec, catalog)


def test_roles_and_ids(three_tier):
    roles = Counter(s.role for s in three_tier.switches.values())
    assert roles == Counter({Role.LEAF: 128, Role.SPINE: 128, Role.CORE: 64})
    assert "sg4-spine-32" in three_tier.switches and "cg32-core-02" in three_tier.switches
