"""`new --final-sus`, `validate`'s growth note and `grow` on the command line (issue 17)."""

from __future__ import annotations

from designer.cli import main
from designer.storage import load
from designer.storage.design_file import dumps


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_plan_validate_and_grow_as_a_user_does(tmp_path, capsys):
    path, three = tmp_path / "pod.fabric.yaml", tmp_path / "three.fabric.yaml"
    assert run(capsys, "new", "--preset", "superpod-su", "--sus", "2", "--final-sus", "8", "-o", str(path))[0] == 0
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "RD050 planned for 8 SUs of 32 servers (it has 2 of up to 32)" in out
    code, out, _ = run(capsys, "grow", str(path), "--sus", "3", "-o", str(three))
    assert code == 0 and "3 SUs of up to 32 servers, 40 devices and 512 cables added; planned for 8 SUs" in out
    assert run(capsys, "new", "--preset", "superpod-su", "--sus", "3", "--final-sus", "8", "-o",
               str(tmp_path / "new3.fabric.yaml"))[0] == 0
    assert three.read_bytes() == (tmp_path / "new3.fabric.yaml").read_bytes()


def test_grow_past_the_plan_is_refused_with_the_devices_and_done_with_allow_renumber(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    run(capsys, "new", "--preset", "superpod-su", "--sus", "2", "-o", str(path))
    before = path.read_bytes()
    code, _, err = run(capsys, "grow", str(path), "--sus", "3")
    assert code == 1 and "is not additive" in err and "short by 32 ports" in err
    assert "\n  - spine-01: " in err and "--allow-renumber" in err
    assert path.read_bytes() == before                                     # nothing written
    code, out, _ = run(capsys, "grow", str(path), "--sus", "3", "--allow-renumber")
    assert code == 0 and "renumbered or recabled" in out
    assert len(load(path).leaves()) == 24


def test_grow_refusals_are_one_readable_line(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    run(capsys, "new", "--preset", "default", "--final-sus", "4", "-o", str(path))
    code, _, err = run(capsys, "grow", str(path), "--sus", "1")
    assert code == 2 and "grow only adds" in err and "Traceback" not in err
    path.write_text(path.read_text().replace("final_sus: 4", "final_sus: many"))
    code, _, err = run(capsys, "grow", str(path), "--sus", "3")
    assert code == 2 and "final_sus" in err and "Traceback" not in err
    code, _, err = run(capsys, "new", "--preset", "default", "--sus", "3", "--final-sus", "2",
                       "-o", str(tmp_path / "x.fabric.yaml"))
    assert code == 2 and "final sus (2) is below sus (3)" in err


def test_a_planned_design_reads_and_writes_back_to_the_same_bytes(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    run(capsys, "new", "--preset", "b200-superpod", "--sus", "2", "--final-sus", "4", "-o", str(path))
    assert dumps(load(path)) == path.read_text()
