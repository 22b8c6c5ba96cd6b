"""The default preset's devices running their bundle for real, dumped as an operator would dump them.

Switches: each one a `FakeSwitch` (real redis-server CONFIG_DB, tests/deploy), the bundle applied with the
real rail-switch-apply.py, the real PPD agent run once (sonic backend, on that redis's APPL_DB, its
health from tests/ppd's vtysh stand-in), FRR's zebra, staticd and bgpd on the bundle's frr.conf in a
network namespace (designer.emulation.frr); then `rail-switch-apply.py dump`. Hosts: a namespace with the
rail NICs, the bundle's policy-routing.sh and sysctl.conf applied for real, roce-qos.sh run against the
RoCE stand-ins (stand_ins.py); then the bundle's rail-dump.sh.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import types
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from designer.emulation.frr import Frr, frr_problem
from designer.emulation.netns import Runner

from tests.deploy.sonic_stubs import FakeSwitch
from tests.drift.stand_ins import install_roce_tools, roce_script_below
from tests.ppd.agent_helpers import AGENT_PATH, fake_vtysh
from tests.sonic.factory import factory_config

WORKERS = 4


def _ns(ns: str, *cmd: str, env=None) -> str:
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], check=True, capture_output=True, text=True,
                          env=env).stdout


class Switch:
    def __init__(self, bundle: Path, host: str, tmp: Path, frr: Frr, setup):
        self.host, self.tmp, self.frr, self.setup = host, tmp, frr, setup
        self.fake = FakeSwitch(tmp)
        try:
            ours = json.loads((bundle / "switches" / host / "config_db.json").read_text())
            self.fake.seed(factory_config(ours["PORT"]))        # what the switch holds before the bundle
            self.stage = self.fake.stage(bundle, host)
            done = self.fake.run(self.stage, "apply", str(self.stage / host))
            assert done.returncode == 0, done.stdout + done.stderr
            pins = bundle / "switches" / host / "ppd-pins.json"
            if pins.is_file():
                self.run_agent(pins)
        except BaseException:
            self.fake.close()
            raise

    def run_agent(self, pins: Path) -> None:
        """The real agent, once, against this switch's redis: every uplink up, resolved, Established."""
        data = json.loads(pins.read_text())
        for port, uplink in data["uplinks"].items():
            self.redis(0, "HSET", f"PORT_TABLE:{port}", "oper_status", "up")
            self.redis(0, "HSET", f"NEIGH_TABLE:{port}:{uplink['next_hop']}", "neigh", "02:00:00:00:00:01")
        hops = [u["next_hop"] for u in data["uplinks"].values()]
        vtysh = fake_vtysh(self.tmp, {h: "Established" for h in hops}, {p: hops for p in data["destinations"]})
        done = subprocess.run([sys.executable, str(AGENT_PATH), "once", "--backend", "sonic", "--pins", str(pins),
                               "--vtysh", vtysh, "--db-config", str(self.fake.db_config)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr

    def redis(self, db: int, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.fake.port), "-n", str(db), *args], capture_output=True,
                              text=True, check=True).stdout

    def vtysh(self) -> str:
        return " ".join(self.frr.vtysh_argv(self.setup))

    def dump(self, outdir: Path, vtysh: str | None = None) -> subprocess.CompletedProcess:
        return self.fake.run(self.stage, "dump", str(outdir), "--vtysh", vtysh or self.vtysh())


class Host:
    def __init__(self, bundle: Path, host: str, netdevs: list[str], tmp: Path, ns: str):
        self.host, self.ns, self.tmp = host, ns, tmp
        self.folder = bundle / "hosts" / host
        self.root = tmp / "root"
        install_roce_tools(tmp / "bin")
        self.env = {**os.environ, "PATH": f"{tmp / 'bin'}:{os.environ['PATH']}", "RAIL_DUMP_ROOT": str(self.root)}
        subprocess.run(["ip", "netns", "add", ns], check=True)
        for n, dev in enumerate(netdevs):
            _ns(ns, "ip", "link", "add", dev, "type", "veth", "peer", "name", f"rdpeer{n}")
        _ns(ns, "bash", str(self.folder / "policy-routing.sh"))
        _ns(ns, "sysctl", "-q", "-p", str(self.folder / "sysctl.conf"))
        roce = tmp / "roce-qos.sh"
        roce.write_text(roce_script_below((self.folder / "roce-qos.sh").read_text(), self.root))
        _ns(ns, "bash", str(roce), env=self.env)

    def dump(self, outdir: Path, env=None) -> subprocess.CompletedProcess:
        return subprocess.run(["ip", "netns", "exec", self.ns, "bash", str(self.folder / "rail-dump.sh"), str(outdir)],
                              capture_output=True, text=True, env=env or self.env)

    def ip(self, *args: str) -> str:
        return _ns(self.ns, "ip", *args)


class RunningFabric:
    """Every switch and host of ``bundle`` running it; `dump_all` writes one dump folder per device."""

    def __init__(self, bundle: Path, fabric, tmp: Path):
        self.bundle, self.tmp = bundle, tmp
        self.work = Path(tempfile.mkdtemp(prefix="rddrift-"))
        self.work.chmod(0o755)
        runner = types.SimpleNamespace(workdir=self.work, exec_all=lambda jobs: Runner.exec_all(None, jobs))
        self.frr = Frr(runner)
        self.namespaces: list[str] = []
        self.switches: dict[str, Switch] = {}
        self.hosts: dict[str, Host] = {}
        tag = os.getpid()
        try:
            names = sorted(p.name for p in (bundle / "switches").iterdir() if p.is_dir())
            setups = []
            for n, name in enumerate(names):
                ns = f"rddr{tag}s{n}"
                subprocess.run(["ip", "netns", "add", ns], check=True)
                self.namespaces.append(ns)
                setups.append(types.SimpleNamespace(ns=ns, hostname=name, files={
                    "frr.conf": (bundle / "switches" / name / "frr.conf").read_text()}))
            self.frr.start(setups)
            self.frr.apply(setups)
            servers = sorted(fabric.servers.values(), key=lambda s: s.id)
            hosts = [f"rddr{tag}h{n}" for n in range(len(servers))]
            self.namespaces += hosts
            with ThreadPoolExecutor(WORKERS) as pool:          # each device is its own processes and files
                switches = [pool.submit(Switch, bundle, name, tmp / name, self.frr, setup)
                            for name, setup in zip(names, setups)]
                servers = [pool.submit(Host, bundle, server.hostname,
                                       [nic.netdev for nic in server.nics if nic.rail is not None],
                                       tmp / server.hostname, ns) for server, ns in zip(servers, hosts)]
                for job in switches:
                    switch = job.result()
                    self.switches[switch.host] = switch
                for job in servers:
                    host = job.result()
                    self.hosts[host.host] = host
        except BaseException:
            self.close()
            raise

    def dump_all(self, folder: Path) -> Path:
        folder.mkdir(parents=True)
        devices = {**self.switches, **self.hosts}
        with ThreadPoolExecutor(WORKERS) as pool:
            for done in pool.map(lambda name: devices[name].dump(folder / name), devices):
                assert done.returncode == 0, done.stderr
        return folder

    def close(self) -> None:
        self.frr.stop()
        for switch in self.switches.values():
            switch.fake.close()
        for ns in self.namespaces:
            subprocess.run(["ip", "netns", "delete", ns], check=False)
        shutil.rmtree(self.work, ignore_errors=True)


def environment_problem() -> str | None:
    if os.geteuid() != 0:
        return "running switches and hosts in network namespaces needs root"
    for tool in ("ip", "redis-server", "redis-cli", "sysctl"):
        if shutil.which(tool) is None:
            return f"'{tool}' is not installed"
    return frr_problem()
