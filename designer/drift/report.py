"""The drift report as text (a table per device, then what to run) and as JSON (sorted keys)."""

from __future__ import annotations

import json

from .findings import CODES, DriftReport


def _cut(text: str | None, width: int = 60) -> str:
    if text is None:
        return "-"
    return text if len(text) <= width else text[:width - 3] + "..."


def drift_table(report: DriftReport) -> list[str]:
    lines = []
    for device in report.devices:
        lines.append(f"{device.device} ({device.kind}): {device.status}"
                     + (f", {len(device.findings)} finding(s)" if device.status not in ("clean", "not checked") else ""))
        for f in device.findings:
            if f.code == "DR000":
                continue
            lines.append(f"  {f.code} {f.message}")
            if f.expected is not None or f.actual is not None:
                lines.append(f"        bundle: {_cut(f.expected)}   device: {_cut(f.actual)}")
        if device.status not in ("clean",):
            lines += ["  to converge:"] + [f"    {command}" for command in device.converge()]
    counts = report.counts()
    lines.append(", ".join(f"{n} {status}" for status, n in sorted(counts.items())) + f" of {len(report.devices)} "
                 f"device(s); {'no drift' if report.clean else str(len(report.findings)) + ' finding(s)'}")
    return lines


def drift_json(report: DriftReport) -> str:
    data = {
        "bundle": report.bundle, "dumps": report.dumps, "clean": report.clean, "counts": report.counts(),
        "owned_tables": report.owned_tables,
        "codes": {code: c.title for code, c in CODES.items()},
        "devices": [{"device": d.device, "kind": d.kind, "dump": d.dump, "status": d.status,
                     "converge": d.converge(),
                     "findings": [{"code": f.code, "key": f.key, "message": f.message, "expected": f.expected,
                                   "actual": f.actual} for f in d.findings]} for d in report.devices],
    }
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def codes_text() -> str:
    """The finding codes, each with its title and what converges it (for ``drift --help``)."""
    lines = ["finding codes:"]
    for code, c in CODES.items():
        lines.append(f"  {code}  {c.title}")
        lines += [f"         converge: {command}" for command in c.converge]
        for kind, commands in (c.by_kind or {}).items():
            lines += [f"         converge ({kind}): {command}" for command in commands]
    return "\n".join(lines)
