"""Exit codes people can script (issue 13, item 11): 0 clean, 1 findings, 2 unusable input,
70 an internal error that says where it happened and how to report it; never a bare traceback."""

import pytest

from designer import cli
from designer.cli import main
from designer.storage import save
from tests.conftest import preset_fabric


def test_a_bug_exits_70_with_the_place_and_how_to_report_it(tmp_path, capsys, monkeypatch):
    import designer.cli.design as design

    def broken(_args):
        return {}["missing"]
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), path)
    monkeypatch.setattr(design, "run_validate", broken)
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert code == cli.EXIT_INTERNAL == 70
    assert "internal error: KeyError: 'missing' (at designer/cli/__init__.py:" in err
    assert "report it with the design file" in err
    assert "Traceback" not in err


def test_the_traceback_is_there_when_asked_for(capsys, monkeypatch):
    import designer.cli.design as design
    monkeypatch.setattr(design, "run_presets", lambda _a: 1 / 0)
    monkeypatch.setenv("RAIL_DESIGNER_DEBUG", "1")
    assert main(["presets"]) == 70
    assert "Traceback" in capsys.readouterr().err


@pytest.mark.parametrize("argv, code", [(["validate", "{dir}/missing.yaml"], 2), (["presets"], 0)])
def test_usage_and_clean_runs(tmp_path, capsys, argv, code):
    assert main([a.format(dir=tmp_path) for a in argv]) == code


def test_findings_exit_1(tmp_path, capsys):
    fabric = preset_fabric("default")
    fabric.set_hostname("su1-srv01", "su1-srv02-x")
    fabric.set_hostname("su1-srv02", "SU1-SRV02-X")      # duplicate without regard to case: RD011
    path = tmp_path / "d.fabric.yaml"
    save(fabric, path)
    assert main(["validate", str(path)]) == 1


def test_only_a_process_that_is_the_command_freezes_what_it_built(tmp_path):
    # the console script (argv None) ends with its command, so a whole loaded design is frozen out of
    # the collector's sight; main() called with arguments (tests, scripts) must leave collection alone
    import gc
    import subprocess
    import sys
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), path)
    script = ("import gc, sys; from designer.cli import main; sys.argv = ['rail-designer', 'validate', sys.argv[1]]; "
              "code = main(); print(code, gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    code, frozen = out.stdout.split()[-2:]
    assert code == "0" and int(frozen) > 10_000
    before = gc.get_freeze_count()
    assert main(["validate", str(path)]) == 0
    assert gc.get_freeze_count() == before
