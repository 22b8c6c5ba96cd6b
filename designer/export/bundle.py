"""Write the config bundle: every part's files into a temporary folder beside the target,
then a README.txt and MANIFEST.sha256, then one rename into place.

An interrupted or cancelled export leaves the previous bundle (or nothing), never half a bundle.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable

from ..model.fabric import Fabric
from .errors import ExportError
from .parts import Files, Part
from .registry import parts

MANIFEST = "MANIFEST.sha256"
_PATH_PART = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,127}$")
README = "README.txt"

Progress = Callable[[int, int, str], None]


class ExportCancelled(Exception):
    """The caller's cancel callback asked to stop; nothing was written."""


class ExportRefused(ExportError):
    """The design has error findings and the export was not forced."""

    def __init__(self, findings):
        self.findings = findings
        lines = "\n".join(f"  {f.code} {f.message}" for f in findings)
        super().__init__(f"the design has {len(findings)} error(s); fix them or export with --force:\n{lines}")


@dataclass(frozen=True)
class ExportResult:
    outdir: Path
    files: list[str]
    bytes: int


def select_parts(only: list[str] | None) -> list[Part]:
    available = parts()
    if not only:
        return available
    names = {p.name for p in available}
    unknown = [n for n in only if n not in names]
    if unknown:
        raise ExportError(f"unknown part(s) {', '.join(unknown)}; parts: {', '.join(sorted(names))}")
    return [p for p in available if p.name in only]


def _safe_relpath(path: str) -> str:
    """Refuse any path that could leave the bundle folder (absolute, '..', odd characters)."""
    pure = PurePosixPath(path)
    if pure.is_absolute() or not pure.parts or any(
            not _PATH_PART.match(part) for part in pure.parts):
        raise ExportError(f"refusing to write '{path}': every folder and file name in the bundle must be a plain "
                          "name (letters, digits, '.', '-', '_'); rename the device or interface it comes from")
    return str(pure)


def render_all(fabric: Fabric, chosen: list[Part], progress: Progress | None = None,
               cancel: Callable[[], bool] | None = None) -> Files:
    """Every file of the chosen parts, in memory, keyed by safe relative path."""
    jobs = [(part, device) for part in chosen for device in part.devices(fabric)]
    total = len(jobs) + len(chosen)
    files: Files = {}
    done = 0

    def add(produced: Files, label: str) -> None:
        nonlocal done
        if cancel is not None and cancel():
            raise ExportCancelled()
        for path, content in produced.items():
            safe = _safe_relpath(path)
            if safe in files:
                raise ExportError(f"two objects both produce {safe}; give them different host names")
            files[safe] = content
        done += 1
        if progress:
            progress(done, total, label)

    for part, device in jobs:
        add(part.render_device(fabric, device), f"{part.name}: {device}")
    for part in chosen:
        add(part.render_global(fabric), f"{part.name}: fabric-wide files")
    return files


def readme_text(fabric: Fabric, chosen: list[Part]) -> str:
    lines = [f"rail-designer bundle for design '{fabric.settings.name}'", "",
             f"{len(fabric.servers)} servers, {len(fabric.leaves())} leaves, {len(fabric.spines())} spines, "
             f"{len(fabric.links)} cables.", "", "What each part is:"]
    lines += [f"  {p.name:12} {p.description}" for p in chosen]
    lines += ["", f"{MANIFEST} lists the SHA-256 of every file: check with `sha256sum -c {MANIFEST}`.", ""]
    return "\n".join(lines)


def manifest_text(files: Files) -> str:
    def digest(content) -> str:
        return hashlib.sha256(content.encode("utf-8") if isinstance(content, str) else content).hexdigest()
    return "".join(f"{digest(files[p])}  {p}\n" for p in sorted(files))


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
           force: bool = False, cancel: Callable[[], bool] | None = None) -> ExportResult:
    """Write the bundle for ``fabric`` into ``outdir`` (replacing a previous bundle there)."""
    outdir = Path(outdir).absolute()
    _check_target(outdir)
    if not force:
        from ..checks import Severity, check
        errors = [f for f in check(fabric) if f.severity is Severity.ERROR]
        if errors:
            raise ExportRefused(errors)
    chosen = select_parts(only)
    files = render_all(fabric, chosen, progress, cancel)
    files[README] = readme_text(fabric, chosen)
    manifest = manifest_text(files)
    files[MANIFEST] = manifest
    return ExportResult(outdir, sorted(files), _write_and_swap(files, outdir))


def _write_and_swap(files: Files, outdir: Path) -> int:
    tmp = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", suffix=".partial", dir=outdir.parent))
    written = 0
    try:
        for rel, content in sorted(files.items()):
            data = content.encode("utf-8") if isinstance(content, str) else content
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            if rel.endswith(".sh"):
                target.chmod(0o755)
            written += len(data)
        os.chmod(tmp, 0o755)
        old = None
        if outdir.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", suffix=".old", dir=outdir.parent))
            os.rename(outdir, old / "bundle")
        os.rename(tmp, outdir)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return written


def preview(fabric: Fabric, device_id: str) -> dict[str, str]:
    """The files the bundle would hold for one device (relative path -> text), from the same code."""
    out: dict[str, str] = {}
    for part in parts():
        if device_id in part.devices(fabric):
            for path, content in part.render_device(fabric, device_id).items():
                out[path] = content if isinstance(content, str) else content.decode("utf-8", "replace")
    return out
