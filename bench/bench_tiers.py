"""`new` + `validate` at 4,096 servers, and the three-tier design of 16,384 servers x 8 rails (131,072 GPUs).

Each design runs twice:
- the two commands as a user runs them (`python -m designer new ... -o FILE`, then `validate FILE`), each
  in its own process (bytecode compiled beforehand, as installed), with its wall and CPU time and peak
  memory (ru_maxrss of that process), and their sum against issue 11's target: under 3 s together at
  4,096 servers on 2 cores (the two-tier design of the issue's table; the three-tier one, a third tier of
  cables more, is shown for scale);
- what they do, in one process, timed per stage: build (the planner, with addressing), save (the
  design file), load (read it back), check (every rule), so a change can be traced to its stage.

- 4096: the b200-superpod preset at 128 SUs would need a fourth tier, so this is bench_foundation's
  design (64 SUs x 64 servers, 64 x 800G leaves split 2 x 400G, per-rail spine planes), and the same
  servers as a three-tier b200 design (the preset at 128 SUs of 32 servers on 64 x 800G switches split
  2 x 400G: radix 128 at 400G lets one spine group hold 8 SUs).
- 131072: 256 SUs x 64 servers x 8 rails on 64 x 800G switches, leaves 64 x 400G down and 32 x 800G up,
  spines 32 down and 32 up, core tier sized for 1:1 (2,048 leaves, 2,048 spines in 64 spine groups,
  1,024 cores; 262,144 cables). `validate` must stay interactive there (issue 11).

Run: python bench/bench_tiers.py [4096|131072 ...] [--no-cli | --cli-only]   (default: both sizes, both ways)
On a shared machine wall times are noisy: compare runs made under the same load.
"""

from __future__ import annotations

import atexit
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import designer  # noqa: E402
from designer.checks import check  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage import load, save  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

TARGET_4096 = 3.0       # seconds, new + validate (issue 11)
SN5600 = dict(leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600", core_model="nvidia-sn5600")
# (label, preset, parameters): the `new` command's --preset and options, and designer.spec()'s arguments
SIZES = {
    "4096": [
        ("two tiers, per-rail spine planes", "default",
         dict(name="bench-4096", sus=64, servers_per_su=64, server_model="hgx-h100-8x400g", leaf_uplinks=32,
              uplink_speed=800, spines=32, spine_planes="per-rail", scheme="p2p31", **SN5600)),
        ("three tiers (b200-superpod, 2 x 400G ports)", "b200-superpod",
         dict(sus=128, uplink_speed=400, **SN5600)),
    ],
    "131072": [
        ("three tiers, 800G uplinks", "b200-superpod",   # a preset that leaves the spine count to the sizing
         dict(name="bench-131072", sus=256, servers_per_su=64, server_model="hgx-h100-8x400g",
              uplink_speed=800, core_tier="on", scheme="p2p31", fabric_pool="10.248.0.0/14",
              loopback_pool="10.252.0.0/16", **SN5600)),
    ],
}


# The commands run with their bytecode compiled once beforehand, as an installed package has it: with
# PYTHONDONTWRITEBYTECODE (set on some machines) every run would compile each module again (~0.2 s).
PYCACHE = tempfile.mkdtemp(prefix="bench-tiers-pycache-")
atexit.register(shutil.rmtree, PYCACHE, True)    # also when another bench only imports SIZES from here
ENV = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPYCACHEPREFIX": PYCACHE}


def command(*args: str) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak MB, exit status) of ``python -m designer ARGS`` in its own process.
    CPU time (user + system) is the steadier number on a machine other work shares."""
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "designer", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                             env=ENV)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return (time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
            child.returncode)


def run_cli(label: str, preset: str, params: dict, target: float | None) -> None:
    options = [f"--{name.replace('_', '-')}={value}" for name, value in params.items()]
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.fabric.yaml")
        command("new", "-o", path)                      # compiles what the two commands import
        command("validate", path)
        new = command("new", "--preset", preset, *options, "-o", path, "--force")
        validate = command("validate", path)
    print(f"{label}, as the commands run (one process each):")
    for name, (wall, cpu, peak, code) in (("new", new), ("validate", validate)):
        print(f"  {name:9}{wall:6.2f} s   (CPU {cpu:5.2f} s)   peak {peak:5.0f} MB   exit {code}")
    total, cpu = new[0] + validate[0], new[1] + validate[1]
    verdict = f"   (target < {target:.0f} s: {'met' if total < target else 'NOT met'})" if target else ""
    print(f"  new + validate {total:6.2f} s   (CPU {cpu:5.2f} s){verdict}")


def run_stages(label: str, preset: str, params: dict) -> None:
    spec = designer.spec(preset, **params)
    catalog = builtin_catalog()
    t0 = time.perf_counter()
    fabric = build(spec, catalog)
    t1 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.fabric.yaml"
        save(fabric, path)
        t2 = time.perf_counter()
        size_mb = path.stat().st_size / 1e6
        del fabric
        loaded = load(path)
        t3 = time.perf_counter()
    findings = check(loaded)
    t4 = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gpus = sum(s.gpus for s in loaded.servers.values())
    print(f"{label}: {len(loaded.servers):,} servers ({gpus:,} GPUs), {len(loaded.leaves()):,} leaves, "
          f"{len(loaded.spines()):,} spines, {len(loaded.cores()):,} cores, {len(loaded.links):,} cables; "
          f"{len(findings)} findings")
    print(f"  build  {t1 - t0:6.2f} s")
    print(f"  save   {t2 - t1:6.2f} s   ({size_mb:.1f} MB)")
    print(f"  load   {t3 - t2:6.2f} s")
    print(f"  check  {t4 - t3:6.2f} s")
    print(f"  new + validate in one process (build + save, load + check): {t4 - t0:6.2f} s")
    print(f"  peak memory so far {peak:.0f} MB")


def main(argv: list[str]) -> None:
    flags = {a for a in argv if a.startswith("--")}
    for size in [a for a in argv if a not in flags] or list(SIZES):
        for label, preset, params in SIZES[size]:
            if "--no-cli" not in flags:   # the target is the design's (its table's 4,864 devices)
                run_cli(label, preset, params, TARGET_4096 if (size, preset) == ("4096", "default") else None)
            if "--cli-only" not in flags:
                run_stages(label, preset, params)


if __name__ == "__main__":
    main(sys.argv[1:])
