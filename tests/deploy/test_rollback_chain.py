"""Rollback restores everything after an apply killed (kill -9) at any step and a second apply run over
the half-applied switch: the backups form a chain, and rollback returns to the one taken before the
first, cut-short apply, not to the second apply's backup of the half-applied state.
The switch is sonic_stubs' stand-in (a real redis as CONFIG_DB); the kill comes from the stub the
script calls at that step."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess

from tests.ci import need
from tests.deploy.test_converge import LEAF, NEW, OLD, bundle, factory_config, leaf_config, prepared, staged
from tests.deploy.test_converge import switch  # noqa: F401  (the fixture)


def _startup(switch):
    return (switch.root / "etc/sonic/config_db.json").read_bytes()


def test_kill_at_every_step_then_a_second_apply_then_rollback_restores_the_switch(switch, tmp_path):
    old, new = bundle(tmp_path, OLD, "old"), bundle(tmp_path, NEW, "new")
    before = prepared(switch, factory_config(leaf_config(old)["PORT"]))
    startup, files = _startup(switch), switch.files()
    first, second = staged(switch, old, "s1"), staged(switch, new, "s2")
    done = switch.run(first, "apply", str(first / LEAF))          # the whole apply once: how many steps it has
    assert done.returncode == 0, done.stdout + done.stderr
    steps = len(switch.calls())
    assert steps >= 6
    assert switch.run(first, "rollback").returncode == 0
    assert switch.dump() == before and _startup(switch) == startup
    for step in range(1, steps + 1):
        switch.calls_file.unlink(missing_ok=True)
        killed = switch.run(first, "apply", str(first / LEAF), kill_at=step)
        assert killed.returncode == -9, (step, killed.stdout, killed.stderr)
        switch.calls_file.unlink(missing_ok=True)
        again = switch.run(second, "apply", str(second / LEAF))
        assert again.returncode == 0 and "Traceback" not in again.stderr, (step, again.stdout + again.stderr)
        back = switch.run(second, "rollback")
        assert back.returncode == 0, (step, back.stdout + back.stderr)
        assert switch.dump() == before, step
        assert _startup(switch) == startup, step
        now = switch.files()
        assert {k: v for k, v in now.items() if "rail-designer/backups" not in k} == \
               {k: v for k, v in files.items() if "rail-designer/backups" not in k}, step
    assert not list((switch.root / "etc/sonic/rail-designer/backups").glob("*/UNFINISHED"))


@contextlib.contextmanager
def small_disk(path, mib):
    """/etc/sonic on a tmpfs of that size (needs root to mount, as CI has)."""
    need(os.geteuid() == 0, "mounting a small tmpfs as /etc/sonic needs root")
    kept = path.with_name("sonic.kept")
    path.rename(kept)
    path.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={mib}m", "tmpfs", str(path)], check=True)
    try:
        shutil.copytree(kept, path, dirs_exist_ok=True, symlinks=True)
        yield
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_full_etc_sonic_is_refused_before_anything_changes_and_rollback_says_how_back(switch, tmp_path):
    old = bundle(tmp_path, OLD, "old")
    sonic = switch.root / "etc/sonic"
    with small_disk(sonic, 2):
        before = prepared(switch, factory_config(leaf_config(old)["PORT"]))
        stage = staged(switch, old, "s1")
        (sonic / "filler").write_bytes(b"x" * (shutil.disk_usage(sonic).free - 64 * 1024))
        files = switch.files()
        done = switch.run(stage, "apply", str(stage / LEAF))
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "KiB free" in done.stderr and "nothing was changed" in done.stderr
        assert switch.dump() == before and switch.files() == files
        (sonic / "filler").unlink()
        assert switch.run(stage, "apply", str(stage / LEAF)).returncode == 0
        startup = _startup(switch)
        with open(sonic / "filler", "wb", buffering=0) as fill:      # the disk fills up after the apply
            with contextlib.suppress(OSError):
                while fill.write(b"x" * 4096):
                    pass
        done = switch.run(stage, "rollback")
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "run rollback again" in done.stderr
        assert _startup(switch) == startup                        # no half-written startup file
        assert not list(sonic.rglob("*.rail-tmp"))
        (sonic / "filler").unlink()
        assert switch.run(stage, "rollback").returncode == 0
        assert switch.dump() == before


def test_rollback_to_an_earlier_apply_puts_the_agent_back_executable(switch, tmp_path):
    old, new = bundle(tmp_path, OLD, "old"), bundle(tmp_path, NEW, "new")
    prepared(switch, factory_config(leaf_config(old)["PORT"]))
    first, second = staged(switch, old, "s1"), staged(switch, new, "s2")
    assert switch.run(first, "apply", str(first / LEAF)).returncode == 0
    agent = switch.root / "usr/local/bin/rail-ppd-agent.py"
    installed = agent.read_bytes(), agent.stat().st_mode & 0o777
    assert installed[1] == 0o755
    assert switch.run(second, "apply", str(second / LEAF)).returncode == 0
    back = switch.run(second, "rollback")
    assert back.returncode == 0, back.stdout + back.stderr
    assert (agent.read_bytes(), agent.stat().st_mode & 0o777) == installed
