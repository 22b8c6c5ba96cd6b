"""Host files checked by the real tools: `netplan generate`, and policy-routing.sh run twice in a netns."""

from __future__ import annotations

import os
import subprocess

import pytest

from designer.export.hosts import PARTS

from tests.ci import need
from tests.export.helpers_hosts import fabric, need_tool

HOSTS = PARTS[0]
CASES = [("default", "su2-srv03"), ("rail-optimized-64x4", "su1-srv64"), ("twin-plane-800g", "su1-srv02")]


def host_files(preset: str, server: str) -> dict[str, str]:
    f = fabric(preset)
    return {path.rsplit("/", 1)[1]: text for path, text in HOSTS.render_device(f, server).items()}


@pytest.mark.parametrize("preset,server", CASES)
def test_netplan_generate_accepts_the_file(tmp_path, preset, server):
    netplan = need_tool("netplan")
    files = host_files(preset, server)
    target = tmp_path / "etc" / "netplan" / "50-rail.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(files["netplan.yaml"])
    target.chmod(0o600)
    run = subprocess.run([netplan, "generate", "--root-dir", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "Permissions" not in run.stderr, run.stderr
    networks = sorted((tmp_path / "run" / "systemd" / "network").glob("*.network"))
    text = "".join(p.read_text() for p in networks)
    data = fabric(preset)
    nics = [n for n in data.servers[server].nics if n.rail is not None]
    assert len(networks) == len(nics)
    assert text.count("[RoutingPolicyRule]") == len(nics)
    for nic in nics:
        assert f"Address={data.addresses[nic.id]}" in text
        assert f"Table={100 + nic.rail}" in text and f"Priority={1000 + nic.rail}" in text


def test_netplan_generate_rejects_a_broken_file(tmp_path):
    """The check above is only worth something if netplan really parses the file."""
    netplan = need_tool("netplan")
    text = host_files("default", "su1-srv01")["netplan.yaml"].replace("table: 100", "table: lots")
    target = tmp_path / "etc" / "netplan" / "50-rail.yaml"
    target.parent.mkdir(parents=True)
    target.write_text(text)
    target.chmod(0o600)
    run = subprocess.run([netplan, "generate", "--root-dir", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode != 0


def _ns(ns: str, *cmd: str) -> str:
    return subprocess.run(["ip", "netns", "exec", ns, *cmd], check=True, capture_output=True, text=True).stdout


def _state(ns: str) -> str:
    # IPv4 only: the script sets no IPv6, and the kernel's own link-local addresses (and their local
    # routes) finish duplicate address detection on their own time, so two looks under load could differ.
    return "\n".join([_ns(ns, "ip", "rule", "show"), _ns(ns, "ip", "-4", "route", "show", "table", "all"),
                      _ns(ns, "ip", "-4", "-o", "address", "show")])


def _add_link(ns: str, name: str, peer: str) -> None:
    """A stand-in for a rail NIC: a dummy link, or (kernels without the dummy module) a veth pair."""
    dummy = subprocess.run(["ip", "netns", "exec", ns, "ip", "link", "add", name, "type", "dummy"],
                           capture_output=True)
    if dummy.returncode != 0:
        _ns(ns, "ip", "link", "add", name, "type", "veth", "peer", "name", peer)
        _ns(ns, "ip", "link", "set", peer, "up")


@pytest.mark.parametrize("preset,server", CASES)
def test_policy_routing_script_is_idempotent_in_a_netns(tmp_path, preset, server):
    need(os.geteuid() == 0, "creating a network namespace needs root")
    need_tool("ip")
    need(subprocess.run(["ip", "netns", "list"], capture_output=True).returncode == 0, "'ip netns' is unavailable")
    files = host_files(preset, server)
    script = tmp_path / "policy-routing.sh"
    script.write_text(files["policy-routing.sh"])
    script.chmod(0o755)
    netdevs = [n.netdev for n in fabric(preset).servers[server].nics if n.rail is not None]
    ns = f"rdtest-{os.getpid()}"
    subprocess.run(["ip", "netns", "add", ns], check=True)
    try:
        # the plan is IPv4; IPv6 link-local addresses would come up on their own, between two snapshots
        for scope in ("all", "default"):
            _ns(ns, "sysctl", "-q", "-w", f"net.ipv6.conf.{scope}.disable_ipv6=1")
        for n, dev in enumerate(netdevs):
            _add_link(ns, dev, f"rdpeer{n}")
        _ns(ns, "bash", str(script))
        first = _state(ns)
        _ns(ns, "bash", str(script))
        second = _state(ns)
        assert first == second
        rules = _ns(ns, "ip", "rule", "show")
        for nic in fabric(preset).servers[server].nics:
            if nic.rail is not None:
                addr = fabric(preset).addresses[nic.id].split("/")[0]
                table = 100 + 100 * nic.fabric_plane + nic.rail        # each plane's port its own table
                assert rules.count(f"{1000 + 100 * nic.fabric_plane + nic.rail}:\tfrom {addr} lookup {table}") == 1, rules
        assert len(rules.strip().splitlines()) == 3 + len(netdevs)    # local, main, default + one per NIC
        routes = _ns(ns, "ip", "route", "show", "table", "all")
        assert routes.count("default via") == len(netdevs)
    finally:
        subprocess.run(["ip", "netns", "delete", ns], check=False)
