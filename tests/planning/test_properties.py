"""Property tests of the planner over random valid specs."""

import math

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from designer.model.ids import split_endpoint
from designer.planning.build import build
from designer.planning.ppd import ppd_plan
from designer.planning.spec import BuildSpec, size
from designer.storage.catalog_file import builtin_catalog

CATALOG = builtin_catalog()

specs = st.builds(
    BuildSpec,
    sus=st.integers(1, 3),
    servers_per_su=st.integers(1, 12),
    server_model=st.sampled_from(sorted(CATALOG.servers)),
    leaf_model=st.sampled_from(["asterfusion-cx732q-n", "generic-64x400g", "nvidia-sn5600"]),
    spines=st.one_of(st.none(), st.integers(0, 4)),
    spine_planes=st.sampled_from(["shared", "per-rail"]),
    oversubscription=st.sampled_from([1.0, 1.5, 2.0, 3.0]),
    scheme=st.sampled_from(["subnet-per-leaf", "p2p31"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(specs)
def test_random_valid_specs_build_a_consistent_fabric(spec):
    assume(not size(spec, CATALOG).problems)
    fabric = build(spec, CATALOG)
    # every rail NIC reaches a leaf of its rail
    for nic in fabric.nics():
        if nic.rail is not None:
            leaf = fabric.switches[split_endpoint(fabric.peer(nic.id))[0]]
            assert leaf.rail == nic.rail
    # all addresses unique
    ips = [v.split("/")[0] for v in fabric.addresses.values()]
    assert len(ips) == len(set(ips))
    # every downlink has exactly one PPD binding, grouped by n = ceil(D / U)
    for leaf_id, leaf in ppd_plan(fabric).items():
        if leaf.uplinks:
            assert len(leaf.bindings) == leaf.downlinks
            assert len({b.downlink for b in leaf.bindings}) == leaf.downlinks
            assert leaf.n == max(1, math.ceil(leaf.downlinks / leaf.uplinks))
            for i, b in enumerate(leaf.bindings):
                assert b.next_hop is not None and b.source is not None
        else:
            assert leaf.bindings == ()
