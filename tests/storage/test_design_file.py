"""Design files: golden files per preset, byte-stable round trips, atomic saves."""

import os
from pathlib import Path

import pytest

from designer.storage import dumps, load, loads, save
from designer.storage.presets import preset_names
from tests.conftest import preset_fabric

GOLDEN = Path(__file__).parent.parent / "data" / "designs"
# Regenerate after an intended change: UPDATE_GOLDEN=1 pytest tests/storage


@pytest.mark.parametrize("preset", preset_names())
def test_preset_design_matches_its_golden_file(preset):
    text = dumps(preset_fabric(preset))
    golden = GOLDEN / f"{preset}.fabric.yaml"
    if os.environ.get("UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.parametrize("preset", preset_names())
def test_load_then_save_gives_identical_bytes(preset, tmp_path):
    golden = GOLDEN / f"{preset}.fabric.yaml"
    out = tmp_path / "x.fabric.yaml"
    save(load(golden), out)
    assert out.read_bytes() == golden.read_bytes()


def test_edits_survive_a_round_trip(default_fabric):
    f = default_fabric
    f.set_hostname("su1-srv01", "gpu-a01")
    f.set_nic_names("su1-srv01/nic2", "ens9np0", "mlx5_7")
    f.move_nic("su1-srv01/nic0", "su1-leaf-r1")
    f.set_address("su1-srv01/nic1", "10.1.0.6/29", pinned=True)
    f.set_asn("spine-01", 65001, pinned=True)
    f.set_gid_index("su1-srv02", 5)
    g = loads(dumps(f))
    assert dumps(g) == dumps(f)
    assert g.servers["su1-srv01"].hostname == "gpu-a01"
    assert g.nic("su1-srv01/nic2").netdev == "ens9np0"
    assert g.is_pinned("su1-srv01/nic1") and g.is_pinned("spine-01/asn")
    assert g.peer("su1-srv01/nic0").startswith("su1-leaf-r1/")
    assert g.servers["su1-srv02"].gid_index == 5 and g.servers["su1-srv01"].gid_index is None


def test_custom_models_travel_inside_the_file(tmp_path, default_fabric):
    from dataclasses import replace
    from designer.model import Catalog
    model = replace(default_fabric.catalog.servers["gpu-4x400g"], id="my-box", builtin=False)
    catalog = default_fabric.catalog.merged(Catalog(servers={"my-box": model}))
    from designer.planning.build import build
    from designer.storage.presets import load_preset
    fabric = build(load_preset("default").spec(server_model="my-box"), catalog)
    text = dumps(fabric)
    assert "models:" in text and "id: my-box" in text
    assert dumps(loads(text)) == text            # loads with only the bundled catalog


def test_failed_save_leaves_the_old_file_untouched(tmp_path, default_fabric, monkeypatch):
    target = tmp_path / "d.fabric.yaml"
    save(default_fabric, target)
    before = target.read_bytes()
    default_fabric.set_hostname("su1-srv01", "renamed")

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", boom)
    from designer.storage import FileFormatError
    with pytest.raises(FileFormatError, match="cannot be written: No space left on device"):
        save(default_fabric, target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["d.fabric.yaml"]       # no temp file left behind


def test_saving_into_a_missing_folder_is_a_readable_error(tmp_path, default_fabric):
    from designer.storage import FileFormatError
    with pytest.raises(FileFormatError, match="cannot be written: No such file or directory"):
        save(default_fabric, tmp_path / "nope" / "d.fabric.yaml")
