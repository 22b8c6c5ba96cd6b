"""Rules of three-tier and multi-plane designs (RD040-RD049), on small real designs broken by hand."""

from __future__ import annotations

import dataclasses

import pytest

from designer.checks import check
from designer.model.ids import split_endpoint
from designer.planning.addressing import assign_addresses
from designer.planning.build import build
from designer.planning.spec import BuildSpec
from designer.planning.topology import all_leaf_links, all_spine_links
from tests.checks.check_helpers import of_code
from tests.conftest import preset_fabric

SMALL_THREE_TIER = dict(sus=4, servers_per_su=4, server_model="gpu-4x400g", leaf_model="asterfusion-cx732q-n",
                        core_tier="on", sus_per_group=2, scheme="p2p31")


@pytest.fixture
def three(catalog):
    """4 SUs of 4 servers, 4 rails: 2 spine groups of 2 spines, 2 core groups of 1 core."""
    return build(BuildSpec(**SMALL_THREE_TIER), catalog)


@pytest.fixture
def two_cores(catalog):
    """Like ``three`` with 4 cores: 2 core groups of 2 cores, 8 uplinks from each spine to each core."""
    return build(BuildSpec(**SMALL_THREE_TIER, cores=4), catalog)


@pytest.fixture
def twin():
    return preset_fabric("twin-plane-800g", servers_per_su=4)


def _free(f, switch_id, speed=None):
    return f"{switch_id}/{f.free_ports(switch_id, speed)[0].name}"


def test_clean_designs_have_no_findings(three, twin):
    assert (len(three.spines()), len(three.cores())) == (4, 2)
    assert [f.code for f in check(three) + check(twin)] == ["RD050", "RD050"]   # the growth notes


def test_spine_without_enough_core_uplinks_is_oversubscribed(three):
    ups = all_spine_links(three)["sg1-spine-01"].uplinks
    three.disconnect(three.link_at(f"sg1-spine-01/{ups[0][0].name}").id)
    [f] = of_code(three, "RD040")
    assert f.message == "sg1-spine-01 is oversubscribed 1.07:1, allowed 1:1 (6,400G down, 6,000G up)"
    for port, _ in ups[1:]:
        three.disconnect(three.link_at(f"sg1-spine-01/{port.name}").id)
    [f] = of_code(three, "RD040")
    assert "no uplink to a core" in f.message and f.ids == ("sg1-spine-01",)


def test_spine_ratio_within_the_allowed_one_is_reported_as_information(catalog):
    f = build(BuildSpec(**{**SMALL_THREE_TIER, "spine_oversubscription": 2}), catalog)
    [info] = of_code(f, "RD048")
    assert "4 spines run at 2.00:1 downlink:uplink (allowed 2:1)" in info.message
    assert not of_code(f, "RD040")


def test_spine_cabled_to_two_core_groups(two_cores):
    f = two_cores
    port, core_ep = all_spine_links(f)["sg1-spine-01"].uplinks[0]
    f.disconnect(f.link_at(core_ep).id)
    f.connect(f"sg1-spine-01/{port.name}", _free(f, "cg2-core-01"))
    [mesh] = of_code(f, "RD041")
    assert mesh.message.startswith("sg1-spine-01 is cabled to cores of 2 core groups (1, 2)")
    [g] = of_code(f, "RD043")          # cg2-core-01 now takes two spines of spine group 1
    assert g.message.startswith("cg2-core-01 is cabled to 2 spines of spine group 1: sg1-spine-01, sg1-spine-02")


def test_spine_missing_a_core_of_its_core_group(two_cores):
    f = two_cores
    assert [f.code for f in check(f)] == ["RD050"]   # only the growth note
    for port, core_ep in all_spine_links(f)["sg1-spine-01"].uplinks:
        if core_ep.startswith("cg1-core-02/"):
            f.disconnect(f.link_at(core_ep).id)
    [mesh] = of_code(f, "RD041")
    assert mesh.message == "sg1-spine-01 has no uplink to 1 of the 2 cores of core group 1: cg1-core-02"
    assert of_code(f, "RD040")


def test_uneven_core_uplinks_warn(two_cores):
    f = two_cores
    port, core_ep = all_spine_links(f)["sg2-spine-02"].uplinks[0]
    f.disconnect(f.link_at(core_ep).id)
    [w] = of_code(f, "RD045")
    assert w.message == "sg2-spine-02 spreads 15 uplinks unevenly: cg2-core-01 x7, cg2-core-02 x8"


def test_leaf_or_nic_cabled_to_a_core_skips_a_tier(two_cores):
    f = two_cores
    f.connect(_free(f, "su1-leaf-r0"), _free(f, "cg1-core-01"))
    nic = "su1-srv01/nic0"
    f.disconnect(f.link_at(nic).id)
    f.connect(nic, _free(f, "cg2-core-01"))
    [leaf] = of_code(f, "RD042")
    assert leaf.message.startswith("leaf port su1-leaf-r0/") and "cabled directly to core cg1-core-01" in leaf.message
    [server] = of_code(f, "RD032")                # a NIC above the leaves: export cannot get past it
    assert server.message == f"{nic} is cabled directly to core cg2-core-01; server NICs belong on a leaf"


def test_core_to_core_is_the_same_tier_rule(two_cores):
    two_cores.connect(_free(two_cores, "cg1-core-01"), _free(two_cores, "cg2-core-01"))
    assert [f.message.endswith("joins two cores") for f in of_code(two_cores, "RD018")] == [True]


def test_leaf_cabled_into_another_spine_group(three):
    port, spine_ep = all_leaf_links(three)["su1-leaf-r0"].uplinks[0]
    three.disconnect(three.link_at(spine_ep).id)
    _, leaf_ep = all_spine_links(three)["sg2-spine-01"].downlinks[0]
    three.disconnect(three.link_at(leaf_ep).id)                 # free a port of sg2-spine-01
    three.connect(f"su1-leaf-r0/{port.name}", _free(three, "sg2-spine-01"))
    found = of_code(three, "RD043")
    assert [f.message for f in found if f.ids[0] == "su1-leaf-r0"] == [
        "su1-leaf-r0 (spine group 1) is cabled to sg2-spine-01 of spine group 2"]
    assert not [f for f in of_code(three, "RD006") if "a spine of plane" in f.message]


def test_nic_port_cabled_to_the_other_plane_is_rejected(twin):
    twin.disconnect(twin.link_at("su1-srv04/nic0").id)         # free a port on pl0-su1-leaf-r0
    twin.move_nic("su1-srv01/nic1", "pl0-su1-leaf-r0")          # port 1 of NIC 0 belongs to plane 1
    [f] = of_code(twin, "RD044")
    assert f.message.startswith("pl0-su1-leaf-r0/") and f.message.endswith(
        "(fabric plane 0) is cabled to su1-srv01/nic1 (fabric plane 1)")
    from designer.checks import has_errors
    assert has_errors(check(twin))


def test_leaf_uplink_to_the_other_planes_spine(twin):
    port, spine_ep = all_leaf_links(twin)["pl1-su1-leaf-r3"].uplinks[0]
    twin.disconnect(twin.link_at(spine_ep).id)
    twin.connect(f"pl1-su1-leaf-r3/{port.name}", _free(twin, "pl0-spine-01", port.speed))
    assert [f.ids[1:] for f in of_code(twin, "RD044")] == [("pl0-spine-01", "pl1-su1-leaf-r3")]
    assert not of_code(twin, "RD006") and not of_code(twin, "RD043")    # one rule, one finding


def test_switch_on_a_plane_or_group_the_design_does_not_have(three, twin):
    twin.set_switch_fabric_plane("pl1-spine-01", 3)
    assert "on a fabric plane the design does not have (2 planes, 0 to 1): pl1-spine-01" in \
        of_code(twin, "RD049")[0].message
    three.set_switch_group("su1-leaf-r2", None)
    three.set_switch_group("su3-leaf-r1", 7)
    messages = [f.message for f in of_code(three, "RD049")]
    assert "1 switch(es) of a three-tier plane have no spine group: su1-leaf-r2" in messages
    assert "spine group 7 of fabric plane 0 has 1 leaves and no spines" in messages


def test_one_spine_asn_across_groups_breaks_routing(three):
    three.set_settings(dataclasses.replace(three.settings, asn=dataclasses.replace(three.settings.asn,
                                                                                     spine_mode="per-plane")))
    assign_addresses(three)
    [f] = of_code(three, "RD046")
    assert "spines of 2 spine groups of fabric plane 0 share ASN 4200100000" in f.message and "drop it" in f.message


def test_core_asn_used_by_a_leaf(three):
    three.set_asn("su2-leaf-r3", three.asns["cg1-core-01"], pinned=True)
    assert [f.message for f in of_code(three, "RD046")] == [
        "core cg1-core-01 has ASN 4200200000, also used by su2-leaf-r3",
        "core cg2-core-01 has ASN 4200200000, also used by su2-leaf-r3"]


def test_departures_from_rfc_7938_warn(three):
    three.set_settings(dataclasses.replace(three.settings, asn=dataclasses.replace(three.settings.asn,
                                                                                     spine_mode="per-spine")))
    assign_addresses(three)
    three.set_asn("cg2-core-01", 65000, pinned=True)
    messages = [f.message for f in of_code(three, "RD047")]
    assert any(m.startswith("the spines of spine group 1 of fabric plane 0 use 2 ASNs") for m in messages)
    assert "the cores use 2 ASNs (65000, 4200200000) instead of one" in messages
    assert not of_code(three, "RD046")


def test_spine_core_addresses_join_the_overlap_rule(three):
    port, core_ep = all_spine_links(three)["sg2-spine-02"].uplinks[0]
    other_port, other_core = all_spine_links(three)["sg1-spine-01"].uplinks[0]
    three.set_address(core_ep, three.addresses[other_core], pinned=True)
    codes = {f.code for f in check(three)}
    assert {"RD007", "RD008"} <= codes


def test_pool_shortfall_names_the_plane_part(twin):
    s = twin.settings
    twin.set_settings(dataclasses.replace(s, addressing=dataclasses.replace(s.addressing,
                                                                            loopback_pool="10.255.0.0/29")))
    assert [f.message for f in of_code(twin, "RD009")] == [
        f"plane {p} loopback pool 10.255.0.{4 * p}/30 is too small: it needs 9 addresses (9 switch loopbacks) "
        "and has 4" for p in (0, 1)]


def test_the_b200_pod_at_16_sus_is_clean():
    f = preset_fabric("b200-superpod", sus=16)
    assert split_endpoint(f.links_of("cg1-core-01")[0].a)[0] in f.switches
    assert [f.code for f in check(f)] == ["RD050"]   # only the growth note


def test_every_cable_between_switches_needs_its_addresses(three, tmp_path):
    # found by the one-verdict property on a three-tier design: a forced export of the switch configs
    # failed late on a core port of a spine-core (or leaf-core) cable without an address
    from designer.export.bundle import ExportRefused, export
    f = three
    core_link = next(l for l in f.links.values() if l.a.startswith("cg1-core-01/"))
    f.set_address(core_link.a, None)
    leaf_end = next(port for port, _ in all_leaf_links(f)["su1-leaf-r0"].uplinks)
    leaf_end = f"su1-leaf-r0/{leaf_end.name}"
    core_end = next(l for l in f.links.values() if l.a.startswith("cg2-core-01/")).a
    for end in (leaf_end, core_end):                  # their ports, unplugged and unaddressed
        f.disconnect(f.link_at(end).id)
        f.set_address(end, None)
    f.connect(leaf_end, core_end)
    found = sorted(x.message for x in of_code(f, "RD025"))
    assert len(found) == 2
    assert any(f"joins a spine and a core and {core_link.a} have no address" in m for m in found)
    assert any(f"joins a leaf and a core and {core_end}, {leaf_end} have no address" in m for m in found)
    with pytest.raises(ExportRefused) as refused:
        export(f, tmp_path / "switches", force=True, only=["switches"])
    assert {x.code for x in refused.value.findings} == {"RD025"}
    assert "cabling.csv" in export(f, tmp_path / "cabling", force=True, only=["cabling"]).files
