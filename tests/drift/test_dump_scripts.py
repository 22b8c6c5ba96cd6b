"""The two dump scripts, run for real: `rail-switch-apply.py dump` against a real redis CONFIG_DB
(tests/deploy's stand-in SONiC) and a host's rail-dump.sh in a network namespace. Both only read,
write their folder whole with a MANIFEST.json, say what they could not read, and refuse a folder that
is not an earlier dump."""

from __future__ import annotations

import json
import os
import re
import subprocess

import pytest

from designer.export import export

from tests.deploy.sonic_stubs import FakeSwitch
from tests.export.helpers_hosts import fabric, need, need_tool
from tests.sonic.factory import factory_config

LEAF, HOST = "su1-leaf-r0", "su1-srv01"
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\Z")


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("bundle") / "b"
    export(fabric("default"), out, only=["switches", "ppd", "hosts"])
    return out


@pytest.fixture
def switch(tmp_path, bundle):
    need_tool("redis-server")
    need_tool("redis-cli")
    sw = FakeSwitch(tmp_path)
    ours = json.loads((bundle / "switches" / LEAF / "config_db.json").read_text())
    sw.seed(factory_config(ours["PORT"]))
    sw.stage_dir = sw.stage(bundle, LEAF)
    assert sw.run(sw.stage_dir, "apply", str(sw.stage_dir / LEAF)).returncode == 0
    sw.calls_file.unlink()
    yield sw
    sw.close()


def test_switch_dump_only_reads_and_says_what_it_could_not_read(switch, tmp_path):
    before, files = switch.dump(), switch.files()
    out = tmp_path / "dump"
    done = switch.run(switch.stage_dir, "dump", str(out), "--vtysh", "/nonexistent/vtysh")
    assert done.returncode == 0, done.stderr
    agent_bin = str(switch.root / "usr/local/bin/rail-ppd-agent.py")
    assert [c[0] for c in switch.calls()] == ["sonic-cfggen", "rail-ppd-agent.py"]  # nothing but the reads
    assert switch.calls()[1] == [agent_bin.rpartition("/")[2], "show", "--backend", "sonic", "--pins",
                                 str(switch.root / "etc/sonic/rail-ppd-pins.json"), "--db-config",
                                 str(switch.db_config)]
    assert switch.dump() == before and switch.files() == files
    manifest = json.loads((out / "MANIFEST.json").read_text())
    assert manifest["format"] == 1 and manifest["kind"] == "switch" and manifest["device"] == LEAF
    assert TIME.match(manifest["time"])
    assert sorted(manifest["files"]) == ["config_db.json", "frr.conf", "ppd-agent.json"]
    assert list(manifest["unreadable"]) == ["frr-running.conf"] and "not found" in manifest["unreadable"]["frr-running.conf"]
    assert sorted(p.name for p in out.iterdir()) == ["MANIFEST.json", "config_db.json", "frr.conf", "ppd-agent.json"]
    assert json.loads((out / "config_db.json").read_text()) == before
    agent = json.loads((out / "ppd-agent.json").read_text())
    assert agent["unit_installed"] and agent["pins"]["hostname"] == LEAF and agent["rules"] == {}
    assert (out / "frr.conf").read_text() == (switch.stage_dir / LEAF / "frr.conf").read_text()


def test_switch_dump_replaces_an_earlier_dump_and_refuses_any_other_folder(switch, tmp_path):
    out = tmp_path / "dump"
    assert switch.run(switch.stage_dir, "dump", str(out), "--vtysh", "/nonexistent/vtysh").returncode == 0
    switch.cli("HSET", "VLAN|Vlan2000", "vlanid", "2000")
    assert switch.run(switch.stage_dir, "dump", str(out), "--vtysh", "/nonexistent/vtysh").returncode == 0
    assert "Vlan2000" in json.loads((out / "config_db.json").read_text())["VLAN"]
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []     # no scratch left
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_text("meow")
    done = switch.run(switch.stage_dir, "dump", str(other))
    assert done.returncode == 1 and "is not an earlier dump" in done.stderr
    assert [p.name for p in other.iterdir()] == ["cat.jpg"]
    done = switch.run(switch.stage_dir, "dump")
    assert done.returncode == 2 and "dump OUTDIR [--vtysh CMD]" in done.stderr


def _netns_ready():
    need(os.geteuid() == 0, "creating a network namespace needs root")
    need_tool("ip")
    need(subprocess.run(["ip", "netns", "list"], capture_output=True).returncode == 0, "'ip netns' is unavailable")


def _in(ns, *cmd, **kw):
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], capture_output=True, text=True, **kw)


def _state(ns):
    return [_in(ns, *c).stdout for c in (["ip", "rule"], ["ip", "route", "show", "table", "all"],
                                         ["ip", "-4", "address"], ["sysctl", "net.ipv4.conf.all.rp_filter"])]


def test_host_dump_only_reads_writes_its_manifest_and_refuses_another_folder(bundle, tmp_path):
    _netns_ready()
    ns = f"rddump{os.getpid()}"
    folder = bundle / "hosts" / HOST
    netdevs = [n.netdev for n in fabric("default").servers[HOST].nics if n.rail is not None]
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        for n, dev in enumerate(netdevs):
            _in(ns, "ip", "link", "add", dev, "type", "veth", "peer", "name", f"rdp{n}", check=True)
        _in(ns, "bash", str(folder / "policy-routing.sh"), check=True)
        before = _state(ns)
        out = tmp_path / "dump"
        env = {**os.environ, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}               # no mlnx_qos here
        done = _in(ns, "bash", str(folder / "rail-dump.sh"), str(out), env=env)
        assert done.returncode == 0, done.stderr
        assert _state(ns) == before
        manifest = json.loads((out / "MANIFEST.json").read_text())
        assert (manifest["format"], manifest["kind"], manifest["device"]) == (1, "host", HOST)
        assert TIME.match(manifest["time"])
        assert sorted(manifest["files"]) == ["ip-address.json", "ip-route.json", "ip-rule.json", "roce-qos.txt",
                                             "sysctl.txt"]
        assert "mlnx_qos is not installed" in manifest["unreadable"]["RoCE trust and PFC"]
        rules = json.loads((out / "ip-rule.json").read_text())
        assert {"priority": 1000, "src": "10.0.0.2", "table": "100"} in rules
        sysctl = (out / "sysctl.txt").read_text().splitlines()
        assert "net.ipv4.conf.ens1np0.accept_local = 0" in sysctl and len(sysctl) == 6 + 4 * len(netdevs)
        _in(ns, "ip", "rule", "del", "priority", "1000")
        assert _in(ns, "bash", str(folder / "rail-dump.sh"), str(out) + "/", env=env).returncode == 0
        assert {"priority": 1000, "src": "10.0.0.2", "table": "100"} not in json.loads((out / "ip-rule.json").read_text())
        assert [p.name for p in tmp_path.iterdir()] == ["dump"]                       # replaced whole, no scratch
        other = tmp_path / "home"
        other.mkdir()
        (other / "notes.txt").write_text("x")
        done = _in(ns, "bash", str(folder / "rail-dump.sh"), str(other))
        assert done.returncode == 2 and "is not an earlier dump" in done.stderr
        assert [p.name for p in other.iterdir()] == ["notes.txt"]
        assert _in(ns, "bash", str(folder / "rail-dump.sh")).returncode == 2
    finally:
        subprocess.run(["ip", "netns", "delete", ns], check=False)


@pytest.mark.parametrize("shape", ["rail-optimized-64x4", "twin-plane-p2p31"])
def test_a_host_of_another_shape_running_its_files_dumps_clean(tmp_path, shape):
    """/31 gateways, and twin-plane NIC ports with a table per plane: the host side reads them all."""
    _netns_ready()
    import designer
    from tests.drift.fabric import Host
    from tests.export.shapes import design
    fab = design(shape, **({"sus": 1, "servers_per_su": 4} if shape == "rail-optimized-64x4" else {}))
    out = tmp_path / "bundle"
    export(fab, out, only=["hosts"])
    server = sorted(fab.servers.values(), key=lambda s: s.id)[0]
    netdevs = [n.netdev for n in server.nics if n.rail is not None and n.id in fab.addresses]
    host = None
    try:
        host = Host(out, server.hostname, netdevs, tmp_path / "host", f"rdshape{os.getpid()}")
        assert host.dump(tmp_path / "dumps" / server.hostname).returncode == 0
        report = designer.check_drift(out, tmp_path / "dumps")
    finally:
        subprocess.run(["ip", "netns", "delete", f"rdshape{os.getpid()}"], check=False, capture_output=True)
    checked = next(d for d in report.devices if d.device == server.hostname)
    assert checked.status == "clean", [f.message for f in checked.findings]
    assert {d.status for d in report.devices if d.device != server.hostname} <= {"not checked"}
