"""The design diff on the model: each kind of edit lands on the right device with the right status, and
growing superpod-su by one SU is additive only when the spine count is pinned (issue 17)."""

import dataclasses

import pytest

import designer


def _default():
    return designer.build(designer.spec("default"))


def _changes(report, device, kind=None):
    return [c for c in report.device(device).changes if kind is None or c.kind == kind]


def test_a_design_against_itself_is_all_unchanged():
    report = designer.diff(_default(), _default())
    assert report.kind == "design" and not report.changed and not report.disruptive
    assert report.counts["unchanged"] == 8 + 8 + 2 and report.fabric == ()
    assert all(d.status == "unchanged" and d.changes == () for d in report.devices)


@pytest.fixture(scope="module")
def superpod():
    """superpod-su at 2 and 3 SUs, with 16 spines pinned and without."""
    def build(sus, **more):
        return designer.build(designer.spec("superpod-su", sus=sus, **more))
    return {"pinned": (build(2, spines=16), build(3, spines=16)), "free": (build(2), build(3))}


def test_one_more_su_with_the_spines_pinned_only_adds(superpod):
    report = designer.diff(*superpod["pinned"])
    old_leaves = [f"su{s}-leaf-r{r}" for s in (1, 2) for r in range(8)]
    old_servers = [f"su{s}-srv{n:02d}" for s in (1, 2) for n in range(1, 33)]
    spines = [f"spine-{n:02d}" for n in range(1, 17)]
    assert all(report.device(d).status == "unchanged" for d in old_servers)
    for leaf in old_leaves:                      # their PPD agents now watch the spines for su3's servers too
        device = report.device(leaf)
        assert device.status == "additive" and {c.kind for c in device.changes} == {"destination"}
        assert {c.key for c in device.changes} == {f"su3-leaf-r{r}" for r in range(8)}
    assert {d.device for d in report.devices if d.status == "added"} == \
        {f"su3-leaf-r{r}" for r in range(8)} | {f"su3-srv{n:02d}" for n in range(1, 33)}
    assert all(report.device(s).status == "additive" for s in spines)
    assert report.counts == {"unchanged": 64, "added": 40, "additive": 32, "disruptive": 0, "removed": 0}
    gained = _changes(report, "spine-01", "cable")
    assert gained and all(c.old is None and c.new.startswith("su3-leaf-") for c in gained)
    assert [(c.key, c.old, c.new) for c in report.fabric] == [("SU 3 name", None, "SU3")]
    assert not report.disruptive


def test_one_more_su_without_pinned_spines_recables_and_renumbers_the_old_leaves(superpod):
    report = designer.diff(*superpod["free"])
    assert report.disruptive
    assert all(report.device(f"su{s}-leaf-r{r}").status == "disruptive" for s in (1, 2) for r in range(8))
    lo = _changes(report, "su1-leaf-r0", "address")
    assert ("lo", "10.255.0.8/32", "10.255.0.16/32") in [(c.key, c.old, c.new) for c in lo]
    cables = {c.key: c for c in _changes(report, "su1-leaf-r0", "cable")}
    assert cables["Ethernet320"].old == "spine-01/Ethernet8" and cables["Ethernet320"].new == "spine-09/Ethernet0"
    assert cables["Ethernet320"].disruptive
    pins = {c.key: c for c in _changes(report, "su1-leaf-r0", "ppd")}
    assert pins["Ethernet64"].old.endswith("spine-01/Ethernet8") and pins["Ethernet64"].new.endswith("spine-09/Ethernet0")


def test_another_addressing_scheme_is_disruptive_and_shows_in_the_settings():
    old = designer.build(designer.spec("default", scheme="subnet-per-leaf"))
    new = designer.build(designer.spec("default", scheme="p2p31"))
    report = designer.diff(old, new)
    assert report.disruptive
    assert [(c.key, c.old, c.new, c.disruptive) for c in report.fabric] == \
        [("addressing.scheme", "subnet-per-leaf", "p2p31", True)]
    nic = [c for c in _changes(report, "su1-srv01", "address") if c.key == "nic0"]
    assert nic and nic[0].disruptive


def test_a_settings_change_alone_gates():
    old, new = _default(), _default()
    new.set_settings(dataclasses.replace(new.settings, description="grown"))
    report = designer.diff(old, new)
    assert report.counts["unchanged"] == 18 and report.disruptive
    assert [(c.key, c.old, c.new) for c in report.fabric] == [("description", "", "grown")]


def test_a_hand_changed_asn_is_disruptive_on_that_switch_only():
    old, new = _default(), _default()
    new.set_asn("su2-leaf-r1", 4200000999)
    report = designer.diff(old, new)
    assert [d.device for d in report.changed_devices()] == ["su2-leaf-r1"]
    entry = report.device("su2-leaf-r1")
    assert entry.status == "disruptive"
    assert [(c.kind, c.key, c.old, c.new) for c in entry.changes] == [("asn", "asn", old.asns["su2-leaf-r1"], 4200000999)]


def test_a_recabled_nic_is_disruptive_on_the_server_and_its_leaf():
    old, new = _default(), _default()
    new.move_nic("su1-srv01/nic0", "su1-leaf-r0", "Ethernet32")
    report = designer.diff(old, new)
    server = report.device("su1-srv01")
    assert server.status == "disruptive"
    assert [(c.kind, c.key, c.old, c.new) for c in server.changes] == \
        [("cable", "nic0", "su1-leaf-r0/Ethernet0", "su1-leaf-r0/Ethernet32")]
    leaf = {(c.kind, c.key): c for c in report.device("su1-leaf-r0").changes}
    assert leaf[("cable", "Ethernet0")].disruptive and leaf[("cable", "Ethernet0")].new is None
    assert not leaf[("cable", "Ethernet32")].disruptive and leaf[("cable", "Ethernet32")].old is None
    assert leaf[("ppd", "Ethernet0")].disruptive          # the pins follow the downlinks' order
    assert {d.device for d in report.changed_devices()} == {"su1-srv01", "su1-leaf-r0"}


def test_a_removed_server_is_removed_and_its_leaves_lose_a_cable():
    old, new = _default(), _default()
    new.remove_device("su2-srv04")
    report = designer.diff(old, new)
    assert report.device("su2-srv04").status == "removed" and report.disruptive
    for rail in range(4):
        leaf = report.device(f"su2-leaf-r{rail}")
        assert leaf.status == "disruptive"
        gone = [c for c in leaf.changes if c.kind == "cable"]
        assert [(c.old, c.new) for c in gone] == [(f"su2-srv04/nic{rail}", None)]
    assert report.counts["removed"] == 1 and report.counts["added"] == 0


def test_a_cable_on_a_free_port_is_additive_and_its_pin_is_a_gain():
    old, new = _default(), _default()
    old.disconnect(old.link_at("su1-leaf-r0/Ethernet24").id)      # the last downlink: no pin moves
    report = designer.diff(old, new)
    leaf = report.device("su1-leaf-r0")
    assert leaf.status == "additive"
    assert [(c.kind, c.key, c.old) for c in leaf.changes] == [("cable", "Ethernet24", None), ("ppd", "Ethernet24", None)]
    assert report.device("su1-srv04").status == "additive" and not report.disruptive


def test_a_breakout_is_additive_on_a_free_cage_and_disruptive_on_a_cabled_one():
    old, new = _default(), _default()
    new.set_breakout("su1-leaf-r0", 10, "4x100G")                  # cage 10 has no cable
    report = designer.diff(old, new)
    assert [(c.kind, c.key, c.old, c.new, c.disruptive) for c in report.device("su1-leaf-r0").changes] == \
        [("breakout", "cage 10", "1x400G", "4x100G", False)]
    assert report.device("su1-leaf-r0").status == "additive"

    new = _default()
    new.disconnect(new.link_at("su1-leaf-r0/Ethernet24").id)
    new.set_breakout("su1-leaf-r0", 4, "2x200G")                   # cage 4 held su1-srv04's cable
    entry = designer.diff(old, new).device("su1-leaf-r0")
    assert entry.status == "disruptive"
    assert ("breakout", "cage 4", True) in [(c.kind, c.key, c.disruptive) for c in entry.changes]


def test_pinning_is_a_gain_and_unpinning_a_loss():
    old, new = _default(), _default()
    new.set_address("su1-leaf-r0/svi", new.addresses["su1-leaf-r0/svi"], pinned=True)
    report = designer.diff(old, new)
    assert [(c.kind, c.key, c.old, c.new, c.disruptive) for c in report.device("su1-leaf-r0").changes] == \
        [("pin", "svi", None, True, False)]
    assert designer.diff(new, old).device("su1-leaf-r0").status == "disruptive"


def test_a_renamed_host_is_disruptive():
    old, new = _default(), _default()
    new.set_hostname("spine-02", "spine-b")
    entry = designer.diff(old, new).device("spine-02")
    assert [(c.kind, c.key, c.old, c.new, c.disruptive) for c in entry.changes] == \
        [("attribute", "hostname", "spine-02", "spine-b", True)]
