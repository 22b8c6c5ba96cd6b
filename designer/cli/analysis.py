"""Commands that question a design's forwarding: paths (hop-by-hop trace) and analyze (collisions)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import designer

from .common import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, CliError


def add_routing_arguments(p) -> None:
    """--routing, --qps, --trials, --seed: how the collision analysis places flows (analyze, nccl-check)."""
    p.add_argument("--routing", choices=("ppd", "ecmp", "qp-hash", "adaptive"), default=None,
                   help="ppd: the leaves' pins; ecmp: one hash per flow; qp-hash: --qps queue pairs per flow, "
                        "each hashed; adaptive: per-packet spraying as the ideal (even split, no collisions). "
                        "Default: the design's load-balancing setting (ppd when unset); spines hash in every "
                        "mode but adaptive")
    p.add_argument("--qps", type=int, default=None,
                   help="queue pairs per flow under qp-hash (NCCL_IB_QPS_PER_CONNECTION; default: the design's, "
                        "else 4)")
    p.add_argument("--trials", type=int, default=100, help="hash samples (default 100; 1 when nothing is random)")
    p.add_argument("--seed", type=int, default=0)


def check_output_file(path: str, what: str) -> None:
    """Refuse before any work when the file's folder does not exist."""
    if not Path(path).parent.resolve().is_dir():
        raise CliError(f"cannot write the {what} {path}: its folder does not exist")


def add_ib_route_arguments(p) -> None:
    p.add_argument("--ibnetdiscover", metavar="DUMP", help="InfiniBand: ibnetdiscover output from the fabric")
    p.add_argument("--fts", metavar="DUMP", help="InfiniBand: dump_fts output from the fabric (every switch's "
                                                "forwarding table, as the subnet manager programmed it)")


def ib_routes(args):
    """The (ibnetdiscover, dump_fts) pair, or None; one without the other is refused."""
    if bool(args.ibnetdiscover) != bool(args.fts):
        raise CliError("give both --ibnetdiscover and --fts (the fabric's routes come from both)", EXIT_USAGE)
    return (args.ibnetdiscover, args.fts) if args.ibnetdiscover else None


def register(sub) -> None:
    p = sub.add_parser("paths", help="trace a flow and its reply hop by hop through the configured fabric",
                       description="Follows a flow through what the bundle configures: the host's rule and table, "
                                   "the leaf (local delivery or its PPD pin), the spine, the far leaf and host, "
                                   "and the reply back. HOST is a server id or hostname; NIC is nicK or the "
                                   "netdev. Without a NIC every same-rail NIC pair is traced. An InfiniBand design "
                                   "follows the subnet manager's forwarding tables: give --ibnetdiscover and --fts. "
                                   "Exit status 1 when a pair has no route.")
    p.add_argument("file")
    p.add_argument("--from", dest="source", required=True, metavar="HOST[:NIC]")
    p.add_argument("--to", dest="target", required=True, metavar="HOST[:NIC]")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--bundle", metavar="DIR", help="take the hosts' rules and tables from this exported bundle's "
                                                   "netplan files (as edited) instead of from the design")
    add_ib_route_arguments(p)
    p.set_defaults(run=run_paths)

    p = sub.add_parser("analyze", help="predict flow collisions of a collective under PPD, ECMP, QP hashing or adaptive spraying",
                       description="Places the collective's inter-server flows on the designed links and reports "
                                   "per-link load, the busiest link and the predicted bus-bandwidth fraction "
                                   "(a flow sharing its worst link with k-1 others gets 1/k; the collective runs "
                                   "at its slowest flow). ECMP choices are sampled uniformly, seeded. An InfiniBand "
                                   "design places the flows on the subnet manager's routes: give --ibnetdiscover "
                                   "and --fts.")
    p.add_argument("file")
    p.add_argument("--pattern", required=True, choices=("rail-ring", "allreduce-ring", "alltoall"))
    add_routing_arguments(p)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--chart", metavar="OUT.png|OUT.svg",
                   help="also write a bar chart of the leaf-spine link loads (PNG or SVG, by the file name); "
                        "with --compare, the modes side by side")
    p.add_argument("--compare", action="store_true",
                   help="run the pattern under every mode (ppd, ecmp, qp-hash with --qps, adaptive) and compare "
                        "them; --routing does not apply")
    add_ib_route_arguments(p)
    p.set_defaults(run=run_analyze)

    p = sub.add_parser("failures", help="how many leaf uplink, spine (and core) failures the design takes non-blocking",
                       description="Per tier, how many failures the design takes with every switch still within its "
                                   "allowed downlink:uplink ratio (1:1: non-blocking): leaf uplink cables, spines, and "
                                   "in three tiers spine uplink cables and cores. The worst case counts: failures "
                                   "that hit one switch's largest parts. Check RD075 reports the same.")
    p.add_argument("file")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(run=run_failures)


def run_paths(args) -> int:
    from ..analysis.report import trace_json, trace_text
    traces = designer.trace(designer.load(args.file), args.source, args.target, bundle=args.bundle,
                            ib_routes=ib_routes(args))
    if args.format == "json":
        json.dump(trace_json(traces), sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(trace_text(traces))
    return EXIT_OK if all(t.ok for t in traces) else EXIT_FINDINGS


def run_analyze(args) -> int:
    from ..analysis.chart import format_of, write_chart
    from ..analysis.report import analysis_json, analysis_table, chart_links
    if args.chart:
        check_output_file(args.chart, "chart")
        format_of(Path(args.chart))
    routes = ib_routes(args)
    fabric = designer.load(args.file)
    if args.compare:
        if routes:
            raise CliError("--compare compares Ethernet load-balancing modes; an InfiniBand fabric has one routing, "
                           "its subnet manager's (leave out --compare)", EXIT_USAGE)
        return _run_compare(args, fabric)
    result = designer.analyze(fabric, args.pattern, routing=args.routing, trials=args.trials, seed=args.seed,
                              qps=args.qps, ib_routes=routes)
    if args.format == "json":
        json.dump(analysis_json(result), sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(analysis_table(result))
    if args.chart:
        try:
            write_chart(Path(args.chart), [l.utilisation for l in chart_links(result)])
        except OSError as exc:
            raise CliError(f"cannot write the chart {args.chart}: {exc.strerror}") from None
        print(f"wrote {args.chart}", file=sys.stderr)
    return EXIT_OK


def _run_compare(args, fabric) -> int:
    from ..analysis.chart import write_mode_chart
    from ..analysis.compare import compare_table
    if args.routing is not None:
        raise CliError("--compare runs every mode: leave out --routing")
    rows = designer.compare_modes(fabric, args.pattern, qps=args.qps, trials=args.trials, seed=args.seed)
    if args.format == "json":
        json.dump({"pattern": args.pattern, "modes": [r.as_dict() for r in rows]}, sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write(compare_table(rows, args.pattern))
    if args.chart:
        try:
            write_mode_chart(Path(args.chart), rows, f"{args.pattern}: every load-balancing mode")
        except OSError as exc:
            raise CliError(f"cannot write the chart {args.chart}: {exc.strerror}") from None
        print(f"wrote {args.chart}", file=sys.stderr)
    return EXIT_OK


def run_failures(args) -> int:
    rows = designer.failure_capacity(designer.load(args.file))
    if args.format == "json":
        json.dump([{"tier": r.tier, "failures": r.failures, "limiting": r.limiting, "down_gbps": r.down_gbps,
                    "up_gbps": r.up_gbps, "parts": r.parts, "ratio": r.ratio} for r in rows], sys.stdout, indent=2)
        print()
    else:
        sys.stdout.write("".join(r.text + "\n" for r in rows) or "no uplink tier: nothing above the leaves to fail\n")
    return EXIT_OK
