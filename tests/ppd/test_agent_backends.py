"""rail-ppd-agent's linux backend for real: ip rules in a network namespace (root). The sonic backend,
on a real redis-server, is tests/ppd/test_agent_sonic.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import pytest

from tests.ppd.agent_helpers import AGENT_PATH, ALL_UP, BOTH_ADVERTISE, fake_vtysh, set_bgp, write_pins
from tests.ci import need

NS = f"rdppd{os.getpid()}"


def agent(verb, backend, pins, vtysh, *extra, ns=None):
    argv = [sys.executable, str(AGENT_PATH), verb, "--backend", backend, "--pins", str(pins), "--vtysh", vtysh, *extra]
    done = subprocess.run((["ip", "netns", "exec", ns] if ns else []) + argv, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


# ---------------------------------------------------------------------------------------------- linux
def _ip(*args):
    return subprocess.run(["ip", "-n", NS, *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def leaf_ns():
    need(os.geteuid() == 0 and shutil.which("ip") is not None, "needs root and iproute2 (network namespaces)")
    subprocess.run(["ip", "netns", "add", NS], check=True)
    try:
        for port, peer in (("Ethernet240", "s240"), ("Ethernet248", "s248"), ("Ethernet0", "h0"), ("Ethernet8", "h8")):
            _ip("link", "add", port, "type", "veth", "peer", "name", peer)
            _ip("link", "set", port, "up")
            _ip("link", "set", peer, "up")
        for port, local, hop in (("Ethernet240", "10.254.0.1/31", "10.254.0.0"), ("Ethernet248", "10.254.0.3/31",
                                                                                  "10.254.0.2")):
            _ip("address", "add", local, "dev", port)
            _ip("neigh", "replace", hop, "lladdr", "02:00:00:00:00:01", "dev", port, "nud", "permanent")
        yield NS
    finally:
        subprocess.run(["ip", "netns", "del", NS], check=True)


def _rules():
    return [line.strip() for line in _ip("-4", "rule", "show").splitlines() if "proto 208" in line]


def test_linux_backend_installs_moves_and_removes_its_rules(leaf_ns, tmp_path):
    pins = write_pins(tmp_path)
    vtysh = fake_vtysh(tmp_path, ALL_UP, BOTH_ADVERTISE)
    assert "+ ip rule add from 10.0.0.1/32 iif Ethernet0 lookup 200 pref 5000" in agent("plan", "linux", pins, vtysh,
                                                                                       ns=leaf_ns)
    assert _rules() == []                                                  # plan changed nothing
    agent("once", "linux", pins, vtysh, ns=leaf_ns)
    assert _rules() == ["5000:\tfrom 10.0.0.1 iif Ethernet0 lookup 200 proto 208",
                        "5001:\tfrom 10.0.0.3 iif Ethernet8 lookup 201 proto 208"]
    assert "default via 10.254.0.0 dev Ethernet240" in _ip("route", "show", "table", "200")
    assert "blackhole default proto 208 metric 4294967295" in _ip("route", "show", "table", "200")   # no fallthrough
    assert agent("plan", "linux", pins, vtysh, ns=leaf_ns).strip() == "0 change(s)"
    shown = json.loads(agent("show", "linux", pins, vtysh, ns=leaf_ns))["rules"]
    assert "from 10.0.0.1/32 iif Ethernet0 lookup 200 pref 5000" in shown and len(shown) == 2
    # The primary's peer loses carrier: its source moves to the other uplink, then back.
    _ip("link", "set", "s240", "down")
    agent("once", "linux", pins, vtysh, ns=leaf_ns)
    assert _rules()[0] == "5000:\tfrom 10.0.0.1 iif Ethernet0 lookup 201 proto 208"
    _ip("link", "set", "s240", "up")
    time.sleep(0.2)
    agent("once", "linux", pins, vtysh, ns=leaf_ns)
    assert _rules()[0] == "5000:\tfrom 10.0.0.1 iif Ethernet0 lookup 200 proto 208"
    # spine-02 lost 10.0.0.4/30: the source pinned there reaches it by spine-01, above its pin.
    set_bgp(tmp_path, ALL_UP, {"10.0.0.4/30": ["10.254.0.0"], "10.0.0.8/30": ["10.254.0.0", "10.254.0.2"]})
    agent("once", "linux", pins, vtysh, ns=leaf_ns)
    assert "2001:\tfrom 10.0.0.3 to 10.0.0.4/30 iif Ethernet8 lookup 200 proto 208" in _rules()
    # A rule someone else added is not the agent's: remove leaves it.
    _ip("rule", "add", "from", "10.9.9.9", "lookup", "main", "pref", "5000")
    assert "removed 3 rule(s)" in agent("remove", "linux", pins, vtysh, ns=leaf_ns)
    assert _rules() == [] and "from 10.9.9.9 lookup main" in _ip("rule", "show")
    assert _ip("route", "show", "table", "200") == ""
