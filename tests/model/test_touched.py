"""Property: the events of any edit sequence name every key it changed (`events.Touched`), so a
listener that compares only those keys misses nothing; and `plan_of`'s index agrees with a scan."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from designer.model import events as ev
from designer.model.errors import ModelError
from designer.planning.build import build
from designer.planning.errors import PlanningError
from designer.storage.presets import load_preset
from tests.checks.test_incremental import CATALOG, PRESETS, _edit, edits


def _state(f):
    return ({**f.servers, **f.switches}, dict(f.links), dict(f.addresses), dict(f.asns), f.pinned)


def _changed(old: dict, new: dict) -> set:
    return {k for k in old.keys() | new.keys() if old.get(k) is not new.get(k) and old.get(k) != new.get(k)}


def _scan(f, device_id):
    return {k: (v, f.is_pinned(k)) for k, v in f.addresses.items() if k.startswith(device_id + "/")}


@pytest.mark.parametrize("preset", ["default", "superpod-su"])
@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=edits)
def test_events_name_every_key_an_edit_changed(preset, steps):
    f = build(load_preset(preset).spec(**PRESETS[preset]), CATALOG)
    f.plan_of(sorted(f.switches)[0])                 # the index built first, so each edit must keep it
    seen: list = []
    f.subscribe(seen.append)
    for op, n, m in steps:
        before, seen[:] = _state(f), []
        try:
            _edit(f, op, n, m)
        except (ModelError, PlanningError):
            pass
        touched = ev.Touched()
        for event in seen:
            touched.add(event)
        assert all(e.kind != ev.RESET or e.parts for e in seen), "a batch with a listener records what it folded"
        if touched.everything:
            continue
        devices, links, addresses, asns, pinned = before
        after = _state(f)
        assert _changed(devices, after[0]) <= touched.devices, op
        assert _changed(links, after[1]) <= touched.links, op
        if not touched.plan_all:
            assert _changed(addresses, after[2]) | _changed(asns, after[3]) <= touched.plan, op
            pins = {k.removesuffix("/asn") if k.endswith("/asn") else k for k in pinned ^ after[4]}
            assert pins <= touched.plan, op
        for device_id in sorted({*f.servers, *f.switches})[:: max(1, len(f.switches) // 7)]:
            assert f.plan_of(device_id)[0] == _scan(f, device_id)


def test_a_batch_without_listeners_records_nothing():
    f = build(load_preset("default").spec(), CATALOG)
    with f.batch():
        f.disconnect(next(iter(f.links)))
    assert f._folded is None
    seen: list = []
    f.subscribe(seen.append)
    link = next(iter(f.links.values()))
    with f.batch():
        f.disconnect(link.id)
        f.connect(link.a, link.b)
    assert [e.kind for e in seen] == [ev.RESET]
    assert [(p.kind, p.ids) for p in seen[0].parts] == [(ev.LINK_REMOVED, (link.id,)), (ev.LINK_ADDED, (link.id,))]
