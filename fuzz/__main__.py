"""``python -m fuzz [--count N] [--seed S] [--kinds design,aid,...] [--jobs J] [--keep DIR]``"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz.campaign import replay, run  # noqa: E402
from fuzz.kinds import KINDS  # noqa: E402
from fuzz.runner import BAD, Limits  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__)
    p.add_argument("--count", type=int, default=1000, help="inputs in all (spread evenly over the kinds)")
    p.add_argument("--seed", type=int, default=1, help="the run's random seed (same seed, same inputs)")
    p.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, from: {', '.join(KINDS)}")
    p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="children at a time")
    p.add_argument("--seconds", type=int, default=10, help="CPU-time limit per input (wall-clock backstop: 3x)")
    p.add_argument("--memory-mb", type=int, default=1024, help="memory limit per input")
    p.add_argument("--keep", metavar="DIR", help="save the inputs of bad outcomes here")
    p.add_argument("--replay", metavar="PATH", nargs="+",
                   help="run saved inputs instead (files, or folders of <kind>/ folders such as tests/data/fuzz)")
    args = p.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    unknown = sorted(set(kinds) - set(KINDS))
    if unknown:
        p.error(f"unknown kind(s): {', '.join(unknown)}")
    started = time.monotonic()
    limits = Limits(args.seconds, args.memory_mb << 20)
    with tempfile.TemporaryDirectory(prefix="rd-fuzz-") as scratch:
        if args.replay:
            files = sorted(f for p in map(Path, args.replay) for f in ([p] if p.is_file() else p.rglob("*"))
                           if f.is_file() and f.parent.name in KINDS)
            results = replay(files, limits, args.jobs, Path(scratch))
            for r in results:
                last = r.stderr.strip().splitlines()[-1][:400] if r.stderr.strip() else ""
                print(f"{r.outcome:12} exit {r.status:3}  {r.job.kind}/{files[r.job.index].name}  {last}")
        else:
            results = run(args.count, args.seed, kinds, limits, args.jobs, Path(scratch),
                          keep=Path(args.keep) if args.keep else None)
    wall = time.monotonic() - started
    report(results, wall)
    return 1 if any(r.outcome in BAD for r in results) else 0


def report(results, wall: float) -> None:
    outcomes = ["ok", "findings", "refused", *BAD]
    by_kind = {k: Counter() for k in dict.fromkeys(r.job.kind for r in results)}
    for r in results:
        by_kind[r.job.kind][r.outcome] += 1
        by_kind[r.job.kind][r.job.how] += 1
    print(f"{'kind':10} {'inputs':>7} {'bytes':>6} {'struct':>6}" + "".join(f" {o:>10}" for o in outcomes))
    total = Counter()
    for kind, c in by_kind.items():
        n = sum(c[o] for o in outcomes)
        total.update(c)
        print(f"{kind:10} {n:7} {c['bytes']:6} {c['structure']:6}" + "".join(f" {c[o]:10}" for o in outcomes))
    n = sum(total[o] for o in outcomes)
    print(f"{'all':10} {n:7} {total['bytes']:6} {total['structure']:6}" + "".join(f" {total[o]:10}" for o in outcomes))
    slowest = max(results, key=lambda r: r.cpu, default=None)
    biggest = max(results, key=lambda r: r.max_rss_kb, default=None)
    if slowest:
        print(f"wall {wall:.1f} s; slowest input {slowest.cpu:.2f} s CPU, {slowest.seconds:.2f} s wall "
              f"({slowest.job.kind} #{slowest.job.index}); longest wall {max(r.seconds for r in results):.2f} s; "
              f"largest {biggest.max_rss_kb / 1024:.0f} MB RSS ({biggest.job.kind} #{biggest.job.index}); "
              f"tracebacks {total['traceback']}, hangs {total['hang']}")
    bad = [r for r in results if r.outcome in BAD]
    for r in bad[:50]:
        last = r.stderr.strip().splitlines()[-1][:200] if r.stderr.strip() else ""
        print(f"  {r.outcome}: {r.job.kind} #{r.job.index} ({r.job.how}, exit {r.status}): {last}")
    if len(bad) > 50:
        print(f"  ... and {len(bad) - 50} more")


if __name__ == "__main__":
    sys.exit(main())
