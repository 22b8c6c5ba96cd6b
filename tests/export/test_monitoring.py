"""Prometheus file_sd targets: one per device, string labels su/rail/role/hostname, deterministic."""

from __future__ import annotations

import json

from designer.export.monitoring import PARTS

from tests.export.helpers_hosts import fabric

MONITORING = PARTS[0]
FILE = "monitoring/prometheus-targets.json"


def test_every_device_has_one_target_with_string_labels():
    f = fabric("default")
    entries = json.loads(MONITORING.render_global(f)[FILE])
    names = [e["labels"]["hostname"] for e in entries]
    assert sorted(names) == sorted(d.hostname for d in [*f.servers.values(), *f.switches.values()])
    for entry in entries:
        assert entry["targets"] == [f"{entry['labels']['hostname']}:9100"]
        assert set(entry["labels"]) == {"hostname", "role", "su", "rail"}
        assert all(isinstance(v, str) for v in entry["labels"].values())
    by_name = {e["labels"]["hostname"]: e["labels"] for e in entries}
    assert by_name["su2-leaf-r3"] == {"hostname": "su2-leaf-r3", "role": "leaf", "su": "2", "rail": "3"}
    assert by_name["su1-srv01"]["rail"] == "0,1,2,3" and by_name["su1-srv01"]["role"] == "gpu_server"
    assert by_name["spine-01"]["su"] == "1,2"


def test_per_rail_spine_planes_label_the_plane():
    f = fabric("superpod-su", sus=2, spine_planes="per-rail")
    labels = {e["labels"]["hostname"]: e["labels"] for e in json.loads(MONITORING.render_global(f)[FILE])}
    spines = [s for s in f.spines()]
    assert spines and all(labels[s.hostname]["rail"] == str(s.plane) for s in spines)


def test_render_is_deterministic():
    assert MONITORING.render_global(fabric("rail-optimized-64x4")) == MONITORING.render_global(fabric("rail-optimized-64x4"))
