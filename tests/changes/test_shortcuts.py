"""The design diff takes shortcuts (cables compared by id, PPD pin maps recomputed only for leaves whose
cables or neighbours changed, tables compared as sets): over random edits made through the Fabric API
(the fuzzer's), it finds exactly what comparing every cable end and every leaf's whole pin map finds."""

import random

import pytest

import designer
from designer.planning.ppd import ppd_plan
from fuzz.edits import edits


def _pins(fabric):
    return {leaf: {b.downlink: f"{b.uplink} -> {b.spine}/{b.spine_port}" for b in plan.bindings}
            for leaf, plan in ppd_plan(fabric).items()}


def _ends(fabric):
    """Every cable end -> the end at its other side."""
    return {end: link.other(end) for link in fabric.links.values() for end in (link.a, link.b)}


def _differences(old: dict, new: dict):
    return {(key, old.get(key), new.get(key)) for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


@pytest.mark.parametrize("seed", range(40))
def test_the_shortcuts_miss_nothing_a_full_comparison_finds(seed):
    rng = random.Random(seed)
    old, new = designer.build(designer.spec("default")), designer.build(designer.spec("default"))
    edits(new, rng, rng.randint(1, 8))
    report = designer.diff(old, new)
    both = (old.servers.keys() | old.switches.keys()) & (new.servers.keys() | new.switches.keys())

    found = {(d.device, c.key, c.old, c.new) for d in report.devices for c in d.changes if c.kind == "cable"}
    expected = {(end.partition("/")[0], end.partition("/")[2], before, after)
                for end, before, after in _differences(_ends(old), _ends(new)) if end.partition("/")[0] in both}
    assert found == expected

    old_pins, new_pins = _pins(old), _pins(new)
    for leaf in old_pins.keys() & new_pins.keys():
        got = {(c.key, c.old, c.new) for c in report.device(leaf).changes if c.kind == "ppd"}
        assert got == _differences(old_pins[leaf], new_pins[leaf]), leaf
