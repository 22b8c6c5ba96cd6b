"""Adoption: a switch an earlier apply script configured before the owned-keys list existed has backups
but no list. apply adopts the keys created since the first backup that the bundle also has, refuses
(changing nothing) when other keys were created since then, and with --adopt-created adopts those too,
so a redeploy of another design still converges. Real redis CONFIG_DB (sonic_stubs), real libyang."""

from __future__ import annotations

import json

from designer.sonic.validate import validate

from tests.deploy.test_converge import (  # noqa: F401  (switch: the same fake switch fixture)
    LEAF, NEW, OLD, bundle, keys, leaf_config, prepared, staged, switch)
from tests.sonic.factory import factory_config
from tests.sonic.yang_models import models

OWNED = "etc/sonic/rail-designer/owned-keys.json"


def applied_before_the_list(switch, tmp_path, design):
    """What an apply from before the owned-keys list leaves: its backup of the factory switch, the
    bundle merged in, no list."""
    out = bundle(tmp_path, design, "old")
    factory = factory_config(leaf_config(out)["PORT"])
    prepared(switch, factory)
    first = switch.root / "etc/sonic/rail-designer/backups/20250101T000000Z"
    first.mkdir(parents=True)
    (first / "running-config_db.json").write_text(json.dumps(switch.dump()))
    done = switch.run(staged(switch, out, "s1"), "apply", str(tmp_path / "s1" / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    (switch.root / OWNED).unlink()
    switch.calls_file.unlink()
    return factory, out


def test_the_same_bundle_again_adopts_what_it_created(switch, tmp_path):
    factory, out = applied_before_the_list(switch, tmp_path, NEW)
    created = keys(leaf_config(out)) - keys(factory)
    stage = staged(switch, out, "s2")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    adopted = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("adopt: ")]
    assert sorted(adopted) == sorted(created) and "this bundle drops it" not in done.stdout
    owned = set(json.loads((switch.root / OWNED).read_text())["keys"])
    assert owned == created


def test_another_design_is_refused_until_adopt_created_then_converges(switch, tmp_path):
    factory, old = applied_before_the_list(switch, tmp_path, OLD)
    new = bundle(tmp_path, NEW, "new")
    gone = keys(leaf_config(old)) - keys(leaf_config(new)) - keys(factory)
    assert any(k.startswith("VLAN_MEMBER|") for k in gone)
    before, files = switch.dump(), switch.files()
    stage = staged(switch, new, "s2")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "--adopt-created" in done.stderr and "Nothing was changed" in done.stderr
    assert f"{len(gone)} key(s) were created that this bundle does not have" in done.stderr
    assert switch.dump() == before and switch.files() == files
    done = switch.run(stage, "apply", str(stage / LEAF), "--adopt-created")
    assert done.returncode == 0, done.stdout + done.stderr
    assert all(f"adopt: {key} " in done.stdout for key in gone)
    deletes = sorted(c[3] for c in switch.calls() if c[0] == "sonic-db-cli")
    assert deletes == sorted(gone)
    for config in (switch.dump(), json.loads((switch.root / "etc/sonic/config_db.json").read_text())):
        assert not gone & keys(config) and validate(models(), config) == []


def test_a_key_the_operator_added_is_named_in_the_refusal(switch, tmp_path):
    factory, out = applied_before_the_list(switch, tmp_path, NEW)
    switch.cli("HSET", "SYSLOG_SERVER|192.0.2.50", "source", "192.0.2.10")
    done = switch.run(staged(switch, out, "s2"), "diff", str(tmp_path / "s2" / LEAF))
    assert done.returncode == 1 and "SYSLOG_SERVER|192.0.2.50" in done.stderr and "operator's own" in done.stderr


def test_a_switch_with_no_backup_adopts_nothing(switch, tmp_path):
    out = bundle(tmp_path, NEW, "new")
    prepared(switch, factory_config(leaf_config(out)["PORT"]))
    stage = staged(switch, out, "s")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 0 and "adopt:" not in done.stdout
