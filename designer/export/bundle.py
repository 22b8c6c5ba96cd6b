"""Write the config bundle: every part's files into a scratch folder beside the target, then a
README.txt and MANIFEST.sha256, then one atomic swap into place (`swap`).

An interrupted or cancelled export leaves the previous bundle (or nothing), never half a bundle,
and never an empty target. Scratch folders are named ``.<name>.rd-<host>-<pid>-<random>.partial``
(`storage.scratch`): the next export to the same target removes those of killed runs and reports
them in `ExportResult.removed`. Forked render workers die with the process that forked them.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Callable

from ..model.fabric import Fabric
from ..storage.scratch import remove_leftovers, scratch_dir
from .dump_format import DUMP_SECTION
from .errors import ExportError
from .parts import Part
from .registry import parts
from .forked import shared, sharing
from .swap import OLD, PARTIAL, swap_into_place

MANIFEST = "MANIFEST.sha256"
_PATH_PART = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}\Z")
README = "README.txt"

Progress = Callable[[int, int, str], None]


class ExportCancelled(Exception):
    """The caller's cancel callback asked to stop; nothing was written."""


class ExportRefused(ExportError):
    """The design has error findings and the export was not forced, or (``forced``) it has errors
    that the parts to write cannot get past (`blocking`): refused at once instead of after rendering."""

    def __init__(self, findings, forced: bool = False):
        self.findings, self.forced = findings, forced
        shown = findings[:20]
        lines = "\n".join(f"  {f.code} {f.message}" for f in shown)
        if len(findings) > len(shown):
            lines += f"\n  ... and {len(findings) - len(shown)} more (rail-designer validate lists them all)"
        if forced:
            head = (f"the design has {len(findings)} error(s) that the parts to write cannot get past, even in a "
                    "forced export; fix them first (each finding's fix is in `rail-designer validate`), or write "
                    "only parts they do not stop (--only):")
        else:
            head = f"the design has {len(findings)} error(s); fix them or export with --force:"
        super().__init__(f"{head}\n{lines}")


def blocking(chosen: list[Part]) -> frozenset[str]:
    """The codes of the findings that make the chosen parts' renderers refuse (`Part.refused_by`;
    checks/export_ready.py lists which refusal each covers): a forced export stops on them at once."""
    return frozenset().union(*(part.refused_by for part in chosen))


@dataclass(frozen=True)
class ExportResult:
    outdir: Path
    files: list[str]
    bytes: int
    removed: list[Path] = field(default_factory=list)     # leftovers of killed exports, cleaned up
    rollout: dict | None = None         # a change bundle's rollout plan (`since.ChangeBundle.plan_data`)
    qos: object | None = None           # the bundle's host/switch QoS agreement (`designer.qos_check`), when it has pairs


def select_parts(only: list[str] | None, extra: list[str] | None = None, kind: str = "ethernet") -> list[Part]:
    """The parts to write: ``only`` (every name), else the default parts; plus the ``extra`` (optional) ones.
    Only parts written for the design's fabric ``kind``: naming another is refused, with the reason."""
    available = parts()
    names = {p.name for p in available}
    unknown = [n for n in [*(only or ()), *(extra or ())] if n not in names]
    if unknown:
        raise ExportError(f"unknown part(s) {', '.join(unknown)}; parts: {', '.join(sorted(names))}")
    other = [n for n in [*(only or ()), *(extra or ())] if n in {p.name for p in not_for(kind)}]
    if other:
        raise ExportError(f"part(s) {', '.join(other)} are not written for {kind} designs; parts for {kind}: "
                          f"{', '.join(p.name for p in available if kind in p.kinds)}")
    available = [p for p in available if kind in p.kinds]
    wanted = set(only) if only else {p.name for p in available if p.default}
    wanted.update(extra or ())
    return [p for p in available if p.name in wanted]


def not_for(kind: str) -> list[Part]:
    """The parts a design of fabric ``kind`` never gets (an InfiniBand design: SONiC, FRR, host routing, PPD)."""
    return [p for p in parts() if kind not in p.kinds]


def _safe_relpath(path: str) -> str:
    """Refuse any path that could leave the bundle folder (absolute, '..', odd characters)."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or not pure.parts or any(
            not _PATH_PART.match(part) for part in pure.parts):
        raise ExportError(f"refusing to write '{path}': every folder and file name in the bundle must be a plain "
                          "name (letters, digits, '.', '-', '_'); rename the device or interface it comes from")
    return str(pure)


Job = tuple[int, "str | None"]            # (index into the chosen parts, device id or None for global files)
Entry = tuple[str, str, int]              # (relative path, sha256, bytes)

def _jobs(fabric: Fabric, chosen: list[Part]) -> list[Job]:
    """Fabric-wide jobs first: they are the long ones (the AID), so workers start them early."""
    jobs: list[Job] = [(i, None) for i in range(len(chosen))]
    return jobs + [(i, device) for i, part in enumerate(chosen) for device in part.devices(fabric)]


def write_file(root: Path, rel: str, content, made: set | None = None) -> Entry:
    """Write one bundle file (scripts executable); ``made`` remembers folders already created."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    target = root / rel
    if made is None or target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        if made is not None:
            made.add(target.parent)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o755 if rel.endswith(".sh") else 0o644)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)
    return rel, hashlib.sha256(data).hexdigest(), len(data)


def _write_all(fd: int, data: bytes) -> None:
    """os.write may write less than asked; loop until all of it is written."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _run_jobs(jobs: list[Job]) -> list[Entry]:
    """Render and write a batch of jobs into the temporary bundle folder."""
    fabric, chosen, root = shared()        # set by _render_into, shared with the forked workers
    entries, made = [], set()
    for index, device in jobs:
        part = chosen[index]
        files = part.render_device(fabric, device) if device is not None else part.render_global(fabric)
        entries.extend(write_file(root, _safe_relpath(path), content, made) for path, content in files.items())
    return entries


def _batches(jobs: list[Job], size: int) -> list[list[Job]]:
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def _first_of_each_part(batches: list[list[Job]]) -> list[int]:
    """Indexes of the first per-device batch of each part."""
    seen, firsts = set(), []
    for n, batch in enumerate(batches):
        index, device = batch[0]
        if device is not None and index not in seen:
            seen.add(index)
            firsts.append(n)
    return firsts


def _render_into(root: Path, fabric: Fabric, chosen: list[Part], progress: Progress | None,
                 cancel: Callable[[], bool] | None, workers: int) -> list[Entry]:
    """Write every part's files under ``root``; returns one manifest entry per file."""
    jobs = _jobs(fabric, chosen)
    batches = [[job] for job in jobs if job[1] is None]
    per_batch = 1 if workers == 1 else max(1, min(64, len(jobs) // (workers * 8)))
    batches += _batches([job for job in jobs if job[1] is not None], per_batch)
    entries: list[Entry] = []
    with sharing((fabric, chosen, root), workers) as imap:
        if workers > 1:
            # The first device of each part, here: it computes the part's whole-fabric data
            # (memo.per_state), which the forked workers then share instead of each computing it again.
            firsts = _first_of_each_part(batches)
            warm = [_run_jobs(batches[i]) for i in firsts]
            warmed = set(firsts)
            rest = [b for i, b in enumerate(batches) if i not in warmed]
            batches = [batches[i] for i in firsts] + rest
            results = itertools.chain(warm, imap(_run_jobs, rest))
        else:
            results = imap(_run_jobs, batches)
        done = 0
        for batch, produced in zip(batches, results):
            if cancel is not None and cancel():
                raise ExportCancelled()
            entries.extend(produced)
            for index, device in batch:
                done += 1
                if progress:
                    progress(done, len(jobs), f"{chosen[index].name}: {device or 'fabric-wide files'}")
    paths = [e[0] for e in entries]
    if len(set(paths)) != len(paths):
        twice = sorted({p for p in paths if paths.count(p) > 1})[:3]
        raise ExportError(f"two objects both produce {', '.join(twice)}; give them different host names")
    return entries


def readme_text(fabric: Fabric, chosen: list[Part]) -> str:
    lines = [f"rail-designer bundle for design '{fabric.settings.name}'", "",
             f"{len(fabric.servers)} servers, {len(fabric.leaves())} leaves, {len(fabric.spines())} spines, "
             + (f"{len(fabric.cores())} cores, " if fabric.cores() else "")
             + (f"{fabric.settings.fabric_planes} fabric planes, " if fabric.settings.fabric_planes > 1 else "")
             + f"{len(fabric.links)} cables.", "", "What each part is:"]
    for p in chosen:
        lines.append(f"  {p.name:12} {p.description}")
        if p.apply:
            lines.append(f"  {'':12} apply: {p.apply}")
    kind = fabric.settings.fabric_kind
    left_out = [p for p in parts() if not p.default and p not in chosen and kind in p.kinds]
    if left_out:
        lines += ["", "Optional parts not in this bundle (add them with `rail-designer export --with NAME`):"]
        lines += [f"  {p.name:12} {p.description}" for p in left_out]
    absent = not_for(kind)
    if kind != "ethernet" and absent:
        lines += ["", f"Not written for an {kind} design (the subnet manager routes it; no IP, BGP or PPD): "
                  + ", ".join(p.name for p in absent) + "."]
    if {"switches", "hosts"} & {p.name for p in chosen}:
        lines += ["", DUMP_SECTION.rstrip("\n")]
    lines += ["", f"{MANIFEST} lists the SHA-256 of every file: check with `sha256sum -c {MANIFEST}`.", ""]
    return "\n".join(lines)


def _check_target(outdir: Path) -> None:
    if outdir.exists():
        if not outdir.is_dir():
            raise ExportError(f"{outdir} exists and is not a folder; choose a folder path for the bundle")
        if any(outdir.iterdir()) and not (outdir / MANIFEST).is_file():
            raise ExportError(f"{outdir} is not empty and is not a rail-designer bundle (no {MANIFEST}); "
                              "choose a new or empty folder")
    if not outdir.parent.is_dir():
        raise ExportError(f"the folder {outdir.parent} does not exist")


def export(fabric: Fabric, outdir, *, progress: Progress | None = None, only: list[str] | None = None,
           force: bool = False, cancel: Callable[[], bool] | None = None, workers: int = 1,
           extra: list[str] | None = None,
           reduce: Callable[[Path, list[Entry]], tuple[list[Entry], str]] | None = None) -> ExportResult:
    """Write the bundle for ``fabric`` into ``outdir`` (replacing a previous bundle there).

    ``only`` names the parts to write (default: the default parts); ``extra`` adds optional parts.
    ``reduce`` (a change bundle, `since`) is given the rendered folder and its entries before the
    README and manifest are written; it returns the entries it kept (and wrote) and text for the README.

    ``workers`` > 1 renders in forked processes (the CLI does this for large designs); callers with
    threads of their own, such as the GUI, keep the default of 1.
    """
    outdir = Path(outdir).absolute()
    if outdir.is_symlink():                 # write the bundle where the link points; the link stays
        outdir = Path(os.path.realpath(outdir))
    _check_target(outdir)
    chosen = select_parts(only, extra, fabric.settings.fabric_kind)
    _refuse_errors(fabric, force, chosen)
    removed = remove_leftovers(outdir, (PARTIAL, OLD))
    tmp = scratch_dir(outdir, PARTIAL)
    try:
        entries = _render_into(tmp, fabric, chosen, progress, cancel, workers)
        note = ""
        if reduce is not None:
            entries, note = reduce(tmp, entries)
        entries.append(write_file(tmp, README, readme_text(fabric, chosen) + note))
        manifest = "".join(f"{digest}  {rel}\n" for rel, digest, _ in sorted(entries))
        entries.append(write_file(tmp, MANIFEST, manifest))
        swap_into_place(tmp, outdir)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    plan = reduce.plan_data() if hasattr(reduce, "plan_data") else None
    return ExportResult(outdir, sorted(e[0] for e in entries), sum(e[2] for e in entries), removed, plan)


def _refuse_errors(fabric: Fabric, force: bool, chosen: list[Part]) -> None:
    """Unforced: refuse any error finding. Forced: refuse at once the ones the chosen parts cannot get past."""
    from ..checks import Severity, check
    errors = [f for f in check(fabric) if f.severity is Severity.ERROR]
    if not force and errors:
        raise ExportRefused(errors)
    codes = blocking(chosen)
    stops = [f for f in errors if f.code in codes]
    if stops:
        raise ExportRefused(stops, forced=True)


def render_in_memory(fabric: Fabric, chosen: list[Part]) -> dict[str, "str | bytes"]:
    """Every file the chosen parts produce, keyed by bundle path (no README or manifest): for tests
    and tools that want the content without a folder."""
    files: dict[str, str | bytes] = {}
    for part in chosen:
        for device in part.devices(fabric):
            files.update(part.render_device(fabric, device))
        files.update(part.render_global(fabric))
    return files


def preview(fabric: Fabric, device_id: str) -> dict[str, str]:
    """The files the bundle would hold for one device (relative path -> text), from the same code."""
    out: dict[str, str] = {}
    for part in parts():
        if fabric.settings.fabric_kind in part.kinds and device_id in part.devices(fabric):
            for path, content in part.render_device(fabric, device_id).items():
                out[path] = content if isinstance(content, str) else content.decode("utf-8", "replace")
    return out
