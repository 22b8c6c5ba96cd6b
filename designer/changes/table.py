"""The diff for people and for programs: a table (summary line, then the devices that changed, grouped by
status, each with its changes) and JSON. Both are sorted, so the same inputs print the same bytes."""

from __future__ import annotations

import json
import textwrap

import orjson

from .report import ADDED, REMOVED, STATUSES, UNCHANGED, Change, ChangeReport

# Changes shown per device in the table (JSON lists them all).
SHOWN_PER_DEVICE = 12
VALUE_WIDTH = 70
WIDTH = 100                  # the packed lists of added and removed devices


def summary(report: ChangeReport) -> str:
    """'24 unchanged, 8 added, 16 additive, 0 disruptive' (and removed when any)."""
    c = report.counts
    parts = [f"{c[UNCHANGED]} unchanged", f"{c[ADDED]} added"]
    if c[REMOVED]:
        parts.append(f"{c[REMOVED]} removed")
    parts += [f"{c['additive']} additive", f"{c['disruptive']} disruptive"]
    return ", ".join(parts)


def table(report: ChangeReport, limit: int | None = SHOWN_PER_DEVICE) -> list[str]:
    """The lines of the table; ``limit``: changes shown per device (None: all)."""
    scope = "design-wide" if report.kind == "design" else "bundle-wide"
    lines = [f"{report.old} -> {report.new}: {summary(report)}"
             + (f"; {len(report.fabric)} {scope} change(s)" if report.fabric else "")]
    if report.fabric:
        verdict = "disruptive" if any(c.disruptive for c in report.fabric) else "additive"
        gate = "" if report.fabric_gates else "; shown, not gated: the devices are"
        lines += ["", f"{scope if report.fabric_gates else 'bundle-wide files'} ({verdict}{gate}):"]
        lines += _changes(report.fabric, limit)
    for status in STATUSES:
        group = [d for d in report.devices if d.status == status and status != UNCHANGED]
        if not group:
            continue
        lines += ["", f"{status} ({len(group)}):"]
        if status in (ADDED, REMOVED):             # nothing to say but the names: packed by role
            for role in sorted({d.role for d in group}):
                names = [d.device for d in group if d.role == role]
                lines += textwrap.wrap(f"{role} ({len(names)}): {', '.join(names)}", WIDTH,
                                       initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
            continue
        for d in group:
            lines.append(f"  {d.device} ({d.role})")
            lines += _changes(d.changes, limit)
    lines.append("no changes" if not report.changed else "(! disruptive, + additive)")
    return lines


def _changes(changes: tuple[Change, ...], limit: int | None) -> list[str]:
    shown = changes if limit is None else changes[:limit]
    lines = [f"    {'!' if c.disruptive else '+'} {c.kind} {c.key}: {_value(c.old)} -> {_value(c.new)}" for c in shown]
    if len(changes) > len(shown):
        lines.append(f"    ... and {len(changes) - len(shown)} more (--all or --format json lists every change)")
    return lines


def _value(value) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, list):             # lines of a file, items of a JSON list
        text = f"[{len(value)}] " + " | ".join(v if isinstance(v, str) else json.dumps(v, sort_keys=True)
                                              for v in value[:4])
    else:
        text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= VALUE_WIDTH else text[:VALUE_WIDTH - 3] + "..."


def as_json(report: ChangeReport) -> str:
    """The report as indented JSON, keys sorted (orjson: 11 MB for every device of 4,096 servers changed
    in 0.2 s, where the json module's indenting encoder, written in Python, takes 5 s)."""
    data = report.as_dict()
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS).decode() + "\n"
    except TypeError:                     # what orjson refuses (an integer past 64 bits): the json module
        return json.dumps(data, indent=2, sort_keys=True) + "\n"
