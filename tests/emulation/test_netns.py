"""The emulation for real: namespaces, veths, the exported scripts, ICMP on the wire.

Needs root and `ip netns`. Skipped with the reason otherwise, except under CI (env CI set), where a
machine that cannot run them is a failure, not a skip.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from designer.cli import main
from designer.emulation import EmulationError, emulate, environment_problem
from designer.emulation.netns import namespaces_with_prefix
from designer.storage import save
from tests.emulation.test_plan import small

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def needs_netns():
    problem = environment_problem()
    if problem:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the emulation tests: {problem}")
        pytest.skip(problem)


def _prefix(run_id: str) -> list[str]:
    return namespaces_with_prefix(run_id + "-")


@pytest.mark.parametrize("scheme", ["subnet-per-leaf", "p2p31"])
def test_every_same_rail_pair_passes_and_every_leaf_pins(scheme):
    result = emulate(small(scheme), run_id=f"rdt{os.getpid()}{scheme[0]}")
    pings = [r for r in result.rows if r.kind == "ping"]
    pins = [r for r in result.rows if r.kind == "pin"]
    rules = [r for r in result.rows if r.kind == "rule"]
    assert len(pings) == 24 and len(pins) == 8 and len(rules) == 8
    assert [r for r in result.rows if not r.ok] == []
    assert all(r.detail == "request and reply on the rail NICs" for r in pings)
    assert pins[0].detail == "via 10.254.0.0 dev Ethernet240"
    assert _prefix(result.plan.run_id) == []


@pytest.mark.parametrize("scheme", ["subnet-per-leaf", "p2p31"])
def test_breaking_one_hosts_policy_routing_turns_exactly_its_rows_red(scheme):
    fabric = small(scheme)
    nic0, nic1 = (fabric.addresses[f"su1-srv02/nic{i}"].partition("/")[0] for i in (0, 1))

    def swap_tables(runner):      # each NIC's rule now points at the other rail's table
        script = (f"ip rule del from {nic0} priority 1000 && ip rule del from {nic1} priority 1001 && "
                  f"ip rule add from {nic0} table 101 priority 1000 && ip rule add from {nic1} table 100 priority 1001")
        runner.exec(runner.plan.ns_of("su1-srv02"), ["bash", "-c", script])

    result = emulate(fabric, after_setup=swap_tables, run_id=f"rdt{os.getpid()}b{scheme[0]}")
    red = {(r.source, r.target) for r in result.rows if not r.ok}
    theirs = {(r.source, r.target) for r in result.rows
              if r.kind in ("ping", "rule") and "su1-srv02:" in f"{r.source} {r.target}"}
    assert red == theirs and len(theirs) == 14
    assert not result.ok
    assert _prefix(result.plan.run_id) == []


def test_a_missing_host_rule_turns_exactly_that_nics_rule_row_red():
    fabric = small("p2p31")
    nic1 = fabric.addresses["su1-srv02/nic1"].partition("/")[0]

    def drop_rule(runner):       # as if policy-routing.sh had never added the rule of nic1
        runner.exec(runner.plan.ns_of("su1-srv02"), ["ip", "rule", "del", "from", nic1, "priority", "1001"])

    result = emulate(fabric, after_setup=drop_rule, run_id=f"rdt{os.getpid()}m")
    red = [r for r in result.rows if not r.ok]
    assert [(r.kind, r.source) for r in red] == [("rule", "su1-srv02:ens2np0")]
    assert "expected dev ens2np0" in red[0].detail
    assert _prefix(result.plan.run_id) == []


def test_an_error_during_the_run_still_removes_every_namespace():
    run_id = f"rdt{os.getpid()}e"

    def boom(runner):
        assert len(_prefix(run_id)) == 10
        raise EmulationError("stop here")

    with pytest.raises(EmulationError, match="stop here"):
        emulate(small("p2p31"), after_setup=boom, run_id=run_id)
    assert _prefix(run_id) == []


def test_keep_leaves_the_namespaces_and_the_hint_removes_them():
    result = emulate(small("p2p31"), keep=True, run_id=f"rdt{os.getpid()}k")
    try:
        assert len(_prefix(result.plan.run_id)) == 10 and result.ok
    finally:
        subprocess.run(["bash", "-c", result.removal_hint], check=True)
    assert _prefix(result.plan.run_id) == []


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_mid_run_removes_every_namespace(tmp_path, sig):
    design = tmp_path / "small.fabric.yaml"
    save(small("subnet-per-leaf"), design)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "designer", "emulate", str(design), "--exec", "su1-srv01=sleep 30"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    prefix = f"rd{proc.pid}"
    deadline = time.monotonic() + 20
    while len(namespaces_with_prefix(prefix + "-")) < 10 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)                    # into the --exec hook
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert namespaces_with_prefix(prefix + "-") == []


def test_cli_prints_the_table_and_exit_status(tmp_path, capsys):
    design = tmp_path / "small.fabric.yaml"
    save(small("p2p31"), design)
    assert main(["emulate", str(design)]) == 0
    out = capsys.readouterr().out
    assert "PASS  ping   su1-srv01:ens1np0" in out and "FAIL" not in out
    assert "FRR daemons are not run" in out
    assert main(["emulate", str(design), "--quiet", "--exec", "su2-srv01=ip route flush table 101 && "
                 "ip route del 10.1.0.0/16"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  ping" in out and "PASS" not in out


def test_cli_refuses_a_design_too_big_to_emulate(tmp_path, capsys):
    from tests.conftest import preset_fabric
    design = tmp_path / "big.fabric.yaml"
    save(preset_fabric("rail-optimized-64x4"), design)
    assert main(["emulate", str(design)]) == 2
    err = capsys.readouterr().err
    assert "at most 64 namespaces and 256 veth pairs" in err and "Traceback" not in err


def test_a_wide_leaf_subnet_passes_and_the_arp_table_caps_are_restored():
    """30 two-NIC hosts per leaf subnet need more ARP entries than the kernel's default cap (1,024,
    one table for every namespace); the run raises the cap and puts it back."""
    from designer.planning.build import build
    from designer.planning.spec import BuildSpec
    from designer.storage.catalog_file import builtin_catalog
    caps = {n: Path(f"/proc/sys/net/ipv4/neigh/default/{n}").read_text() for n in ("gc_thresh2", "gc_thresh3")}
    fabric = build(BuildSpec(sus=1, servers_per_su=30, server_model="gpu-4x400g", rails=2,
                             leaf_model="generic-64x400g", spines=2, scheme="subnet-per-leaf"), builtin_catalog())
    result = emulate(fabric, run_id=f"rdt{os.getpid()}w")
    assert [r for r in result.rows if not r.ok] == []
    assert sum(r.kind == "ping" for r in result.rows) == 2 * 30 * 29
    assert {n: Path(f"/proc/sys/net/ipv4/neigh/default/{n}").read_text() for n in caps} == caps
    assert _prefix(result.plan.run_id) == []
