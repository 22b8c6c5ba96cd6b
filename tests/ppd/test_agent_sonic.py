"""rail-ppd-agent's sonic backend against a real redis-server laid out as SONiC's (tests/ppd/sonic_redis.py).

The pins are APPL_DB ACL_RULE_TABLE entries queued as swss-common's ProducerStateTable queues them; the
orchagent stand-in takes them in and gives the verdicts (orchagent itself cannot run here)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time

import pytest

from tests.ppd.agent_helpers import AGENT_PATH, ALL_UP, BOTH_ADVERTISE, fake_vtysh, write_pins
from tests.ppd.sonic_redis import Orchagent, SonicRedis, db_config

ON_240 = {"PRIORITY": "5000", "PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet240", "SRC_IP": "10.0.0.1/32"}
ON_248 = {"PRIORITY": "4999", "PACKET_ACTION": "REDIRECT:10.254.0.2@Ethernet248", "SRC_IP": "10.0.0.3/32"}


@pytest.fixture
def sonic(tmp_path):
    redis = SonicRedis(tmp_path)
    try:
        for p, hop in (("Ethernet240", "10.254.0.0"), ("Ethernet248", "10.254.0.2")):
            redis.cli("APPL_DB", "HSET", f"PORT_TABLE:{p}", "oper_status", "up", "admin_status", "up")
            redis.cli("APPL_DB", "HSET", f"NEIGH_TABLE:{p}:{hop}", "neigh", "02:00:00:00:00:01", "family", "IPv4")
        redis.cli("CONFIG_DB", "HSET", "ACL_RULE|PPD|LOCAL_1", "PRIORITY", "9000", "PACKET_ACTION", "FORWARD",
                  "DST_IP", "10.0.0.0/30")                            # config_db.json's own rule
        yield redis
    finally:
        redis.close()


def argv(verb, tmp_path, redis, *extra):
    return [sys.executable, str(AGENT_PATH), verb, "--backend", "sonic", "--pins", str(write_pins(tmp_path)),
            "--vtysh", fake_vtysh(tmp_path, ALL_UP, BOTH_ADVERTISE), "--db-config", str(redis.config), *extra]


def agent(verb, tmp_path, redis, *extra):
    done = subprocess.run(argv(verb, tmp_path, redis, *extra), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def held(redis):
    """What orchagent holds in APPL_DB ACL_RULE_TABLE: key -> fields."""
    return {k: redis.hash("APPL_DB", k) for k in redis.keys("APPL_DB", "ACL_RULE_TABLE:*")}


def test_pins_are_queued_in_appl_db_never_in_config_db_and_move_with_the_uplink(sonic, tmp_path):
    listener = subprocess.Popen(["redis-cli", "-p", str(sonic.port), "--raw", "SUBSCRIBE", "ACL_RULE_TABLE_CHANNEL@0"],
                                stdout=subprocess.PIPE, text=True)
    try:
        time.sleep(0.3)
        plan = agent("plan", tmp_path, sonic)
        assert ('+ APPL_DB ACL_RULE_TABLE:PPD:PIN_Ethernet0 {"PACKET_ACTION": "REDIRECT:10.254.0.0@Ethernet240"'
                in plan)
        assert sonic.keys("APPL_DB", "*ACL_RULE_TABLE*") == []              # plan wrote nothing
        agent("once", tmp_path, sonic)
        # Queued as ProducerStateTable queues: the hash under "_", the key in the key set, a PUBLISH.
        assert sorted(sonic.cli("APPL_DB", "--raw", "SMEMBERS", "ACL_RULE_TABLE_KEY_SET").split()) == [
            "PPD:PIN_Ethernet0", "PPD:PIN_Ethernet8"]
        assert sonic.hash("APPL_DB", "_ACL_RULE_TABLE:PPD:PIN_Ethernet0") == ON_240
    finally:
        listener.terminate()
    assert "G" in listener.communicate(timeout=10)[0].split()
    assert sonic.keys("CONFIG_DB", "ACL_RULE|*") == ["ACL_RULE|PPD|LOCAL_1"]      # CONFIG_DB: no pin
    orch = Orchagent(sonic)
    orch.consume()
    assert held(sonic) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0": ON_240, "ACL_RULE_TABLE:PPD:PIN_Ethernet8": ON_248}
    shown = json.loads(agent("show", tmp_path, sonic))
    assert shown["rules"] == {"PPD|PIN_Ethernet0": ON_240, "PPD|PIN_Ethernet8": ON_248}
    assert shown["status"] == {"PPD|PIN_Ethernet0": "Active", "PPD|PIN_Ethernet8": "Active"}
    assert agent("plan", tmp_path, sonic).strip() == "0 change(s)"
    # The uplink goes oper-down (portsorch writes APPL_DB): the pin moves, under its other name.
    sonic.cli("APPL_DB", "HSET", "PORT_TABLE:Ethernet240", "oper_status", "down")
    assert "1 change(s)" in agent("once", tmp_path, sonic)
    orch.consume()
    moved = dict(ON_240, PACKET_ACTION="REDIRECT:10.254.0.2@Ethernet248")
    assert held(sonic) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0_ALT": moved, "ACL_RULE_TABLE:PPD:PIN_Ethernet8": ON_248}
    assert json.loads(agent("show", tmp_path, sonic))["rules"]["PPD|PIN_Ethernet0"] == moved
    # Back up, but its neighbour is not known yet: orchagent would reject the redirect, so the agent waits.
    sonic.cli("APPL_DB", "HSET", "PORT_TABLE:Ethernet240", "oper_status", "up")
    sonic.cli("APPL_DB", "DEL", "NEIGH_TABLE:Ethernet240:10.254.0.0")
    assert "0 change(s)" in agent("once", tmp_path, sonic)
    sonic.cli("APPL_DB", "HSET", "NEIGH_TABLE:Ethernet240:10.254.0.0", "neigh", "02:00:00:00:00:01")
    assert "+ APPL_DB ACL_RULE_TABLE:PPD:PIN_Ethernet0 " in agent("plan", tmp_path, sonic)   # back to the primary
    assert agent("remove", tmp_path, sonic).strip() == "removed 2 rule(s)"
    orch.consume()
    assert held(sonic) == {} and sonic.keys("STATE_DB", "*") == []
    assert sonic.keys("CONFIG_DB", "ACL_RULE|*") == ["ACL_RULE|PPD|LOCAL_1"]


def monitor(redis):
    proc = subprocess.Popen(["redis-cli", "-p", str(redis.port), "MONITOR"], stdout=subprocess.PIPE, text=True)
    time.sleep(0.3)
    return proc


def commands(proc):
    proc.terminate()
    return [line.split("]", 1)[1].strip() for line in proc.communicate(timeout=10)[0].splitlines() if "]" in line]


def first(lines, text):
    return next(i for i, line in enumerate(lines) if text in line)


def test_a_moved_pin_and_an_older_agents_config_db_pin_are_written_before_the_old_one_goes(sonic, tmp_path):
    # An older agent kept the pins in CONFIG_DB; orchagent holds them as rules PPD|PIN_Ethernet0 and 8.
    for name, fields in (("PIN_Ethernet0", ON_240), ("PIN_Ethernet8", ON_248)):
        sonic.cli("CONFIG_DB", "HSET", f"ACL_RULE|PPD|{name}", *[x for kv in fields.items() for x in kv])
        sonic.cli("STATE_DB", "HSET", f"ACL_RULE_TABLE|PPD|{name}", "status", "Active")
    watch = monitor(sonic)
    out = agent("once", tmp_path, sonic)
    lines = commands(watch)
    assert "moved 2 rule(s) of an older agent out of CONFIG_DB" in out
    # Under the other name (the same name would be the same AclOrch rule, which the CONFIG_DB delete removes),
    # queued first, the old rule deleted after.
    assert first(lines, '"SADD" "ACL_RULE_TABLE_KEY_SET" "PPD:PIN_Ethernet0_ALT"') < first(
        lines, '"DEL" "ACL_RULE|PPD|PIN_Ethernet0"')
    assert sonic.keys("CONFIG_DB", "ACL_RULE|*") == ["ACL_RULE|PPD|LOCAL_1"]
    orch = Orchagent(sonic)
    orch.consume()
    assert set(held(sonic)) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0_ALT", "ACL_RULE_TABLE:PPD:PIN_Ethernet8_ALT"}
    # A failover: the new rule is queued and its verdict awaited before the old one is deleted.
    sonic.cli("APPL_DB", "HSET", "PORT_TABLE:Ethernet240", "oper_status", "down")
    watch = monitor(sonic)
    agent("once", tmp_path, sonic)
    lines = commands(watch)
    queued = first(lines, '"SADD" "ACL_RULE_TABLE_KEY_SET" "PPD:PIN_Ethernet0"')
    asked = first(lines, '"HGET" "ACL_RULE_TABLE|PPD|PIN_Ethernet0" "status"')
    dropped = first(lines, '"SADD" "ACL_RULE_TABLE_DEL_SET" "PPD:PIN_Ethernet0_ALT"')
    assert queued < asked < dropped
    orch.consume()
    assert set(held(sonic)) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0", "ACL_RULE_TABLE:PPD:PIN_Ethernet8_ALT"}


class Running:
    """``rail-ppd-agent.py run`` in the background, its log lines collected."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        self.reader = threading.Thread(target=lambda: self.lines.extend(iter(self.proc.stdout.readline, "")),
                                       daemon=True)
        self.reader.start()

    def changes(self):
        return [line for line in self.lines if " change(s)" in line]

    def wait(self, predicate, what, timeout=20.0):
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, f"{what}: {self.lines}"
            time.sleep(0.02)

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.reader.join(timeout=5)
        assert self.proc.returncode == 0, self.lines


def test_a_restarted_agent_rewrites_every_inactive_rule_it_owns_in_its_first_pass(sonic, tmp_path):
    # What the agent wrote before its restart: held by orchagent, both marked Inactive (sonic-buildimage
    # issue 4457: the next hop was unknown when orchagent read them, and it does not retry).
    for name, fields in (("PIN_Ethernet0", ON_240), ("PIN_Ethernet8", ON_248)):
        sonic.cli("APPL_DB", "HSET", f"ACL_RULE_TABLE:PPD:{name}", *[x for kv in fields.items() for x in kv])
        sonic.cli("STATE_DB", "HSET", f"ACL_RULE_TABLE|PPD|{name}", "status", "Inactive")
    run = Running(argv("run", tmp_path, sonic))        # shipped interval and retry delay
    try:
        run.wait(lambda: run.changes(), "the agent made no first pass")
        assert run.changes()[0].split()[1] == "2"       # its first pass: both
        Orchagent(sonic).consume()
        assert set(held(sonic)) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0_ALT", "ACL_RULE_TABLE:PPD:PIN_Ethernet8_ALT"}
    finally:
        run.stop()


def test_run_reacts_to_events_rewrites_what_orchagent_rejected_and_repins_after_a_flush(sonic, tmp_path):
    run = Running(argv("run", tmp_path, sonic, "--interval", "5", "--retry-after", "1"))
    reject = {"PIN_Ethernet0_ALT"}
    orch = Orchagent(sonic, verdict=lambda name: "Inactive" if name in reject else "Active")
    try:
        run.wait(lambda: len(run.changes()) == 1, "the agent never wrote its rules")
        orch.consume()
        # An uplink down is an APPL_DB keyspace event: the pin moves well before the 5 s interval.
        start = time.monotonic()
        sonic.cli("APPL_DB", "HSET", "PORT_TABLE:Ethernet240", "oper_status", "down")
        run.wait(lambda: len(run.changes()) == 2, "no pass on the port event")
        assert time.monotonic() - start < 2.0
        orch.consume()                                  # PIN_Ethernet0_ALT is rejected (Inactive)
        run.wait(lambda: len(run.changes()) == 3, "the rejected rule was not written again")
        assert run.changes()[2].split()[1] == "1"
        reject.clear()
        orch.consume()
        assert set(held(sonic)) == {"ACL_RULE_TABLE:PPD:PIN_Ethernet0", "ACL_RULE_TABLE:PPD:PIN_Ethernet8"}
        time.sleep(1.5)
        assert len(run.changes()) == 3                  # nothing rewritten once Active
        # `config reload` / a swss restart empties APPL_DB (portsorch and neighsyncd fill it again).
        sonic.cli("APPL_DB", "FLUSHDB")
        sonic.cli("STATE_DB", "FLUSHDB")
        for p, hop in (("Ethernet240", "10.254.0.0"), ("Ethernet248", "10.254.0.2")):
            sonic.cli("APPL_DB", "HSET", f"PORT_TABLE:{p}", "oper_status", "up")
            sonic.cli("APPL_DB", "HSET", f"NEIGH_TABLE:{p}:{hop}", "neigh", "02:00:00:00:00:01")
        run.wait(lambda: len(run.changes()) == 4, "the agent did not pin again after the flush")
        orch.consume()
        assert len(held(sonic)) == 2
    finally:
        run.stop()


def test_databases_split_across_redis_instances_are_refused(sonic, tmp_path):
    split = tmp_path / "split.json"
    split.write_text(json.dumps(db_config(sonic.port, split=True)))
    done = subprocess.run([*argv("once", tmp_path, sonic)[:-1], str(split)], capture_output=True, text=True)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "different redis instances (APPL_DB on redis, CONFIG_DB on redis, STATE_DB on redis2)" in done.stderr
