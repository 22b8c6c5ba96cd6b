"""Benchmark: `diff` of two 4,096-server designs and of their bundles (issue 17: each under 2 s on 2 cores).

    python bench/bench_diff.py [--repeat N] [--keep DIR]

The designs are the README's 4,096-server command (64 SUs x 64 servers x 8 rails, 32 spines per rail plane)
and the same with one SU less (63 SUs: its spines have no port for a 65th SU, so the pair that differs by
one SU is 63 -> 64). Each is saved and exported (the whole default bundle) once; that setup is not timed.
Then, each in a fresh process (nothing cached from the run before): load + diff of the two designs,
the design diff alone on two loaded designs, the bundle diff, and `rail-designer diff` of the bundles as
a command (interpreter start and printing included). Prints the best of N, wall and CPU seconds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import designer  # noqa: E402

README_4096 = dict(sus=64, servers_per_su=64, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600",
                   leaf_uplinks=32, uplink_speed=800, spines=32, spine_planes="per-rail")

# Each timed step as a script for a fresh interpreter; it prints "wall cpu summary".
_TIMED = """
import sys, time
sys.path.insert(0, {root!r})
import designer
old, new = sys.argv[1], sys.argv[2]
{setup}
start, cpu = time.perf_counter(), time.process_time()
report = designer.diff(old, new)
print(time.perf_counter() - start, time.process_time() - cpu, report.counts, report.disruptive)
"""
_LOADED = "old, new = designer.load(old), designer.load(new)"


def _prepare(folder: Path) -> dict[str, Path]:
    paths = {}
    for sus in (63, 64):
        design = folder / f"sus{sus}.fabric.yaml"
        bundle = folder / f"sus{sus}-bundle"
        if not design.exists():
            designer.save(designer.build(designer.spec("superpod-su", **{**README_4096, "sus": sus})), design)
        if not (bundle / "MANIFEST.sha256").exists():
            started = time.perf_counter()
            designer.export_bundle(designer.load(design), bundle)
            print(f"(exported {bundle.name} in {time.perf_counter() - started:.1f} s, not timed)")
        paths[f"design{sus}"], paths[f"bundle{sus}"] = design, bundle
    return paths


def _timed(label: str, repeat: int, old: Path, new: Path, setup: str = "") -> None:
    script = _TIMED.format(root=str(ROOT), setup=setup)
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", script, str(old), str(new)], capture_output=True, text=True,
                             check=True).stdout.split(maxsplit=2)
        runs.append((float(out[0]), float(out[1]), out[2].strip()))
    wall, cpu = min(r[0] for r in runs), min(r[1] for r in runs)
    print(f"{label:44} {wall:6.2f} s wall {cpu:6.2f} s CPU   {runs[0][2]}")


def _command(label: str, repeat: int, old: Path, new: Path) -> None:
    walls = []
    for _ in range(repeat):
        start = time.perf_counter()
        code = subprocess.run([sys.executable, "-m", "designer", "diff", str(old), str(new)], cwd=ROOT,
                              stdout=subprocess.DEVNULL).returncode
        walls.append(time.perf_counter() - start)
    print(f"{label:44} {min(walls):6.2f} s wall (exit {code})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="keep (and reuse) the designs and bundles in DIR")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(args.keep or scratch)
        folder.mkdir(parents=True, exist_ok=True)
        p = _prepare(folder)
        print(f"best of {args.repeat}, each in a fresh process (target: 2 s):")
        _timed("load + diff, 4,032 -> 4,096 servers", args.repeat, p["design63"], p["design64"])
        _timed("load + diff, 4,096 -> 4,096 (itself)", args.repeat, p["design64"], p["design64"])
        _timed("diff alone (both designs loaded)", args.repeat, p["design63"], p["design64"], _LOADED)
        _timed("bundle diff, 4,032 -> 4,096 servers", args.repeat, p["bundle63"], p["bundle64"])
        _command("rail-designer diff BUNDLE63 BUNDLE64", args.repeat, p["bundle63"], p["bundle64"])
        _command("rail-designer diff DESIGN63 DESIGN64", args.repeat, p["design63"], p["design64"])


if __name__ == "__main__":
    main()
