"""Commands on design files: presets, new, validate, assign."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import designer

from .common import EXIT_FINDINGS, EXIT_OK, CliError, new_output, say_removed

# BuildSpec field -> (type, help). The order is the order in --help.
SPEC_OPTIONS = {
    "name": (str, "design name"),
    "sus": (int, "number of scalable units (SUs)"),
    "servers_per_su": (int, "GPU servers per SU"),
    "server_model": (str, "server model id (see `rail-designer presets --models`)"),
    "rails": (int, "rails (default: the server model's rail NICs)"),
    "leaf_model": (str, "leaf (rail switch) model id"),
    "leaf_uplinks": (int, "uplinks per leaf (default: sized for --oversubscription)"),
    "uplink_speed": (int, "uplink speed in Gb/s (default: the leaf's native speed; ports break out to match)"),
    "spine_model": (str, "spine model id (default: the leaf model)"),
    "spines": (int, "spines per plane, or per spine group with a core tier; 0 = rail-only, one tier "
                    "(default: sized for 1:1 / the target)"),
    "spine_planes": (str, "'shared' (every leaf to every spine) or 'per-rail' (leaves of rail k to plane k)"),
    "oversubscription": (float, "target and allowed leaf downlink:uplink ratio, e.g. 1 or 2"),
    "core_tier": (str, "third tier of core switches (super-spines) above spine groups: 'off' (default), 'on', "
                       "or 'auto' (only when one spine tier cannot mesh every leaf)"),
    "cores": (int, "cores per fabric plane, a multiple of the spines per group (0 or unset: sized for "
                   "--spine-oversubscription; a number implies --core-tier on)"),
    "sus_per_group": (int, "SUs whose leaves mesh with one spine group (0 or unset: as many as a group can "
                           "take; a number implies --core-tier on)"),
    "spine_uplinks": (int, "uplinks per spine to its core group (0 or unset: sized for "
                           "--spine-oversubscription)"),
    "spine_oversubscription": (float, "target and allowed spine downlink:uplink ratio with a core tier"),
    "core_model": (str, "core switch model id (default: the spine model)"),
    "fabric_planes": (int, "independent planes for multi-plane NICs, each with its own leaves, spines and "
                           "addresses (0 or unset: every plane the server model's NIC ports go to)"),
    "scheme": (str, "addressing: 'subnet-per-leaf' (leaf is the gateway) or 'p2p31' (one /31 per NIC)"),
    "rail_supernet": (str, "supernet carved into one pool per rail, e.g. 10.0.0.0/12"),
    "rail_prefix": (int, "prefix length of each rail's pool, e.g. 16"),
    "fabric_pool": (str, "pool for leaf-spine /31s"),
    "loopback_pool": (str, "pool for /32 loopbacks"),
    "mtu": (int, "host NIC MTU"),
    "leaf_asn_base": (int, "first leaf ASN (each leaf gets its own)"),
    "spine_asn_base": (int, "spine ASN (or first, per --spine-asn-mode)"),
    "spine_asn_mode": (str, "'shared' (one ASN for the spines of each spine group, as RFC 7938: all spines "
                            "without a core tier), 'per-plane', 'per-spine' or 'per-group' (per spine group "
                            "and spine plane)"),
    "core_asn": (int, "the ASN every core shares"),
    "load_balancing": (str, "how leaves spread cross-leaf traffic: 'ppd' (pinned paths, default), 'ecmp' (5-tuple "
                            "hash), 'qp-hash' (--qps queue pairs per connection, each hashed) or 'adaptive' "
                            "(switch spraying); drives nccl.env and the switches' hash fields "
                            "(docs/load-balancing.md)"),
    "qps": (int, "queue pairs per connection with --load-balancing qp-hash (NCCL_IB_QPS_PER_CONNECTION, default 4)"),
    "final_sus": (int, "plan for this many SUs: spines, cores, ports, addresses and ASNs are sized and placed "
                       "for them, so `grow` up to it only adds (default: the size built is final)"),
    "final_servers_per_su": (int, "plan for this many servers per SU (leaves' uplinks and rail subnets "
                                  "sized for them)"),
    "floor": (str, "physical layout: 'superpod' (a row of racks per SU with its network rack in the middle, "
                   "spines and cores in a network row) or 'none'"),
    "servers_per_rack": (int, "servers per compute rack at most (fewer when its power, weight or units run out)"),
    "rack_power_kw": (float, "power budget of a compute rack in kW"),
}


def register(sub) -> None:
    p = sub.add_parser("presets", help="list the bundled presets and hardware models")
    p.add_argument("--models", action="store_true", help="also list the switch and server models")
    p.set_defaults(run=run_presets)

    p = sub.add_parser("new", help="create a design file from a preset and parameters",
                       description="Build a fully wired, addressed design from a preset; any parameter "
                                   "below overrides the preset's value.")
    p.add_argument("--preset", default="default", help="preset name (see `rail-designer presets`)")
    p.add_argument("-o", "--output", required=True, help="design file to write (*.fabric.yaml)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file (even a read-only one)")
    p.add_argument("--catalog", action="append", default=[],
                   help="your own hardware models (YAML with switch_models/server_models; repeatable); "
                        "the models a design uses are saved inside it")
    group = p.add_argument_group("design parameters")
    for name, (kind, text) in SPEC_OPTIONS.items():
        group.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, help=text)
    p.set_defaults(run=run_new)

    p = sub.add_parser("validate", help="check a design and list its findings",
                       description="Exit status: 0 no errors, 1 errors found, 2 the file cannot be used.")
    p.add_argument("file")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--catalog", action="append", default=[], help="extra hardware catalog YAML (repeatable)")
    p.set_defaults(run=run_validate)

    p = sub.add_parser("grow", help="add SUs or servers to a design without renumbering what exists",
                       description="Adds SUs (or servers to each SU) as the design's plan places them; every "
                                   "existing device keeps its name, ports, cables, addresses, ASN and pins. "
                                   "Refuses (exit 1, naming each device that would change) when that "
                                   "cannot be additive, unless --allow-renumber.")
    p.add_argument("file")
    p.add_argument("--sus", type=int, help="SUs the design should have (default: as now)")
    p.add_argument("--servers-per-su", dest="servers_per_su", type=int,
                   help="servers each SU should have (default: as now)")
    p.add_argument("--final-sus", dest="final_sus", type=int, help="plan for this many SUs from now on")
    p.add_argument("--allow-renumber", action="store_true",
                   help="rebuild at the new size even when existing devices are renumbered or recabled")
    p.add_argument("-o", "--output", help="write here instead of over FILE")
    p.add_argument("--force", action="store_true", help="save even when the output file is read-only")
    p.set_defaults(run=run_grow)

    p = sub.add_parser("assign", help="re-run rail assignment and addressing on a design, then save it",
                       description="Rails back to GPU-affinity order, then every unpinned address and ASN "
                                   "re-planned. Pinned values are kept.")
    p.add_argument("file")
    p.add_argument("-o", "--output", help="write here instead of over FILE")
    p.add_argument("--keep-rails", action="store_true", help="only re-plan addresses and ASNs")
    p.add_argument("--force", action="store_true", help="save even when the design file is read-only")
    p.set_defaults(run=run_assign)


def run_presets(args) -> int:
    from ..planning.spec import format_ratio
    for preset in designer.presets():
        s = designer.size(preset.spec())
        print(f"{preset.name}\n  {preset.description}")
        tiers = f"{s.spines} spines" if s.spines else "no spines (rail-only)"
        tiers += f", {s.cores} cores in {s.groups} spine groups" if s.cores else ""
        tiers += f", {s.fabric_planes} fabric planes" if s.fabric_planes > 1 else ""
        ratio = f", {format_ratio(s.ratio)}" if s.spines else ""
        print(f"  {s.servers} servers, {s.gpus} GPUs, {s.rails} rails, {s.leaves} leaves, {tiers}, "
              f"{s.server_links + s.fabric_links + s.core_links} cables{ratio}")
    if args.models:
        catalog = designer.catalog()
        print("\nswitch models:")
        for m in catalog.switches.values():
            print(f"  {m.id:24} {m.ports} x {m.speed}G, breakouts {', '.join(m.breakouts)}  {m.description}")
        print("server models:")
        for m in catalog.servers.values():
            print(f"  {m.id:24} {m.gpus} GPUs, {len(m.nics)} x {m.nics[0].speed}G NICs  {m.description}")
    return EXIT_OK


def run_new(args) -> int:
    out = new_output(args.output, args.force)
    spec = designer.spec(args.preset, **{name: getattr(args, name) for name in SPEC_OPTIONS})
    try:
        fabric = designer.build(spec, catalogs=args.catalog)
    except designer.PlanningError as exc:
        raise CliError("these parameters cannot be built:\n" + "\n".join(f"  - {p}" for p in exc.problems))
    say_removed(designer.save(fabric, out, force=args.force))
    s = designer.size(spec, catalogs=args.catalog)
    print(f"wrote {out}: {design_summary(fabric, s.ratio, s.spine_ratio)}")
    return EXIT_OK


def design_summary(fabric, ratio: float, spine_ratio: float) -> str:
    """Switches by tier and cables by tier, counted on the built design."""
    from ..planning.spec import format_ratio
    roles = {s.id: s.role.value for s in fabric.switches.values()}
    tiers = Counter()
    for link in fabric.links.values():
        ends = roles.get(link.a.partition("/")[0], "nic"), roles.get(link.b.partition("/")[0], "nic")
        tiers[min(ends), max(ends)] += 1
    server_links = tiers["leaf", "nic"]
    up, core_links = tiers["leaf", "spine"], tiers["core", "spine"]
    servers = len(fabric.servers)
    gpus = sum(server.gpus for server in fabric.servers.values())
    cores = len(fabric.cores())
    planes = fabric.settings.fabric_planes
    text = (f"{servers} servers ({gpus} GPUs), {len(fabric.rails)} rails"
            + (f" in {planes} fabric planes" if planes > 1 else "")
            + f", {len(fabric.leaves())} leaves, {len(fabric.spines())} spines"
            + (f", {cores} cores" if cores else "")
            + (f", {server_links} server-leaf, {up} leaf-spine and {core_links} spine-core cables" if cores
               else f", {server_links} server-leaf and {up} leaf-spine cables"))
    if not fabric.spines():
        return text + ", rail-only"
    text += f", leaf oversubscription {format_ratio(ratio)}"
    return text + (f", spine oversubscription {format_ratio(spine_ratio)}" if cores else "")


def run_validate(args) -> int:
    fabric = designer.load(args.file, catalogs=args.catalog)
    findings = designer.check(fabric)
    not_run = designer.checks_not_run(fabric)
    if args.format == "json":
        json.dump({"file": args.file, "findings": [f.as_dict() for f in findings],
                   "counts": _counts(findings), **({"not_run": not_run} if not_run else {})}, sys.stdout, indent=2)
        print()
    else:
        for f in findings:
            print(f"{f.severity.value.upper():7} {f.code} {f.message}")
            if f.hint and f.severity is not designer.Severity.INFO:
                print(f"        fix: {f.hint}")
        c = _counts(findings)
        if not_run:
            print(f"NOTE    {not_run}")
        print(f"{args.file}: {c['error']} errors, {c['warning']} warnings, {c['info']} notes")
    return EXIT_FINDINGS if any(f.severity is designer.Severity.ERROR for f in findings) else EXIT_OK


def _counts(findings) -> dict:
    counts = {"error": 0, "warning": 0, "info": 0}
    for f in findings:
        counts[f.severity.value] += 1
    return counts


def run_assign(args) -> int:
    fabric = designer.load(args.file)
    try:
        changed = designer.assign(fabric, rails=not args.keep_rails)
    except designer.PlanningError as exc:
        raise CliError("addresses cannot be assigned:\n" + "\n".join(f"  - {p}" for p in exc.problems),
                       EXIT_FINDINGS) from None
    out = Path(args.output or args.file)
    say_removed(designer.save(fabric, out, force=args.force))
    print(f"wrote {out}: {changed} NIC rails reset, {len(fabric.addresses)} addresses, {len(fabric.asns)} ASNs")
    return EXIT_OK


def run_grow(args) -> int:
    fabric = designer.load(args.file)
    try:
        result = designer.grow(fabric, args.sus, args.servers_per_su, final_sus=args.final_sus,
                               allow_renumber=args.allow_renumber)
    except designer.NotAdditive as exc:
        shown = exc.problems[1:21]
        more = len(exc.problems) - 1 - len(shown)
        raise CliError(f"{args.file}: {exc.problems[0]}\n" + "\n".join(f"  - {p}" for p in shown)
                       + (f"\n  ... and {more} more devices" if more > 0 else ""), EXIT_FINDINGS) from None
    except designer.PlanningError as exc:
        raise CliError(f"{args.file}: " + "\n".join(exc.problems)) from None
    out = Path(args.output or args.file)
    say_removed(designer.save(result.fabric, out, force=args.force))
    plan = result.plan
    planned = f"; planned for {plan.final_sus} SUs of {plan.final_servers_per_su} servers" if plan else ""
    print(f"wrote {out}: {result.sus} SUs of up to {result.servers_per_su} servers, "
          f"{len(result.added)} devices and {result.cables} cables added{planned}")
    if result.renumbered:
        print(f"renumbered or recabled {len(result.renumbered)} existing devices (--allow-renumber); "
              "`rail-designer diff` shows each change")
    return EXIT_OK
