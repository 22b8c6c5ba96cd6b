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
  rail-ppd-agent.py remove --backend ... --pins FILE                         remove every rule the agent owns

Backends. ``sonic``: CONFIG_DB ``ACL_RULE|<table>|PIN_...`` entries with ``PACKET_ACTION:
REDIRECT:<next hop>@<uplink>`` written with ``sonic-db-cli``; health from APPL_DB (``PORT_TABLE`` oper_status,
``NEIGH_TABLE``) and FRR (``vtysh``). A rule orchagent marked ``Inactive`` in STATE_DB (its next hop was not
known yet: orchagent does not retry) is written again. ``linux``: the same decisions as ``ip rule`` entries
(``from <nic> [to <prefix>] iif <interface> lookup <uplink table>``, protocol 208) and one route table per
uplink, in the current network namespace; health from the kernel and FRR.
Exit status: 0 done, 1 a pass failed (e.g. vtysh or sonic-db-cli did not answer), 2 bad arguments or pins file.
"""

import argparse
import json
import select
import shlex
import signal
import subprocess
import sys
import time

FORMAT = 1
RULE_PROTO = "208"                      # linux: the protocol number that marks the agent's rules and routes
RULE_PREFIX = "PIN_"                    # every rule the agent owns is named PIN_<downlink>[_D<n>]
RESOLVED = {"REACHABLE", "STALE", "DELAY", "PROBE", "PERMANENT", "NOARP"}
STATUS_CHECKS = 30                      # sonic: passes to wait for orchagent's verdict on a written rule
RESTORE_DELAY = 5.0                     # run: wait-to-restore of a failed uplink, seconds
RETRY_AFTER = 5.0                       # sonic: seconds before a rule orchagent rejected is written again


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
                lines.append(f"route replace default via {next_hop} dev {port} table {self.tables[port]} "
                             f"proto {RULE_PROTO}")
        lines += [f"rule add {' '.join(spec)} protocol {RULE_PROTO}" for spec in add]       # make before break
        lines += [f"rule del {' '.join(spec)}" for spec in delete]
        if lines:
            run(["ip", "-batch", "-"], "ip -batch", "\n".join(lines) + "\n")
        return len(add) + len(delete)

    def plan_lines(self, desired):
        add, delete = self.changes(desired)
        return [f"+ ip rule add {' '.join(s)}" for s in add] + [f"- ip rule del {' '.join(s)}" for s in delete]

    def remove(self):
        have = self.current()
        lines = [f"rule del {' '.join(spec)}" for spec in sorted(have)]
        lines += [f"route flush table {t} proto {RULE_PROTO}" for t in sorted(self.tables.values())]
        run(["ip", "-force", "-batch", "-"], "ip -batch", "\n".join(lines) + "\n")   # a table may be empty
        return len(have)


# ---------------------------------------------------------------------------------------------- sonic backend
class SonicBackend:
    """CONFIG_DB ACL_RULE entries through sonic-db-cli."""

    def __init__(self, pins, vtysh, db_cli, retry_after=RETRY_AFTER):
        self.pins, self.vtysh, self.db_cli = pins, vtysh, db_cli
        self.table = pins["acl_table"]
        self.retry_after = retry_after
        self.unconfirmed = {}                       # rule name -> [passes left, earliest time to write it again]

    def db(self, *args):
        return run([*self.db_cli, *args], f"sonic-db-cli {args[0]} {args[1]}")

    def health(self):
        up = set()
        for port, _ in uplinks_of(self.pins):
            if self.db("APPL_DB", "hget", f"PORT_TABLE:{port}", "oper_status").strip() == "up":
                up.add(port)
        neigh = set()
        for key in self.db("APPL_DB", "keys", "NEIGH_TABLE:*").split():
            parts = key.split(":", 2)               # NEIGH_TABLE:<port>:<ip>
            if len(parts) == 3:
                neigh.add((parts[1], parts[2]))
        return Health(up, neigh, *bgp_state(self.vtysh))

    def key(self, name):
        return f"ACL_RULE|{self.table}|{name}"

    def fields(self, rule):
        out = {"PRIORITY": str(rule["priority"]), "PACKET_ACTION": f"REDIRECT:{rule['next_hop']}@{rule['uplink']}",
               "SRC_IP": rule["source"]}
        if rule["destination"]:
            out["DST_IP"] = rule["destination"]
        return out

    def current(self):
        found = {}
        for key in self.db("CONFIG_DB", "keys", self.key(RULE_PREFIX + "*")).split():
            text = self.db("CONFIG_DB", "hgetall", key).strip()
            found[key.rpartition("|")[2]] = parse_hgetall(text)
        return found

    def changes(self, desired):
        want = {name: self.fields(rule) for name, rule in desired.items()}
        have = self.current()
        write = {n: f for n, f in want.items() if have.get(n) != f or self._rejected(n)}
        delete = sorted(n for n in have if n not in want)
        return dict(sorted(write.items())), delete

    def _rejected(self, name):
        """orchagent's verdict on a rule written earlier: Inactive means rejected (write it again)."""
        if name not in self.unconfirmed:
            return False
        status = self.db("STATE_DB", "hget", f"ACL_RULE_TABLE|{self.table}|{name}", "status").strip()
        if status == "Active":
            del self.unconfirmed[name]
            return False
        waiting = self.unconfirmed[name]
        waiting[0] -= 1
        if waiting[0] <= 0:
            del self.unconfirmed[name]
        # The status may still be the verdict on the version written before: give orchagent time.
        return status == "Inactive" and time.monotonic() >= waiting[1]

    def apply(self, desired):
        write, delete = self.changes(desired)
        for name, fields in write.items():          # replace: drop fields of the old version (e.g. DST_IP)
            self.db("CONFIG_DB", "del", self.key(name))
            self.db("CONFIG_DB", "hset", self.key(name), *[x for kv in sorted(fields.items()) for x in kv])
            self.unconfirmed[name] = [STATUS_CHECKS, time.monotonic() + self.retry_after]
        for name in delete:
            self.db("CONFIG_DB", "del", self.key(name))
            self.unconfirmed.pop(name, None)
        return len(write) + len(delete)

    def plan_lines(self, desired):
        write, delete = self.changes(desired)
        return ([f"+ {self.key(n)} {json.dumps(f, sort_keys=True)}" for n, f in write.items()]
                + [f"- {self.key(n)}" for n in delete])

    def remove(self):
        have = self.current()
        for name in sorted(have):
            self.db("CONFIG_DB", "del", self.key(name))
        return len(have)


def parse_hgetall(text):
    """sonic-db-cli prints a hash as a Python dict literal; accept that or redis-cli's alternating lines."""
    if text.startswith("{"):
        import ast
        return {str(k): str(v) for k, v in ast.literal_eval(text).items()}
    items = text.splitlines()
    return dict(zip(items[0::2], items[1::2]))


# ---------------------------------------------------------------------------------------------- verbs
def make_backend(args, pins):
    vtysh = shlex.split(args.vtysh)
    if args.backend == "linux":
        return LinuxBackend(pins, vtysh)
    return SonicBackend(pins, vtysh, shlex.split(args.db_cli), args.retry_after)


def one_pass(backend, pins, quiet_if_unchanged=True, restore=None):
    health = backend.health()
    if restore is not None and restore.hold(pins, health, time.monotonic()) and health.held:
        log(f"waiting to restore {', '.join(sorted(health.held))}")
    desired = decide(pins, health)
    changed = backend.apply(desired)
    if changed or not quiet_if_unchanged:
        log(f"{changed} change(s); {len(desired)} rule(s): " + "; ".join(describe(n, r) for n, r in desired.items()))
    return changed


def watch_events():
    """``ip monitor`` on links, routes and neighbours: a pass runs as soon as one changes (None if no ip)."""
    try:
        return subprocess.Popen(["ip", "-o", "monitor", "link", "route", "neigh"], stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None


def serve(backend, pins, interval, restore_delay):
    monitor = watch_events()
    restore = WaitToRestore(restore_delay)
    try:
        while True:
            try:
                one_pass(backend, pins, restore=restore)
            except AgentError as exc:
                log(f"pass failed, keeping the rules as they are: {exc}")
            if monitor is None:
                time.sleep(interval)
                continue
            ready = select.select([monitor.stdout], [], [], interval)[0]
            if ready:                                # let a burst of events settle, then drain it
                time.sleep(0.05)
                while select.select([monitor.stdout], [], [], 0)[0]:
                    if not monitor.stdout.readline():
                        monitor = None
                        break
    finally:
        if monitor is not None:
            monitor.terminate()


def main(argv=None):
    parser = argparse.ArgumentParser(prog="rail-ppd-agent.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("verb", choices=["run", "once", "plan", "remove"])
    parser.add_argument("--backend", choices=["sonic", "linux"], required=True)
    parser.add_argument("--pins", required=True, metavar="FILE", help="this leaf's ppd-pins.json")
    parser.add_argument("--interval", type=float, default=2.0, metavar="S", help="seconds between passes (run)")
    parser.add_argument("--restore-delay", type=float, default=RESTORE_DELAY, metavar="S",
                        help="run: seconds a failed uplink must work again before flows move back to it")
    parser.add_argument("--vtysh", default="vtysh", metavar="CMD", help="how to call FRR's vtysh (default: vtysh)")
    parser.add_argument("--db-cli", default="sonic-db-cli", metavar="CMD",
                        help="sonic backend: the sonic-db-cli command")
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
    backend = make_backend(args, pins)
    try:
        if args.verb == "run":
            signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))    # so `ip monitor` is stopped too
            log(f"{pins['hostname']}: {len(pins['pins'])} pinned sources, backend {args.backend}")
            serve(backend, pins, args.interval, args.restore_delay)
        elif args.verb == "once":
            one_pass(backend, pins, quiet_if_unchanged=False)
        elif args.verb == "plan":
            lines = backend.plan_lines(decide(pins, backend.health()))
            print("\n".join(lines + [f"{len(lines)} change(s)"]))
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
