"""A change bundle (`export --since OLD`): only the device folders whose files changed, the files every
deploy needs, and the rollout plan in waves (`rollout`).

What changed is decided on the rendered files themselves, file by file by SHA-256, against the old
bundle's MANIFEST.sha256 (or the old design rendered the same way), so a change the bundle shows is
never missed. A device folder is ``switches/<host>/`` or ``hosts/<host>/``; every other file is
bundle-wide and kept (the scripts, units, AID, cabling plan, playbook), so the change bundle deploys
on its own.

Files it adds: ``rollout/ROLLOUT.md`` (the waves and the commands, for a person),
``rollout/rollout.json`` (the same as data), ``rollout/expect/<host>.json`` (what each switch must show
after its wave: BGP sessions and LLDP neighbours), ``switches/rail-rollout-check.py`` (checks that on
the switch), and ``ansible/rollout.yml`` (the waves as plays: one wave at a time, stop on the first
failure, roll that wave's switches back).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..model.fabric import Fabric
from ..model.ids import natural_key
from ..resources import templates_dir
from .bundle import MANIFEST, README, Entry, render_in_memory, select_parts, write_file
from .deploy import APPLY_SCRIPT, STAGE
from .env import render
from .manifest import read_manifest
from .rollout import DEFAULT_MAX_DRAIN, Wave, expectations, plan_waves

CHECK_SCRIPT = "rail-rollout-check.py"
DEVICE_FOLDERS = ("switches/", "hosts/")


def manifest_digests(bundle: Path) -> dict[str, str]:
    """path -> SHA-256 of a bundle folder's MANIFEST.sha256 (README and the manifest itself left out)."""
    return {rel: digest for rel, digest in read_manifest(Path(bundle)).items() if rel not in (README, MANIFEST)}


def design_digests(fabric: Fabric, only: list[str] | None = None, extra: list[str] | None = None) -> dict[str, str]:
    """path -> SHA-256 of every file the bundle of ``fabric`` holds (rendered in memory)."""
    files = render_in_memory(fabric, select_parts(only, extra, fabric.settings.fabric_kind))
    return {rel: hashlib.sha256(c.encode("utf-8") if isinstance(c, str) else c).hexdigest()
            for rel, c in files.items()}


def device_folder(rel: str) -> str | None:
    """``switches/<host>`` or ``hosts/<host>`` for a file in a device's folder, else None."""
    for top in DEVICE_FOLDERS:
        if rel.startswith(top) and rel.count("/") >= 2:
            return rel[: rel.index("/", len(top))]
    return None


class ChangeBundle:
    """The `export` ``reduce`` step of a change bundle; after the export, ``waves``, ``changed``,
    ``added`` and ``removed`` (device folders) say what it holds."""

    def __init__(self, fabric: Fabric, old: dict[str, str], since: str, max_drain: float = DEFAULT_MAX_DRAIN):
        self.fabric, self.old, self.since, self.max_drain = fabric, old, since, max_drain
        self.waves: list[Wave] = []
        self.changed: list[str] = []
        self.added: list[str] = []
        self.removed: list[str] = []

    def __call__(self, root: Path, entries: list[Entry]) -> tuple[list[Entry], str]:
        new = {rel: digest for rel, digest, _ in entries}
        folders_new = {f for f in map(device_folder, new) if f}
        folders_old = {f for f in map(device_folder, self.old) if f}
        changed = {f for f in folders_new if self._differs(f, new)}
        self.added = sorted(folders_new - folders_old, key=natural_key)
        self.removed = sorted(folders_old - folders_new, key=natural_key)
        self.changed = sorted(changed, key=natural_key)
        kept = []
        for entry in entries:
            folder = device_folder(entry[0])
            if folder is None or folder in changed:
                kept.append(entry)
            else:
                (root / entry[0]).unlink()
        for folder in folders_new - changed:
            _remove_empty(root / folder)
        ids = self._ids(changed)
        added_ids = self._ids(set(self.added))
        self.waves = plan_waves(self.fabric, ids, added_ids, self.max_drain)
        kept += self._rollout_files(root)
        return kept, self._readme()

    def _differs(self, folder: str, new: dict[str, str]) -> bool:
        prefix = folder + "/"
        mine = {k: v for k, v in new.items() if k.startswith(prefix)}
        theirs = {k: v for k, v in self.old.items() if k.startswith(prefix)}
        return mine != theirs

    def _ids(self, folders: set[str]) -> set[str]:
        owner = self.fabric.hostname_owner
        return {owner(f.split("/", 1)[1]) for f in folders if owner(f.split("/", 1)[1])}

    def _rollout_files(self, root: Path) -> list[Entry]:
        f = self.fabric
        later: set[str] = set()
        for wave in self.waves:
            later.update(wave.switches)
        files: dict[str, str] = {}
        for wave in self.waves:
            later.difference_update(wave.switches)
            for switch_id in wave.switches:
                expect = expectations(f, switch_id, later)
                files[f"rollout/expect/{expect['hostname']}.json"] = json.dumps(expect, indent=2, sort_keys=True) + "\n"
        data = self.plan_data()
        files["rollout/rollout.json"] = json.dumps(data, indent=2, sort_keys=True) + "\n"
        files["rollout/ROLLOUT.md"] = render("rollout/ROLLOUT.md.j2", plan=data, stage=STAGE, script=APPLY_SCRIPT,
                                             check=CHECK_SCRIPT)
        files["ansible/rollout.yml"] = render("rollout/rollout.yml.j2", plan=data, stage=STAGE, script=APPLY_SCRIPT,
                                              check=CHECK_SCRIPT)
        files[f"switches/{CHECK_SCRIPT}"] = (templates_dir() / "sonic" / CHECK_SCRIPT).read_text(encoding="utf-8")
        return [write_file(root, rel, text) for rel, text in sorted(files.items())]

    def plan_data(self) -> dict:
        """The rollout as plain data (rollout.json): the waves with host names, and what was removed."""
        f = self.fabric
        host = {d: (f.switches[d].hostname if d in f.switches else f.servers[d].hostname)
                for w in self.waves for d in (*w.switches, *w.hosts)}
        return {
            "design": f.settings.name, "since": self.since, "max_drain": round(self.max_drain, 6),
            "changed": [x.split("/", 1)[1] for x in self.changed if x not in self.added],
            "added": [x.split("/", 1)[1] for x in self.added],
            "removed": [x.split("/", 1)[1] for x in self.removed],
            "waves": [{"number": n, "name": w.name, "kind": w.kind, "drain": w.drain,
                       "switches": [host[d] for d in w.switches], "hosts": [host[d] for d in w.hosts],
                       "drained": w.shares} for n, w in enumerate(self.waves, 1)],
        }

    def _readme(self) -> str:
        return ("\nThis is a change bundle (`export --since`): it holds only the device folders that changed since "
                f"{self.since} ({len(self.changed)}: {len(self.added)} new), plus every bundle-wide file. Roll it "
                "out in the waves of rollout/ROLLOUT.md (or ansible/rollout.yml), not with site.yml alone.\n")


def _remove_empty(folder: Path) -> None:
    for path in sorted(folder.rglob("*"), key=lambda p: -len(p.parts)):
        if path.is_dir():
            path.rmdir()
    if folder.is_dir():
        folder.rmdir()
