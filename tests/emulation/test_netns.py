"""The emulation for real: namespaces, veths, the exported scripts, ICMP on the wire.

Needs root and `ip netns`. Skipped with the reason otherwise, except under CI (env CI set), where a
machine that cannot run them is a failure, not a skip.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from designer.cli import main
from designer.emulation import EmulationError, emulate, environment_problem
from designer.emulation.netns import namespaces_with_prefix
from designer.model.ids import split_endpoint
from designer.storage import save
from tests.emulation.test_plan import small
from tests.emulation.test_plan_tiers import THREE_TIER, TWIN_PLANE
from tests.ci import need

ROOT = Path(__file__).resolve().parents[2]


def _environment() -> None:
    problem = environment_problem()
    need(problem is None, problem)


@pytest.fixture(autouse=True)
def needs_netns():
    _environment()


def _prefix(run_id: str) -> list[str]:
    return namespaces_with_prefix(run_id + "-")


def _frr_daemons(run_id: str) -> list[str]:
    """FRR daemons or PPD agents still running from a run's folder (<temp dir>/<run id>-...)."""
    out = subprocess.run(["pgrep", "-af", f"{tempfile.gettempdir()}/{run_id}-"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if "pgrep" not in line]


# Small designs of every preset: both addressing schemes, both spine-plane modes, 1:1 and 2:1, rail-only.
VARIANTS = {
    "default": ("default", dict(sus=2, servers_per_su=2, rails=2)),
    "rail-optimized-p2p31-per-rail": ("rail-optimized-64x4", dict(sus=2, servers_per_su=4, rails=2,
                                                                   spine_planes="per-rail", spines=2)),
    "superpod-p2p31-2to1": ("superpod-su", dict(sus=2, servers_per_su=4, rails=2, oversubscription=2.0, spines=2)),
    "default-per-rail-2to1": ("default", dict(sus=2, servers_per_su=4, rails=2, spine_planes="per-rail", spines=2,
                                              oversubscription=2.0)),
    "rail-only-subnet": ("rail-only-32x4", dict(servers_per_su=3, rails=2)),
    "rail-only-p2p31": ("rail-only-32x4", dict(servers_per_su=3, rails=2, scheme="p2p31")),
    # Past two tiers and one plane: a core tier forced on two SUs (a spine group each), and twin-plane NICs.
    "b200-three-tier": ("b200-superpod", THREE_TIER),
    "twin-plane": ("twin-plane-800g", TWIN_PLANE),
}


WITH_SPINES = [name for name in VARIANTS if not name.startswith("rail-only")]
_RUNS: dict[str, tuple] = {}


def _run(name: str) -> tuple:
    """One emulation (with both failover scenarios) per variant, shared by every test that asks for it."""
    if name in _RUNS:
        return _RUNS[name]
    _environment()
    from tests.conftest import preset_fabric
    preset, overrides = VARIANTS[name]
    fabric = preset_fabric(preset, **overrides)
    tables = {}

    def read_spine_tables(runner):
        spines = [s for s in runner.plan.switches.values() if s.kind == "spine"]
        tables.update(zip((s.device for s in spines), runner.frr.routes(spines)))

    started = time.monotonic()
    result = emulate(fabric, after_setup=read_spine_tables, run_id=f"rdt{os.getpid()}v{list(VARIANTS).index(name)}")
    print(f"\n{name}: {time.monotonic() - started:.1f} s "
          + ", ".join(f"{k} {v:.1f}" for k, v in result.timings.items()))
    for row in result.rows:
        if row.kind.startswith("flow") and "outage" in row.detail:
            print(f"  {row.kind} {row.source} -> {row.target}: {row.detail}")
    _RUNS[name] = (name, fabric, result, tables)
    return _RUNS[name]


@pytest.fixture(scope="module", params=list(VARIANTS))
def run(request):
    return _run(request.param)


@pytest.fixture(scope="module", params=WITH_SPINES)
def spined_run(request):
    return _run(request.param)


def test_every_row_passes_on_real_frr_and_nothing_is_left(run):
    name, fabric, result, _ = run
    assert [r for r in result.rows if not r.ok] == []
    plan = result.plan
    kinds = [r.kind for r in result.rows]
    assert kinds.count("routes") == len(plan.switches)
    assert kinds.count("ping") == len(plan.probes()) > 0
    assert kinds.count("rule") == len(plan.endpoints)
    assert kinds.count("pin") == len(plan.pins)
    assert kinds.count("plane") == len(plan.cross_plane_probes())
    assert all(r.detail.startswith("request and reply on the rail NICs") for r in result.rows
               if r.kind.startswith("ping"))
    assert _prefix(plan.run_id) == [] and _frr_daemons(plan.run_id) == []


def test_qos_dscp_26_lands_on_the_lossless_priority_and_queue_at_both_ends(run):
    """Issue 20: RoCE data with the ToS of the host's nccl.env (106: DSCP 26) and CNPs with roce-qos.sh's
    cnp_dscp (48), real UDP 4791 datagrams across the FRR-routed fabric, counted by tc on every egress port.
    Stand-ins (designer/emulation/qos.py): the NIC's DSCP -> priority as HTB classes and u32 filters (mlx5's
    default table under mlnx_qos --trust dscp), the ASIC's DSCP_TO_TC_MAP -> TC_TO_QUEUE_MAP from each
    config_db.json the same way; PFC, PG and ECN are read from the maps (Linux has none of them on a veth)."""
    name, fabric, result, _ = run
    rows = [r for r in result.rows if r.kind == "qos"]
    assert rows and all(r.ok for r in rows), [r.detail for r in rows if not r.ok]
    for what, priority, flags in (("RoCE data DSCP 26", 3, "PG 3, PFC on, ECN on"), ("CNP DSCP 48", 6, "PG 0, PFC off")):
        hops = [r for r in rows if r.target == what]
        host, switches = hops[0], hops[1:]
        assert host.source.startswith("host ") and f"of 400 packets on priority {priority} (tc class 1:{priority + 1}" in host.detail
        assert ("PFC on" if priority == 3 else "PFC off") in host.detail
        assert switches and all(r.source.startswith("switch ") for r in switches)
        assert all(f"in egress queue {priority} (tc class 1:{priority + 1}" in r.detail and
                   f"class {priority}, {flags}" in r.detail for r in switches)
        leaves = {r.source.split()[1].split(":")[0] for r in switches} & {s.hostname for s in fabric.switches.values()
                                                                          if s.role.value == "leaf"}
        # through both leaves and the fabric between them, or one leaf where the pair shares it (rail-only)
        assert len(switches) >= (3 if name in WITH_SPINES else 1) and leaves
    verdicts = [r for r in rows if not r.source.startswith(("host ", "switch "))]
    assert [v.detail.split(" at the host")[0] for v in verdicts] == [
        "RoCE data DSCP 26 on lossless priority 3", "CNP DSCP 48 on lossy priority 6"]


def test_a_spines_bgp_table_from_frr_holds_every_leafs_server_prefixes(spined_run):
    """Read from FRR itself: every NIC behind every leaf a spine is wired to is covered by a route that spine
    learnt, originated by that leaf (the last ASN of the path). Fails on p2p31 without the discard routes."""
    name, fabric, result, tables = spined_run
    assert tables
    for spine, table in tables.items():
        routes = [(ipaddress.ip_network(prefix), path["path"].split()[-1] if path.get("path") else "")
                  for prefix, paths in table.items() for path in paths if path.get("valid")]
        leaves = {split_endpoint(peer)[0] for _, peer in fabric.cabled_ports(spine)
                  if fabric.switches[split_endpoint(peer)[0]].role.value == "leaf"}
        assert leaves
        for leaf in leaves:
            nics = [peer for _, peer in fabric.cabled_ports(leaf) if split_endpoint(peer)[0] in fabric.servers]
            assert nics
            for nic in nics:
                address = ipaddress.ip_address(fabric.addresses[nic].partition("/")[0])
                assert any(address in net and origin == str(fabric.asns[leaf]) for net, origin in routes), \
                    f"{name}: {spine} has no route for {nic} ({address}) from {leaf}"


def test_failover_moves_pins_and_every_flow_is_delivered_again(spined_run):
    name, fabric, result, _ = spined_run
    plan = result.plan
    assert plan.pins
    scenarios = sorted({r.kind for r in result.rows if r.kind.startswith("flow [")})
    assert [s.split("[")[1].split()[0] for s in scenarios] == ["spine", "uplink"]
    for scenario in scenarios:
        flows = [r for r in result.rows if r.kind == scenario]
        assert len(flows) == len(plan.pins) and all(r.ok for r in flows)
        assert any("outage" in r.detail for r in flows)            # the failure did hit some flow
        label = scenario[len("flow ["):-1]
        during = [r for r in result.rows if r.kind == f"pin [{label}]"]
        back = [r for r in result.rows if r.kind == f"pin [{label.replace(' down', ' back')}]"]
        assert len(during) == len(back) == len(plan.pins)
        assert any("fallback" in r.detail for r in during)
        assert all("(primary," in r.detail for r in back)
        assert sum(r.kind == f"ping [{label}]" for r in result.rows) == len(plan.probes())


def test_three_tiers_reach_across_spine_groups_and_a_lost_core_path_moves_only_those_destinations():
    """Real FRR on cores: every pair across the two spine groups is delivered through the cores; with a spine
    of group 1 down, group 2's leaves keep their pins on its twin spine in group 2 but send group 1's prefixes
    by the spine that still has a way there (the agent's per-destination exception), and back after."""
    name, fabric, result, _ = _run("b200-three-tier")
    plan = result.plan
    assert any(r.kind == "ping" and "through the cores" in r.detail for r in result.rows)
    routes = {r.source: r.detail for r in result.rows if r.kind == "routes"}
    assert all(routes[c.hostname].startswith(f"{len(fabric.leaves())} server prefixes") for c in fabric.cores())
    label = next(r.kind for r in result.rows if r.kind.startswith("pin [spine"))[len("pin ["):-1]
    dead = label.split()[1]
    group2 = [r for r in result.rows if r.kind == f"pin [{label}]" and r.source.startswith("su2-")]
    moved = [r for r in group2 if "fallback" in r.detail]
    assert moved and all(dead not in r.detail for r in group2)
    # They moved though their primary spine is up: it shares the dead spine's cores, its only way to group 1.
    primaries = {p.nic: p.candidates[0].spine for p in plan.pins}
    cores_of = {s.id: {split_endpoint(peer)[0] for _, peer in fabric.cabled_ports(s.id)
                       if split_endpoint(peer)[0].startswith("cg")} for s in fabric.spines()}
    assert all(cores_of[primaries[r.source.split(" from ")[1]]] == cores_of[dead] for r in moved)
    assert all(r.ok for r in result.rows)


def test_twin_plane_failover_in_one_plane_never_touches_the_other():
    name, fabric, result, _ = _run("twin-plane")
    rows = [r for r in result.rows if r.kind.startswith("flow [")]
    planes = {e.label: e.plane for e in result.plan.endpoints}
    assert {planes[r.source] for r in rows} == {0, 1}
    assert all(r.detail.startswith("path untouched: no probe lost") for r in rows if planes[r.source] == 1)
    assert any("outage" in r.detail for r in rows if planes[r.source] == 0)
    assert all(r.ok for r in result.rows if r.kind == "plane")


@pytest.mark.parametrize("scheme", ["subnet-per-leaf", "p2p31"])
def test_breaking_hosts_by_hand_turns_exactly_their_rows_red(scheme):
    """One run, two hand-broken hosts: su1-srv02's NIC rules point at each other's tables (every probe
    of that host and both its rule rows fail); su2-srv02 lost the rule of nic1, as if policy-routing.sh
    had never added it (only that NIC's rule row fails: rail traffic still follows the main table)."""
    fabric = small(scheme)
    nic0, nic1 = (fabric.addresses[f"su1-srv02/nic{i}"].partition("/")[0] for i in (0, 1))
    other = fabric.addresses["su2-srv02/nic1"].partition("/")[0]

    def break_hosts(runner):
        script = (f"ip rule del from {nic0} priority 1000 && ip rule del from {nic1} priority 1001 && "
                  f"ip rule add from {nic0} table 101 priority 1000 && ip rule add from {nic1} table 100 priority 1001")
        runner.exec(runner.plan.ns_of("su1-srv02"), ["bash", "-c", script])
        runner.exec(runner.plan.ns_of("su2-srv02"), ["ip", "rule", "del", "from", other, "priority", "1001"])

    result = emulate(fabric, after_setup=break_hosts, run_id=f"rdt{os.getpid()}b{scheme[0]}", failover=False)
    red = {(r.kind, r.source, r.target) for r in result.rows if not r.ok}
    theirs = {(r.kind, r.source, r.target) for r in result.rows
              if r.kind in ("ping", "rule") and "su1-srv02:" in f"{r.source} {r.target}"}
    missing = ("rule", "su2-srv02:ens2np0", "off-rail 198.51.100.1")
    assert red == theirs | {missing} and len(theirs) == 14
    assert "expected dev ens2np0" in next(r.detail for r in result.rows if (r.kind, r.source, r.target) == missing)
    assert not result.ok
    assert _prefix(result.plan.run_id) == []


def test_an_error_during_the_run_still_removes_every_namespace():
    run_id = f"rdt{os.getpid()}e"

    def boom(runner):
        assert len(_prefix(run_id)) == 10
        raise EmulationError("stop here")

    with pytest.raises(EmulationError, match="stop here"):
        emulate(small("p2p31"), after_setup=boom, run_id=run_id)
    assert _prefix(run_id) == [] and _frr_daemons(run_id) == []


def test_keep_leaves_the_namespaces_and_the_hint_removes_them():
    result = emulate(small("p2p31"), keep=True, run_id=f"rdt{os.getpid()}k", failover=False)
    try:
        assert len(_prefix(result.plan.run_id)) == 10 and result.ok
        assert len(_frr_daemons(result.plan.run_id)) >= 3 * 6          # FRR still runs for debugging
    finally:
        subprocess.run(["bash", "-c", result.removal_hint], check=True)
    assert _prefix(result.plan.run_id) == [] and _frr_daemons(result.plan.run_id) == []


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
    assert namespaces_with_prefix(prefix + "-") == [] and _frr_daemons(prefix) == []


def test_cli_prints_the_table_and_exit_status(tmp_path, capsys):
    design = tmp_path / "small.fabric.yaml"
    save(small("p2p31"), design)
    assert main(["emulate", str(design), "--no-failover", "--quiet", "--exec", "su2-srv01=ip route flush table 101 && "
                 "ip route del 10.1.0.0/16"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  ping" in out and "PASS" not in out
    assert "run FRR's own zebra, staticd and bgpd" in out and "FAILED" in out and "timings: setup" in out


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
    result = emulate(fabric, run_id=f"rdt{os.getpid()}w", failover=False)
    assert [r for r in result.rows if not r.ok] == []
    assert sum(r.kind == "ping" for r in result.rows) == 2 * 30 * 29
    assert {n: Path(f"/proc/sys/net/ipv4/neigh/default/{n}").read_text() for n in caps} == caps
    assert _prefix(result.plan.run_id) == []
