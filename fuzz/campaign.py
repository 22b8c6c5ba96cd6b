"""A fuzzing run: make the inputs (reproducibly from a seed), run them through `runner.Pool`, keep
the bad ones. Also the entry point the test suite's bounded slice uses (`run`)."""

from __future__ import annotations

import random
from pathlib import Path

from .kinds import KINDS
from .runner import BAD, Job, Limits, Pool, Result
from .seeds import base_design, ib_base_design, seeds


def make_job(index: int, kind: str, seed: int, root: Path, design_text: dict[bool, str]) -> Job:
    rng = random.Random(seed * 1_000_003 + index)
    data, how, extra = KINDS[kind].make(rng, seeds()[kind])
    return prepare(index, kind, data, how, extra, root, design_text)


def prepare(index: int, kind: str, data: bytes, how: str, extra: bool, root: Path,
            design_text: dict[bool, str]) -> Job:
    """The job's folder: the input file where its command reads it, and the base design if needed
    (``design_text``: infiniband? -> the design file's text)."""
    work = root / f"{index:06d}"
    work.mkdir()
    if KINDS[kind].needs_design:
        (work / "d.fabric.yaml").write_text(design_text[KINDS[kind].infiniband])
    folder = work / "lldp" if kind == "lldp" else work
    folder.mkdir(exist_ok=True)
    path = folder / KINDS[kind].file_name(data)
    path.write_bytes(data)
    return Job(index, kind, how, extra, work, path)


def run(count: int, seed: int, kinds: list[str], limits: Limits, jobs: int, root: Path,
        keep: Path | None = None) -> list[Result]:
    """``count`` fresh inputs, kinds in turn."""
    design_text = _start()
    return _drive((lambda i: make_job(i, kinds[i % len(kinds)], seed, root, design_text)), count, limits, jobs,
                  keep)


def replay(files: list[Path], limits: Limits, jobs: int, root: Path, extra: bool = True) -> list[Result]:
    """Saved inputs again (regression files): the kind is the name of the file's folder."""
    design_text = _start()
    for f in files:
        if f.parent.name not in KINDS:
            raise ValueError(f"{f}: its folder should be named after a kind ({', '.join(KINDS)})")
    return _drive(lambda i: prepare(i, files[i].parent.name, files[i].read_bytes(), "saved", extra, root,
                                    design_text), len(files), limits, jobs, None)


def _start() -> dict[bool, str]:
    from designer.storage import dumps
    seeds()                                   # made once, before the first fork
    _warm_up()
    return {False: dumps(base_design()), True: dumps(ib_base_design())}


def _drive(make, count: int, limits: Limits, jobs: int, keep: Path | None) -> list[Result]:
    pool = Pool(limits, jobs, on_done=(lambda r: _keep(keep, r) if r.outcome in BAD else None) if keep else None)
    results: list[Result] = []
    index = 0
    while index < count or pool.running:
        while index < count and len(pool.running) < jobs:
            pool.start(make(index))
            index += 1
        results.extend(pool.reap())
    return sorted(results, key=lambda r: r.job.index)


def _warm_up() -> None:
    """Import every command and compile every template once here, so each forked child starts
    warm (a child then costs its input's work, not the designer's start-up)."""
    from designer.checks import check
    from designer.cli import parser
    from designer.export.bundle import render_in_memory
    from designer.export.registry import parts
    import designer.export.aid_import  # noqa: F401
    import designer.importers.affinity  # noqa: F401
    import designer.importers.apply  # noqa: F401
    import designer.importers.verify  # noqa: F401
    parser()
    fabric = base_design()
    check(fabric)
    render_in_memory(fabric, parts())


def _keep(keep: Path, result: Result) -> None:
    folder = keep / result.job.kind
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{result.outcome}-{result.job.index:06d}"
    (folder / f"{stem}{''.join(result.job.path.suffixes) or '.txt'}").write_bytes(result.job.path.read_bytes())
    (folder / f"{stem}.stderr").write_text(result.stderr)

