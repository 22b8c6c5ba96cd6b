"""rail-ppd-agent's two backends for real: ``linux`` on ip rules in a network namespace (root), ``sonic``
on CONFIG_DB / APPL_DB / STATE_DB held by a real redis-server.

For the sonic backend, ``sonic-db-cli`` is a minimal test shim (`SHIM`) that maps the database names to
SONiC's redis numbers and prints what sonic-db-cli prints; orchagent itself is not run, so the test plays
its part by writing the rule status orchagent writes to STATE_DB (``ACL_RULE_TABLE|<table>|<rule>``).
"""

from __future__ import annotations

import ast
import os
import shutil
import socket
import subprocess
import sys
import threading
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
    assert agent("plan", "linux", pins, vtysh, ns=leaf_ns).strip() == "0 change(s)"
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


# ---------------------------------------------------------------------------------------------- sonic
DB_NUMBERS = {"APPL_DB": 0, "CONFIG_DB": 4, "STATE_DB": 6}      # SONiC's database_config.json numbering
SHIM = '''import ast, subprocess, sys
PORT, NUMBERS = {port}, {numbers!r}
db, *command = sys.argv[1:]
done = subprocess.run(["redis-cli", "-p", str(PORT), "-n", str(NUMBERS[db]), *command], capture_output=True, text=True)
out = done.stdout.rstrip("\\n")
if command[0].lower() == "hgetall":      # sonic-db-cli prints a hash as a Python dict
    items = out.splitlines()
    out = repr(dict(zip(items[0::2], items[1::2])))
print(out)
sys.exit(done.returncode)
'''


@pytest.fixture
def redis(tmp_path):
    server = shutil.which("redis-server")
    need(server is not None and shutil.which("redis-cli") is not None, "needs redis-server and redis-cli (install redis-server)")
    with socket.socket() as s:                    # a free port on loopback
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", str(tmp_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            ping = subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                break
            time.sleep(0.05)
        shim = tmp_path / "sonic-db-cli"
        shim.write_text(SHIM.format(port=port, numbers=DB_NUMBERS))
        yield port, f"{sys.executable} {shim}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _db(port, db, *args):
    return subprocess.run(["redis-cli", "-p", str(port), "-n", str(DB_NUMBERS[db]), *args], capture_output=True,
                          text=True, check=True).stdout


def _acl(port):
    keys = sorted(_db(port, "CONFIG_DB", "keys", "ACL_RULE|*").split())
    return {k: dict(zip(*[iter(_db(port, "CONFIG_DB", "hgetall", k).split())] * 2)) for k in keys}


def test_sonic_backend_writes_acl_redirects_moves_them_and_rewrites_what_orchagent_rejected(redis, tmp_path):
    port, db_cli = redis
    pins = write_pins(tmp_path)
    vtysh = fake_vtysh(tmp_path, ALL_UP, BOTH_ADVERTISE)
    for p in ("Ethernet240", "Ethernet248"):
        _db(port, "APPL_DB", "hset", f"PORT_TABLE:{p}", "oper_status", "up", "admin_status", "up")
    _db(port, "APPL_DB", "hset", "NEIGH_TABLE:Ethernet240:10.254.0.0", "neigh", "02:00:00:00:00:01", "family", "IPv4")
    _db(port, "APPL_DB", "hset", "NEIGH_TABLE:Ethernet248:10.254.0.2", "neigh", "02:00:00:00:00:02", "family", "IPv4")
    _db(port, "CONFIG_DB", "hset", "ACL_RULE|PPD|LOCAL_1", "PRIORITY", "9000", "PACKET_ACTION", "FORWARD",
        "DST_IP", "10.0.0.0/30")                                       # config_db.json's own rule
    args = ("--db-cli", db_cli)
    plan = agent("plan", "sonic", pins, vtysh, *args)
    assert '+ ACL_RULE|PPD|PIN_Ethernet0 {"PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet240"' in plan
    assert list(_acl(port)) == ["ACL_RULE|PPD|LOCAL_1"]                # plan wrote nothing
    agent("once", "sonic", pins, vtysh, *args)
    assert _acl(port) == {
        "ACL_RULE|PPD|LOCAL_1": {"PRIORITY": "9000", "PACKET_ACTION": "FORWARD", "DST_IP": "10.0.0.0/30"},
        "ACL_RULE|PPD|PIN_Ethernet0": {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet240",
                                       "SRC_IP": "10.0.0.1/32"},
        "ACL_RULE|PPD|PIN_Ethernet8": {"PRIORITY": "4999", "PACKET_ACTION": "REDIRECT:10.254.0.2@Ethernet248",
                                       "SRC_IP": "10.0.0.3/32"}}
    # The uplink goes oper-down (portsorch writes APPL_DB): the pin follows the next candidate.
    _db(port, "APPL_DB", "hset", "PORT_TABLE:Ethernet240", "oper_status", "down")
    agent("once", "sonic", pins, vtysh, *args)
    assert _acl(port)["ACL_RULE|PPD|PIN_Ethernet0"]["PACKET_ACTION"] == "REDIRECT:10.254.0.2@Ethernet248"
    _db(port, "APPL_DB", "hset", "PORT_TABLE:Ethernet240", "oper_status", "up")
    # Its neighbour is not known yet: orchagent would reject the redirect, so the agent waits for it.
    _db(port, "APPL_DB", "del", "NEIGH_TABLE:Ethernet240:10.254.0.0")
    agent("once", "sonic", pins, vtysh, *args)
    assert _acl(port)["ACL_RULE|PPD|PIN_Ethernet0"]["PACKET_ACTION"] == "REDIRECT:10.254.0.2@Ethernet248"
    _db(port, "APPL_DB", "hset", "NEIGH_TABLE:Ethernet240:10.254.0.0", "neigh", "02:00:00:00:00:01")
    assert "+ ACL_RULE|PPD|PIN_Ethernet0" in agent("plan", "sonic", pins, vtysh, *args)    # back to the primary
    removed = agent("remove", "sonic", pins, vtysh, *args)
    assert removed.strip() == "removed 2 rule(s)" and list(_acl(port)) == ["ACL_RULE|PPD|LOCAL_1"]


def _wait(predicate, what, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_sonic_backend_run_rewrites_a_rule_orchagent_marked_inactive(redis, tmp_path):
    port, db_cli = redis
    pins = write_pins(tmp_path)
    vtysh = fake_vtysh(tmp_path, ALL_UP, BOTH_ADVERTISE)
    for p, hop in (("Ethernet240", "10.254.0.0"), ("Ethernet248", "10.254.0.2")):
        _db(port, "APPL_DB", "hset", f"PORT_TABLE:{p}", "oper_status", "up")
        _db(port, "APPL_DB", "hset", f"NEIGH_TABLE:{p}:{hop}", "neigh", "02:00:00:00:00:01")
    proc = subprocess.Popen([sys.executable, str(AGENT_PATH), "run", "--backend", "sonic", "--pins", str(pins),
                             "--vtysh", vtysh, "--db-cli", db_cli, "--interval", "0.3", "--retry-after", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)
    reader.start()
    changes = lambda: [line for line in lines if " change(s)" in line]          # noqa: E731
    try:
        _wait(lambda: len(changes()) == 1, "the agent never wrote its rules")
        assert changes()[0].split()[1] == "2"
        # orchagent could not resolve PIN_Ethernet0's next hop when it read the rule (sonic-buildimage
        # issue 4457): it marks the rule Inactive and never retries. Playing its part:
        _db(port, "STATE_DB", "hset", "ACL_RULE_TABLE|PPD|PIN_Ethernet8", "status", "Active")
        _db(port, "STATE_DB", "hset", "ACL_RULE_TABLE|PPD|PIN_Ethernet0", "status", "Inactive")
        _wait(lambda: len(changes()) == 2, "the agent did not write the rejected rule again")
        assert changes()[1].split()[1] == "1"
        _db(port, "STATE_DB", "hset", "ACL_RULE_TABLE|PPD|PIN_Ethernet0", "status", "Active")   # accepted now
        time.sleep(1.5)
        assert len(changes()) == 2                                  # nothing rewritten once Active
        assert _acl(port)["ACL_RULE|PPD|PIN_Ethernet0"] == {
            "PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet240", "SRC_IP": "10.0.0.1/32"}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        reader.join(timeout=5)
    assert proc.returncode == 0, lines


def test_the_shim_prints_hashes_like_sonic_db_cli(redis):
    port, db_cli = redis
    _db(port, "CONFIG_DB", "hset", "X|y", "a", "1")
    out = subprocess.run([*db_cli.split(), "CONFIG_DB", "hgetall", "X|y"], capture_output=True, text=True).stdout
    assert ast.literal_eval(out.strip()) == {"a": "1"}
