"""Property: a scene that answers each model event at the keys it names (`events.Touched`) ends up
with the same items, in the same places, as a scene built afresh on the edited design."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from designer.model.errors import ModelError
from designer.planning.build import build
from designer.planning.errors import PlanningError
from designer.storage.presets import load_preset
from tests.checks.test_incremental import CATALOG, PRESETS, _edit, edits


def _look(scene):
    f = scene.fabric
    return ({d: (scene._shown[d], item.pos().toTuple(), item.isVisible()) for d, item in scene.devices.items()},
            {n: item.rail for n, item in scene.nics.items()},
            {l: (item.line().toTuple(), item.rail, item.cross_rail) for l, item in scene.links.items()},
            sorted(f.links) == sorted(scene.links), sorted({*f.servers, *f.switches}) == sorted(scene.devices))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(steps=edits)
def test_scene_follows_events_as_a_fresh_scene_would(qapp, steps):
    from designer.gui.scene import FabricScene
    f = build(load_preset("superpod-su").spec(**PRESETS["superpod-su"]), CATALOG)
    scene = FabricScene(f)
    for op, n, m in steps:
        try:
            _edit(f, op, n, m)
        except (ModelError, PlanningError):
            pass
    fresh = FabricScene(f)
    assert _look(scene) == _look(fresh)
    scene.detach(), fresh.detach()
