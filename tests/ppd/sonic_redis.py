"""A real redis-server laid out as SONiC's: APPL_DB 0, CONFIG_DB 4, STATE_DB 6 (database_config.json
numbering), keyspace events on as SONiC's redis.conf has them, and a database_config.json naming it.

orchagent is not run here (no SONiC image). ``Orchagent`` stands in for the part the agent depends on:
its ConsumerStateTable taking queued APPL_DB ACL_RULE_TABLE entries into the table, and AclOrch's verdict
in STATE_DB (``ACL_RULE_TABLE|<table>|<rule>`` status). It is scaffolding: which rules get which verdict is
the test's choice, not a model of aclorch.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
from pathlib import Path

from tests.ci import need

DB_NUMBERS = {"APPL_DB": 0, "CONFIG_DB": 4, "STATE_DB": 6}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def db_config(port: int, split: bool = False) -> dict:
    """SONiC's database_config.json for a redis on loopback (``split``: STATE_DB on a second instance)."""
    instances = {"redis": {"hostname": "127.0.0.1", "port": port}}
    if split:
        instances["redis2"] = {"hostname": "127.0.0.1", "port": port + 1}
    return {"INSTANCES": instances, "VERSION": "1.0",
            "DATABASES": {name: {"id": n, "separator": "|" if name in ("CONFIG_DB", "STATE_DB") else ":",
                                 "instance": "redis2" if split and name == "STATE_DB" else "redis"}
                          for name, n in DB_NUMBERS.items()}}


class SonicRedis:
    def __init__(self, tmp: Path):
        server = shutil.which("redis-server")
        need(server is not None and shutil.which("redis-cli") is not None,
             "needs redis-server and redis-cli (install redis-server)")
        self.port = free_port()
        self.proc = subprocess.Popen([server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no", "--dir", str(tmp), "--notify-keyspace-events", "AKE"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if self.cli("CONFIG_DB", "PING").strip() == "PONG":
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        self.config = tmp / "database_config.json"
        self.config.write_text(json.dumps(db_config(self.port)))

    def cli(self, db: str, *args: str) -> str:
        return subprocess.run(["redis-cli", "-p", str(self.port), "-n", str(DB_NUMBERS[db]), *args],
                              capture_output=True, text=True).stdout

    def hash(self, db: str, key: str) -> dict:
        items = self.cli(db, "--no-raw", "HGETALL", key)
        flat = [json.loads(line.split(") ", 1)[1]) for line in items.splitlines() if ") " in line]
        return dict(zip(flat[0::2], flat[1::2]))

    def keys(self, db: str, pattern: str) -> list[str]:
        return sorted(self.cli(db, "--raw", "KEYS", pattern).split())

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


# What ConsumerStateTable does when orchagent reads a table (pops every queued key: a queued delete first,
# then the queued fields into the table), written for this test from its documented behaviour.
CONSUMER_POP = """
local out = {}
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('SREM', KEYS[1], key)
  if redis.call('SREM', KEYS[2], key) == 1 then redis.call('DEL', ARGV[1] .. key) end
  local fields = redis.call('HGETALL', '_' .. ARGV[1] .. key)
  for i = 1, #fields, 2 do redis.call('HSET', ARGV[1] .. key, fields[i], fields[i + 1]) end
  redis.call('DEL', '_' .. ARGV[1] .. key)
  table.insert(out, key)
  table.insert(out, #fields)
end
return out
"""


class Orchagent:
    """Takes queued ACL_RULE_TABLE entries in; ``verdict`` (rule name -> status) says what to mark them."""

    def __init__(self, redis: SonicRedis, verdict=lambda name: "Active"):
        self.redis, self.verdict = redis, verdict

    def consume(self) -> list[str]:
        flat = self.redis.cli("APPL_DB", "--raw", "EVAL", CONSUMER_POP, "2", "ACL_RULE_TABLE_KEY_SET",
                              "ACL_RULE_TABLE_DEL_SET", "ACL_RULE_TABLE:").split()
        done = []
        for key, count in zip(flat[0::2], flat[1::2]):
            status_key = "ACL_RULE_TABLE|" + key.replace(":", "|", 1)
            if int(count):
                status = self.verdict(key.split(":", 1)[1])
                if status:
                    self.redis.cli("STATE_DB", "HSET", status_key, "status", status)
            else:
                self.redis.cli("STATE_DB", "DEL", status_key)
            done.append(key)
        return done
