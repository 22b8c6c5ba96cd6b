"""RD007-RD009, RD013, RD014: addresses and pools; RD076: the host MTU."""

from __future__ import annotations

import json

import pytest

import designer
from designer.checks import Severity, check
from designer.export.bundle import ExportRefused
from designer.model.entities import SWITCH_PORT_MTU

from tests.checks.check_helpers import codes, nic_of_rail, of_code, with_addressing


def _errors(fabric):
    return [f for f in check(fabric) if f.severity is Severity.ERROR]


def test_pinned_duplicate_address_is_one_error(default):
    taken = default.addresses["su1-srv02/nic0"]
    default.set_address("su1-srv01/nic0", taken, pinned=True)
    [finding] = _errors(default)
    assert finding.code == "RD007" and finding.ids == ("su1-srv01/nic0", "su1-srv02/nic0")
    assert finding.message == f"{taken.split('/')[0]} is used 2 times: by su1-srv01/nic0, su1-srv02/nic0"


def test_tiny_rail_pool_says_needed_and_available(default):
    with_addressing(default, rail_prefix=30)
    findings = of_code(default, "RD009")
    assert [f.ids for f in findings] == [(f"su1-leaf-r{r}", f"su2-leaf-r{r}") for r in range(4)]
    assert findings[0].message == ("rail 0 pool 10.0.0.0/30 is too small: it needs 16 addresses "
                                   "(2 leaf subnets of /29) and has 4")


def test_impossible_rail_prefix_is_a_finding_not_a_crash(default):
    with_addressing(default, rail_prefix=8)
    [finding] = of_code(default, "RD009")
    assert "rail pools of /8 cannot be carved from the rail supernet 10.0.0.0/12" in finding.message
    assert "RD000" not in codes(check(default))


def test_cabled_nic_without_address_is_an_error_export_agrees_with(default):
    nic = nic_of_rail(default, "su2-srv03", 2)
    default.set_address(nic, None)
    [finding] = of_code(default, "RD013")
    assert finding.severity is Severity.ERROR and finding.ids == (nic,)
    assert finding.message == f"1 NIC(s) cabled to su2-leaf-r2 have no address: {nic}"
    assert "`rail-designer assign FILE`" in finding.hint and "Design > Assign rails and addresses" in finding.hint


def test_nic_outside_its_leaf_subnet(default):
    default.set_address("su1-srv01/nic0", "10.0.0.14/29", pinned=True)   # a free address of su2-leaf-r0's subnet
    [finding] = _errors(default)
    assert finding.code == "RD014" and finding.ids == ("su1-srv01/nic0", "su1-leaf-r0")
    assert finding.message == ("su1-srv01/nic0 10.0.0.14/29 is not in su1-leaf-r0's subnet 10.0.0.0/29 "
                               "(gateway 10.0.0.1)")


def test_nic_with_the_wrong_prefix_length(default):
    default.set_address("su1-srv01/nic0", "10.0.0.6/24", pinned=True)
    [finding] = of_code(default, "RD014")
    assert finding.message.endswith("has prefix /24 but su1-leaf-r0's subnet 10.0.0.0/29 (gateway 10.0.0.1) is a /29")


def test_nic_on_the_broadcast_address(default):
    default.set_address("su1-srv01/nic0", "10.0.0.7/29", pinned=True)
    [finding] = of_code(default, "RD014")
    assert "is the broadcast address of su1-leaf-r0's subnet" in finding.message


def test_p2p_nic_that_is_not_the_partner_of_its_leaf_port(make):
    fabric = make(scheme="p2p31")
    nic = nic_of_rail(fabric, "su1-srv02", 1)
    port = fabric.peer(nic)
    fabric.set_address(nic, "10.1.200.7/31", pinned=True)          # in rail 1's pool, so not RD026
    [finding] = _errors(fabric)
    assert finding.code == "RD014" and finding.ids == (nic, "su1-leaf-r1")
    assert finding.message == (f"{nic} 10.1.200.7/31 is not the /31 partner of its leaf port "
                               f"{port} {fabric.addresses[port]}")


def test_overlapping_leaf_subnets(default):
    default.set_address("su1-leaf-r0/svi", "10.0.0.1/28", pinned=True)   # swallows su2-leaf-r0's /29
    [finding] = of_code(default, "RD008")
    assert finding.ids == ("su1-leaf-r0/svi", "su2-leaf-r0/svi")
    assert finding.message == "su1-leaf-r0/svi (10.0.0.0/28) overlaps su2-leaf-r0/svi (10.0.0.8/29)"


def test_nic_address_inside_the_fabric_pool(make):
    fabric = make(scheme="p2p31")
    nic = nic_of_rail(fabric, "su1-srv01", 0)
    fabric.set_address(nic, "10.254.99.1/31", pinned=True)
    [finding] = of_code(fabric, "RD008")
    assert finding.ids == (nic,)
    assert finding.message == f"1 rail address(es) lie in the fabric pool 10.254.0.0/16: {nic} 10.254.99.1/31"


def test_pools_that_overlap_each_other(default):
    with_addressing(default, fabric_pool="10.0.0.0/16")
    findings = of_code(default, "RD008")
    assert [f.message for f in findings] == ["the fabric pool 10.0.0.0/16 overlaps the rail supernet 10.0.0.0/12"]


def test_export_ready_rules_report_what_the_exporters_refuse(default):
    """RD025-RD029: each names the object export would stop on (tests/export/test_one_verdict.py proves
    the catalogue and export agree over mutated designs; these pin the messages)."""
    uplink = next(l for l in default.links.values() if l.a.startswith("spine-01/"))
    default.set_address(uplink.a, None)                                         # RD025
    default.set_address("su1-srv01/nic0", "192.168.7.2/29", pinned=True)        # RD026 (and RD014)
    default.set_nic_names("su1-srv01/nic1", "enp24s0np0-with-a-suffix", "mlx5_1")   # RD027
    default.set_nic_names("su1-srv01/nic2", "ens1np0", "mlx5_2")                     # RD027: one name, two NICs
    default.set_address("su1-srv02/nic9", "10.0.0.77/29")                      # RD029
    found = {f.code: f for f in check(default)}
    assert found["RD025"].ids == (uplink.a,) and found["RD025"].severity is Severity.ERROR
    assert "su1-srv01/nic0 192.168.7.2/29 (not in the rail 0 pool 10.0.0.0/16)" in found["RD026"].message
    messages = [f.message for f in check(default) if f.code == "RD027"]
    assert any("it has 24 characters" in m for m in messages)
    assert any("two NICs with one interface name ('ens1np0')" in m for m in messages)
    assert found["RD029"].ids == ("su1-srv02/nic9",)


def test_out_of_pool_follows_fabric_planes_and_the_core_tier():
    """RD026 on a twin-plane design checks each address against its own plane's part of the pools, and
    covers spine-core /31s and core loopbacks of a three-tier design."""
    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    twin = build(load_preset("twin-plane-800g").spec(sus=1, servers_per_su=2, rails=2), builtin_catalog())
    assert not of_code(twin, "RD026")
    nic = next(n for s in twin.servers.values() for n in s.nics if n.fabric_plane == 1)
    leaf_plane0 = next(sw for sw in twin.leaves() if sw.fabric_plane == 0 and sw.rail == nic.rail)
    plane0_address = twin.addresses[next(ep for ep in twin.addresses if ep.startswith(leaf_plane0.id + "/"))]
    twin.set_address(nic.id, plane0_address.rsplit(".", 1)[0] + ".200/31", pinned=True)   # plane 0's part
    [finding] = of_code(twin, "RD026")
    assert nic.id in finding.ids and "plane 1 rail" in finding.message
    three = build(load_preset("b200-superpod").spec(sus=2, servers_per_su=2, rails=2, core_tier="on"),
                  builtin_catalog())
    assert not of_code(three, "RD026")
    core_end = next(l.a for l in three.links.values() if l.a.startswith("cg"))
    three.set_address(core_end, "192.168.0.0/31", pinned=True)
    [finding] = of_code(three, "RD026")
    assert finding.ids == (core_end,) and "spine-core cables" in finding.message
    ends = ["cg1-core-01/Ethernet16", "cg1-core-01/Ethernet8"]       # text order is not natural order
    assert all(three.peer(end) for end in ends)
    for n, end in enumerate(ends):
        three.set_address(end, f"192.168.0.{2 * n + 2}/31", pinned=True)
    [finding] = of_code(three, "RD026")
    from designer.model.ids import natural_sorted
    listed = natural_sorted([core_end, *ends])
    assert finding.ids == tuple(listed)
    assert [finding.message.index(f"{e} ") for e in listed] == sorted(finding.message.index(f"{e} ") for e in listed)


def test_switches_on_a_plane_the_settings_dropped_are_rd049_not_a_crash_of_rd026():
    """Found by tests/storage/test_every_field.py: a twin-plane design file without settings.fabric_planes
    (one plane) made RD026 fail on plane 1's rail pool (an RD000); RD049 is the finding."""
    from dataclasses import replace

    from designer.planning.build import build
    from designer.storage.catalog_file import builtin_catalog
    from designer.storage.presets import load_preset
    twin = build(load_preset("twin-plane-800g").spec(sus=1, servers_per_su=2, rails=2), builtin_catalog())
    twin.set_settings(replace(twin.settings, fabric_planes=1))
    found = codes(check(twin))
    assert "RD049" in found and "RD000" not in found


def test_host_mtu_above_the_switch_ports_is_one_error_with_a_hint(default):
    with_addressing(default, mtu=9216)                  # validate's settings range takes it (MTU_RANGE)
    [finding] = _errors(default)
    assert finding.code == "RD076" and finding.ids == ()
    assert finding.message.startswith("host NIC MTU 9216 (settings.addressing.mtu) is above the 9100 of every switch port")
    assert "settings.addressing.mtu" in finding.hint and "9100" in finding.hint


def test_host_mtu_equal_to_the_switch_ports_is_clean(default):
    with_addressing(default, mtu=9100)
    assert of_code(default, "RD076") == []


def test_export_refuses_such_a_design_unless_forced_and_then_writes_the_ports_the_rule_names(default, tmp_path):
    with_addressing(default, mtu=9216)
    with pytest.raises(ExportRefused) as refused:
        designer.export_bundle(default, tmp_path / "b", parts=["switches"])
    assert [f.code for f in refused.value.findings] == ["RD076"] and not (tmp_path / "b").exists()
    designer.export_bundle(default, tmp_path / "b", parts=["switches"], force=True)
    config = json.loads((tmp_path / "b" / "switches" / "su1-leaf-r0" / "config_db.json").read_text())
    assert {port["mtu"] for port in config["PORT"].values()} == {str(SWITCH_PORT_MTU)}
