"""designer.emulate on a real run (root, `ip netns`, FRR): a command given to the API runs inside the
device's namespace after setup, and the checks see what it broke. Skipped without root or FRR,
failed under CI (CI runs as root with FRR installed)."""

import os
import shutil
from pathlib import Path

import pytest

import designer
from tests.ci import need


def small():
    return designer.build(designer.spec("default", name="api-emu", sus=1, servers_per_su=2, rails=2))


def test_a_command_for_a_device_the_design_lacks_is_refused_before_anything_is_built():
    with pytest.raises(designer.UnknownDevice, match="the design has no device named 'nobody'"):
        designer.emulate(small(), commands=[("nobody", "true")])


def test_a_command_run_in_a_host_namespace_breaks_what_the_checks_then_report():
    problem = ("not root" if os.geteuid() != 0 else None) or \
              (None if shutil.which("ip") and Path("/usr/lib/frr/zebra").exists() else "no iproute2 or FRR")
    need(problem is None, problem)
    fabric = small()
    netdev, other = fabric.nic("su1-srv01/nic0").netdev, fabric.nic("su1-srv01/nic1").netdev
    lines = []
    result = designer.emulate(fabric, failover=False, log=lines.append,
                              commands=[("su1-srv01", f"ip link set {netdev} down")])
    assert f"exec on su1-srv01: ip link set {netdev} down (exit 0)" in lines
    assert not result.ok and not result.kept
    failed = [r for r in result.rows if not r.ok]
    assert {r.kind for r in failed} == {"ping", "rule"}
    assert all(f"su1-srv01:{netdev}" in (r.source, r.target) for r in failed), failed
    untouched = [r for r in result.rows if r.kind == "ping" and f":{other}" in r.source]
    assert len(untouched) == 2 and all(r.ok for r in untouched)
