"""The emulation plan as data: no root, no namespaces."""

from __future__ import annotations

import pytest

from designer.emulation.plan import MAX_NAMESPACES, EmulationError, _Names, check_size, make_plan
from designer.emulation.routes import ebgp_routes
from designer.export import preview
from designer.export.switch_data import switch_data
from designer.model.ids import split_endpoint
from designer.planning.build import build
from designer.planning.spec import BuildSpec
from designer.storage.catalog_file import builtin_catalog
from tests.conftest import preset_fabric


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
    assert plan.host_files["rd1-su2-srv02"] == {
        "policy-routing.sh": files["hosts/su2-srv02/policy-routing.sh"],
        "sysctl.conf": files["hosts/su2-srv02/sysctl.conf"]}


def test_leaf_is_a_router_with_the_bundle_addresses_and_ppd_rules(fabric):
    plan = make_plan(fabric, "rd1")
    lines = plan.batches["rd1-su1-leaf-r0"]
    data = switch_data(fabric, "su1-leaf-r0")
    assert f"address add {data['loopback']} dev lo" in lines
    for i in data["interfaces"]:
        assert f"address add {i['address']} dev {i['port']}" in lines
    if fabric.settings.addressing.scheme == "subnet-per-leaf":
        assert "link add Vlan1000 type bridge" in lines
        assert "link set dev Ethernet0 master Vlan1000" in lines
        assert f"address add {fabric.addresses['su1-leaf-r0/svi']} dev Vlan1000" in lines
        iif = "Vlan1000"
    else:
        assert not any("bridge" in line for line in lines)
        assert f"address add {fabric.addresses['su1-leaf-r0/Ethernet0']} dev Ethernet0" in lines
        iif = "Ethernet0"
    # Uplink tables, local-first rule, then one pin per NIC with the uplink's table.
    assert "route add default via 10.254.0.0 dev Ethernet240 table 200" in lines
    assert "route add default via 10.254.0.2 dev Ethernet248 table 201" in lines
    local = [f"rule add to {x['prefix']} lookup main priority {100 + i}" for i, x in enumerate(data["ppd"]["local"])]
    pin = f"rule add from {data['ppd']['pins'][0]['source']}/32 iif {iif} lookup 200 priority 1000"
    assert local and all(line in lines for line in local) and pin in lines
    assert lines.index(local[-1]) < lines.index(pin)
    assert plan.sysctls["rd1-su1-leaf-r0"][0] == "net.ipv4.ip_forward=1"


def test_static_routes_are_what_ebgp_would_install(fabric):
    plan = make_plan(fabric, "rd1")
    remote = switch_data(fabric, "su2-leaf-r0")["bgp"]["networks"]
    leaf = plan.batches["rd1-su1-leaf-r0"]
    for prefix in remote:     # multipath over both spines
        assert (f"route add {prefix} nexthop via 10.254.0.0 dev Ethernet240 "
                f"nexthop via 10.254.0.2 dev Ethernet248") in leaf
    spine = plan.batches["rd1-spine-01"]
    assert f"route add {remote[-1]} via 10.254.0.9 dev Ethernet16" in spine


def test_spines_sharing_an_asn_never_learn_each_other(fabric):
    data = {sid: switch_data(fabric, sid) for sid in fabric.switches}
    routes = ebgp_routes(data)
    spine2_lo = data["spine-02"]["loopback"]
    assert spine2_lo not in {r.prefix for r in routes["spine-01"]}
    assert spine2_lo in {r.prefix for r in routes["su1-leaf-r0"]}


def test_pin_checks_go_to_a_same_rail_nic_behind_another_leaf(fabric):
    plan = make_plan(fabric, "rd1")
    assert len(plan.pins) == 8
    pin = plan.pins[0]
    assert (pin.leaf, pin.nic, pin.dest_label, pin.uplink, pin.next_hop) == (
        "su1-leaf-r0", "su1-srv01:ens1np0", "su2-srv01:ens1np0", "Ethernet240", "10.254.0.0")


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
    monkeypatch.setattr(netns.os, "geteuid", lambda: 1000)
    assert netns.environment_problem() == "the emulation needs root (it creates network namespaces); run it with sudo"
    design = tmp_path / "small.fabric.yaml"
    save(small("p2p31"), design)
    assert main(["emulate", str(design)]) == 2
    assert capsys.readouterr().err == ("rail-designer: the emulation needs root (it creates network namespaces); "
                                       "run it with sudo\n")


def test_missing_ip_netns_is_refused(monkeypatch):
    from designer.emulation import netns
    monkeypatch.setattr(netns.os, "geteuid", lambda: 0)
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
