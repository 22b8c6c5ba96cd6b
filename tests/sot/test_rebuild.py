"""The pull's rebuild, offline: what a push would write, read back as a design, equals the design (for
presets with breakouts, three tiers, two planes, a floor), and the push's change list is computed right."""

from __future__ import annotations

import pytest

import designer
from tests.sot.designs import free_cage
from designer.changes.design_diff import diff_designs
from designer.sot.changes import CREATE, DELETE, UPDATE, compare, summary
from designer.sot.desired import desired
from designer.sot.errors import SotError
from designer.sot.rebuild import design_text
from designer.storage.design_file import loads

PRESETS = ["default", "superpod-su", "b200-superpod", "twin-plane-800g", "superpod-h100-ib"]


def _rebuilt(fabric):
    state = desired(fabric)
    links = [(c["a"], c["b"]) for c in state.objects["cable"].values()]
    return loads(design_text(fabric.settings.name, state.objects, links, "test"), "pulled")


@pytest.mark.parametrize("preset", PRESETS)
def test_what_a_push_writes_rebuilds_the_design(preset):
    fabric = designer.build(designer.spec(preset, sus=2))
    report = diff_designs(fabric, _rebuilt(fabric))
    assert not report.changed, [d.as_dict() for d in report.changed_devices()][:3]


def test_breakouts_pins_and_asns_come_back():
    fabric = designer.build(designer.spec("default", sus=2, servers_per_su=2))
    cage = free_cage(fabric, "su1-leaf-r0")
    fabric.set_breakout("su1-leaf-r0", cage, "2x200G")
    fabric.set_asn("su1-leaf-r0", 4200000999, pinned=True)
    key = next(k for k in fabric.addresses if k.startswith("su1-srv01/"))
    fabric.set_address(key, fabric.addresses[key], pinned=True)
    state = desired(fabric)
    assert state.objects["interface"][f"su1-leaf-r0/etp{cage}"]["parent"] is None
    subs = [i for i in state.objects["interface"].values() if i["parent"] == f"etp{cage}"]
    assert len(subs) == 2
    assert not diff_designs(fabric, _rebuilt(fabric)).changed


def test_one_moved_cable_is_exactly_one_change():
    fabric = designer.build(designer.spec("default", sus=2, servers_per_su=2))
    want = desired(fabric)
    have = desired(fabric)
    owned = {kind: set(objects) for kind, objects in have.objects.items()}
    assert summary(compare(want, have, owned)) == "0 changes"
    cable = next(iter(have.objects["cable"]))
    have.objects["cable"][cable] = {**have.objects["cable"][cable], "b": "su1-leaf-r0/Ethernet999"}
    changes = compare(want, have, owned)
    assert [(c.action, c.kind, c.key) for c in changes] == [(UPDATE, "cable", cable)]
    assert changes[0].fields[0][0] == "b"


def test_owned_objects_the_design_lost_are_deleted_and_others_never():
    fabric = designer.build(designer.spec("default", sus=2, servers_per_su=2))
    want, have = desired(fabric), desired(fabric)
    have.objects["device"]["old-box"] = {"role": "spine"}
    have.objects["device"]["someone-elses"] = {"role": "spine"}
    owned = {kind: set(objects) - {"someone-elses"} for kind, objects in have.objects.items()}
    changes = compare(want, have, owned)
    assert [(c.action, c.key) for c in changes] == [(DELETE, "old-box")]
    del have.objects["device"]["su1-srv01"]
    assert (CREATE, "su1-srv01") in [(c.action, c.key) for c in compare(want, have, owned)]


def test_an_object_in_the_way_that_is_not_ours_is_refused():
    fabric = designer.build(designer.spec("default", sus=2, servers_per_su=2))
    want, have = desired(fabric), desired(fabric)
    owned = {kind: set(objects) for kind, objects in have.objects.items()}
    owned["device"].discard("su1-srv01")
    with pytest.raises(SotError, match="device su1-srv01 is already on the server and was not created by"):
        compare(want, have, owned)
