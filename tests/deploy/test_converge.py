"""A redeploy converges: keys an earlier apply created and the new bundle drops are deleted, and the
result is checked with SONiC's YANG models before (refused, nothing changed) and after (rolled back).
The switch is the stand-in of sonic_stubs (a real redis as CONFIG_DB); the YANG checks are real libyang
on SONiC's own models, independently of the script's own check."""

from __future__ import annotations

import importlib.util
import itertools
import json
from collections import defaultdict

import pytest

from designer.export import export
from designer.resources import templates_dir
from designer.sonic.validate import validate

from tests.deploy.sonic_stubs import FakeSwitch
from tests.export.helpers_hosts import need_tool
from tests.sonic.factory import factory_config
from tests.sonic.yang_models import DESIGNS, models, small_design

LEAF = "su1-leaf-r0"


def _script():
    spec = importlib.util.spec_from_file_location("rail_switch_apply", templates_dir() / "sonic/rail-switch-apply.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


apply_script = _script()
keys = apply_script.keys


@pytest.fixture
def switch(tmp_path):
    need_tool("redis-server")
    need_tool("redis-cli")
    models()
    sw = FakeSwitch(tmp_path)
    yield sw
    sw.close()


def bundle(tmp_path, design, name):
    out = tmp_path / name
    export(small_design(*design), out, only=["switches"])
    return out


def leaf_config(out):
    return json.loads((out / "switches" / LEAF / "config_db.json").read_text())


def staged(switch, out, name):
    stage = switch.stage(out, LEAF, name)
    (stage / LEAF / "ppd-pins.json").write_text('{"acl_table": "PPD", "sources": []}\n')
    return stage


def prepared(switch, factory):
    switch.seed(factory)
    (switch.root / "etc/sonic/config_db.json").write_text(json.dumps(factory, indent=4))
    (switch.root / "etc/sonic/frr/frr.conf").write_text("! the switch's old frr.conf\n")
    return switch.dump()


OLD = ("default", "subnet-per-leaf", "shared", 1.0)
NEW = ("default", "p2p31", "shared", 1.0)


def test_p2p31_over_subnet_per_leaf_deletes_the_old_rows_and_stays_yang_valid(switch, tmp_path):
    old, new = bundle(tmp_path, OLD, "old"), bundle(tmp_path, NEW, "new")
    factory = factory_config(leaf_config(old)["PORT"])
    prepared(switch, factory)
    done = switch.run(staged(switch, old, "s1"), "apply", str(tmp_path / "s1" / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    gone = keys(leaf_config(old)) - keys(leaf_config(new)) - keys(factory)
    assert any(k.startswith("VLAN_MEMBER|") for k in gone)
    stage = staged(switch, new, "s2")
    done = switch.run(stage, "diff", str(stage / LEAF))
    assert done.returncode == 0, done.stderr
    assert all(f"- {key}\n" in done.stdout for key in gone) and "lint: the result passes" in done.stdout
    switch.calls_file.unlink()
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    deletes = [c[3] for c in switch.calls() if c[0] == "sonic-db-cli"]
    assert sorted(deletes) == sorted(gone)
    assert deletes.index("VLAN_MEMBER|Vlan1000|Ethernet0") < deletes.index("VLAN|Vlan1000")
    running = switch.dump()
    saved = json.loads((switch.root / "etc/sonic/config_db.json").read_text())
    for config in (running, saved):
        assert not gone & keys(config)
        assert validate(models(), config) == []
    owned = json.loads((switch.root / "etc/sonic/rail-designer/owned-keys.json").read_text())["keys"]
    assert not set(owned) & keys(factory) and not set(owned) & gone


def test_an_apply_whose_result_fails_yang_is_refused_before_anything_changes(switch, tmp_path):
    new = bundle(tmp_path, NEW, "new")
    factory = factory_config(leaf_config(new)["PORT"])
    factory["VLAN"] = {"Vlan1000": {"vlanid": "1000"}}                    # a factory VLAN the bundle never made
    factory["VLAN_MEMBER"] = {"Vlan1000|Ethernet0": {"tagging_mode": "untagged"}}
    before = prepared(switch, factory)
    stage = staged(switch, new, "s")
    files = switch.files()
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "fails SONiC's YANG models" in done.stderr and "Vlan1000|Ethernet0" in done.stderr
    assert "nothing was changed" in done.stderr
    assert [c[0] for c in switch.calls()] == ["sonic-cfggen"]
    assert switch.dump() == before and switch.files() == files


def test_an_apply_that_reads_back_invalid_is_rolled_back(switch, tmp_path):
    new = bundle(tmp_path, NEW, "new")
    before = prepared(switch, factory_config(leaf_config(new)["PORT"]))
    saved = (switch.root / "etc/sonic/config_db.json").read_bytes()
    stub = switch.tmp / "bin" / "config"                                  # something on the switch spoils the load
    stub.write_text(stub.read_text().replace('    load(sys.argv[3])\nelif verb == "reload"',
                                             '    load(sys.argv[3])\n    cli("HSET", "VLAN_MEMBER|Vlan9|Ethernet0", "tagging_mode", "untagged")'
                                             '\nelif verb == "reload"'))
    stage = staged(switch, new, "s")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "VLAN_MEMBER|Vlan9|Ethernet0" in done.stderr and "apply was rolled back" in done.stderr
    assert switch.dump() == before
    assert (switch.root / "etc/sonic/config_db.json").read_bytes() == saved
    assert not (switch.root / "etc/sonic/rail-designer/owned-keys.json").exists()




def test_every_pair_of_designs_sharing_a_switch_converges(tmp_path):
    yang = models()
    configs = {}
    for design in DESIGNS:
        configs[design] = leaf_config(bundle(tmp_path, design, "-".join(map(str, design))))
    groups = defaultdict(list)
    for design, config in configs.items():
        groups[tuple(sorted((name, p["lanes"]) for name, p in config["PORT"].items()))].append(design)
    assert len(groups) >= 3
    failures, pairs = [], 0
    for members in groups.values():
        for a, b in itertools.permutations(members, 2):
            first, second = configs[a], configs[b]
            factory = factory_config(first["PORT"])
            after_a = apply_script.converged(factory, first, [])
            owned = apply_script.owned_after(first, factory, set())
            drop = apply_script.dropped(second, after_a, owned)
            after_b = apply_script.converged(after_a, second, drop)
            stale = (keys(first) - keys(second) - keys(factory)) & keys(after_b)
            problems = validate(yang, after_b)
            pairs += 1
            if stale or problems:
                failures.append(f"{a} -> {b}: stale {sorted(stale)[:3]}, {problems[:2]}")
    assert pairs > 300 and not failures, "\n".join(failures[:10])


def test_apply_keeps_the_lanes_speeds_aliases_and_indexes_of_sonics_sample_config(switch, tmp_path):
    """SONiC's own sample PORT rows (lanes "65", speed 11100, alias Eth1/1: a non-sequential lane map)
    under the design's port names: apply changes none of their platform fields."""
    from tests.ci import yang_dir
    sample = json.loads((yang_dir() / "sonic-sample-config_db.json").read_text())["SAMPLE_CONFIG_DB_JSON"]["PORT"]
    new = bundle(tmp_path, NEW, "new")
    ours = leaf_config(new)["PORT"]
    platform = {name: {f: row[f] for f in ("lanes", "alias", "index", "speed") if f in row}
                for name, row in zip(sorted(ours, key=lambda n: int(n.removeprefix("Ethernet"))), sample.values())}
    factory = factory_config(ours)
    for name, fields in platform.items():
        factory["PORT"][name].update(fields)
    assert any(ours[n][f] != v for n, fields in platform.items() for f, v in fields.items())
    before = prepared(switch, factory)
    stage = staged(switch, new, "s")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the switch keeps its own value" in done.stdout
    for config in (switch.dump(), json.loads((switch.root / "etc/sonic/config_db.json").read_text())):
        for name, row in before["PORT"].items():
            assert {f: config["PORT"][name].get(f) for f in ("lanes", "alias", "index", "speed")} == \
                   {f: row.get(f) for f in ("lanes", "alias", "index", "speed")}
        assert config["PORT"]["Ethernet0"]["mtu"] == ours["Ethernet0"]["mtu"]        # the design's own fields


def test_a_port_the_switch_lacks_is_refused_as_a_breakout(switch, tmp_path):
    new = bundle(tmp_path, NEW, "new")
    factory = factory_config(leaf_config(new)["PORT"])
    del factory["PORT"]["Ethernet8"]
    before = prepared(switch, factory)
    stage = staged(switch, new, "s")
    done = switch.run(stage, "apply", str(stage / LEAF))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "Ethernet8" in done.stderr and "config interface breakout" in done.stderr
    assert switch.dump() == before
