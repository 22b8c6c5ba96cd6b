"""The command line, run in-process through designer.cli.main (the console script's entry point)."""

import json

import pytest

from designer.cli import main
from designer.storage import load, save


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_then_validate_is_clean(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    code, out, _ = run(capsys, "new", "--preset", "superpod-su", "--sus", "4", "-o", str(path))
    assert code == 0 and "32 leaves" in out and "1024 server-leaf and 1024 leaf-spine cables" in out
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "0 errors" in out


def test_cross_rail_nic_fails_validation_naming_nic_rail_and_leaf(tmp_path, capsys):
    path = tmp_path / "d.fabric.yaml"
    run(capsys, "new", "-o", str(path))
    fabric = load(path)
    fabric.move_nic("su1-srv02/nic2", "su1-leaf-r1")
    save(fabric, path)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    line = next(l for l in out.splitlines() if "RD004" in l)
    assert "su1-srv02/nic2" in line and "rail 2" in line and "su1-leaf-r1" in line


def test_validate_json_lists_findings(tmp_path, capsys):
    path = tmp_path / "d.fabric.yaml"
    run(capsys, "new", "--leaf-uplinks", "2", "-o", str(path))
    code, out, _ = run(capsys, "validate", str(path), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["counts"]["error"] >= 1
    assert any(f["code"] == "RD001" and "2.00:1, allowed 1:1" in f["message"] for f in data["findings"])


def test_malformed_file_exits_2_with_one_message(tmp_path, capsys):
    path = tmp_path / "bad.fabric.yaml"
    path.write_text("format_version: 1\nservers: {oops\n")
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "bad.fabric.yaml:" in err and "Traceback" not in err


def test_impossible_parameters_say_what_is_short(tmp_path, capsys):
    code, _, err = run(capsys, "new", "--preset", "superpod-su", "--sus", "12", "--core-tier", "off",   # one tier of spines
                       "-o", str(tmp_path / "x.yaml"))
    assert code == 2 and "short by 16 uplinks" in err
    assert not (tmp_path / "x.yaml").exists()


def test_new_does_not_overwrite_without_force(tmp_path, capsys):
    path = tmp_path / "d.fabric.yaml"
    path.write_text("mine")
    code, _, err = run(capsys, "new", "-o", str(path))
    assert code == 2 and "--force" in err and path.read_text() == "mine"


def test_unknown_preset_lists_the_presets(tmp_path, capsys):
    code, _, err = run(capsys, "new", "--preset", "nope", "-o", str(tmp_path / "x.yaml"))
    assert code == 2 and "rail-only-32x4" in err


def test_assign_replans_and_keeps_pins(tmp_path, capsys):
    path = tmp_path / "d.fabric.yaml"
    run(capsys, "new", "-o", str(path))
    fabric = load(path)
    fabric.set_address("su1-srv01/nic0", "10.0.0.6/29", pinned=True)
    fabric.set_address("su1-srv02/nic0", None)
    save(fabric, path)
    code, out, _ = run(capsys, "assign", str(path))
    fabric = load(path)
    assert code == 0
    assert fabric.addresses["su1-srv01/nic0"] == "10.0.0.6/29"
    assert "su1-srv02/nic0" in fabric.addresses


@pytest.mark.parametrize("argv", [["--help"], ["new", "--help"], ["validate", "--help"]])
def test_help_explains_parameters(argv, capsys):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 0
    assert "usage: rail-designer" in capsys.readouterr().out


def test_unwritable_output_is_one_message_not_a_traceback(tmp_path, capsys):
    code, _, err = run(capsys, "new", "-o", str(tmp_path / "missing-folder" / "d.fabric.yaml"))
    assert code == 2 and "cannot be written" in err and "Traceback" not in err


def test_new_with_a_user_catalog_embeds_the_custom_model(tmp_path, capsys):
    models = tmp_path / "mine.yaml"
    models.write_text(
        "server_models:\n"
        "  - id: my-2gpu\n    gpus: 2\n    nics:\n"
        "      - {index: 0, netdev: eth2, rdma: mlx5_0, speed: 400, gpus: [0]}\n"
        "      - {index: 1, netdev: eth3, rdma: mlx5_1, speed: 400, gpus: [1]}\n")
    path = tmp_path / "d.fabric.yaml"
    code, out, _ = run(capsys, "new", "--catalog", str(models), "--server-model", "my-2gpu", "-o", str(path))
    assert code == 0 and "2 rails" in out
    code, _, _ = run(capsys, "validate", str(path))          # no --catalog: the model travels in the file
    assert code == 0 and "id: my-2gpu" in path.read_text()


def test_bad_user_catalog_names_file_and_line(tmp_path, capsys):
    models = tmp_path / "mine.yaml"
    models.write_text("server_models:\n  - id: x\n    gpus: two\n")
    code, _, err = run(capsys, "new", "--catalog", str(models), "-o", str(tmp_path / "d.yaml"))
    assert code == 2 and "mine.yaml:3: server_models[0].gpus: should be a whole number" in err


def test_gui_without_a_display_says_so_instead_of_aborting(monkeypatch, capsys):
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    code, _, err = run(capsys)                       # no command: the window
    assert code == 2 and "no display" in err and "xvfb-run" in err


def test_display_check_accepts_x_wayland_or_a_chosen_qt_platform():
    from designer.cli.gui import display_problem
    assert display_problem({"DISPLAY": ":0"}, "linux") is None
    assert display_problem({"WAYLAND_DISPLAY": "wayland-0"}, "linux") is None
    assert display_problem({"QT_QPA_PLATFORM": "offscreen"}, "linux") is None
    assert display_problem({}, "darwin") is None
    assert "no display" in display_problem({}, "linux")
