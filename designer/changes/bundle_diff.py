"""The bundle diff: two folders written by `rail-designer export`, compared through their MANIFEST.sha256.

A device is a folder under ``switches/`` or ``hosts/`` (named by host name), with its PPD plan
``ppd/<leaf>.csv``; every other file is bundle-wide. Files whose manifest hashes agree are not read.
A file that differs is read on both sides, checked against its manifest line (a file edited after the
export is refused, not compared), and judged by `content.file_changes`; the notes for people
(NOTES.txt, README.txt) and the read-only dump script (rail-dump.sh) are listed but never disruptive.
The bundle-wide files (the AID, cabling plan, inventory, monitoring, lab, README.txt) are listed with
their own verdicts, but only the devices gate: those files describe the fabric to people and tools, and
whatever in them is disruptive to traffic shows on the switch or host whose files it changes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..export import manifest
from ..export.bundle import MANIFEST
from ..model.gcpause import collector_paused
from .content import file_changes
from .errors import ChangeInputError
from .report import ADDED, REMOVED, Change, ChangeReport, DeviceChange, sorted_devices, status_of

DEVICE_FOLDERS = {"switches": "switch", "hosts": "server"}   # <folder>/<host name>/<file> -> role
PLAN_FOLDER = "ppd"                                           # ppd/<leaf host name>.csv: the leaf's plan
# Notes for people (a switch's NOTES.txt, the bundle's README.txt) and a host's read-only dump script
# (rail-dump.sh, for `drift`): no switch or host runs them as its config, so what changes in them is
# listed but never disruptive (a leaf that gains a server has '4 downlinks', not '3'; a host that gains
# a rail NIC dumps its QoS too).
NOTES = frozenset({"NOTES.txt", "README.txt", "rail-dump.sh"})

Files = dict[str, str]          # bundle path -> SHA-256


@collector_paused()
def diff_bundles(old: Path, new: Path) -> ChangeReport:
    """Every device folder of either bundle with its status and file changes, and the bundle-wide files."""
    old_files, new_files = read_manifest(old), read_manifest(new)
    old_devices, old_roles, old_rest = split_by_device(old_files)
    new_devices, new_roles, new_rest = split_by_device(new_files)
    devices = []
    for name in old_devices.keys() | new_devices.keys():
        role = new_roles.get(name) or old_roles[name]
        if name not in new_devices:
            devices.append(DeviceChange(name, role, REMOVED))
        elif name not in old_devices:
            devices.append(DeviceChange(name, role, ADDED))
        else:
            changes = _changes(old, new, old_devices[name], new_devices[name])
            devices.append(DeviceChange(name, role, status_of(changes), tuple(changes)))
    fabric = tuple(_changes(old, new, old_rest, new_rest))
    return ChangeReport("bundle", str(old), str(new), sorted_devices(devices), fabric, fabric_gates=False)


def read_manifest(folder: Path) -> Files:
    """Bundle path -> SHA-256 of every file a bundle's MANIFEST.sha256 lists (`export.manifest`)."""
    return manifest.read_manifest(folder, ChangeInputError)


def split_by_device(files: Files) -> tuple[dict[str, Files], dict[str, str], Files]:
    """(host name -> its files, host name -> role, the bundle-wide files)."""
    devices: dict[str, Files] = {}
    roles: dict[str, str] = {}
    rest: Files = {}
    for rel, digest in files.items():
        parts = rel.split("/")
        if len(parts) >= 3 and parts[0] in DEVICE_FOLDERS:
            name, role = parts[1], DEVICE_FOLDERS[parts[0]]
        elif len(parts) == 2 and parts[0] == PLAN_FOLDER and parts[1].endswith(".csv"):
            name, role = parts[1][:-len(".csv")], "switch"
        else:
            rest[rel] = digest
            continue
        devices.setdefault(name, {})[rel] = digest
        roles[name] = role
    return devices, roles, rest


def _changes(old: Path, new: Path, old_files: Files, new_files: Files) -> list[Change]:
    """The changes of one device's files (or of the bundle-wide ones), file by file in path order."""
    changes = []
    for rel in sorted(old_files.keys() | new_files.keys()):
        before, after = old_files.get(rel), new_files.get(rel)
        if before == after:
            continue
        shown = _shown(rel)
        if before is None:
            found = [Change("file", shown, None, f"sha256 {after[:12]}", False)]
        elif after is None:
            found = [Change("file", shown, f"sha256 {before[:12]}", None, True)]
        else:
            found = file_changes(shown, _read(old, rel, before), _read(new, rel, after))
        if rel.rpartition("/")[2] in NOTES:
            found = [Change(c.kind, c.key, c.old, c.new, False) for c in found]
        changes.extend(found)
    return changes


def _shown(rel: str) -> str:
    """A file as a change names it: inside its device folder when it has one."""
    parts = rel.split("/", 2)
    return parts[2] if len(parts) == 3 and parts[0] in DEVICE_FOLDERS else rel


def _read(folder: Path, rel: str, digest: str) -> bytes:
    path = folder / rel
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ChangeInputError(f"{path} is listed in {folder / MANIFEST} but cannot be read "
                               f"({exc.strerror or exc}); export the bundle again") from None
    if hashlib.sha256(data).hexdigest() != digest:
        raise ChangeInputError(f"{path} does not match its line in {folder / MANIFEST}: it was changed after "
                               "the export; export the bundle again to compare it")
    return data
