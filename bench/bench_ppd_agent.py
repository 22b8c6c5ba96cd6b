"""Benchmark: one PPD agent pass on a SONiC leaf, before (CONFIG_DB through sonic-db-cli) and after
(APPL_DB over one persistent redis connection).

    .venv/bin/python bench/bench_ppd_agent.py [--before REV] [--passes N]

For the first leaf of a B200 SuperPOD (b200-superpod) and of a twin-plane leaf (twin-plane-800g): the
leaf's exported ppd-pins.json, a real redis-server laid out as SONiC's (APPL_DB 0, CONFIG_DB 4,
STATE_DB 6) with every uplink up and resolved, and a vtysh stand-in answering with every session
Established (one subprocess a pass in both agents). The agent before is ``git show REV:resources/ppd/
rail-ppd-agent.py`` (REV defaults to the last commit with the CONFIG_DB agent), given a sonic-db-cli that
is redis-cli with SONiC's database numbers, as on a switch. Each agent makes a first pass (it writes the
pins), then N steady passes; the figures are subprocesses and wall ms per steady pass, and for the
failover pass (one uplink oper-down: every pin on it moves). For the agent after, an orchagent stand-in
(subscribed to ACL_RULE_TABLE_CHANNEL@0: it takes the queued rules in and marks them Active) answers the
agent's make-before-break wait as orchagent would; without it the wait runs its full 1 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from designer.export import export  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402
from designer.storage.presets import load_preset  # noqa: E402
from tests.ppd.sonic_redis import CONSUMER_POP  # noqa: E402  (the stand-in ConsumerStateTable pop)

BEFORE = "e3763ba"                  # the last commit whose agent kept the pins in CONFIG_DB
NUMBERS = {"APPL_DB": 0, "CONFIG_DB": 4, "STATE_DB": 6}
VTYSH = '''import json, sys
state = json.load(open(sys.argv[1]))
for i, arg in enumerate(sys.argv):
    if arg == "-c":
        if "summary" in sys.argv[i + 1]:
            print(json.dumps({"peers": {ip: {"state": "Established"} for ip in state["hops"]}}))
        else:
            print(json.dumps({"routes": {p: [{"valid": True, "peerId": ip} for ip in state["hops"]]
                                          for p in state["destinations"]}}))
'''


def leaf_pins(preset: str, out: Path) -> Path:
    fabric = build(load_preset(preset).spec(), builtin_catalog())
    export(fabric, out, only=["switches", "ppd"])
    return next(p for p in sorted((out / "switches").glob("*/ppd-pins.json")))


def load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Counted:
    """subprocess.run and Popen as the agent module sees them, counting the calls."""

    def __init__(self, module):
        self.calls, real_run = 0, subprocess.run

        def run(*args, **kwargs):
            self.calls += 1
            return real_run(*args, **kwargs)
        module.subprocess = type("counted", (), {"run": staticmethod(run), "Popen": subprocess.Popen,
                                                 "PIPE": subprocess.PIPE, "DEVNULL": subprocess.DEVNULL,
                                                 "TimeoutExpired": subprocess.TimeoutExpired})


def redis_server(tmp: Path) -> tuple[subprocess.Popen, int]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly",
                             "no", "--dir", str(tmp), "--notify-keyspace-events", "AKE"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout.strip() == "PONG":
            return proc, port
        time.sleep(0.05)
    raise SystemExit("redis-server did not start")


def cli(port: int, db: str, *args: str) -> None:
    subprocess.run(["redis-cli", "-p", str(port), "-n", str(NUMBERS[db]), *args], check=True, capture_output=True)


class OrchagentStandIn(threading.Thread):
    """On every PUBLISH on ACL_RULE_TABLE_CHANNEL@0: the queued rules into the table, each marked Active."""

    def __init__(self, agent, port: int):
        super().__init__(daemon=True)
        self.sub, self.db = agent.Redis(("tcp", "127.0.0.1", port)), agent.Redis(("tcp", "127.0.0.1", port))
        self.sub.pipeline([("SUBSCRIBE", "ACL_RULE_TABLE_CHANNEL@0")])
        self.sub.sock.settimeout(None)

    def run(self):
        while True:
            try:
                self.sub.reply()
            except OSError:
                return
            (flat,) = self.db.pipeline([("EVAL", CONSUMER_POP, 2, "ACL_RULE_TABLE_KEY_SET", "ACL_RULE_TABLE_DEL_SET",
                                         "ACL_RULE_TABLE:")])
            keys = [k for k, n in zip(flat[0::2], flat[1::2]) if n]
            if keys:
                self.db.pipeline([("SELECT", 6), *[("HSET", "ACL_RULE_TABLE|" + k.replace(":", "|", 1), "status",
                                                    "Active") for k in keys], ("SELECT", 0)])


def measure(agent, backend, pins: dict, port: int, passes: int, counter: Counted) -> dict:
    first_up = next(iter(pins["uplinks"]))
    agent.one_pass(backend, pins)                            # writes the pins
    counter.calls, start = 0, time.perf_counter()
    for _ in range(passes):
        assert agent.one_pass(backend, pins) == 0
    steady = (counter.calls / passes, (time.perf_counter() - start) * 1000 / passes)
    cli(port, "APPL_DB", "HSET", f"PORT_TABLE:{first_up}", "oper_status", "down")
    counter.calls, start = 0, time.perf_counter()
    moved = agent.one_pass(backend, pins)
    failover = (counter.calls, (time.perf_counter() - start) * 1000, moved)
    cli(port, "APPL_DB", "HSET", f"PORT_TABLE:{first_up}", "oper_status", "up")
    return {"steady": steady, "failover": failover}


def run_case(preset: str, before_src: str, passes: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="rdbench-ppd-"))
    proc, port = redis_server(tmp)
    try:
        pins_path = leaf_pins(preset, tmp / "bundle")
        raw = json.loads(pins_path.read_text())
        (tmp / "bgp.json").write_text(json.dumps({"hops": [u["next_hop"] for u in raw["uplinks"].values()],
                                                  "destinations": raw["destinations"]}))
        (tmp / "vtysh.py").write_text(VTYSH)
        vtysh = [sys.executable, str(tmp / "vtysh.py"), str(tmp / "bgp.json")]
        (tmp / "sonic-db-cli").write_text("#!/bin/sh\ncase \"$1\" in APPL_DB) n=0 ;; CONFIG_DB) n=4 ;; STATE_DB) n=6 ;; "
                                          f"esac\nshift\nexec redis-cli -p {port} -n \"$n\" \"$@\"\n")
        (tmp / "sonic-db-cli").chmod(0o755)
        (tmp / "database_config.json").write_text(json.dumps({
            "INSTANCES": {"redis": {"hostname": "127.0.0.1", "port": port}},
            "DATABASES": {n: {"id": i, "separator": ":", "instance": "redis"} for n, i in NUMBERS.items()}}))
        (tmp / "before.py").write_text(before_src)
        results = {}
        for label, path in (("before", tmp / "before.py"), ("after", ROOT / "resources/ppd/rail-ppd-agent.py")):
            subprocess.run(["redis-cli", "-p", str(port), "FLUSHALL"], check=True, capture_output=True)
            for p, u in raw["uplinks"].items():
                cli(port, "APPL_DB", "HSET", f"PORT_TABLE:{p}", "oper_status", "up")
                cli(port, "APPL_DB", "HSET", f"NEIGH_TABLE:{p}:{u['next_hop']}", "neigh", "02:00:00:00:00:01")
            agent = load(path, f"agent_{label}")
            agent.log = lambda text: None
            counter = Counted(agent)
            if label == "after":
                OrchagentStandIn(agent, port).start()
            pins = agent.load_pins(str(pins_path))
            if label == "before":
                backend = agent.SonicBackend(pins, vtysh, [str(tmp / "sonic-db-cli")])
            else:
                backend = agent.SonicBackend(pins, vtysh, str(tmp / "database_config.json"))
            results[label] = measure(agent, backend, pins, port, passes, counter)
        print(f"{preset} leaf {raw['hostname']}: {len(raw['pins'])} pins, {len(raw['uplinks'])} uplinks, "
              f"{len(raw['destinations'])} destinations")
        for label, r in results.items():
            calls, ms = r["steady"]
            fcalls, fms, moved = r["failover"]
            print(f"  {label:6}  steady pass: {calls:5.0f} subprocesses {ms:8.1f} ms   "
                  f"uplink-down pass: {fcalls:4d} subprocesses {fms:8.1f} ms ({moved} rule(s) moved)")
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default=BEFORE, metavar="REV", help=f"the agent to compare with (default {BEFORE})")
    parser.add_argument("--passes", type=int, default=10, metavar="N", help="steady passes to time (default 10)")
    args = parser.parse_args()
    before = subprocess.run(["git", "-C", str(ROOT), "show", f"{args.before}:resources/ppd/rail-ppd-agent.py"],
                            capture_output=True, text=True)
    if before.returncode != 0:
        raise SystemExit(f"git show {args.before}:resources/ppd/rail-ppd-agent.py: {before.stderr.strip()}")
    for preset in ("b200-superpod", "twin-plane-800g"):
        run_case(preset, before.stdout, args.passes)


if __name__ == "__main__":
    main()
