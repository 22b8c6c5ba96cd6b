"""Design files of three-tier and multi-plane designs: byte-stable round trips and readable refusals."""

from __future__ import annotations

from dataclasses import replace

import pytest

from designer.model import Catalog, Role
from designer.planning.build import build
from designer.storage import FileFormatError, dumps, loads
from designer.storage.presets import load_preset
from tests.conftest import preset_fabric


@pytest.fixture(scope="module")
def three_tier_text():
    return dumps(preset_fabric("b200-superpod", sus=16, spine_oversubscription=1.5, core_asn=65100))


@pytest.fixture(scope="module")
def twin_text():
    return dumps(preset_fabric("twin-plane-800g", servers_per_su=4))


def test_three_tier_design_round_trips_byte_for_byte(three_tier_text):
    f = loads(three_tier_text)
    assert dumps(f) == three_tier_text
    core = f.switches["cg7-core-02"]
    assert (core.role, core.group, core.su, core.rail) == (Role.CORE, 7, None, None)
    assert f.switches["sg3-spine-11"].group == 3 and f.switches["su9-leaf-r5"].group == 3
    assert f.settings.max_spine_oversubscription == 1.5 and f.settings.core_asn == 65100
    assert f.asns["cg1-core-01"] == 65100 and f.settings.asn.spine_mode == "shared"


def test_new_keys_are_written_only_when_used(three_tier_text, twin_text):
    two_tier = dumps(preset_fabric("superpod-su"))
    for key in ("group:", "fabric_plane:", "max_spine_oversubscription", "fabric_planes", "core_asn"):
        assert key not in two_tier
    assert "role: core" in three_tier_text and "  group: 4\n" in three_tier_text
    assert "core_asn: 65100" in three_tier_text and "fabric_plane" not in three_tier_text
    assert "fabric_planes: 2" in twin_text and "  fabric_plane: 1\n" in twin_text


def test_twin_plane_design_round_trips_and_keeps_the_nic_planes(twin_text):
    f = loads(twin_text)
    assert dumps(f) == twin_text
    assert [(n.index, n.rail, n.fabric_plane) for n in f.servers["su1-srv02"].nics][:4] == \
        [(0, 0, 0), (1, 0, 1), (2, 1, 0), (3, 1, 1)]
    assert "nics:" not in twin_text        # every port on its model's default rail and plane: nothing to write


def test_a_custom_multi_plane_model_travels_inside_the_file():
    base = preset_fabric("default").catalog
    model = replace(base.servers["b300-8x800g-twin-plane"], id="my-twin", builtin=False)
    fabric = build(load_preset("twin-plane-800g").spec(server_model="my-twin", servers_per_su=2),
                   base.merged(Catalog(servers={"my-twin": model})))
    text = dumps(fabric)
    assert "id: my-twin" in text and "fabric_plane: 1}" not in text and "fabric_plane: 1\n" in text
    assert dumps(loads(text)) == text


@pytest.mark.parametrize("old, new, message", [
    ("  role: core\n", "  role: super\n", r"role: 'super' is not one of: leaf, spine, core"),
    ("  group: 4\n", "  group: 0\n", r"switches\[\d+\]\.group: 0 is out of range: use 1 to"),
    ("  spine_mode: shared\n", "  spine_mode: per-pod\n", r"spine_mode: 'per-pod' is not one of: .*per-group"),
    ("  core_asn: 65100\n", "  core_asn: many\n", r"settings.asn.core_asn: should be a whole number"),
])
def test_bad_tier_fields_are_one_located_message(three_tier_text, old, new, message):
    assert old in three_tier_text
    with pytest.raises(FileFormatError, match=message) as info:
        loads(three_tier_text.replace(old, new, 1), "pod.yaml")
    assert str(info.value).startswith("pod.yaml:") and "\n" not in str(info.value)


@pytest.mark.parametrize("old, new, message", [
    ("  fabric_planes: 2\n", "  fabric_planes: 0\n", r"settings\.fabric_planes: 0 is out of range: use 1 to 8"),
    ("  fabric_plane: 1\n", "  fabric_plane: -1\n", r"switches\[\d+\]\.fabric_plane: -1 is out of range: use 0 to 7"),
])
def test_bad_plane_fields_are_one_located_message(twin_text, old, new, message):
    with pytest.raises(FileFormatError, match=message):
        loads(twin_text.replace(old, new, 1), "twin.yaml")


def test_a_server_model_with_a_gap_in_its_planes_is_refused():
    base = preset_fabric("default").catalog
    model = replace(base.servers["gpu-4x400g"], id="gappy", builtin=False)
    fabric = build(load_preset("default").spec(server_model="gappy"), base.merged(Catalog(servers={"gappy": model})))
    text = dumps(fabric).replace("rdma: mlx5_3\n", "rdma: mlx5_3\n      fabric_plane: 2\n", 1)
    with pytest.raises(FileFormatError, match=r"NIC ports go to planes 0, 2: number the planes from 0 without gaps"):
        loads(text, "gap.yaml")
