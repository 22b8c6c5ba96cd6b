"""Reading what drift compares: the bundle's devices and a folder of dumps, each with its MANIFEST.json.

A dump folder holds MANIFEST.json: ``format`` (1), ``kind`` ("switch" or "host"), ``device`` (its host
name), ``time`` (UTC), ``files`` (name -> what it holds) and ``unreadable`` (part -> why it could not be
read). Everything is read bounded; a folder or file that cannot be used is one `DriftInputError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DesignerError
from ..model.limits import excerpt
from ..storage.jsonio import JsonInputError, parse_json
from ..storage.yamlio import read_text

FORMAT = 1
MANIFEST = "MANIFEST.json"
BUNDLE_MANIFEST = "MANIFEST.sha256"
MAX_DUMP_FILE = 64 << 20               # the running CONFIG_DB of a 512-port switch is a few MB
MAX_DUMPS = 65_536                     # dump folders in one DUMPS folder
_HOST_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,252}\Z")


class DriftInputError(DesignerError):
    """A bundle or dump that cannot be compared at all: the message names the folder or file."""


@dataclass
class Dump:
    folder: Path
    kind: str
    device: str
    time: str
    files: dict[str, str]
    unreadable: dict[str, str]

    def has(self, name: str) -> bool:
        return name in self.files and (self.folder / name).is_file()

    def text(self, name: str) -> str:
        try:
            return read_text(self.folder / name, MAX_DUMP_FILE, "dump file")
        except DesignerError as exc:
            raise DriftInputError(str(exc)) from None

    def json(self, name: str):
        return read_json(self.folder / name, self.text(name))


def read_json(path: Path, text: str):
    try:
        return parse_json(text)
    except JsonInputError as exc:
        where = f", line {exc.line}" if exc.line else ""
        raise DriftInputError(f"{path}{where}: {exc.message}") from None


def read_dump(folder: Path) -> Dump:
    path = folder / MANIFEST
    if not path.is_file():
        raise DriftInputError(f"{folder} has no {MANIFEST}: it is not a dump (write one with "
                              "`rail-switch-apply.py dump DIR` on a switch or `rail-dump.sh DIR` on a host)")
    try:
        data = read_json(path, read_text(path, 1 << 20, "dump manifest"))
    except DesignerError as exc:
        raise DriftInputError(str(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DriftInputError(f"{path}: not a dump manifest of format {FORMAT}; dump again with this bundle's scripts")
    problems = [k for k in ("kind", "device", "time") if not isinstance(data.get(k), str) or not data.get(k)]
    problems += [k for k in ("files", "unreadable") if not isinstance(data.get(k), dict)]
    if problems or data["kind"] not in ("switch", "host"):
        raise DriftInputError(f"{path}: {', '.join(problems) or 'kind'} missing or of the wrong type "
                              "(kind is 'switch' or 'host'); dump again with this bundle's scripts")
    if not _HOST_NAME.match(data["device"]):
        raise DriftInputError(f"{path}: device {excerpt(data['device'])} is not a host name; dump again with this "
                              "bundle's scripts")
    return Dump(folder, data["kind"], data["device"], data["time"],
                {str(k): str(v) for k, v in data["files"].items()},
                {str(k): str(v) for k, v in data["unreadable"].items()})


def read_dumps(root: Path) -> dict[str, Dump]:
    """Device name -> its dump, from every sub-folder of ``root`` (or ``root`` itself when it is one dump)."""
    if not root.is_dir():
        raise DriftInputError(f"{root} is not a folder of dumps (one sub-folder per device)")
    if (root / MANIFEST).is_file():
        folders = [root]
    else:
        folders = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
        if len(folders) > MAX_DUMPS:
            raise DriftInputError(f"{root} holds {len(folders)} folders, more than {MAX_DUMPS} dumps")
    found: dict[str, Dump] = {}
    for folder in folders:
        dump = read_dump(folder)
        if dump.device in found:
            raise DriftInputError(f"{found[dump.device].folder} and {folder} are both dumps of {dump.device}; "
                                  "keep one per device")
        found[dump.device] = dump
    if not found:
        raise DriftInputError(f"{root} holds no dump folder (each has a {MANIFEST})")
    return found


def bundle_text(path: Path) -> str | None:
    """A bundle file's text, None when the bundle lacks it."""
    if not path.is_file():
        return None
    try:
        return read_text(path, MAX_DUMP_FILE, "bundle file")
    except DesignerError as exc:
        raise DriftInputError(str(exc)) from None


@dataclass
class BundleDevices:
    root: Path
    switches: dict[str, Path] = field(default_factory=dict)      # host name -> switches/<host>
    hosts: dict[str, Path] = field(default_factory=dict)         # host name -> hosts/<host>


def bundle_devices(root: Path) -> BundleDevices:
    if not (root / BUNDLE_MANIFEST).is_file():
        raise DriftInputError(f"{root} is not a rail-designer bundle (no {BUNDLE_MANIFEST}); "
                              "give the folder `rail-designer export` wrote")
    out = BundleDevices(root)
    for kind, folder, marker in (("switches", root / "switches", "config_db.json"),
                                 ("hosts", root / "hosts", "policy-routing.sh")):
        if folder.is_dir():
            target = getattr(out, kind)
            for device in sorted(folder.iterdir()):
                if (device / marker).is_file():
                    target[device.name] = device
    if not out.switches and not out.hosts:
        raise DriftInputError(f"{root} holds neither switches/<host>/config_db.json nor hosts/<host>/ files; "
                              "export the switches and hosts parts")
    return out
