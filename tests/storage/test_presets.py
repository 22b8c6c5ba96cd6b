"""Presets grow with --sus: their scale steps size the spines, tiers and pools for every SU count they
accept, and a count past the largest is refused naming that size and the flag."""

import pytest

from designer.cli import main
from designer.planning.errors import PlanningError
from designer.planning.spec import size
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset, preset_names

CATALOG = builtin_catalog()


@pytest.mark.parametrize("name", preset_names())
def test_every_su_count_a_preset_accepts_sizes_without_a_problem(name):
    preset = load_preset(name)
    assert preset.max_sus, f"{name} says how many SUs it builds at most"
    short = {sus: size(preset.spec(sus=sus), CATALOG).problems for sus in range(1, preset.max_sus + 1)}
    assert {sus: p[0] for sus, p in short.items() if p} == {}


@pytest.mark.parametrize("name", preset_names())
def test_one_su_past_the_largest_is_refused_naming_the_largest_and_the_flag(name):
    preset = load_preset(name)
    with pytest.raises(PlanningError) as refused:
        preset.spec(sus=preset.max_sus + 1)
    assert f"--sus {preset.max_sus}" in str(refused.value) and name in str(refused.value)
    # with another server count the preset's own bound is not claimed: the sizing judges it
    assert preset.spec(sus=preset.max_sus + 1, servers_per_su=1).sus == preset.max_sus + 1


def test_a_scale_step_applies_from_its_su_count_and_a_given_parameter_wins():
    preset = load_preset("superpod-su")
    assert preset.spec(sus=64).fabric_pool == "10.254.0.0/16"       # BuildSpec's own, which the preset keeps
    assert preset.spec(sus=65).fabric_pool == "10.248.0.0/14"
    assert preset.spec(sus=65, fabric_pool="10.200.0.0/14").fabric_pool == "10.200.0.0/14"
    default = load_preset("default")
    assert default.spec(sus=4).spines == 2 and default.spec(sus=5).spines is None


def test_superpod_su_at_32_sus_builds_and_validates(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    assert main(["new", "--preset", "superpod-su", "--sus", "32", "-o", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1024 servers" in out and "cores" in out
    assert main(["validate", str(path)]) == 0
    assert " 0 errors" in capsys.readouterr().out


def test_superpod_su_past_its_largest_size_exits_2_with_the_size_to_use(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    assert main(["new", "--preset", "superpod-su", "--sus", "300", "-o", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--sus 256" in err and "Traceback" not in err and not path.exists()


def test_a_bad_scale_step_is_reported_with_its_line(tmp_path, monkeypatch):
    from designer.storage import presets
    from designer.storage.yamlio import FileFormatError
    (tmp_path / "odd.yaml").write_text("description: x\nparameters: {sus: 1}\nscale:\n  - sus: 2\n"
                                       "    parameters: {spinez: 3}\n", encoding="utf-8")
    monkeypatch.setattr(presets, "_preset_dir", lambda: tmp_path)
    with pytest.raises(FileFormatError) as bad:
        presets.load_preset("odd")
    assert "spinez" in str(bad.value) and "odd.yaml:5:" in str(bad.value)
