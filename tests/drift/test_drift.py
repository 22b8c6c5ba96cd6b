"""`drift` on dumps made for real: the default preset's bundle applied to real redis CONFIG_DBs with the real
apply script and PPD agent, FRR running each switch's frr.conf, hosts' policy routing and sysctls in
network namespaces (tests/drift/fabric.py); a clean dump of every device is clean, and each injected
fault is reported with its code, and nothing else."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

import designer
from designer.cli import main

from tests.drift.fabric import RunningFabric, environment_problem
from tests.export.helpers_hosts import fabric as preset_fabric, need

LEAF, SPINE, HOST = "su1-leaf-r0", "spine-01", "su1-srv01"


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    problem = environment_problem()
    need(problem is None, problem or "")
    tmp = tmp_path_factory.mktemp("drift")
    bundle = tmp / "bundle"
    fab = preset_fabric("default")
    designer.export_bundle(fab, bundle)
    run = RunningFabric(bundle, fab, tmp / "devices")
    try:
        run.clean = run.dump_all(tmp / "dumps")
        yield run
    finally:
        run.close()


def redump(running, tmp_path, device):
    """The clean dumps, with ``device`` dumped again now."""
    dumps = tmp_path / "dumps"
    shutil.copytree(running.clean, dumps)
    shutil.rmtree(dumps / device)
    target = running.switches.get(device) or running.hosts[device]
    done = target.dump(dumps / device)
    assert done.returncode == 0, done.stderr
    return dumps


def codes(report):
    return sorted((f.code, f.device, f.key) for f in report.findings)


def device(report, name):
    return next(d for d in report.devices if d.device == name)


def test_a_clean_dump_of_every_device_is_clean_and_exits_0(running, capsys):
    report = designer.check_drift(running.bundle, running.clean)
    assert report.findings == [] and report.clean
    assert [d.status for d in report.devices] == ["clean"] * (len(running.switches) + len(running.hosts))
    assert main(["drift", str(running.bundle), str(running.clean)]) == 0
    out = capsys.readouterr().out
    assert f"{LEAF} (switch): clean" in out and f"{HOST} (host): clean" in out and "no drift" in out
    rules = json.loads((running.clean / LEAF / "ppd-agent.json").read_text())["rules"]
    assert sorted(rules) == ["PPD|PIN_Ethernet0", "PPD|PIN_Ethernet16", "PPD|PIN_Ethernet24", "PPD|PIN_Ethernet8"]


def test_a_changed_bgp_neighbour_asn_in_frr(running, tmp_path):
    leaf = running.switches[LEAF]
    vtysh = leaf.frr.vtysh_argv(leaf.setup)
    change = ["-c", "configure terminal", "-c", "router bgp 4200000000"]
    subprocess.run([*vtysh, *change, "-c", "neighbor 10.254.0.0 remote-as 4200100099"], check=True, capture_output=True)
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, LEAF))
    finally:
        subprocess.run([*vtysh, *change, "-c", "neighbor 10.254.0.0 remote-as 4200100000"], check=True,
                       capture_output=True)
    assert codes(report) == [("DR010", LEAF, "neighbor 10.254.0.0")]
    [finding] = report.findings
    assert (finding.expected, finding.actual) == ("4200100000", "4200100099")
    assert "frr-reload.py" in " ".join(device(report, LEAF).converge())


def test_a_missing_acl_rule_an_extra_vlan_and_a_qos_map_changed_by_hand(running, tmp_path):
    leaf = running.switches[LEAF]
    rule = leaf.redis(4, "HGETALL", "ACL_RULE|PPD|LOCAL_1").split()
    leaf.redis(4, "DEL", "ACL_RULE|PPD|LOCAL_1")
    leaf.redis(4, "HSET", "VLAN|Vlan2000", "vlanid", "2000")
    leaf.redis(4, "HSET", "DSCP_TO_TC_MAP|ROCE", "26", "0")
    leaf.redis(4, "HSET", "DSCP_TO_TC_MAP|AZURE", "26", "3")          # a map of the switch's own: not drift
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, LEAF))
    finally:
        leaf.redis(4, "HSET", "ACL_RULE|PPD|LOCAL_1", *rule)
        leaf.redis(4, "DEL", "VLAN|Vlan2000", "DSCP_TO_TC_MAP|AZURE")
        leaf.redis(4, "HSET", "DSCP_TO_TC_MAP|ROCE", "26", "3")
    assert codes(report) == [("DR001", LEAF, "ACL_RULE|PPD|LOCAL_1"), ("DR002", LEAF, "VLAN|Vlan2000"),
                             ("DR003", LEAF, "DSCP_TO_TC_MAP|ROCE")]
    changed = next(f for f in report.findings if f.code == "DR003")
    assert (changed.expected, changed.actual) == ("3", "0")
    leaf_report = device(report, LEAF)
    assert leaf_report.status == "drift"
    assert "sudo sonic-db-cli CONFIG_DB DEL 'VLAN|Vlan2000'" in leaf_report.converge()
    assert any("rail-switch-apply.py apply /var/tmp/rail-designer/su1-leaf-r0" in c for c in leaf_report.converge())


def test_a_removed_host_ip_rule(running, tmp_path):
    host = running.hosts[HOST]
    host.ip("rule", "del", "from", "10.1.0.2", "table", "101", "priority", "1001")
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, HOST))
    finally:
        host.ip("rule", "add", "from", "10.1.0.2", "table", "101", "priority", "1001")
    assert codes(report) == [("DR020", HOST, "priority 1001 from 10.1.0.2 table 101")]
    assert any("policy-routing.sh" in c for c in device(report, HOST).converge())


def test_a_stale_pin_rule_and_a_pin_gone(running, tmp_path):
    leaf = running.switches[LEAF]
    # The agent's rules wait in APPL_DB for orchagent (not run here): one gone, one changed under it.
    leaf.redis(0, "DEL", "_ACL_RULE_TABLE:PPD:PIN_Ethernet8")
    leaf.redis(0, "HSET", "_ACL_RULE_TABLE:PPD:PIN_Ethernet0", "PACKET_ACTION", "REDIRECT:10.254.0.9@Ethernet100")
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, LEAF))
    finally:
        leaf.run_agent(running.bundle / "switches" / LEAF / "ppd-pins.json")      # it puts both right
    assert codes(report) == [("DR031", LEAF, "ACL_RULE|PPD|PIN_Ethernet0"), ("DR032", LEAF, "ACL_RULE|PPD|PIN_Ethernet8")]


def test_a_sysctl_and_a_route_changed_on_a_host(running, tmp_path):
    host = running.hosts[HOST]
    subprocess.run(["ip", "netns", "exec", host.ns, "sysctl", "-q", "-w", "net.ipv4.conf.ens2np0.rp_filter=1"],
                   check=True)
    host.ip("route", "replace", "default", "via", "10.1.0.3", "dev", "ens2np0", "table", "101")
    host.ip("route", "add", "192.0.2.0/24", "dev", "ens2np0", "table", "101")
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, HOST))
    finally:
        subprocess.run(["ip", "netns", "exec", host.ns, "sysctl", "-q", "-w", "net.ipv4.conf.ens2np0.rp_filter=2"],
                       check=True)
        host.ip("route", "del", "192.0.2.0/24", "table", "101")
        host.ip("route", "replace", "default", "via", "10.1.0.1", "dev", "ens2np0", "table", "101")
    assert codes(report) == [("DR022", HOST, "default table 101"), ("DR023", HOST, "192.0.2.0/24 table 101"),
                             ("DR040", HOST, "net.ipv4.conf.ens2np0.rp_filter")]


def test_devices_without_a_dump_are_not_checked_and_the_exit_is_1(running, tmp_path, capsys):
    dumps = tmp_path / "dumps"
    shutil.copytree(running.clean, dumps)
    shutil.rmtree(dumps / SPINE)
    shutil.rmtree(dumps / HOST)
    report = designer.check_drift(running.bundle, dumps)
    assert codes(report) == [("DR000", SPINE, SPINE), ("DR000", HOST, HOST)]
    assert {d.device: d.status for d in report.devices}[SPINE] == "not checked"
    assert main(["drift", str(running.bundle), str(dumps), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["clean"] is False and data["counts"] == {"clean": 16, "not checked": 2}
    assert data["owned_tables"]["VLAN"] == "whole" and data["owned_tables"]["BGP_NEIGHBOR"] == "empty"
    assert "BUFFER_PG" not in data["owned_tables"]


def test_a_switch_dump_without_vtysh_says_so_and_frr_is_not_checked(running, tmp_path):
    dumps = tmp_path / "dumps"
    shutil.copytree(running.clean, dumps)
    shutil.rmtree(dumps / SPINE)
    done = running.switches[SPINE].dump(dumps / SPINE, vtysh="/nonexistent/vtysh")
    assert done.returncode == 0 and "not read: frr-running.conf" in done.stdout
    manifest = json.loads((dumps / SPINE / "MANIFEST.json").read_text())
    assert "not found" in manifest["unreadable"]["frr-running.conf"] and not (dumps / SPINE / "frr-running.conf").exists()
    report = designer.check_drift(running.bundle, dumps)
    assert codes(report) == [("DR050", SPINE, "frr-running.conf")]
    assert {d.device: d.status for d in report.devices}[SPINE] == "partly checked"


def test_an_extra_host_rule_a_changed_mtu_and_a_roce_value_changed_by_hand(running, tmp_path):
    host = running.hosts[HOST]
    cnp = host.root / "sys/class/net/ens3np0/ecn/roce_np/cnp_dscp"
    host.ip("rule", "add", "from", "10.2.0.2", "table", "200", "priority", "900")
    host.ip("link", "set", "dev", "ens4np0", "mtu", "1500")
    cnp.write_text("46\n")
    try:
        report = designer.check_drift(running.bundle, redump(running, tmp_path, HOST))
    finally:
        host.ip("rule", "del", "from", "10.2.0.2", "table", "200", "priority", "900")
        host.ip("link", "set", "dev", "ens4np0", "mtu", "9000")
        cnp.write_text("48\n")
    assert codes(report) == [("DR021", HOST, "priority 900 from 10.2.0.2 table 200"), ("DR024", HOST, "ens4np0 mtu"),
                             ("DR045", HOST, str(cnp).removeprefix(str(host.root)))]
    assert "sudo ip rule del priority 900 from 10.2.0.2 table 200" in device(report, HOST).converge()
