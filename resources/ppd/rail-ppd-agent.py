#!/usr/bin/env python3
"""rail-ppd-agent: installs a leaf's proactive path pins at run time and moves them when a path fails.

Shipped in the rail-designer bundle as ``ppd/rail-ppd-agent.py``; Python 3 standard library only. It reads
``switches/<leaf>/ppd-pins.json`` (per pinned source an ordered list of uplink candidates, the primary first)
and keeps, for every source, one pin on the first *healthy* candidate: uplink port oper-up, the next hop's
neighbour resolved and the BGP session to it Established. When the chosen spine does not advertise one of
the file's ``destinations`` (it lost its own link to that leaf), the source's traffic to that prefix goes
by the next healthy candidate that does (an exception rule above the pin). Failures act at once; what
comes back is trusted once it has worked for ``--restore-delay`` seconds (wait-to-restore, 5 s): then the
source moves back to its primary, or drops the exception. Sources with no healthy candidate get no pin:
the leaf's normal (ECMP) routing carries them.

  rail-ppd-agent.py run    --backend sonic|linux --pins FILE [--interval S]   reconcile every S seconds and
                                                                            whenever a link, route or neighbour changes
  rail-ppd-agent.py once   --backend ... --pins FILE                         one pass, then exit
  rail-ppd-agent.py plan   --backend ... --pins FILE                         print what would change, change nothing
  rail-ppd-agent.py show   --backend ... --pins FILE                         print the rules it holds (JSON)
  rail-ppd-agent.py remove --backend ... --pins FILE                         remove every rule the agent owns

Backends. ``sonic``: APPL_DB ``ACL_RULE_TABLE:<table>:PIN_...`` entries with ``PACKET_ACTION:
REDIRECT:<next hop>@<uplink>``, written as swss-common's ProducerStateTable writes them (orchagent's AclOrch
reads APPL_DB's ACL_RULE_TABLE beside CONFIG_DB's ACL_RULE). CONFIG_DB never holds them, so `config save`
never puts them in the startup file and `config apply-patch` (GCU) never validates them; after a `config
reload` or a swss restart empties APPL_DB, the next pass writes them again. Pins an older agent kept in
CONFIG_DB (``ACL_RULE|<table>|PIN_...``) are moved: written to APPL_DB first, then deleted. A change never
leaves a source unpinned: the new rule goes under the rule's other name (``<rule>`` / ``<rule>_ALT``), the
agent waits up to 1 s for orchagent's verdict in STATE_DB, then deletes the old one. A rule orchagent marked
``Inactive`` (its next hop was not known yet: orchagent does not retry) is written again, at once when the
agent finds it on start. One persistent redis connection (the unix socket SONiC's database_config.json
names; all three databases must be on that one instance) and one more subscribed to redis keyspace events
(APPL_DB ports, neighbours, routes and the agent's rules; STATE_DB's verdicts); health from APPL_DB
(``PORT_TABLE`` oper_status, ``NEIGH_TABLE``) and FRR (one ``vtysh`` call a pass). ``linux``: the same
decisions as ``ip rule`` entries (``from <nic> [to <prefix>] iif <interface> lookup <uplink table>``, protocol
208) and one route table per uplink (its default route, then a blackhole: with the uplink down a pinned
packet is dropped, as by a redirect to a dead next hop, until the pin moves), in the current network
namespace; health from the kernel and FRR.
Exit status: 0 done, 1 a pass failed (e.g. vtysh or redis did not answer), 2 bad arguments or pins file.
"""

import argparse
import json
import os
import select
import shlex
import signal
import socket
import subprocess
import sys
import time

FORMAT = 1
RULE_PROTO = "208"                      # linux: the protocol number that marks the agent's rules and routes
RULE_PREFIX = "PIN_"                    # every rule the agent owns is named PIN_<downlink>[_D<n>]
BLACKHOLE_METRIC = 4294967295           # linux: the last route of every uplink table (no fallthrough to main)
RESOLVED = {"REACHABLE", "STALE", "DELAY", "PROBE", "PERMANENT", "NOARP"}
STATUS_CHECKS = 30                      # sonic: passes to wait for orchagent's verdict on a written rule
RESTORE_DELAY = 5.0                     # run: wait-to-restore of a failed uplink, seconds
RETRY_AFTER = 5.0                       # sonic: seconds before a rule orchagent rejected is written again
CONFIRM_WAIT = 1.0                      # sonic: seconds to wait for orchagent's verdict before the old rule goes
ALT = "_ALT"                            # sonic: a rule's second name, so a rewrite never leaves it unpinned
DB_CONFIG = "/var/run/redis/sonic-db/database_config.json"


class AgentError(Exception):
    """One readable reason a pass could not run."""


def log(text):
    now = time.time()
    sys.stdout.write(time.strftime("%H:%M:%S", time.localtime(now)) + f".{int(now * 1000) % 1000:03d} " + text + "\n")
    sys.stdout.flush()


# ---------------------------------------------------------------------------------------------- the pins file
def load_pins(path):
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise AgentError(f"{path}: {exc.strerror}") from None
    except ValueError as exc:
        raise AgentError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise AgentError(f"{path}: not a ppd-pins.json of format {FORMAT}; export the bundle again")
    for key in ("hostname", "acl_table", "destinations", "uplinks", "pins", "linux"):
        if key not in data:
            raise AgentError(f"{path}: missing '{key}'; export the bundle again")
    for n, pin in enumerate(data["pins"]):
        missing = [k for k in ("rule", "source", "l3_interface", "priority", "exception_priority", "candidates")
                   if k not in pin]
        if missing or not str(pin.get("rule", "")).startswith(RULE_PREFIX):
            raise AgentError(f"{path}: pin {n + 1} lacks {', '.join(missing) or 'a PIN_ rule name'}")
        unknown = [c for c in pin["candidates"] if c not in data["uplinks"]]
        if unknown:
            raise AgentError(f"{path}: pin {pin['rule']} names uplink(s) {', '.join(unknown)} not in 'uplinks'")
        # Resolve each candidate once: {uplink, next_hop, spine} in the pin's order.
        pin["candidates"] = [dict(data["uplinks"][c], uplink=c) for c in pin["candidates"]]
    return data


def uplinks_of(pins):
    """Every uplink of the leaf, in file order: (port, next hop)."""
    return [(port, u["next_hop"]) for port, u in pins["uplinks"].items()]


# ---------------------------------------------------------------------------------------------- decisions
class Health:
    """What the switch says right now: ports up, resolved neighbours, Established sessions, and which
    peer advertises which prefix."""

    def __init__(self, ports_up, neighbours, established, adverts):
        self.ports_up = set(ports_up)
        self.neighbours = set(neighbours)          # (port, ip)
        self.established = set(established)        # peer ip
        self.adverts = adverts                     # prefix -> set of peer ips with a valid path
        self.held = set()                          # uplinks healthy again but still waiting to be used (run)

    def working(self, c):
        return (c["uplink"] in self.ports_up and (c["uplink"], c["next_hop"]) in self.neighbours
                and c["next_hop"] in self.established)

    def healthy(self, c):
        return c["uplink"] not in self.held and self.working(c)

    def advertises(self, c, prefix):
        return c["next_hop"] in self.adverts.get(prefix, ())


class WaitToRestore:
    """What failed is trusted again only once it has worked for ``delay`` seconds in a row (the
    wait-to-restore of protection switching): an uplink before its sources move back, a spine's
    advertisement of a destination before the exception that avoided it is dropped. The tables along
    the path settle first, and a flapping link does not drag its flows along. What never failed is
    trusted at once."""

    def __init__(self, delay):
        self.delay = delay
        self.failed = set()
        self.working_since = {}
        self.last_held = set()

    def _trust(self, key, works, now):
        if not works:
            self.failed.add(key)
            self.working_since.pop(key, None)
            return False
        if key not in self.failed:
            return True
        since = self.working_since.setdefault(key, now)
        if now - since < self.delay:
            return False
        self.failed.discard(key)
        del self.working_since[key]
        return True

    def hold(self, pins, health, now):
        """Mark in ``health`` what works again but is not trusted yet; returns whether that changed."""
        for port, next_hop in uplinks_of(pins):
            if not self._trust(port, health.working({"uplink": port, "next_hop": next_hop}), now):
                if health.working({"uplink": port, "next_hop": next_hop}):
                    health.held.add(port)
            for prefix in pins["destinations"]:
                peers = health.adverts.get(prefix, set())
                if not self._trust((next_hop, prefix), next_hop in peers, now) and next_hop in peers:
                    health.adverts[prefix] = peers - {next_hop}
                    health.held.add(f"{prefix} from {next_hop}")
        changed = health.held != self.last_held
        self.last_held = set(health.held)
        return changed


def decide(pins, health):
    """Rule name -> the rule it should be: {priority, source, destination or None, uplink, next_hop, spine,
    l3_interface}. Pure: the same file and health always give the same rules."""
    rules = {}
    for pin in pins["pins"]:
        up = [c for c in pin["candidates"] if health.healthy(c)]
        if not up:
            continue
        chosen = up[0]
        base = {"source": pin["source"], "l3_interface": pin["l3_interface"]}
        rules[pin["rule"]] = dict(base, priority=pin["priority"], destination=None, **_target(chosen))
        for n, prefix in enumerate(pins["destinations"]):
            if health.advertises(chosen, prefix):
                continue
            other = next((c for c in up if health.advertises(c, prefix)), None)
            if other is not None:
                rules[f"{pin['rule']}_D{n}"] = dict(base, priority=pin["exception_priority"], destination=prefix,
                                                    **_target(other))
    return rules


def _target(c):
    return {"uplink": c["uplink"], "next_hop": c["next_hop"], "spine": c.get("spine", "")}


def describe(name, rule):
    to = f" to {rule['destination']}" if rule["destination"] else ""
    return f"{name}: from {rule['source']}{to} -> {rule['next_hop']}@{rule['uplink']} ({rule['spine']})"


# ---------------------------------------------------------------------------------------------- FRR
def read_json_docs(text):
    decoder, docs, i = json.JSONDecoder(), [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        doc, i = decoder.raw_decode(text, i)
        docs.append(doc)


def bgp_state(vtysh):
    """(Established peer ips, prefix -> peer ips with a valid path) from FRR, one vtysh call."""
    argv = [*vtysh, "-c", "show bgp ipv4 unicast summary json", "-c", "show bgp ipv4 unicast json"]
    done = run(argv, "vtysh")
    try:
        summary, table = read_json_docs(done)
    except ValueError:
        raise AgentError(f"vtysh gave no BGP JSON: {done.strip()[:200]}") from None
    established = {ip for ip, peer in summary.get("peers", {}).items() if peer.get("state") == "Established"}
    adverts = {}
    for prefix, paths in table.get("routes", {}).items():
        for path in paths:
            if path.get("valid") and path.get("peerId"):
                adverts.setdefault(prefix, set()).add(path["peerId"])
    return established, adverts


def run(argv, what, stdin=None):
    try:
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        raise AgentError(f"{what}: {argv[0]} not found") from None
    except subprocess.TimeoutExpired:
        raise AgentError(f"{what}: no answer in 30 s") from None
    if done.returncode != 0:
        raise AgentError(f"{what} failed: {(done.stderr or done.stdout).strip()[:300] or done.returncode}")
    return done.stdout


# ---------------------------------------------------------------------------------------------- linux backend
class LinuxBackend:
    """ip rules and per-uplink tables in the current network namespace."""

    def __init__(self, pins, vtysh):
        self.pins, self.vtysh = pins, vtysh
        base = pins["linux"]["table_base"]
        self.tables = {port: base + i for i, (port, _) in enumerate(uplinks_of(pins))}
        self.pref_base = pins["linux"]["pref_base"]

    def health(self):
        links = json.loads(run(["ip", "-j", "link", "show"], "ip link") or "[]")
        up = {link["ifname"] for link in links if link.get("operstate") == "UP"}
        neigh = json.loads(run(["ip", "-j", "-4", "neigh", "show"], "ip neigh") or "[]")
        resolved = {(n["dev"], n["dst"]) for n in neigh if n.get("lladdr") and RESOLVED & set(n.get("state", []))}
        return Health(up, resolved, *bgp_state(self.vtysh))

    def _rule_spec(self, rule):
        to = ["to", rule["destination"]] if rule["destination"] else []
        return ["from", rule["source"], *to, "iif", rule["l3_interface"], "lookup",
                str(self.tables[rule["uplink"]]), "pref", str(self.pref_base - rule["priority"])]

    def current(self):
        """The agent's own rules: a set of rule specs (protocol 208)."""
        rules = json.loads(run(["ip", "-j", "-4", "rule", "show"], "ip rule") or "[]")
        out = set()
        for r in rules:
            if r.get("protocol") != RULE_PROTO:
                continue
            src = r["src"] + f"/{r.get('srclen', 32)}"
            to = ["to", f"{r['dst']}/{r.get('dstlen', 32)}"] if r.get("dst") else []
            out.add(tuple(["from", src, *to, "iif", r.get("iif", ""), "lookup", r["table"],
                           "pref", str(r["priority"])]))
        return out

    def changes(self, desired):
        want = {tuple(self._rule_spec(rule)) for rule in desired.values()}
        have = self.current()
        return sorted(want - have), sorted(have - want)

    def apply(self, desired):
        add, delete = self.changes(desired)
        lines = []
        for port, next_hop in uplinks_of(self.pins):      # every used table keeps its one default route
            if any(r["uplink"] == port for r in desired.values()):
                table = self.tables[port]
                lines.append(f"route replace default via {next_hop} dev {port} table {table} proto {RULE_PROTO}")
                # Below it a blackhole: when the uplink goes down the kernel drops the route above, and a
                # pinned packet is dropped, as a SAI ACL redirect to a dead next hop drops it, instead of
                # falling through to the main (ECMP) table. Only the agent moving the pin saves the flow.
                lines.append(f"route replace blackhole default table {table} metric {BLACKHOLE_METRIC} "
                             f"proto {RULE_PROTO}")
        lines += [f"rule add {' '.join(spec)} protocol {RULE_PROTO}" for spec in add]       # make before break
        lines += [f"rule del {' '.join(spec)}" for spec in delete]
        if lines:
            run(["ip", "-batch", "-"], "ip -batch", "\n".join(lines) + "\n")
        return len(add) + len(delete)

    def events(self):
        return ip_monitor_events()

    def show(self):
        return {"rules": [" ".join(spec) for spec in sorted(self.current())]}

    def plan_lines(self, desired):
        add, delete = self.changes(desired)
        return [f"+ ip rule add {' '.join(s)}" for s in add] + [f"- ip rule del {' '.join(s)}" for s in delete]

    def remove(self):
        have = self.current()
        lines = [f"rule del {' '.join(spec)}" for spec in sorted(have)]
        lines += [f"route flush table {t} proto {RULE_PROTO}" for t in sorted(self.tables.values())]
        run(["ip", "-force", "-batch", "-"], "ip -batch", "\n".join(lines) + "\n")   # a table may be empty
        return len(have)


# ---------------------------------------------------------------------------------------------- redis
class RedisError(AgentError):
    """redis answered with an error, or could not be reached."""


class Redis:
    """One persistent connection to SONiC's redis, speaking RESP (the protocol redis-cli speaks)."""

    def __init__(self, address):
        self.address = address                  # ("unix", path) or ("tcp", host, port)
        self.sock = None
        self.buffer = b""

    def connect(self):
        self.close()
        try:
            if self.address[0] == "unix":
                sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                sock.settimeout(10)
                sock.connect(self.address[1])
            else:
                sock = socket.create_connection(self.address[1:], timeout=10)
        except OSError as exc:
            raise RedisError(f"redis at {self.where()}: {exc.strerror or exc}") from None
        self.sock, self.buffer = sock, b""

    def where(self):
        return self.address[1] if self.address[0] == "unix" else f"{self.address[1]}:{self.address[2]}"

    def close(self):
        if self.sock is not None:
            self.sock.close()
        self.sock = None

    def fileno(self):
        return self.sock.fileno()

    @staticmethod
    def encode(args):
        out = [b"*%d\r\n" % len(args)]
        for arg in args:
            data = arg if isinstance(arg, bytes) else str(arg).encode()
            out.append(b"$%d\r\n%s\r\n" % (len(data), data))
        return b"".join(out)

    def _line(self):
        while b"\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("connection closed")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def _exact(self, n):
        while len(self.buffer) < n + 2:
            chunk = self.sock.recv(max(65536, n + 2 - len(self.buffer)))
            if not chunk:
                raise OSError("connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n + 2:]
        return data

    def reply(self):
        """One reply: str, int, None, a list of them, or a RedisError (not raised: a pipeline reads on)."""
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            return RedisError(rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            return None if int(rest) < 0 else self._exact(int(rest)).decode("utf-8", "replace")
        if kind == b"*":
            return None if int(rest) < 0 else [self.reply() for _ in range(int(rest))]
        raise OSError(f"not a redis reply: {line[:60]!r}")

    def pipeline(self, commands):
        """Send every command at once, read every reply; one reconnect on a broken connection."""
        for attempt in (1, 2):
            try:
                if self.sock is None:
                    self.connect()
                self.sock.sendall(b"".join(self.encode(c) for c in commands))
                replies = [self.reply() for _ in commands]
                break
            except OSError as exc:
                self.close()
                if attempt == 2:
                    raise RedisError(f"redis at {self.where()}: {exc.strerror or exc}") from None
        errors = [(c, r) for c, r in zip(commands, replies) if isinstance(r, RedisError)]
        if errors:
            command, error = errors[0]
            raise RedisError(f"redis refused {' '.join(map(str, command))[:120]}: {error}")
        return replies


def locate_dbs(path, names=("APPL_DB", "CONFIG_DB", "STATE_DB")):
    """(address, {db name: number}) from SONiC's database_config.json; refuses DBs on several instances."""
    try:
        with open(path, encoding="utf-8") as handle:
            config = json.load(handle)
        instances, databases = config["INSTANCES"], config["DATABASES"]
        where = {name: databases[name]["instance"] for name in names}
        numbers = {name: int(databases[name]["id"]) for name in names}
    except OSError as exc:
        raise AgentError(f"{path}: {exc.strerror} (SONiC's database_config.json, which says where redis is)") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise AgentError(f"{path}: not SONiC's database_config.json ({exc!r} missing or wrong)") from None
    if len(set(where.values())) != 1:
        split = ", ".join(f"{name} on {where[name]}" for name in names)
        raise AgentError(f"{path}: the databases are on different redis instances ({split}); the agent keeps one "
                         "connection to one instance and cannot pin on this switch")
    instance = instances.get(next(iter(where.values())), {})
    socket_path = instance.get("unix_socket_path")
    if socket_path and os.path.exists(socket_path):
        return ("unix", socket_path), numbers
    if instance.get("hostname") and instance.get("port"):
        return ("tcp", instance["hostname"], int(instance["port"])), numbers
    raise AgentError(f"{path}: instance {next(iter(where.values()))} has no reachable unix_socket_path or "
                     "hostname and port")


class Events:
    """Something to wait on in ``serve``: readable when a link, route, neighbour or rule verdict changed."""

    def __init__(self, fileno, drain, close):
        self.fileno, self.drain, self.close = fileno, drain, close


def ip_monitor_events():
    """``ip monitor`` on links, routes and neighbours (linux); None without ip."""
    try:
        proc = subprocess.Popen(["ip", "-o", "monitor", "link", "route", "neigh"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except OSError:
        return None
    os.set_blocking(proc.stdout.fileno(), False)

    def drain():
        while True:
            try:
                chunk = os.read(proc.stdout.fileno(), 65536)
            except BlockingIOError:
                return True
            if not chunk:
                return False

    return Events(proc.stdout.fileno, drain, proc.terminate)


def keyspace_events(address, patterns):
    """A second redis connection subscribed to keyspace events (SONiC's redis sends them: swss's
    SubscriberStateTable is built on them); None when redis has them switched off."""
    sub = Redis(address)
    (setting,) = sub.pipeline([("CONFIG", "GET", "notify-keyspace-events")])
    flags = setting[1] if isinstance(setting, list) and len(setting) == 2 else ""
    if "K" not in flags or not ({"A", "h", "g"} & set(flags)):
        sub.close()
        return None
    sub.sock.sendall(sub.encode(("PSUBSCRIBE", *patterns)))
    sub.sock.setblocking(False)

    def drain():                                 # the messages only say "something changed": read them away
        while True:
            try:
                chunk = sub.sock.recv(65536)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False

    return Events(sub.fileno, drain, sub.close)


# ---------------------------------------------------------------------------------------------- sonic backend
class SonicBackend:
    """The pins as APPL_DB ``ACL_RULE_TABLE:<table>:<rule>`` entries, written the way swss-common's
    ProducerStateTable writes (``_ACL_RULE_TABLE:<key>`` hash, the key into ``ACL_RULE_TABLE_KEY_SET``, a
    PUBLISH on ``ACL_RULE_TABLE_CHANNEL@<db>``), which orchagent's AclOrch consumes beside CONFIG_DB's
    ACL_RULE. CONFIG_DB never holds them, so `config save` never writes them to the startup file and GCU
    never validates them. Every logical rule lives under ``<rule>`` or ``<rule>_ALT``: a change writes the
    other name, waits for orchagent's verdict, then deletes the old one (no moment without a pin)."""

    TABLE = "ACL_RULE_TABLE"

    def __init__(self, pins, vtysh, db_config, retry_after=RETRY_AFTER, confirm_wait=CONFIRM_WAIT):
        self.pins, self.vtysh = pins, vtysh
        self.table = pins["acl_table"]
        self.retry_after, self.confirm_wait = retry_after, confirm_wait
        self.address, self.db = locate_dbs(db_config)
        self.redis = Redis(self.address)
        self.written = {}                        # rule name -> when this process wrote it (monotonic)

    def call(self, db, *commands):
        return self.redis.pipeline([("SELECT", self.db[db]), *commands])[1:]

    def events(self):
        appl, state = self.db["APPL_DB"], self.db["STATE_DB"]
        return keyspace_events(self.address, [
            f"__keyspace@{appl}__:PORT_TABLE:*", f"__keyspace@{appl}__:NEIGH_TABLE:*",
            f"__keyspace@{appl}__:ROUTE_TABLE:*", f"__keyspace@{appl}__:{self.TABLE}:{self.table}:{RULE_PREFIX}*",
            f"__keyspace@{state}__:{self.TABLE}|{self.table}|{RULE_PREFIX}*"])

    def health(self):
        ports = [port for port, _ in uplinks_of(self.pins)]
        replies = self.call("APPL_DB", *[("HGET", f"PORT_TABLE:{p}", "oper_status") for p in ports],
                            *[("EXISTS", f"NEIGH_TABLE:{p}:{hop}") for p, hop in uplinks_of(self.pins)])
        up = {p for p, status in zip(ports, replies) if status == "up"}
        neigh = {u for u, there in zip(uplinks_of(self.pins), replies[len(ports):]) if there}
        return Health(up, neigh, *bgp_state(self.vtysh))

    # ------------------------------------------------------------------ what the switch holds
    def key(self, name):
        return f"{self.table}:{name}"                  # the key in ACL_RULE_TABLE (APPL_DB's separator)

    def legacy_key(self, name):
        return f"ACL_RULE|{self.table}|{name}"          # where agents before this one kept the pins

    def current(self):
        """Logical rule -> [instances]; an instance: {name, where (APPL_DB or CONFIG_DB), fields, status},
        APPL_DB's as orchagent will hold them once it read what is queued (a queued delete, then the
        queued fields over what it holds)."""
        pattern = self.key(RULE_PREFIX + "*")
        held, queued, deleting = self.call("APPL_DB", ("KEYS", f"{self.TABLE}:{pattern}"),
                                           ("KEYS", f"_{self.TABLE}:{pattern}"), ("SMEMBERS", f"{self.TABLE}_DEL_SET"))
        (legacy,) = self.call("CONFIG_DB", ("KEYS", self.legacy_key(RULE_PREFIX + "*")))
        prefix = len(self.TABLE) + 1
        held_keys = sorted(k[prefix:] for k in held)
        queued_keys = sorted(k[prefix + 1:] for k in queued)
        values = self.call("APPL_DB", *[("HGETALL", f"{self.TABLE}:{k}") for k in held_keys],
                           *[("HGETALL", f"_{self.TABLE}:{k}") for k in queued_keys])
        fields = {}
        for k, flat in zip(held_keys, values):
            if k not in deleting:
                fields[k] = pairs(flat)
        for k, flat in zip(queued_keys, values[len(held_keys):]):
            fields[k] = {**fields.get(k, {}), **pairs(flat)}
        legacy = sorted(legacy)
        legacy_fields = self.call("CONFIG_DB", *[("HGETALL", k) for k in legacy]) if legacy else []
        instances = [{"name": k.partition(":")[2], "where": "APPL_DB", "fields": f} for k, f in sorted(fields.items())]
        instances += [{"name": k.rpartition("|")[2], "where": "CONFIG_DB", "fields": pairs(f)}
                      for k, f in zip(legacy, legacy_fields)]
        statuses = self.statuses([i["name"] for i in instances])
        found = {}
        for inst in instances:
            inst["status"] = statuses[inst["name"]]
            found.setdefault(logical(inst["name"]), []).append(inst)
        return found

    def statuses(self, names):
        names = sorted(set(names))
        replies = self.call("STATE_DB", *[("HGET", f"{self.TABLE}|{self.table}|{n}", "status") for n in names])
        return dict(zip(names, replies))

    # ------------------------------------------------------------------ what to change
    def fields(self, rule):
        out = {"PRIORITY": str(rule["priority"]), "PACKET_ACTION": f"REDIRECT:{rule['next_hop']}@{rule['uplink']}",
               "SRC_IP": rule["source"]}
        if rule["destination"]:
            out["DST_IP"] = rule["destination"]
        return out

    def _rejected(self, inst, now):
        """orchagent marked it Inactive (it could not resolve the next hop then, and does not retry:
        sonic-buildimage issue 4457). What this process wrote gets ``retry_after`` seconds first; what it
        finds Inactive when it starts (a restart, an older agent's) is written again at once."""
        if inst["status"] != "Inactive":
            return False
        return now - self.written.get(inst["name"], -1e9) >= self.retry_after

    def changes(self, desired):
        """(writes {name: fields}, stale instances to delete once the writes are confirmed, logical rules removed)."""
        have, now = self.current(), time.monotonic()
        writes, stale, removed = {}, [], []
        for rule in sorted(set(have) | set(desired)):
            instances = have.get(rule, [])
            if rule not in desired:
                stale += instances
                removed.append(rule)
                continue
            want = self.fields(desired[rule])
            good = next((i for i in instances if i["where"] == "APPL_DB" and i["fields"] == want
                         and not self._rejected(i, now)), None)
            if good is None:
                taken = {i["name"] for i in instances}
                free = [n for n in (rule, rule + ALT) if n not in taken]
                # Both names taken (a rejected rule beside an older agent's): replace the APPL_DB one.
                name = free[0] if free else next((i["name"] for i in instances if i["where"] == "APPL_DB"), rule + ALT)
                writes[name] = want
                good = {"name": name, "where": "APPL_DB"}
            stale += [i for i in instances if (i["where"], i["name"]) != (good["where"], good["name"])]
        return writes, stale, removed

    def apply(self, desired):
        writes, stale, removed = self.changes(desired)
        now = time.monotonic()
        for name, fields in writes.items():
            self._set(name, fields)
            self.written[name] = now
        if writes and stale:
            self._confirm(writes)                       # make before break
        self._delete(stale)
        return len(writes) + len(removed)

    def _publish(self):
        return ("PUBLISH", f"{self.TABLE}_CHANNEL@{self.db['APPL_DB']}", "G")

    def _set(self, name, fields):
        key = self.key(name)
        # The key into the key set and the delete set too: orchagent then holds exactly these fields.
        self.call("APPL_DB", ("MULTI",), ("SADD", f"{self.TABLE}_KEY_SET", key), ("SADD", f"{self.TABLE}_DEL_SET", key),
                  ("DEL", f"_{self.TABLE}:{key}"),
                  ("HSET", f"_{self.TABLE}:{key}", *[x for kv in sorted(fields.items()) for x in kv]),
                  self._publish(), ("EXEC",))

    def _delete(self, instances):
        appl = [i["name"] for i in instances if i["where"] == "APPL_DB"]
        legacy = [i["name"] for i in instances if i["where"] == "CONFIG_DB"]
        if appl:
            commands = [("MULTI",)]
            for name in appl:
                key = self.key(name)
                commands += [("SADD", f"{self.TABLE}_KEY_SET", key), ("SADD", f"{self.TABLE}_DEL_SET", key),
                             ("DEL", f"_{self.TABLE}:{key}")]
                self.written.pop(name, None)
            self.call("APPL_DB", *commands, self._publish(), ("EXEC",))
        if legacy:
            self.call("CONFIG_DB", *[("DEL", self.legacy_key(n)) for n in legacy])
            log(f"moved {len(legacy)} rule(s) of an older agent out of CONFIG_DB: {', '.join(legacy)}")

    def _confirm(self, writes):
        """Wait (up to confirm_wait) for orchagent's verdict on every rule just written."""
        deadline = time.monotonic() + self.confirm_wait
        while time.monotonic() < deadline:
            if all(s is not None for s in self.statuses(writes).values()):
                return
            time.sleep(0.02)

    def plan_lines(self, desired):
        writes, stale, _ = self.changes(desired)
        return ([f"+ APPL_DB {self.TABLE}:{self.key(n)} {json.dumps(f, sort_keys=True)}" for n, f in writes.items()]
                + [f"- {self._where(i)}" for i in stale])

    def _where(self, inst):
        if inst["where"] == "CONFIG_DB":
            return f"CONFIG_DB {self.legacy_key(inst['name'])} (an older agent's: moved to APPL_DB)"
        return f"APPL_DB {self.TABLE}:{self.key(inst['name'])}"

    def remove(self):
        have = self.current()
        self._delete([i for instances in have.values() for i in instances])
        return len(have)

    def show(self):
        """The pins it holds: {"rules": {"<table>|<rule>": fields}, "status": ..., "held_in": ...}."""
        rules, status, held = {}, {}, {}
        for rule, instances in sorted(self.current().items()):
            inst = sorted(instances, key=lambda i: (i["where"] != "APPL_DB", i["status"] != "Active", i["name"]))[0]
            key = f"{self.table}|{rule}"
            rules[key], status[key] = inst["fields"], inst["status"]
            held[key] = self._where(inst)
        return {"rules": rules, "status": status, "held_in": held}


def logical(name):
    """The rule an instance stands for: PIN_Ethernet0_ALT is PIN_Ethernet0."""
    return name[:-len(ALT)] if name.endswith(ALT) else name


def pairs(flat):
    flat = flat or []
    return dict(zip(flat[0::2], flat[1::2]))


# ---------------------------------------------------------------------------------------------- verbs
def make_backend(args, pins):
    vtysh = shlex.split(args.vtysh)
    if args.backend == "linux":
        return LinuxBackend(pins, vtysh)
    return SonicBackend(pins, vtysh, args.db_config, args.retry_after)


def one_pass(backend, pins, quiet_if_unchanged=True, restore=None):
    health = backend.health()
    if restore is not None and restore.hold(pins, health, time.monotonic()) and health.held:
        log(f"waiting to restore {', '.join(sorted(health.held))}")
    desired = decide(pins, health)
    changed = backend.apply(desired)
    if changed or not quiet_if_unchanged:
        log(f"{changed} change(s); {len(desired)} rule(s): " + "; ".join(describe(n, r) for n, r in desired.items()))
    return changed


def watch(backend, events, said):
    """The backend's event source, opened again when it closed or could not be opened (redis restarting);
    ``said`` holds the last reason there is none, logged once."""
    if events is not None:
        return events
    try:
        events = backend.events()
        why = None if events is not None else "the switch sends no change events (redis notify-keyspace-events off)"
    except AgentError as exc:
        why = str(exc)
    if why and why not in said:
        log(f"passes every interval only: {why}")
    said[:] = [why] if why else []
    return events


def serve(backend, pins, interval, restore_delay):
    """A pass now, then whenever a change event arrives (after a 50 ms settle) and at least every ``interval``."""
    restore, events, said = WaitToRestore(restore_delay), None, []
    try:
        while True:
            try:
                one_pass(backend, pins, restore=restore)
            except AgentError as exc:
                log(f"pass failed, keeping the rules as they are: {exc}")
            events = watch(backend, events, said)
            if events is None:
                time.sleep(interval)
                continue
            if select.select([events.fileno()], [], [], interval)[0]:
                time.sleep(0.05)                     # let a burst of events settle, then read it away
                if not events.drain():
                    events.close()
                    events = None
    finally:
        if events is not None:
            events.close()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="rail-ppd-agent.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("verb", choices=["run", "once", "plan", "remove", "show"])
    parser.add_argument("--backend", choices=["sonic", "linux"], required=True)
    parser.add_argument("--pins", required=True, metavar="FILE", help="this leaf's ppd-pins.json")
    parser.add_argument("--interval", type=float, default=2.0, metavar="S", help="seconds between passes (run)")
    parser.add_argument("--restore-delay", type=float, default=RESTORE_DELAY, metavar="S",
                        help="run: seconds a failed uplink must work again before flows move back to it")
    parser.add_argument("--vtysh", default="vtysh", metavar="CMD", help="how to call FRR's vtysh (default: vtysh)")
    parser.add_argument("--db-config", default=DB_CONFIG, metavar="FILE",
                        help=f"sonic backend: SONiC's database_config.json (default {DB_CONFIG})")
    parser.add_argument("--retry-after", type=float, default=RETRY_AFTER, metavar="S",
                        help="sonic backend: seconds before a rule orchagent marked Inactive is written again")
    args = parser.parse_args(argv)
    if args.interval <= 0 or args.restore_delay < 0:
        parser.error("--interval must be positive and --restore-delay not negative")
    try:
        pins = load_pins(args.pins)
    except AgentError as exc:
        print(f"rail-ppd-agent: {exc}", file=sys.stderr)
        return 2
    try:
        backend = make_backend(args, pins)
        if args.verb == "run":
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))    # so `ip monitor` is stopped too
            log(f"{pins['hostname']}: {len(pins['pins'])} pinned sources, backend {args.backend}")
            serve(backend, pins, args.interval, args.restore_delay)
        elif args.verb == "once":
            one_pass(backend, pins, quiet_if_unchanged=False)
        elif args.verb == "plan":
            lines = backend.plan_lines(decide(pins, backend.health()))
            print("\n".join(lines + [f"{len(lines)} change(s)"]))
        elif args.verb == "show":
            print(json.dumps(backend.show(), indent=2, sort_keys=True))
        else:
            print(f"removed {backend.remove()} rule(s)")
    except AgentError as exc:
        print(f"rail-ppd-agent: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
