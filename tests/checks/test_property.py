"""Property: whatever valid small design the planner builds, the checks find no error in it."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from designer.checks import Severity, check
from designer.planning.build import build
from designer.planning.spec import BuildSpec, size
from designer.storage.catalog_file import builtin_catalog

CATALOG = builtin_catalog()

specs = st.builds(
    BuildSpec,
    sus=st.integers(1, 3),
    servers_per_su=st.integers(1, 8),
    server_model=st.sampled_from(["gpu-4x400g", "hgx-h100-8x400g", "hgx-8gpu-4x400g"]),
    leaf_model=st.sampled_from(["asterfusion-cx732q-n", "generic-64x400g", "nvidia-sn5600"]),
    spines=st.integers(0, 4),
    spine_planes=st.sampled_from(["shared", "per-rail"]),
    oversubscription=st.sampled_from([1.0, 2.0, 3.0]),
    scheme=st.sampled_from(["subnet-per-leaf", "p2p31"]),
    spine_asn_mode=st.sampled_from(["shared", "per-plane", "per-spine"]),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(specs)
def test_planner_built_designs_have_no_errors(spec):
    assume(not size(spec, CATALOG).problems)
    findings = check(build(spec, CATALOG))
    assert [f for f in findings if f.severity is Severity.ERROR] == []
