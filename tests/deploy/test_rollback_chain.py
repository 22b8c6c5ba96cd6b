"""Rollback restores everything after an apply killed (kill -9) at any step and a second apply run over
the half-applied switch: the backups form a chain, and rollback returns to the one taken before the
first, cut-short apply, not to the second apply's backup of the half-applied state.
The switch is sonic_stubs' stand-in (a real redis as CONFIG_DB); the kill comes from the stub the
script calls at that step."""

from __future__ import annotations

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
