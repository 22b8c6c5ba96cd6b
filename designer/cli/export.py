"""Commands that produce configs: export (the bundle) and show (one device, on the terminal)."""

from __future__ import annotations

import argparse
import sys
import time

import designer

from ..qos.check import said_on_export
from .common import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, CliError, say_removed


_PARTS_EPILOG = "(the bundle's parts)"      # replaced when the help is shown: listing them loads every exporter


class _PartsHelp(argparse.HelpFormatter):
    """`export --help` ends with the bundle's parts, default and optional, read from the exporters."""

    def add_text(self, text):
        if text is _PARTS_EPILOG:
            parts = designer.bundle_parts()
            text = (f"parts written by default: {', '.join(p.name for p in parts if p.default)}. "
                    f"Optional parts, written only when --with or --only names them: "
                    + "; ".join(f"{p.name}: {p.description.removeprefix('optional: ')}" for p in parts if not p.default))
        super().add_text(text)


def register(sub) -> None:
    p = sub.add_parser("export", help="write the config bundle for a design", formatter_class=_PartsHelp,
                       description="Writes AID, switch, host, cabling, PPD, Ansible and monitoring files into DIR "
                                   "(atomically: DIR holds the old bundle or the new one, never half).",
                       epilog=_PARTS_EPILOG)
    p.add_argument("file")
    p.add_argument("-o", "--output", required=True, metavar="DIR")
    p.add_argument("--only", metavar="PARTS", help="comma-separated parts to write (default: every default part)")
    p.add_argument("--with", dest="with_parts", metavar="PARTS",
                   help="comma-separated optional parts to write as well as the default ones (listed below)")
    p.add_argument("--force", action="store_true", help="export even when the design has error findings")
    p.add_argument("--since", metavar="OLD",
                   help="a change bundle: only what changed since OLD (a design file or its bundle folder), "
                        "plus the rollout plan in waves (rollout/ROLLOUT.md, ansible/rollout.yml)")
    p.add_argument("--max-drain", default="1/8", metavar="SHARE",
                   help="with --since: the largest share of one mesh scope's spines (or cores) a wave drains "
                        "(default 1/8)")
    p.set_defaults(run=run_export)

    p = sub.add_parser("show", help="print one device's generated configs",
                       description="Prints what the bundle would hold for one device, from the same code.")
    p.add_argument("file")
    p.add_argument("device", help="host name or id of a server or switch")
    p.add_argument("--part", help="only this file, by name without extension: config_db, frr, netplan, "
                                  "policy-routing, sysctl, roce-qos, nccl ...")
    p.set_defaults(run=run_show)


class _Bar:
    """A one-line progress bar with the time left on a terminal; silent otherwise."""

    def __init__(self, stream, clock=time.monotonic):
        self.stream, self.live, self.clock = stream, stream.isatty(), clock
        self.start = clock()

    def __call__(self, done: int, total: int, label: str) -> None:
        if self.live:
            width = 30
            filled = width * done // max(total, 1)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} "
                              f"{eta(self.clock() - self.start, done, total):>9} {label[:40]:40}")
            self.stream.flush()

    def end(self) -> None:
        if self.live:
            self.stream.write("\n")


def eta(elapsed: float, done: int, total: int) -> str:
    """'ETA 0:12' at the rate so far; blank until the first second and 2% give a rate worth quoting."""
    if done >= total:
        return "done"
    if elapsed < 1 or done * 50 < total:
        return ""
    left = round(elapsed * (total - done) / done)
    return f"ETA {left // 60}:{left % 60:02d}"


def _names(text: str | None) -> list[str] | None:
    return [p.strip() for p in text.split(",") if p.strip()] if text else None


def run_export(args) -> int:
    fabric = designer.load(args.file)
    bar = _Bar(sys.stderr)
    try:
        result = designer.export_bundle(fabric, args.output, parts=_names(args.only),
                                        with_parts=_names(args.with_parts), force=args.force, progress=bar,
                                        since=args.since, max_drain=args.max_drain)
    except designer.ExportRefused as exc:
        raise CliError(str(exc), EXIT_FINDINGS) from None
    except KeyboardInterrupt:
        raise CliError(f"interrupted: {args.output} is as it was before (a bundle already there is unchanged)",
                       EXIT_INTERRUPTED) from None
    finally:
        bar.end()
    say_removed(result.removed)
    print(f"wrote {len(result.files)} files ({result.bytes / 1e6:.1f} MB) to {result.outdir}")
    if result.rollout is not None:
        plan = result.rollout
        print(f"changed since {plan['since']}: {len(plan['changed'])} devices, {len(plan['added'])} new, "
              f"{len(plan['removed'])} removed; rollout in {len(plan['waves'])} waves (rollout/ROLLOUT.md):")
        for wave in plan["waves"]:
            print(f"  {wave['number']}. {wave['name']}: {len(wave['switches'])} switches, {len(wave['hosts'])} hosts"
                  + (" (drained)" if wave["drain"] else ""))
    return _qos_said(result)


def _qos_said(result) -> int:
    """The written bundle's host/switch QoS agreement: exit 1 (findings) when its own files disagree."""
    lines = said_on_export(result.qos, result.outdir)
    for line in lines:
        print(line)
    return EXIT_FINDINGS if lines else EXIT_OK



def run_show(args) -> int:
    fabric = designer.load(args.file)
    try:
        files = designer.render_device(fabric, args.device)
    except designer.UnknownDevice:
        raise CliError(f"{args.file} has no device named '{args.device}'") from None
    if args.part:
        names = sorted({p.rsplit("/", 1)[-1].split(".")[0] for p in files})
        files = {p: t for p, t in files.items() if p.rsplit("/", 1)[-1].split(".")[0] == args.part}
        if not files:
            raise CliError(f"{args.device} has no '{args.part}' file; it has: {', '.join(names)}")
    for path in sorted(files):
        if not args.part:
            print(f"# ---- {path}")
        sys.stdout.write(files[path])
    return EXIT_OK
