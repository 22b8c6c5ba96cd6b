"""Validate a CONFIG_DB JSON object against SONiC's YANG models with libyang, reporting every problem.

libyang stops at the first invalid node. To report them all, each error's data path is mapped
back to its CONFIG_DB object (table, key, field); that field (or entry) is set aside and the rest
is validated again, up to `MAX_ROUNDS` times. What is set aside can only remove problems, except
that an entry other entries refer to may then be reported as missing by those: such follow-on
errors name the missing object, so the first error is the one to fix.
"""

from __future__ import annotations

import copy
import json
import re

from .schema import Models
from .translate import Problem, translate

MAX_ROUNDS = 200
_LOCATION = re.compile(r'^(?P<msg>.*?)(?:: Data location "(?P<path>[^"]*)"(?:, line number \d+)?\.?)?$', re.S)
_STEP = re.compile(r"/(?P<name>[^/\[]+)(?P<preds>(?:\[[^\]]*\])*)")
_PRED = re.compile(r"""\[(?P<key>[^=\]]+)=(?:'(?P<a>[^']*)'|"(?P<b>[^"]*)")\]""")
_TARGET = re.compile(r'no target instance "/[^"/]*/[^"/:]*:(?P<table>[^"/]+)/[^"]*"(?: with the same value)?')
_PREFIX = "failed to parse data tree: "


def _enable_error_paths() -> None:
    """The bindings turn libyang's error paths off; without them no error could be located."""
    from _libyang import ffi, lib
    lib.ly_set_log_clb(ffi.NULL, True)


def _locate(path: str) -> tuple[str, str, str] | None:
    """A libyang data path -> (table, CONFIG_DB key, field), or None when it is not a table's data."""
    steps = [(m["name"].split(":")[-1], [p["a"] if p["a"] is not None else p["b"] for p in _PRED.finditer(m["preds"])],
              m["preds"]) for m in _STEP.finditer(path)]
    if len(steps) < 2:
        return None
    table = steps[1][0]
    rest = steps[2:]
    if not rest:
        return table, "", ""
    name, values, preds = rest[0]
    if values:                                         # a list entry: its keys join into the CONFIG_DB key
        key, rest = "|".join(values), rest[1:]
    else:                                              # a container entry (DEVICE_METADATA|localhost)
        key, rest = name, rest[1:]
    if not rest:
        return table, key, ""
    name, values, preds = rest[0]
    if values and not preds.startswith("[.="):          # a map list's inner entry: the field is its key
        return table, key, values[0]
    if len(rest) > 1:                                  # inside an inner list whose key is not parsed yet
        return table, key, ""
    return table, key, name


def _readable(message: str) -> str:
    message = message.removeprefix(_PREFIX).strip()
    return _TARGET.sub(lambda m: f"no {m['table']} entry of that name exists", message)


def _set_aside(config: dict, table: str, key: str, field: str) -> bool:
    entries = config.get(table)
    if not isinstance(entries, dict):
        return False
    if not key:
        del config[table]
        return True
    entry = entries.get(key)
    if entry is None:
        return False
    if field and isinstance(entry, dict) and field in entry and len(entry) > 1:
        del entry[field]
    else:
        del entries[key]
    return True


def validate(models: Models, config: dict) -> list[Problem]:
    """Every problem SONiC's YANG models find in ``config`` (a CONFIG_DB JSON object); [] when valid."""
    import libyang
    _enable_error_paths()
    if not isinstance(config, dict):
        return [Problem("", "", "", "a config_db.json must be a JSON object of tables")]
    work = copy.deepcopy(config)
    yang, problems = translate(models, work)
    for _ in range(MAX_ROUNDS):
        try:
            tree = models.ctx.parse_data_mem(json.dumps(yang), "json", strict=True, no_state=True)
        except libyang.LibyangError as exc:
            match = _LOCATION.match(str(exc))
            where = _locate(match["path"]) if match and match["path"] else None
            message = _readable(match["msg"] if match else str(exc))
            if where is None or not _set_aside(work, *where):
                problems.append(Problem("", "", "", message))
                break
            problems.append(Problem(*where, message))
            yang, _ = translate(models, work)
            continue
        if tree is not None:
            tree.free()
        break
    else:
        problems.append(Problem("", "", "", f"stopped after {MAX_ROUNDS} errors"))
    return problems
