"""Ctrl+C during an export (issue 11): the run stops with exit 130 and one line, the folder keeps the
bundle it had, and no scratch folder is left behind. A real SIGINT to the process group, as a
terminal sends it, with the forked render workers running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from designer.cli import EXIT_INTERRUPTED, main
from designer.cli.export import eta


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_ctrl_c_mid_export_keeps_the_previous_bundle_and_leaves_nothing(tmp_path, capsys):
    small, big, out = tmp_path / "small.fabric.yaml", tmp_path / "big.fabric.yaml", tmp_path / "bundle"
    assert main(["new", "-o", str(small)]) == 0
    assert main(["new", "--preset", "b200-superpod", "--sus", "16", "-o", str(big)]) == 0   # 512 servers: forked workers
    assert main(["export", str(small), "-o", str(out)]) == 0
    before = _tree(out)
    capsys.readouterr()
    run = subprocess.Popen([sys.executable, "-m", "designer", "export", str(big), "-o", str(out)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".partial") for p in tmp_path.iterdir()):   # rendering has begun
        assert run.poll() is None and time.monotonic() < deadline, run.communicate()
        time.sleep(0.02)
    time.sleep(0.3)
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == EXIT_INTERRUPTED == 130
    assert err.strip().splitlines()[-1] == (f"rail-designer: interrupted: {out} is as it was before (a bundle "
                                            "already there is unchanged)")
    assert "Traceback" not in err
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.fabric.yaml", "bundle", "small.fabric.yaml"]
    time.sleep(0.5)                                     # the forked workers are gone with their parent
    left = subprocess.run(["pgrep", "-f", str(big)], capture_output=True, text=True).stdout.split()
    assert left == []


def test_eta_quotes_the_rate_so_far_once_it_means_something():
    assert eta(0.5, 10, 100) == ""                  # under a second
    assert eta(5.0, 1, 100) == ""                   # under 2 % done
    assert eta(10.0, 25, 100) == "ETA 0:30"
    assert eta(100.0, 50, 100) == "ETA 1:40"
    assert eta(3.0, 100, 100) == "done"
