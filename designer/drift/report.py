"""The drift report as text (a table per device, then what to run) and as JSON (sorted keys)."""

from __future__ import annotations

import json

from .findings import CODES, DriftReport


def _cut(text: str | None, width: int = 60) -> str:
    if text is None:
        return "-"
    return text if len(text) <= width else text[:width - 3] + "..."


def drift_table(report: DriftReport) -> list[str]:
    """One block per checked device (its findings, then what converges it); the devices without a dump in
    one line per kind, with the command that dumps them; then the counts."""
    lines = []
    unchecked: dict[str, list] = {}
    for device in report.devices:
        if device.status == "not checked":
            unchecked.setdefault(device.kind, []).append(device)
            continue
        lines.append(f"{device.device} ({device.kind}): {device.status}"
                     + (f", {len(device.findings)} finding(s)" if device.findings else ""))
        for f in device.findings:
            lines.append(f"  {f.code} {f.message}")
            if f.expected is not None or f.actual is not None:
                lines.append(f"        bundle: {_cut(f.expected)}   device: {_cut(f.actual)}")
        if device.findings:
            lines += ["  to converge:"] + [f"    {command}" for command in device.converge()]
    for kind, devices in unchecked.items():
        names = ", ".join(d.device for d in devices[:8]) + (f" and {len(devices) - 8} more" if len(devices) > 8 else "")
        command = devices[0].findings[0].converge(kind)[0].replace(devices[0].device, "<host>")
        plural = {"switch": "switches", "host": "hosts"}.get(kind, kind)
        lines += [f"not checked, no dump: {len(devices)} {plural}: {names}", f"  dump each: {command}"]
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
