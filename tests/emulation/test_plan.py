"""The emulation plan as data: no root, no namespaces."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from designer.emulation.plan import MAX_NAMESPACES, EmulationError, _Names, check_size, make_plan
from designer.export import preview
from designer.export.switch_data import switch_data
from designer.model.ids import split_endpoint
from designer.planning.build import build
from designer.planning.spec import BuildSpec
from designer.storage.catalog_file import builtin_catalog
from tests.conftest import preset_fabric

ROOT = Path(__file__).resolve().parents[2]


def small(scheme: str):
    spec = BuildSpec(sus=2, servers_per_su=2, server_model="gpu-4x400g", rails=2,
                     leaf_model="asterfusion-cx732q-n", spines=2, scheme=scheme)
    return build(spec, builtin_catalog())


@pytest.fixture(params=["subnet-per-leaf", "p2p31"])
def fabric(request):
    return small(request.param)


def test_one_namespace_per_device_and_one_veth_per_cable(fabric):
    plan = make_plan(fabric, "rd42")
    assert [n.name for n in plan.namespaces] == [f"rd42-{s.id}" for s in fabric.sorted_servers()] + [
        f"rd42-{sid}" for sid in ["spine-01", "spine-02", "su1-leaf-r0", "su1-leaf-r1", "su2-leaf-r0", "su2-leaf-r1"]]
    assert {n.kind for n in plan.namespaces if n.device.startswith("spine")} == {"spine"}
    assert len(plan.cables) == len(fabric.links) == 16
    host_cable = next(c for c in plan.cables if c.link == "su1-leaf-r0/Ethernet0~su1-srv01/nic0")
    assert (host_cable.a_ns, host_cable.a_if, host_cable.b_ns, host_cable.b_if) == (
        "rd42-su1-leaf-r0", "Ethernet0", "rd42-su1-srv01", "ens1np0")
    assert plan.renamed == {}


def test_hosts_get_the_exported_files_verbatim(fabric):
    plan = make_plan(fabric, "rd1")
    files = preview(fabric, "su2-srv02")
    assert plan.host_files["rd1-su2-srv02"] == {          # the first two run, the QoS proof reads the others
        name: files[f"hosts/su2-srv02/{name}"] for name in ("policy-routing.sh", "sysctl.conf", "roce-qos.sh", "nccl.env")}


def test_switches_get_the_exported_files_verbatim(fabric):
    plan = make_plan(fabric, "rd1")
    files = preview(fabric, "su1-leaf-r0")
    leaf = plan.switches["rd1-su1-leaf-r0"]
    assert leaf.files == {name: files[f"switches/su1-leaf-r0/{name}"]
                          for name in ("config_db.json", "frr.conf", "ppd-pins.json")}
    assert "ppd-pins.json" not in plan.switches["rd1-spine-01"].files
    assert plan.agent == (ROOT / "resources" / "ppd" / "rail-ppd-agent.py").read_text()


def test_leaf_is_configured_from_its_config_db_json(fabric):
    plan = make_plan(fabric, "rd1")
    lines = plan.switches["rd1-su1-leaf-r0"].lines
    data = switch_data(fabric, "su1-leaf-r0")
    assert f"address add {data['loopback']} dev lo" in lines
    for i in data["interfaces"]:
        assert f"address add {i['address']} dev {i['port']}" in lines
    assert "link set dev Ethernet240 mtu 9100 up" in lines and "link set dev Ethernet4 mtu 9100 up" not in lines
    if fabric.settings.addressing.scheme == "subnet-per-leaf":
        assert "link add Vlan1000 type bridge" in lines
        assert "link set dev Ethernet0 master Vlan1000" in lines
        assert f"address add {fabric.addresses['su1-leaf-r0/svi']} dev Vlan1000" in lines
        iif = "Vlan1000"
    else:
        assert not any("bridge" in line for line in lines)
        assert f"address add {fabric.addresses['su1-leaf-r0/Ethernet0']} dev Ethernet0" in lines
        iif = "Ethernet0"
    # The ACL's local-destination FORWARD rule (priority 9000) as a rule at pref 10000 - 9000; no route is
    # computed here (FRR installs them) and no pin (rail-ppd-agent installs those).
    local = data["ppd"]["local"][0]["prefix"]
    assert f"rule add to {local} iif {iif} lookup main pref 1000" in lines
    assert not any(line.startswith("route ") for line in lines)
    assert not any("lookup 2" in line for line in lines)


def test_config_db_rules_the_emulation_cannot_model_are_refused():
    from designer.emulation.configdb import apply_config_db
    text = json.dumps({"ACL_TABLE": {"PPD": {"type": "L3", "stage": "ingress", "ports": ["Ethernet0"]}},
                       "ACL_RULE": {"PPD|X": {"PRIORITY": "10", "PACKET_ACTION": "DROP", "SRC_IP": "10.0.0.1/32"}}})
    with pytest.raises(EmulationError, match="ACL rule PPD|X: the emulation models FORWARD rules"):
        apply_config_db(text, "leaf", lambda p: p, {"Ethernet0"})
    with pytest.raises(EmulationError, match="leaf/config_db.json is not JSON"):
        apply_config_db("{", "leaf", lambda p: p, set())


def test_bgp_sessions_know_their_cable(fabric):
    plan = make_plan(fabric, "rd1")
    sessions = plan.switches["rd1-su1-leaf-r0"].sessions
    assert [(s.peer_ip, s.peer, s.cable) for s in sessions] == [
        ("10.254.0.0", "spine-01", "spine-01/Ethernet0~su1-leaf-r0/Ethernet240"),
        ("10.254.0.2", "spine-02", "spine-02/Ethernet0~su1-leaf-r0/Ethernet248")]


def test_pin_checks_go_to_a_same_rail_nic_behind_another_leaf(fabric):
    plan = make_plan(fabric, "rd1")
    assert len(plan.pins) == 8
    pin = plan.pins[0]
    assert (pin.leaf, pin.nic, pin.dest_label) == ("su1-leaf-r0", "su1-srv01:ens1np0", "su2-srv01:ens1np0")
    assert [(c.uplink, c.next_hop, c.spine) for c in pin.candidates] == [
        ("Ethernet240", "10.254.0.0", "spine-01"), ("Ethernet248", "10.254.0.2", "spine-02")]


def test_probes_are_every_same_rail_pair_across_servers(fabric):
    pairs = make_plan(fabric, "rd1").probes()
    assert len(pairs) == 2 * 4 * 3
    assert all(a.rail == b.rail and a.host != b.host for a, b in pairs)


def test_interface_names_linux_refuses_are_renamed_and_mapped():
    names = _Names()
    assert names.get("leaf", "Ethernet0") == "Ethernet0"
    assert names.get("leaf", "Ethernet0") == "Ethernet0"          # stable on a second ask
    assert names.get("leaf", "Ethernet1/1") == "p0"
    assert names.get("leaf", "HundredGigEthernet1") == "p1"       # 19 characters
    assert names.get("leaf", "Ethernet1/1") == "p0"
    assert names.renamed == {"leaf/Ethernet1/1": "p0", "leaf/HundredGigEthernet1": "p1"}


def test_too_big_a_design_is_refused_with_its_size_and_the_limit():
    with pytest.raises(EmulationError, match=r"needs \d+ namespaces and \d+ veth pairs; .* at most 64 "
                                             r"namespaces and 256 veth pairs"):
        make_plan(preset_fabric("rail-optimized-64x4"), "rd1")
    check_size(MAX_NAMESPACES, 256)
    with pytest.raises(EmulationError):
        check_size(MAX_NAMESPACES + 1, 1)


def test_no_cable_leaves_the_plan_half_described(fabric):
    plan = make_plan(fabric, "rd1")
    names = {n.name for n in plan.namespaces}
    assert all(c.a_ns in names and c.b_ns in names for c in plan.cables)
    devices = {split_endpoint(ep)[0] for link in fabric.links.values() for ep in (link.a, link.b)}
    assert {f"rd1-{d}" for d in devices} <= names


def test_not_root_is_refused_with_one_message_and_exit_2(tmp_path, monkeypatch, capsys):
    from designer.cli import main
    from designer.emulation import netns
    from designer.storage import save
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert netns.environment_problem() == "the emulation needs root (it creates network namespaces); run it with sudo"
    design = tmp_path / "small.fabric.yaml"
    save(small("p2p31"), design)
    assert main(["emulate", str(design)]) == 2
    assert capsys.readouterr().err == ("rail-designer: the emulation needs root (it creates network namespaces); "
                                       "run it with sudo\n")


def test_missing_ip_netns_is_refused(monkeypatch):
    from designer.emulation import netns
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    monkeypatch.setattr(netns.shutil, "which", lambda tool: None if tool == "ip" else "/usr/bin/" + tool)
    assert netns.environment_problem() == "the emulation needs ip on PATH (iproute2, bash, procps)"


def test_table_colours_rows_only_when_asked():
    from designer.emulation.checks import Row
    from designer.emulation.report import table
    rows = [Row("ping", "a:eth0", "b:eth0", True, "ok"), Row("rule", "b:eth0", "off-rail", False, "bad")]
    plain = table(rows)
    assert "\033[" not in plain and "FAIL  rule" in plain
    coloured = table(rows, colour=True).splitlines()
    assert coloured[1].startswith("\033[32mPASS") and coloured[2].startswith("\033[31mFAIL")


def test_off_rail_address_avoids_every_pool():
    from dataclasses import replace
    from designer.emulation.plan import off_rail_address
    fabric = small("p2p31")
    assert off_rail_address(fabric) == "198.51.100.1"
    a = fabric.settings.addressing
    fabric.set_settings(replace(fabric.settings, addressing=replace(a, fabric_pool="198.51.100.0/24")))
    assert off_rail_address(fabric) == "203.0.113.1"


def test_convergence_that_never_comes_names_the_switch_and_the_session(fabric):
    """The wait is bounded and says which session kept it waiting (a stand-in FRR whose sessions stay Active)."""
    from designer.emulation.frr import wait_converged

    class StuckFrr:
        state, received = "Active", 0

        def peers(self, setups):
            return [{s.peer_ip: {"state": self.state, "pfxRcd": self.received, "pfxSnt": 0} for s in setup.sessions}
                    for setup in setups]

        def routes(self, setups):
            return [{} for _ in setups]

    plan = make_plan(fabric, "rd1")
    with pytest.raises(EmulationError, match=r"BGP did not converge in 0 s: spine-01's session to 10\.254\.0\.1 "
                                             r"\(su1-leaf-r0\) is Active, expected Established"):
        wait_converged(StuckFrr(), plan, timeout=0.3)
    # Established but no update yet (FRR coalesces the first ones): not converged, though nothing changes.
    StuckFrr.state = "Established"
    with pytest.raises(EmulationError, match=r"spine-01's session to 10\.254\.0\.1 has received no prefix yet"):
        wait_converged(StuckFrr(), plan, timeout=0.3)
    # Sessions up, but a leaf whose `network` never made it into its RIB (no discard route): named, too.
    StuckFrr.received = 1
    leaf = plan.switches["rd1-su1-leaf-r0"]
    with pytest.raises(EmulationError, match=rf"su1-leaf-r0 does not originate {leaf.server_prefixes[0]}"):
        wait_converged(StuckFrr(), plan, timeout=0.3)
    # A session over a cable that is down must be down: Established there is not converged either.
    down = {plan.switches["rd1-su1-leaf-r0"].sessions[0].cable}

    class AllUp(StuckFrr):
        def peers(self, setups):
            return [{s.peer_ip: {"state": "Established"} for s in setup.sessions} for setup in setups]

    with pytest.raises(EmulationError, match=r"is Established, expected down"):
        wait_converged(AllUp(), plan, down_cables=down, timeout=0.3)
