"""RD003-RD006 and RD017-RD019: what is cabled to what."""

from __future__ import annotations

from designer.checks import Severity, check
from designer.model.ids import endpoint

from tests.checks.check_helpers import codes, nic_of_rail, of_code


def _errors(fabric):
    return [f for f in check(fabric) if f.severity is Severity.ERROR]


def test_nic_moved_to_another_rails_leaf_is_one_cross_rail_error(default):
    nic = nic_of_rail(default, "su1-srv03", 2)
    default.move_nic(nic, "su1-leaf-r1")
    findings = check(default)
    [cross] = of_code(findings, "RD004")
    assert cross.ids == (nic, "su1-leaf-r1") and cross.severity is Severity.ERROR
    assert cross.message == f"{nic} (rail 2) is cabled to su1-leaf-r1, a leaf of rail 1"
    assert "RD005" not in codes(findings)


def test_nic_cabled_to_a_spine_is_an_error(default):
    nic = nic_of_rail(default, "su1-srv01", 0)
    default.move_nic(nic, "spine-02")
    [finding] = of_code(default, "RD032")
    assert not of_code(default, "RD004")
    assert finding.ids == (nic, "spine-02")
    assert finding.message == f"{nic} is cabled directly to spine spine-02; server NICs belong on a leaf"


def test_disconnected_rail_nic_is_a_warning(default):
    nic = nic_of_rail(default, "su2-srv02", 1)
    default.disconnect(default.link_at(nic).id)
    [finding] = of_code(default, "RD005")
    assert finding.severity is Severity.WARNING and finding.ids == (nic,)
    assert finding.message == f"su2-srv02 has 1 rail NIC(s) not cabled: {nic.split('/')[1]} (rail 1)"
    assert _errors(default) == []


def test_nic_without_rail_may_stay_unconnected(default):
    nic = nic_of_rail(default, "su2-srv02", 1)
    default.disconnect(default.link_at(nic).id)
    default.set_nic_rail(nic, None)
    assert of_code(default, "RD005") == []


def test_speed_mismatch_on_a_cable(default):
    default.set_breakout("su1-leaf-r0", 10, "2x200G")
    port = next(p for p in default.ports("su1-leaf-r0").values() if p.cage == 10)
    nic = nic_of_rail(default, "su1-srv01", 0)
    _, link = default.move_nic(nic, "su1-leaf-r0", port.name)
    [finding] = of_code(default, "RD003")
    assert finding.ids == (link.id, link.a, link.b)
    assert f"su1-leaf-r0/{port.name} (200G)" in finding.message and f"{nic} (400G)" in finding.message


def _spine_links(fabric, leaf, spine):
    return [l for l in fabric.links_of(leaf) if l.a.startswith(spine + "/") or l.b.startswith(spine + "/")]


def test_leaf_missing_a_spine_of_its_plane(default):
    for link in _spine_links(default, "su2-leaf-r1", "spine-01"):
        default.disconnect(link.id)
    [finding] = of_code(default, "RD006")
    assert finding.ids == ("su2-leaf-r1", "spine-01")
    assert finding.message == "su2-leaf-r1 has no uplink to 1 of the 2 spines of the fabric: spine-01"


def test_leaf_cabled_to_a_spine_of_another_plane(make):
    fabric = make(spine_planes="per-rail")
    [link] = _spine_links(fabric, "su1-leaf-r0", "p0-spine-01")[:1]
    leaf_end = link.a if link.a.startswith("su1-leaf-r0/") else link.b
    fabric.disconnect(link.id)
    fabric.connect(leaf_end, endpoint("p1-spine-01", fabric.free_ports("p1-spine-01", 400)[0].name))
    [finding] = of_code(fabric, "RD006")
    assert finding.ids == ("su1-leaf-r0", "p1-spine-01")
    assert finding.message == "su1-leaf-r0 (rail 0) is cabled to p1-spine-01, a spine of plane 1"


def test_uplinks_spread_unevenly_is_a_warning(default):
    link = _spine_links(default, "su1-leaf-r3", "spine-01")[0]
    leaf_end = link.a if link.a.startswith("su1-leaf-r3/") else link.b
    default.disconnect(link.id)
    default.connect(leaf_end, endpoint("spine-02", default.free_ports("spine-02")[0].name))
    [finding] = of_code(default, "RD017")
    assert finding.severity is Severity.WARNING and finding.ids == ("su1-leaf-r3",)
    assert finding.message == "su1-leaf-r3 spreads 4 uplinks unevenly: spine-01 x1, spine-02 x3"
    # the re-cabled spine port has no address yet: its config could not be written (RD025)
    assert [(f.code, f.ids) for f in _errors(default)] == [("RD025", (default.peer(leaf_end),))]


def test_spine_cabled_to_a_spine(default):
    a = endpoint("spine-01", default.free_ports("spine-01")[0].name)
    b = endpoint("spine-02", default.free_ports("spine-02")[0].name)
    link = default.connect(a, b)
    [finding] = of_code(default, "RD018")
    assert finding.ids == (link.id, "spine-01", "spine-02")
    assert finding.message == f"cable {link.a} - {link.b} joins two spines"


def test_nic_on_the_right_rail_of_another_su_is_a_warning(default):
    nic = nic_of_rail(default, "su1-srv04", 3)
    default.move_nic(nic, "su2-leaf-r3")
    [finding] = of_code(default, "RD019")
    assert finding.ids == (nic, "su2-leaf-r3")
    assert finding.message == f"{nic} of SU 1 is cabled to su2-leaf-r3 of SU 2"
    assert of_code(default, "RD004") == []


def test_rd030_explains_the_cross_rail_limit_of_rail_only_and_per_rail_designs(make):
    from designer.checks import check
    for fabric, why in ((make("rail-only-32x4"), "no spines"),
                        (make("superpod-su", sus=2, spine_planes="per-rail"), "no spine is shared")):
        [finding] = [f for f in check(fabric) if f.code == "RD030"]
        assert why in finding.message and "rail 0" in finding.message and "PXN" in finding.message
        assert set(finding.ids) == {leaf.id for leaf in fabric.leaves()}
    assert [f for f in check(make("default")) if f.code == "RD030"] == []


def test_rd030_follows_the_cabling_not_the_settings(make):
    from designer.checks import check
    fabric = make("default")
    for leaf in fabric.leaves():
        if leaf.rail != 0:
            continue
        for link in [l for l in fabric.links.values() if l.a.startswith(leaf.id + "/") or l.b.startswith(leaf.id + "/")]:
            if "spine" in link.a or "spine" in link.b:
                fabric.disconnect(link.id)
    [finding] = [f for f in check(fabric) if f.code == "RD030"]
    assert "rail 0 | rails 1, 2, 3;" in finding.message
