"""Planning for the final size and growing (issue 17): growing a planned design only adds, gives the
design `new` builds at the new size, and leaves every existing device's switch and host files as they
were or with added lines only; growth that cannot be additive is refused with what would change."""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import designer
from designer.storage.design_file import dumps, loads


def planned(preset, sus, final, **extra):
    return designer.build(designer.spec(preset, sus=sus, final_sus=final, **extra))


def only_added_lines(path: str, old: str, new: str) -> bool:
    """Every line of ``old`` is still in ``new``; a JSON file is compared as the data it holds (some
    objects are written on one line, which then gains keys): every old key keeps its value, and every
    old list item is still in its list. A switch port that was admin down may come up."""
    if path.endswith(".json"):
        before = json.loads(old)
        if path.endswith("config_db.json"):     # a port that was down carried nothing: bringing it up adds
            before["PORT"] = {k: v for k, v in before.get("PORT", {}).items() if v.get("admin_status") != "down"}
        return only_added(before, json.loads(new))
    return not Counter(old.splitlines()) - Counter(new.splitlines())


def only_added(old, new) -> bool:
    if isinstance(old, dict):
        return isinstance(new, dict) and all(k in new and only_added(v, new[k]) for k, v in old.items())
    if isinstance(old, list):
        return isinstance(new, list) and not Counter(map(json.dumps, old)) - Counter(map(json.dumps, new))
    return old == new


def assert_existing_files_only_gain(old, new, devices):
    changed = []
    for device in devices:
        before, after = designer.render_device(old, device), designer.render_device(new, device)
        assert set(before) <= set(after), f"{device} lost files: {sorted(set(before) - set(after))}"
        changed += [path for path, text in before.items() if not only_added_lines(path, text, after[path])]
    assert changed == []


def test_a_planned_design_is_sized_for_its_final_size_and_holds_only_what_is_asked():
    small, whole = planned("superpod-su", 2, 8), designer.build(designer.spec("superpod-su", sus=8))
    assert len(small.servers) == 64 and len(small.leaves()) == 16
    assert [s.id for s in small.spines()] == [s.id for s in whole.spines()]      # 32 spines for 8 SUs, not 8
    assert all(whole.addresses[k] == v for k, v in small.addresses.items())     # placed as the whole design has them
    assert all(whole.asns[k] == v for k, v in small.asns.items())
    assert set(small.links) <= set(whole.links)
    assert [f.code for f in designer.check(small)] == ["RD050"]                  # clean, with the growth note


def test_growing_superpod_2_to_3_to_8_changes_no_existing_file_but_by_added_lines():
    fabric = planned("superpod-su", 2, 8)
    before = loads(dumps(fabric))
    result = designer.grow(fabric, 3)
    assert result.fabric is fabric and len(result.added) == 8 + 32 and result.cables == 256 + 256
    assert dumps(fabric) == dumps(planned("superpod-su", 3, 8))                  # as `new --sus 3` builds it
    spines = [s.id for s in before.spines()]
    assert_existing_files_only_gain(before, fabric, spines + [l.id for l in before.leaves()]
                                    + ["su1-srv01", "su2-srv32"])
    report = designer.diff(before, fabric)
    assert not report.disruptive and report.counts["disruptive"] == 0 and report.counts["added"] == 40
    three = loads(dumps(fabric))
    designer.grow(fabric, 8)
    assert not designer.diff(three, fabric).disruptive
    assert dumps(fabric) == dumps(planned("superpod-su", 8, 8))
    assert_existing_files_only_gain(three, fabric, spines + ["su1-leaf-r0", "su3-leaf-r7", "su3-srv32"])


def test_growing_the_three_tier_b200_pod_16_to_32_sus_only_adds():
    fabric = planned("b200-superpod", 16, 32)
    before = loads(dumps(fabric))
    result = designer.grow(fabric, 32)
    assert len(result.added) == 16 * 8 + 16 * 32 + 4 * 32                       # leaves, servers, 4 spine groups
    assert dumps(fabric) == dumps(planned("b200-superpod", 32, 32))
    cores = [c.id for c in before.cores()]
    assert cores == [c.id for c in fabric.cores()]                              # cores were there from the start
    assert not designer.diff(before, fabric).disruptive
    switches = cores[:4] + [s.id for s in before.spines()][:4] + ["su1-leaf-r0", "su16-leaf-r7"]
    assert_existing_files_only_gain(before, fabric, switches + ["su16-srv32"])


# Presets and small shapes: every scheme, a spine plane per rail, two fabric planes, three tiers.
SHAPES = {
    "default": {},
    "superpod-su": {"servers_per_su": 4},
    "rail-optimized-64x4": {"servers_per_su": 8, "spines": 2},
    "twin-plane-800g": {"servers_per_su": 4},
    "b200-superpod": {"servers_per_su": 4, "core_tier": "on", "sus_per_group": 2},
    "rail-only-32x4": {"servers_per_su": 8},
}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(SHAPES)), sizes=st.lists(st.integers(1, 4), min_size=3, max_size=3, unique=True))
def test_growing_from_n_to_m_gives_the_design_new_builds_at_m(preset, sizes):
    n, m, final = sorted(sizes)
    fabric = planned(preset, n, final, **SHAPES[preset])
    designer.grow(fabric, m)
    assert dumps(fabric) == dumps(planned(preset, m, final, **SHAPES[preset]))


def test_growing_puts_back_a_planned_cable_and_address_the_design_lost():
    # grow looks only at what the design lacks (set differences against the reference): a cable taken
    # out and an address cleared by hand are among those, and come back as the plan has them
    fabric = planned("superpod-su", 1, 3, servers_per_su=4)
    link = fabric.link_at("su1-leaf-r0/Ethernet0")
    fabric.disconnect(link.id)
    fabric.set_address("su1-leaf-r1/lo", None)
    designer.grow(fabric, 2)
    assert dumps(fabric) == dumps(planned("superpod-su", 2, 3, servers_per_su=4))


def test_servers_added_to_a_partly_filled_su_go_where_the_plan_put_them():
    fabric = planned("superpod-su", 2, 2, servers_per_su=16, final_servers_per_su=32)
    assert len(fabric.servers) == 32 and "RD050" in [f.code for f in designer.check(fabric)]
    designer.grow(fabric, servers_per_su=32)
    assert dumps(fabric) == dumps(planned("superpod-su", 2, 2, servers_per_su=32, final_servers_per_su=32))


def test_assign_on_a_planned_design_changes_nothing_and_a_hand_added_server_is_placed_around_the_plan():
    fabric = planned("default", 1, 4)
    text = dumps(fabric)
    designer.assign(fabric)
    assert dumps(fabric) == text


def test_the_plan_survives_saving_and_loading(tmp_path):
    fabric = planned("twin-plane-800g", 1, 3, servers_per_su=4)
    designer.save(fabric, tmp_path / "t.fabric.yaml")
    again = designer.load(tmp_path / "t.fabric.yaml")
    assert again.settings.growth == fabric.settings.growth and dumps(again) == dumps(fabric)
    designer.grow(again, 2)
    assert dumps(again) == dumps(planned("twin-plane-800g", 2, 3, servers_per_su=4))


def test_growth_past_the_plan_is_refused_naming_what_renumbers_and_done_only_when_allowed():
    fabric = planned("superpod-su", 2, 2)
    text = dumps(fabric)
    with pytest.raises(designer.NotAdditive) as refused:
        designer.grow(fabric, 3)
    assert "planned for 2 SUs of 32 servers" in refused.value.problems[0]
    assert "need other spines, cores or spine ports" in refused.value.problems[0]
    assert any(line.startswith("su1-leaf-r0: ") for line in refused.value.problems[1:])
    assert dumps(fabric) == text                                               # nothing changed
    result = designer.grow(fabric, 3, allow_renumber=True)
    assert result.fabric is not fabric and "su1-leaf-r0" in " ".join(result.renumbered)
    report = designer.diff(fabric, result.fabric)
    assert report.disruptive and report.device("su1-leaf-r0").status == "disruptive"
    assert dumps(result.fabric) == dumps(designer.build(designer.spec("superpod-su", sus=3, final_sus=3)))


def test_the_top_tier_of_the_final_size_is_there_from_the_first_su_and_spine_groups_come_with_their_sus():
    two_tier, two_tier_final = planned("superpod-su", 2, 8), designer.build(designer.spec("superpod-su", sus=8))
    assert [d.id for d in two_tier.spines()] == [d.id for d in two_tier_final.spines()] and two_tier.spines()
    three_tier = planned("b200-superpod", 16, 32)
    three_tier_final = designer.build(designer.spec("b200-superpod", sus=32))
    assert [d.id for d in three_tier.cores()] == [d.id for d in three_tier_final.cores()] and three_tier.cores()
    groups = {d.group for d in three_tier.spines()}
    assert groups < {d.group for d in three_tier_final.spines()}
    assert groups == {l.group for l in three_tier.leaves()}                 # a spine group per SU group built


def test_a_design_without_a_plan_grows_where_its_spines_have_room_and_refuses_where_not():
    roomy = designer.build(designer.spec("superpod-su", sus=2, spines=16))
    assert "up to 4 SUs" in [f for f in designer.check(roomy) if f.code == "RD050"][0].message
    designer.grow(roomy, 3)
    assert dumps(roomy) == dumps(designer.build(designer.spec("superpod-su", sus=3, spines=16)))
    full = designer.build(designer.spec("superpod-su", sus=2))
    with pytest.raises(designer.NotAdditive) as refused:
        designer.grow(full, 3)
    assert "short by 32 ports" in refused.value.problems[0]
    assert any(line.startswith("spine-01: ") for line in refused.value.problems[1:])


def test_grow_refuses_to_shrink():
    with pytest.raises(designer.PlanningError, match="grow only adds"):
        designer.grow(planned("default", 2, 4), 1)


def test_a_preset_planned_past_a_scale_step_takes_the_step_of_its_final_size():
    spec = designer.spec("superpod-su", sus=2, final_sus=65)
    assert spec.fabric_pool == designer.spec("superpod-su", sus=65).fabric_pool != designer.spec("superpod-su").fabric_pool
    with pytest.raises(designer.PlanningError, match="at most 256 SUs"):
        designer.spec("superpod-su", sus=2, final_sus=300)
