"""Validate => export, over every field of the design file (issue 21).

Each preset's design file (small sizes, with every optional field a record kind can have filled in) is
changed one field at a time: the field deleted, set to null, emptied, or given a value of another type;
every key of the settings, of each record kind (a spine, a leaf, a core, a server and its NIC overrides,
a rail, an SU), and each token of a table line of each kind (links, ASNs, addresses, pinned or not).
Each result must be refused by `load` with a located one-line error (the CLI's exit 2), or by `check`
with an error finding (exit 1), or else export: `export_bundle` writes the bundle. Anything else (an
unexpected exception anywhere, an RD000 finding, a design that loads but does not save and load
again) is an internal error, the CLI's exit 70.

The suite tries every distinct field once per change, spread over the presets that have it, and each
preset's sections and settings values in that preset (723 files, a few seconds). ``RAIL_DESIGNER_EVERY_FIELD=all`` tries every field of every record and every table line
of every preset (minutes): run it by hand after a change to the design file's reader or the checks.
"""

from __future__ import annotations

import copy
import os
import re
from collections import Counter
from functools import lru_cache

import pytest

import designer
from designer.checks import Severity, check
from designer.model.entities import DesignSettings
from designer.storage import FileFormatError, dumps, loads
from designer.storage.design_file import to_document, tables
from designer.storage.records import write as write_document
from tests.conftest import preset_fabric

EVERYTHING = os.environ.get("RAIL_DESIGNER_EVERY_FIELD") == "all"
PRESETS = {
    "default": ("default", dict(sus=1, servers_per_su=2, rails=2)),
    "rail-only-32x4": ("rail-only-32x4", dict(servers_per_su=2, rails=2)),
    "rail-optimized-64x4": ("rail-optimized-64x4", dict(sus=1, servers_per_su=2, rails=2, spines=1)),
    "superpod-su": ("superpod-su", dict(sus=1, servers_per_su=2, rails=2, spine_planes="per-rail", spines=2)),
    "b200-superpod": ("b200-superpod", dict(core_tier="on", sus=2, sus_per_group=1, servers_per_su=2, rails=2,
                                            spines=2)),
    "twin-plane-800g": ("twin-plane-800g", dict(servers_per_su=2, rails=2)),
    "planned": ("default", dict(sus=1, servers_per_su=2, rails=2, final_sus=2)),     # settings.growth
}
TABLES = ("links", "asns", "addresses")
DELETE = object()


@lru_cache(maxsize=None)
def base(preset: str) -> tuple[dict, dict[str, list[str]]]:
    """The preset's design file as (document with the tables as text, each table's lines), every optional
    field present somewhere: a pinned address and ASN, a server with rack, position, GID index and NIC
    overrides, the tier settings at their defaults."""
    name, overrides = PRESETS[preset]
    fabric = preset_fabric(name, **overrides)
    key = sorted(fabric.addresses)[0]
    fabric.set_address(key, fabric.addresses[key], pinned=True)
    switch = sorted(fabric.asns)[0]
    fabric.set_asn(switch, fabric.asns[switch], pinned=True)
    lines = tables(fabric)
    doc = {**to_document(fabric), **{table: "\n".join(lines[table]) for table in TABLES}}
    assert render(doc) == dumps(fabric), "render does not write what save writes"
    defaults = DesignSettings()
    doc["settings"].setdefault("max_spine_oversubscription", defaults.max_spine_oversubscription)
    doc["settings"].setdefault("fabric_planes", defaults.fabric_planes)
    doc["settings"]["asn"].setdefault("core_asn", defaults.core_asn)
    server = doc["servers"][0]
    nic = next(n for n in fabric.servers[server["id"]].nics if fabric.peer(n.id))
    server.update(rack="r01", position=3, gid_index=3)
    server["nics"] = {nic.port: {"rail": nic.rail, "netdev": "ens99np0", "rdma": "mlx5_99"}}
    return doc, lines


def render(doc: dict) -> str:
    """The design file's text, as save writes it; a table that is not text is left to PyYAML."""
    out = [write_document({k: v for k, v in doc.items() if k not in TABLES})]
    for name in TABLES:
        value = doc.get(name, DELETE)
        if value is DELETE:
            continue
        if isinstance(value, str):
            out.append(f"{name}: |\n  " + "\n  ".join(value.split("\n")) + "\n" if value else f"{name}: ''\n")
        else:
            out.append(write_document({name: value}))
    return "".join(out)


# Odd values of a field and odd words of a table line (EVERYTHING only): signs, sizes, other types, spaces.
ODD_VALUES = [-1, 0, 2 ** 40, 1.5, True, "a b", "\u00e9", "x" * 2000, "10.0.0.0/8", {"x": {"y": 1}}]
ODD_WORDS = ["-1", "0", "99999999999", "1.5", "\u00e9", "a/b/c", "10.0.0.1/33", "pinned", "--"]


def _retyped(value) -> list:
    """Values of other types than ``value``: a plain word or number, and a container (and the odd values)."""
    odd = ODD_VALUES if EVERYTHING else []
    if isinstance(value, dict):
        return ["x", [1]] + odd
    if isinstance(value, list):
        return ["x", {"x": 1}] + odd
    return [12345 if isinstance(value, str) else "x", [value]] + odd


def changes(value) -> list[tuple[str, object]]:
    empty = type(value)() if isinstance(value, (str, list, dict)) else ""
    return [("deleted", DELETE), ("null", None), ("emptied", empty)] + [("retyped", v) for v in _retyped(value)]


def _kind(doc: dict, section: str, index: int) -> str:
    record = doc[section][index]
    return record.get("role", "") if section == "switches" else ""


def field_paths(doc: dict, preset: str) -> list[tuple[tuple, str]]:
    """(path, distinct field name) of every field of the document outside the tables; records sampled
    (the first of each kind) unless EVERYTHING. The sections (settings, record lists, tables) are distinct
    in every preset, and a setting is distinct by its value too (a twin-plane design's two planes are not
    another design's one)."""
    found = []

    def walk(value, path, name):
        found.append((path, name))
        if isinstance(value, dict):
            for key, child in value.items():
                shown = "<nic>" if name.endswith(".nics") else key
                walk(child, path + (key,), f"{name}.{shown}" if name else shown)
        elif path[0] == "settings":
            found[-1] = (path, f"{name}={value}")

    for key, value in doc.items():
        found.append(((key,), f"{key} of {preset}" if isinstance(value, (dict, list)) or key in TABLES else key))
        if key in ("rails", "sus", "switches", "servers"):
            seen = set()
            for i in range(len(value)):
                kind = _kind(doc, key, i)
                if kind in seen and not EVERYTHING:
                    continue
                seen.add(kind)
                walk(value[i], (key, i), f"{key}[{kind}]")
        elif isinstance(value, dict):
            for child in value:
                walk(value[child], (key, child), f"{key}.{child}")
    return found


def _line_kind(table: str, line: str, roles: dict[str, str]) -> str:
    words = line.split()
    ends = [w.split("/")[0] for w in words if "/" in w] if table == "links" else [words[0].split("/")[0]]
    kind = "-".join(sorted(roles.get(device, "server") for device in ends))
    if table == "addresses":
        port = words[0].partition("/")[2]
        kind += ":" + re.sub(r"\d+$", "", port)
    return kind + (" pinned" if words[-1] == "pinned" else "")


def table_lines(doc: dict, lines: dict[str, list[str]]) -> list[tuple[str, int, str]]:
    """(table, line number, distinct line kind): the first line of each kind, or every line if EVERYTHING."""
    roles = {s["id"]: s["role"] for s in doc["switches"]}
    out, seen = [], set()
    for table in TABLES:
        for n, line in enumerate(lines[table]):
            kind = f"{table}:{_line_kind(table, line, roles)}"
            if EVERYTHING or kind not in seen:
                seen.add(kind)
                out.append((table, n, kind))
    return out


def line_changes(line: str) -> list[tuple[str, str | None]]:
    """The line deleted (None), blank, and each of its words replaced by another word or dropped, and one added."""
    words = line.split(" ")
    out = [("deleted", None), ("emptied", "")]
    for i, word in enumerate(words):
        for other in ["x" if word != "x" else "y"] + (ODD_WORDS if EVERYTHING else []):
            out.append((f"word {i + 1} as {other[:12]!r}", " ".join(words[:i] + [other] + words[i + 1:])))
        out.append((f"word {i + 1} dropped", " ".join(words[:i] + words[i + 1:])))
    out.append(("word added", line + " x"))
    return out


def _set(doc: dict, path: tuple, value) -> None:
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value


def _get(doc: dict, path: tuple):
    for key in path:
        doc = doc[key]
    return doc


def names(preset: str) -> list[str]:
    """The distinct fields and table line kinds of the preset's file."""
    doc, lines = base(preset)
    return list(dict.fromkeys([name for _, name in field_paths(doc, preset)] + [k for _, _, k in table_lines(doc, lines)]))


@lru_cache(maxsize=None)
def assigned(preset: str) -> frozenset[str]:
    """The distinct fields this preset tries: all of them if EVERYTHING, else each field goes to one of the
    presets that have it, in turn."""
    if EVERYTHING:
        return frozenset(names(preset))
    owners: dict[str, list[str]] = {}
    for p in PRESETS:
        for name in names(p):
            owners.setdefault(name, []).append(p)
    return frozenset(name for i, name in enumerate(sorted(owners)) if owners[name][i % len(owners[name])] == preset)


def cases(preset: str):
    """(what changed, design file text) for the fields the preset tries."""
    doc, lines = base(preset)
    mine = assigned(preset)
    for path, name in field_paths(doc, preset):
        if name in mine:
            for change, value in changes(_get(doc, path)):
                changed = copy.deepcopy(doc)
                _set(changed, path, value)
                yield f"{name} {change}", render(changed)
    for table, n, kind in table_lines(doc, lines):
        if kind in mine:
            for change, line in line_changes(lines[table][n]):
                changed = list(lines[table])
                if line is None:
                    del changed[n]
                else:
                    changed[n] = line
                yield f"{kind} line {n + 1} ({lines[table][n]}) {change}", render({**doc, table: "\n".join(changed)})


def verdict(text: str, outdir, exported: dict) -> str:
    """What the commands do with ``text``: 'refused by load', 'refused by validate' or 'exported'.
    Raises (AssertionError or whatever escaped) where the CLI would exit 70 or break validate => export."""
    try:
        fabric = loads(text, "d.fabric.yaml")
    except FileFormatError as exc:
        message = str(exc)
        assert "\n" not in message and (exc.line or exc.field), f"an unlocated load error: {message}"
        return "refused by load"
    saved = dumps(fabric)
    if saved != text:
        loads(saved, "saved.fabric.yaml")                   # what loads must save and load again
    findings = check(fabric)
    assert not [f for f in findings if f.code == "RD000"], [f.message for f in findings if f.code == "RD000"]
    if any(f.severity is Severity.ERROR for f in findings):
        return "refused by validate"
    if saved not in exported:
        exported[saved] = designer.export_bundle(fabric, outdir / f"b{len(exported)}").files
    assert exported[saved], "an export that wrote nothing"
    return "exported"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_field_changed_is_refused_with_a_reason_or_exports(preset, tmp_path):
    doc, lines = base(preset)
    exported: dict[str, list] = {}
    assert verdict(render(doc), tmp_path, exported) == "exported"
    outcomes, bugs = Counter(), []
    for what, text in cases(preset):
        try:
            outcomes[verdict(text, tmp_path, exported)] += 1
        except Exception as exc:                           # noqa: BLE001 - every escape is the finding
            bugs.append(f"{preset}: {what}: {type(exc).__name__}: {exc}"[:400])
    print(f"{preset}: {dict(outcomes)}, {len(exported)} distinct designs exported, {len(bugs)} internal errors")
    assert not bugs, "\n".join(bugs)
    assert outcomes["refused by load"] and outcomes["exported"]
