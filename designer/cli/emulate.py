"""``rail-designer emulate FILE``: build the design in network namespaces and check it forwards."""

from __future__ import annotations

import sys

import designer

from .common import EXIT_FINDINGS, EXIT_OK, CliError


def register(sub) -> None:
    p = sub.add_parser(
        "emulate", help="build the fabric in Linux network namespaces and check it (root)",
        description="Builds a small design in network namespaces (one per server and switch, a veth pair per "
                    "cable) and runs the bundle's own files unchanged: each host's policy-routing.sh and "
                    "sysctl.conf; each switch's config_db.json (ports, addresses, VLAN, the PPD ACL's local "
                    "rules), FRR's zebra, staticd and bgpd on its frr.conf, and on each leaf rail-ppd-agent.py "
                    "(linux backend) on its ppd-pins.json. Once BGP has converged it checks every switch's BGP "
                    "table (cores included; other spine groups through the cores, nothing of another fabric "
                    "plane), that every rail NIC reaches every other NIC of its rail and plane with replies on "
                    "the NIC the request arrived on and nothing reaches another plane, and that each leaf pins "
                    "cross-leaf flows to their uplink; then it pulls "
                    "one leaf uplink and powers off one spine (each restored after), with a flow per pinned NIC "
                    "probed every 20 ms, and reports each flow's outage. Exit status 1 when a check fails, 2 "
                    "when the design or the machine cannot run it (needs root, `ip netns` and FRR; at most 64 "
                    "namespaces, 256 cables). Everything it creates is removed on exit, on error and on Ctrl+C.")
    p.add_argument("file")
    p.add_argument("--keep", action="store_true",
                   help="leave the namespaces for debugging (prints how to remove them)")
    p.add_argument("--exec", dest="execs", action="append", default=[], metavar="DEVICE=COMMAND",
                   help="after setup, before the checks, run COMMAND with bash inside DEVICE's namespace "
                        "(device id or host name), e.g. to break a host by hand; repeatable")
    p.add_argument("--change", metavar="OLD", help="roll FILE out over OLD (an older design FILE grew from) in "
                                                  "the waves of `export --since OLD`, under running flows, and "
                                                  "report each wave's lost probes; then check FILE whole")
    p.add_argument("--max-drain", default="1/8", metavar="SHARE", help="with --change: as export --max-drain")
    p.add_argument("--catalog", action="append", default=[], metavar="FILE", help="extra hardware catalog")
    p.add_argument("--quiet", action="store_true", help="print only failing rows and the summary")
    p.add_argument("--no-failover", action="store_true",
                   help="skip the uplink and spine failure scenarios (faster)")
    p.set_defaults(run=run_emulate)
    s = sub.add_parser(
        "emulate-sweep", help="remove what killed emulate runs left: namespaces, their FRR and agents (root)",
        description="An emulate run removes everything it made, also on error and Ctrl+C; one killed outright "
                    "leaves its namespaces, the FRR daemons and PPD agents in them, and its work folder. This "
                    "removes those of every run whose process is gone, and lists runs still going and runs kept "
                    "with --keep (removed only with --kept). Namespaces nothing marks as the emulation's are "
                    "never touched.")
    s.add_argument("--kept", action="store_true", help="also remove runs left on purpose with emulate --keep")
    s.add_argument("--dry-run", action="store_true", help="list what would be removed; remove nothing")
    s.set_defaults(run=run_sweep)


def _commands(fabric, execs: list[str]) -> list[tuple[str, str]]:
    """--exec DEVICE=COMMAND values as (device id, command) pairs, each refused naming the flag's value."""
    wanted = []
    by_name = {d.hostname: d.id for d in [*fabric.servers.values(), *fabric.switches.values()]}
    for item in execs:
        device, sep, command = item.partition("=")
        device = by_name.get(device, device)
        if not sep or not command.strip():
            raise CliError(f"--exec '{item}': expected DEVICE=COMMAND")
        if device not in fabric.servers and device not in fabric.switches:
            raise CliError(f"--exec '{item}': no device '{device}' in the design")
        wanted.append((device, command))
    return wanted


def run_emulate(args) -> int:
    from ..emulation.report import summary, table
    fabric = designer.load(args.file, catalogs=args.catalog)
    if args.change:
        return _run_change(designer.load(args.change, catalogs=args.catalog), fabric, args)
    result = designer.emulate(fabric, keep=args.keep, commands=_commands(fabric, args.execs),
                              failover=not args.no_failover, log=lambda text: print(text, file=sys.stderr))
    rows = [r for r in result.rows if not r.ok] if args.quiet else result.rows
    sys.stdout.write(table(rows, colour=sys.stdout.isatty()) if rows else "")
    sys.stdout.write(summary(result.plan, result.rows))
    if result.timings:
        print("timings: " + ", ".join(f"{k} {v:.1f} s" for k, v in result.timings.items()))
    if result.kept:
        print(f"namespaces kept ({result.plan.run_id}-*); remove them with: {result.removal_hint} "
              "(`rail-designer emulate-sweep --kept` removes every kept run)")
    return EXIT_OK if result.ok else EXIT_FINDINGS


def _run_change(old, new, args) -> int:
    from ..emulation.report import table
    result = designer.emulate_change(old, new, max_drain=args.max_drain,
                                     log=lambda text: print(text, file=sys.stderr))
    print(f"rollout of {args.file} over {args.change}: {len(result.waves)} waves, {result.flows} running flows")
    for wave in result.waves:
        print(f"  wave {wave.number}: {wave.name}: {len(wave.switches)} switches, {len(wave.hosts)} hosts, "
              f"{wave.seconds:.1f} s, {wave.lost} of {wave.sent} probes lost")
    rows = [r for r in result.rows if not r.ok] if args.quiet else result.rows
    sys.stdout.write(table(rows, colour=sys.stdout.isatty()) if rows else "")
    failed = sum(1 for r in result.rows if not r.ok)
    print(f"after the rollout: {len(result.rows) - failed} of {len(result.rows)} checks passed on {args.file}")
    return EXIT_OK if result.ok else EXIT_FINDINGS


def run_sweep(args) -> int:
    found = designer.sweep_emulations(kept=args.kept, dry_run=args.dry_run)
    if not found:
        print("no emulation runs left anything here")
        return EXIT_OK
    for run in found:
        verdict = ("would be removed" if args.dry_run else "removed") if run.removed else \
            ("left: add --kept to remove it" if run.state == "kept" else "left: still running")
        print(f"{run.run_id:12} {run.state:8} {len(run.namespaces):3} namespace(s), {len(run.folders)} folder(s)  "
              f"{verdict}")
    return EXIT_OK
