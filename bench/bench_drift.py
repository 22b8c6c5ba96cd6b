"""Benchmark: `rail-designer drift` over every switch of the 4,096-server design.

    .venv/bin/python bench/bench_drift.py

Exports the switches and ppd parts, writes one switch dump per switch as `rail-switch-apply.py dump`
would find a switch that runs the bundle (its config_db.json merged into a factory CONFIG_DB, FRR's
running config as the bundle's frr.conf, the agent's rules on each pin's primary), then times
`check_drift` over them (wall and CPU) and prints the findings (must be 0), and again with one fault.
Hosts are not dumped here (their dumps come from real namespaces: tests/drift).
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_export_switches import SPEC  # noqa: E402
from designer import check_drift, export_bundle  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402


def agent_rules(pins: dict) -> dict:
    """The rules the agent writes with every uplink healthy: each pin on its first candidate."""
    rules = {}
    for pin in pins["pins"]:
        uplink = pin["candidates"][0]
        rules[f"{pins['acl_table']}|{pin['rule']}"] = {
            "PRIORITY": str(pin["priority"]), "SRC_IP": pin["source"],
            "PACKET_ACTION": f"REDIRECT:{pins['uplinks'][uplink]['next_hop']}@{uplink}"}
    return rules


def write_dumps(bundle: Path, dumps: Path) -> int:
    count = 0
    for folder in sorted((bundle / "switches").iterdir()):
        if not (folder / "config_db.json").is_file():
            continue
        running = json.loads((folder / "config_db.json").read_text())
        running["DEVICE_METADATA"]["localhost"].update(hwsku="Generic-64x800G", mac="52:54:00:12:34:56")
        pins = json.loads((folder / "ppd-pins.json").read_text()) if (folder / "ppd-pins.json").is_file() else None
        state = {"rules": agent_rules(pins) if pins else {}, "pins": pins, "pins_file": "/etc/sonic/rail-ppd-pins.json",
                 "unit_installed": pins is not None}
        if pins:
            running.setdefault("ACL_RULE", {}).update(state["rules"])
        out = dumps / folder.name
        out.mkdir(parents=True)
        (out / "config_db.json").write_text(json.dumps(running, indent=4, sort_keys=True))
        (out / "ppd-agent.json").write_text(json.dumps(state, indent=4, sort_keys=True))
        shutil.copy(folder / "frr.conf", out / "frr-running.conf")
        shutil.copy(folder / "frr.conf", out / "frr.conf")
        files = {name: "bench" for name in ("config_db.json", "ppd-agent.json", "frr-running.conf", "frr.conf")}
        (out / "MANIFEST.json").write_text(json.dumps({"format": 1, "kind": "switch", "device": folder.name,
                                                       "time": "2026-12-03T00:00:00Z", "files": files,
                                                       "unreadable": {}}))
        count += 1
    return count


def timed(bundle: Path, dumps: Path):
    start, cpu = time.perf_counter(), time.process_time()
    report = check_drift(bundle, dumps)
    return time.perf_counter() - start, time.process_time() - cpu, report


def main() -> None:
    fabric = build(SPEC, builtin_catalog())
    with tempfile.TemporaryDirectory() as tmp:
        bundle, dumps = Path(tmp) / "bundle", Path(tmp) / "dumps"
        start = time.perf_counter()
        export_bundle(fabric, bundle, parts=["switches", "ppd"])
        print(f"export switches+ppd of {len(fabric.servers)} servers: {time.perf_counter() - start:.2f} s")
        print(f"switch dumps written: {write_dumps(bundle, dumps)}")
        wall, cpu, report = timed(bundle, dumps)
        print(f"drift, clean dumps:   {wall:.2f} s wall, {cpu:.2f} s CPU, {len(report.findings)} finding(s) "
              "(switches only: the bundle has no hosts part)")
        leaf = next(p for p in sorted(dumps.iterdir()) if "leaf" in p.name)
        db = json.loads((leaf / "config_db.json").read_text())
        db["DSCP_TO_TC_MAP"]["ROCE"]["26"] = "0"
        (leaf / "config_db.json").write_text(json.dumps(db))
        wall, cpu, report = timed(bundle, dumps)
        found = [f"{f.code} {f.device} {f.key}" for f in report.findings if f.code != "DR000"]
        print(f"drift, one QoS fault: {wall:.2f} s wall, {cpu:.2f} s CPU, found: {', '.join(found)}")


if __name__ == "__main__":
    main()
