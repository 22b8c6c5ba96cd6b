"""``rail-designer lint``: the bundle's config_db.json files checked against SONiC's own YANG models.

Two ways to validate, and the report says which one each file got:

- **standalone** (always possible): the file alone, as if it were the whole CONFIG_DB. The bundle's
  files are written to pass this: they refer only to objects they carry themselves (buffer pools
  and profiles, which are the platform's, are left to the switch; see `export.qos`).
- **merged** (``--running``): the file merged into the switch's running config the way
  ``config load`` merges it (sonic-cfggen --write-to-db: ConfigDBConnector.mod_config sets each
  entry's fields and keeps the fields and entries it does not name), which is what ``config save``
  then writes and the next ``config reload`` validates. Give a ``config save`` dump (or
  ``sonic-cfggen -d --print-data``) of the switch: one file for one switch, or a folder of
  ``<hostname>.json`` files for a bundle.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DesignerError
from .schema import Models
from .translate import Problem
from .validate import validate

CONFIG_DB = "config_db.json"


class LintInputError(DesignerError):
    """The bundle, a running config or the models cannot be used at all (exit 2)."""


@dataclass
class FileResult:
    path: Path
    hostname: str
    mode: str                                   # "standalone" or "merged over <running file>"
    problems: list[Problem] = field(default_factory=list)


def targets(path: Path) -> list[Path]:
    """The config_db.json files a lint of ``path`` covers (a bundle, one switch folder, or one file)."""
    if path.is_file():
        return [path]
    if (path / CONFIG_DB).is_file():
        return [path / CONFIG_DB]
    found = sorted((path / "switches").glob(f"*/{CONFIG_DB}")) if path.is_dir() else []
    if not found:
        raise LintInputError(f"{path}: no switches/*/{CONFIG_DB} here; give a rail-designer bundle, one "
                             f"switch folder or one {CONFIG_DB}")
    return found


def read_json(path: Path, what: str) -> tuple[dict | None, Problem | None]:
    """(object, None) or (None, a problem naming the line and column)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LintInputError(f"{path}: cannot read this {what}: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, Problem("", "", "", f"line {exc.lineno} column {exc.colno}: not valid JSON ({exc.msg})")
    if not isinstance(data, dict):
        return None, Problem("", "", "", f"a {what} must be a JSON object of tables")
    return data, None


def merge(running: dict, partial: dict) -> dict:
    """``partial`` loaded over ``running`` as ``config load`` does: entry by entry, field by field."""
    out = copy.deepcopy(running)
    for table, entries in partial.items():
        target = out.setdefault(table, {})
        if not isinstance(entries, dict) or not isinstance(target, dict):
            out[table] = copy.deepcopy(entries)
            continue
        for key, entry in entries.items():
            if isinstance(entry, dict) and isinstance(target.get(key), dict):
                target[key].update(copy.deepcopy(entry))
            else:
                target[key] = copy.deepcopy(entry)
    return out


def _running_for(running: Path | None, hostname: str, single: bool) -> Path | None:
    if running is None:
        return None
    if running.is_dir():
        candidate = running / f"{hostname}.json"
        return candidate if candidate.is_file() else None
    if not single:
        raise LintInputError(f"--running {running} is one switch's config; for a whole bundle give a folder "
                             "of <hostname>.json files, or lint one switch folder")
    return running


def lint(path: Path, models: Models, running: Path | None = None) -> list[FileResult]:
    """Validate every config_db.json under ``path``; never raises for a bad file, only for unusable input."""
    files = targets(path)
    if running is not None and not running.exists():
        raise LintInputError(f"--running {running} does not exist")
    results = []
    for file in files:
        hostname = file.parent.name
        result = FileResult(file, hostname, "standalone")
        config, problem = read_json(file, CONFIG_DB)
        base_file = _running_for(running, hostname, len(files) == 1)
        if config is not None and base_file is not None:
            base, base_problem = read_json(base_file, "running config")
            if base is None:
                raise LintInputError(f"{base_file}: {base_problem.message}")
            config = merge(base, config)
            result.mode = f"merged over {base_file}"
        result.problems = [problem] if problem else validate(models, config)
        results.append(result)
    return results


def report(results: list[FileResult], root: Path) -> list[str]:
    """One line per problem (file, object, message), then one summary line."""
    lines = []
    base = root if (root / "switches").is_dir() else None       # a bundle: paths inside it
    for r in results:
        shown = r.path.relative_to(base) if base is not None else r.path
        for p in r.problems:
            lines.append(f"{shown}: {p.where + ': ' if p.where else ''}{p.message}")
    bad = sum(1 for r in results if r.problems)
    merged = sum(1 for r in results if r.mode != "standalone")
    total = sum(len(r.problems) for r in results)
    lines.append(f"{len(results)} config_db.json file(s) checked against SONiC's YANG models "
                 f"({len(results) - merged} standalone, {merged} merged over a running config): "
                 f"{len(results) - bad} valid, {bad} with {total} problem(s)")
    return lines
