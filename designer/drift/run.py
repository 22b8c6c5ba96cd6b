"""Compare a bundle with a folder of dumps: one `DeviceDrift` per device of the bundle (and per dump
of a device it does not have), devices in the bundle's order (switches, then hosts)."""

from __future__ import annotations

import json
from pathlib import Path

from ..model.ids import natural_key
from ..model.limits import excerpt
from .configdb import OWNERSHIP, DEFAULT, compare_config_db
from .dumps import Dump, DriftInputError, bundle_devices, bundle_text, read_dumps
from .findings import DeviceDrift, DriftFinding, DriftReport
from .frr import compare_frr
from .host import compare_host
from .ppd import compare_ppd

# What each kind of dump must hold, for `unread`.
SWITCH_FILES = ("config_db.json", "frr-running.conf", "ppd-agent.json")
HOST_FILES = ("ip-rule.json", "ip-route.json", "ip-address.json", "sysctl.txt", "roce-qos.txt")


def unread(device: str, dump: Dump, expected: tuple[str, ...]) -> list[DriftFinding]:
    """DR050 for each part the dump says it could not read, and each file it should hold and does not."""
    out = [DriftFinding("DR050", device, part, f"{part} was not read on the device: {' '.join(why.split())}", None, None)
           for part, why in sorted(dump.unreadable.items())]
    for name in expected:
        if not dump.has(name) and name not in dump.unreadable:
            out.append(DriftFinding("DR050", device, name, f"the dump in {dump.folder} lacks {name}", None, None))
    return out


def _json_file(path: Path):
    """A bundle's JSON file (the exporter's own output: json's parser, without parse_json's walk), or None."""
    text = bundle_text(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError as exc:
        raise DriftInputError(f"{path}: not valid JSON ({exc}); export the bundle again") from None


def bundle_config_db(folder: Path) -> dict:
    ours = _json_file(folder / "config_db.json")
    if not isinstance(ours, dict) or not all(isinstance(t, dict) for t in ours.values()):
        raise DriftInputError(f"{folder / 'config_db.json'}: not a CONFIG_DB object; export the bundle again")
    return ours


def running_config_db(dump: Dump) -> dict:
    """The dump's CONFIG_DB, refused unless it is table -> key -> fields, as sonic-cfggen prints it."""
    running = dump.json("config_db.json")
    bad = None if isinstance(running, dict) else "the file"
    for table, entries in running.items() if bad is None else ():
        if not isinstance(entries, dict):
            bad = f"table {excerpt(table)}"
        else:
            bad = next((excerpt(f"{table}|{key}") for key, fields in entries.items() if not isinstance(fields, dict)),
                       None)
        if bad:
            break
    if bad:
        raise DriftInputError(f"{dump.folder / 'config_db.json'}: {bad} is not a JSON object; a CONFIG_DB dump is "
                              "table -> key -> fields (dump again with rail-switch-apply.py dump)")
    return running


def compare_switch(device: str, folder: Path, dump: Dump, ours: dict) -> list[DriftFinding]:
    out = unread(device, dump, SWITCH_FILES)
    if dump.has("config_db.json"):
        out += compare_config_db(device, ours, running_config_db(dump))
    frr = bundle_text(folder / "frr.conf")
    if frr is not None and dump.has("frr-running.conf"):
        out += compare_frr(device, frr, dump.text("frr-running.conf"))
    if frr is not None and dump.has("frr.conf"):
        # by the same facts, not text: SONiC's bgp container may add its fpm lines, `write memory` reformats
        saved = compare_frr(device, frr, dump.text("frr.conf"))
        if saved:
            keys = ", ".join(f.key for f in saved[:3]) + (" ..." if len(saved) > 3 else "")
            out.append(DriftFinding("DR014", device, "/etc/sonic/frr/frr.conf", f"the saved frr.conf differs from "
                                    f"the bundle's in {len(saved)} BGP fact(s): {keys}", "the bundle's frr.conf",
                                    "another file"))
    pins = _json_file(folder / "ppd-pins.json")
    if dump.has("ppd-agent.json") and pins is not None:           # a leaf with pins in the bundle's ppd part
        state = dump.json("ppd-agent.json")
        out += compare_ppd(device, pins, state if isinstance(state, dict) else {})
    return out


def compare(bundle: Path, dumps: Path) -> DriftReport:
    devices = bundle_devices(bundle)
    found = read_dumps(dumps)
    owned = {t for t, mode in OWNERSHIP.items() if mode == "empty"}
    report = DriftReport(str(bundle), str(dumps), [], {})
    for kind, members in (("switch", devices.switches), ("host", devices.hosts)):
        for device in sorted(members, key=natural_key):
            folder = members[device]
            ours = bundle_config_db(folder) if kind == "switch" else {}
            owned.update(ours)
            dump = found.pop(device, None)
            if dump is None:
                report.devices.append(DeviceDrift(device, kind, None, [DriftFinding(
                    "DR000", device, device, f"no dump of {device} in {dumps}: not checked")]))
                continue
            if dump.kind != kind:
                raise DriftInputError(f"{dump.folder} is a {dump.kind} dump of {device}, which is a {kind} in the bundle")
            findings = compare_switch(device, folder, dump, ours) if kind == "switch" else compare_host(device, folder, dump)
            report.devices.append(DeviceDrift(device, kind, str(dump.folder), findings))
    for device, dump in sorted(found.items()):
        report.devices.append(DeviceDrift(device, dump.kind, str(dump.folder), [DriftFinding(
            "DR090", device, device, f"{dump.folder} is a dump of {device}, " + _not_in(devices, dump))]))
    report.owned_tables = {t: OWNERSHIP.get(t, DEFAULT) for t in sorted(owned)}
    return report


def _not_in(devices, dump: Dump) -> str:
    """Why a dump matches no device of the bundle, in words."""
    if dump.kind == "host" and not devices.hosts:
        return "a host, and the bundle has no hosts part"
    if dump.kind == "switch" and not devices.switches:
        return "a switch, and the bundle has no switches part"
    why = " (a switch's dump is named by its CONFIG_DB hostname)" if dump.kind == "switch" else ""
    return f"which the bundle does not have{why}"
