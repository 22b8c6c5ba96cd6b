"""A stand-in SONiC for the switch deploy script: a real redis-server holds CONFIG_DB (database 4,
``TABLE|key`` hashes, list fields as ``field@`` = "a,b" as SONiC's ConfigDBConnector stores them),
and stub ``config``, ``sonic-cfggen``, ``sonic-db-cli`` and ``systemctl`` commands that record every call and do to
that database what SONiC's do (load = merge field by field, reload = flush then load, save = dump). The
staged agent is a stub too (apply never runs it; rollback's ``remove`` deletes PIN_ rules), except that
``show`` runs the real agent; ``var/run/redis/sonic-db/database_config.json`` names the redis.
What this cannot prove: orchagent, bgpcfgd and FRR reacting to the data (no SONiC image here)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

from tests.ci import yang_dir
from tests.ppd.sonic_redis import db_config

CONFIG_DB = "4"
SONIC_YANG_API = Path(__file__).resolve().parent / "sonic_yang_api"     # sonic_yang, on PYTHONPATH

# Each stub talks to redis through redis-cli, one EVAL per dump or load (fast enough for tests).
_DB = '''
import json, os, subprocess, sys
DUMP = "local o = {} for _, k in ipairs(redis.call('KEYS', '*')) do o[k] = redis.call('HGETALL', k) end " \\
       "return cjson.encode(o)"
LOAD = "for k, f in pairs(cjson.decode(ARGV[1])) do redis.call('HSET', k, unpack(f)) end return 1"
def cli(*args):
    return subprocess.run(["redis-cli", "-p", os.environ["RAIL_TEST_REDIS_PORT"], "-n", "4", *args],
                          capture_output=True, text=True, check=True).stdout
def dump():
    out = {}
    for key, flat in sorted(json.loads(cli("--raw", "EVAL", DUMP, "0")).items()):
        table, _, name = key.partition("|")
        entry = {}
        for field, value in zip(flat[0::2], flat[1::2]):
            if field == "NULL":
                continue
            if field.endswith("@"):
                entry[field[:-1]] = value.split(",") if value else []
            else:
                entry[field] = value
        out.setdefault(table, {})[name] = entry
    return out
def load(path):
    flat = {}
    for table, entries in json.load(open(path)).items():
        for name, entry in entries.items():
            args = []
            for field, value in (entry or {"NULL": "NULL"}).items():
                args += [field + "@", ",".join(value)] if isinstance(value, list) else [field, value]
            flat[table + "|" + name] = args
    if flat:
        cli("EVAL", LOAD, "0", json.dumps(flat))
def record():
    with open(os.environ["RAIL_TEST_CALLS"], "a") as log:
        log.write(json.dumps([os.path.basename(sys.argv[0])] + sys.argv[1:]) + "\\n")
    if os.environ.get("RAIL_TEST_KILL_AT"):        # kill -9 the deploy script as it makes call number N
        if sum(1 for _ in open(os.environ["RAIL_TEST_CALLS"])) == int(os.environ["RAIL_TEST_KILL_AT"]):
            os.kill(os.getppid(), 9)
            sys.exit(0)
'''

STUBS = {
    "sonic-cfggen": '''
record()
assert sys.argv[1:] == ["-d", "--print-data"], sys.argv
print(json.dumps(dump()))
''',
    "config": '''
record()
verb = sys.argv[1]
if verb == "load":
    load(sys.argv[3])
elif verb == "reload":
    cli("FLUSHDB")
    load(sys.argv[3])
elif verb == "save":
    path = os.path.join(os.environ["RAIL_APPLY_ROOT"], "etc/sonic/config_db.json")
    open(path, "w").write(json.dumps(dump(), indent=4, sort_keys=True))
else:
    sys.exit("config stub: unknown verb " + verb)
''',
    "systemctl": "\nrecord()\n",
    "sonic-db-cli": '''
record()
assert sys.argv[1] == "CONFIG_DB" and sys.argv[2] == "DEL" and len(sys.argv) == 4, sys.argv
cli("DEL", sys.argv[3])
''',
}

AGENT = '''
record()
if sys.argv[1] == "remove":
    for key in cli("--scan", "--pattern", "ACL_RULE|PPD|PIN_*").splitlines():
        cli("DEL", key)
elif sys.argv[1] == "show":                     # reading needs no systemd: the real agent answers
    os.execv(sys.executable, [sys.executable, %r, *sys.argv[1:]])
''' % str(Path(__file__).resolve().parents[2] / "resources" / "ppd" / "rail-ppd-agent.py")


def _write(path: Path, body: str) -> None:
    path.write_text(f"#!{sys.executable}\n{_DB}\n{body}")
    path.chmod(0o755)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class FakeSwitch:
    """One stand-in switch: redis, a root tree (etc/sonic ...), stubs on PATH, a call log."""

    def __init__(self, tmp: Path):
        self.tmp, self.root, self.calls_file = tmp, tmp / "root", tmp / "calls.log"
        (self.root / "etc/sonic/frr").mkdir(parents=True)
        bindir = tmp / "bin"
        bindir.mkdir()
        for name, body in STUBS.items():
            _write(bindir / name, body)
        self.port = free_port()
        self.redis = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                                       "--save", "", "--appendonly", "no", "--dir", str(tmp),
                                       "--notify-keyspace-events", "AKE"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        (self.root / "usr/local").mkdir(parents=True)
        self.db_config = self.root / "var/run/redis/sonic-db/database_config.json"
        self.db_config.parent.mkdir(parents=True)
        self.db_config.write_text(json.dumps(db_config(self.port)))
        (self.root / "usr/local/yang-models").symlink_to(yang_dir().resolve())    # where SONiC keeps them
        self.env = {**os.environ, "PATH": f"{bindir}:{os.environ['PATH']}", "RAIL_APPLY_ROOT": str(self.root),
                    "PYTHONPATH": str(SONIC_YANG_API),
                    "RAIL_TEST_REDIS_PORT": str(self.port), "RAIL_TEST_CALLS": str(self.calls_file)}
        for _ in range(100):
            if self.cli("PING").strip() == "PONG":
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")

    def cli(self, *args: str) -> str:
        done = subprocess.run(["redis-cli", "-p", str(self.port), "-n", CONFIG_DB, *args],
                              capture_output=True, text=True)
        return done.stdout

    def seed(self, config: dict) -> None:
        path = self.tmp / "seed.json"
        path.write_text(json.dumps(config))
        subprocess.run([str(self.tmp / "bin" / "config"), "load", "-y", str(path)], env=self.env, check=True)
        self.calls_file.unlink()

    def dump(self) -> dict:
        out = subprocess.run([str(self.tmp / "bin" / "sonic-cfggen"), "-d", "--print-data"], env=self.env,
                             capture_output=True, text=True, check=True).stdout
        self.calls_file.unlink()
        return json.loads(out)

    def calls(self) -> list[list[str]]:
        if not self.calls_file.exists():
            return []
        return [json.loads(line) for line in self.calls_file.read_text().splitlines()]

    def files(self) -> dict[str, bytes]:
        return {str(p.relative_to(self.root)): p.read_bytes() for p in sorted(self.root.rglob("*")) if p.is_file()}

    def stage(self, bundle: Path, host: str, name: str = "stage") -> Path:
        """The bundle's files laid out on the switch as SWITCH_STEPS' first step stages them."""
        stage = self.tmp / name
        shutil.copytree(bundle / "switches" / host, stage / host)
        for name in ("rail-switch-apply.py", "rail-ppd-agent.service"):
            shutil.copy(bundle / "switches" / name, stage / name)
        _write(stage / "rail-ppd-agent.py", AGENT)
        return stage

    def run(self, stage: Path, *args: str, kill_at: int | None = None) -> subprocess.CompletedProcess:
        """The script, as the step runs it; kill_at: kill -9 it when it makes that call (1 = the first)."""
        env = self.env if kill_at is None else {**self.env, "RAIL_TEST_KILL_AT": str(kill_at)}
        return subprocess.run([sys.executable, str(stage / "rail-switch-apply.py"), *args], env=env,
                              capture_output=True, text=True, timeout=120)

    def close(self) -> None:
        self.redis.terminate()
        self.redis.wait(timeout=10)
