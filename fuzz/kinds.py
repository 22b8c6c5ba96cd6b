"""The input kinds: how each is mutated from its seeds and which commands a fuzzed input runs.

`Kind.make(rng)` gives (input bytes, how it was made); `Kind.run(work, path)` runs in the forked
child and returns its exit status: the commands' own code (0, 1, 2, 70), or `UNOPENABLE` when a
command saved something a later command cannot open, or `UNEXPORTABLE` when apply-nics saved names
that validate then refuses.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from . import mutate

UNOPENABLE, UNEXPORTABLE = 91, 92
SERVER, LEAF = "su1-srv01", "su1-leaf-r0"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _worst(*codes: int) -> int:
    order = {0: 0, 1: 1, 2: 2}
    return max(codes, key=lambda c: order.get(c, 10 + c))


def _main(argv: list) -> int:
    from designer.cli import main
    return main([str(a) for a in argv])


def _run_design(work: Path, path: Path, extra: bool) -> int:
    code = _main(["validate", path])
    if extra and code in (0, 1):
        code = _worst(code, _main(["export", path, "-o", work / "bundle", "--force"]))
    return code


def _run_aid(work: Path, path: Path, extra: bool) -> int:
    out = work / "out.fabric.yaml"
    code = _main(["import-aid", path, "-o", out])
    if code == 0 and _main(["validate", out]) == 2:
        return UNOPENABLE
    return code


def _run_topo(work: Path, path: Path, extra: bool) -> int:
    from designer.storage import FileFormatError
    from designer.storage.catalog_file import load_catalog_file
    catalog = work / "catalog.yaml"
    code = _main(["import-topo", path, "--catalog", catalog, "--name", "fuzzed"])
    if code == 0:
        try:
            load_catalog_file(catalog)
        except FileFormatError:
            return UNOPENABLE
    return code


def _run_nicnames(work: Path, path: Path, extra: bool) -> int:
    design = work / "d.fabric.yaml"
    code = _main(["apply-nics", design, "--server", SERVER, path])
    if code == 0:
        after = _main(["validate", design])
        if after == 2:
            return UNOPENABLE
        if after == 1:                       # the base design validates clean: the saved names broke it
            return UNEXPORTABLE
    return code


def _run_lldp(work: Path, path: Path, extra: bool) -> int:
    return _main(["verify", work / "d.fabric.yaml", "--lldp", path.parent])


def _run_bundle(work: Path, path: Path, extra: bool) -> int:
    """The input as one of a leaf's files in a copy of the base design's bundle, its manifest line
    rewritten (with ``extra``: to a hash the file does not have, which `diff` must refuse); then `diff`
    both ways."""
    import hashlib
    import shutil
    old, new = work / "old", work / "new"
    code = _main(["export", work / "d.fabric.yaml", "-o", old, "--only", "switches,ppd"])
    if code:
        return code
    shutil.copytree(old, new)
    rel = f"switches/{LEAF}/{path.name}"
    data = path.read_bytes()
    digest = hashlib.sha256((old / rel).read_bytes()).hexdigest()
    (new / rel).write_bytes(data)
    listed = hashlib.sha256(data + b"!" if extra else data).hexdigest()
    manifest = new / "MANIFEST.sha256"
    manifest.write_text(manifest.read_text().replace(f"{digest}  {rel}\n", f"{listed}  {rel}\n"))
    return _worst(_main(["diff", old, new]), _main(["diff", new, old]))


IB_FTS = Path(__file__).resolve().parent.parent / "tests" / "data" / "infiniband" / "fabric" / "dump_fts-2su.txt"


def _run_ibnd(work: Path, path: Path, extra: bool) -> int:
    """verify against the InfiniBand base design; with ``extra``, also a path trace over the saved dump_fts."""
    design = work / "d.fabric.yaml"
    code = _main(["verify", design, "--ibnetdiscover", path])
    if extra:
        code = _worst(code, _main(["paths", design, "--from", SERVER, "--to", "su2-srv01",
                                   "--ibnetdiscover", path, "--fts", IB_FTS]))
    return code


@dataclass(frozen=True)
class Kind:
    name: str
    runner: Callable[[Path, Path, bool], int]
    structure: Callable[[bytes, random.Random], bytes | None]
    needs_design: bool = False
    infiniband: bool = False          # the base design it needs is the InfiniBand one

    def make(self, rng: random.Random, seeds: list[bytes]) -> tuple[bytes, str, bool]:
        """(input, 'bytes' or 'structure', whether to run the extra step)."""
        seed = rng.choice(seeds)
        if rng.random() < 0.5:
            data = self.structure(seed, rng)
            if data is not None:
                return data, "structure", rng.random() < 0.25
        return mutate.mutate_bytes(seed, rng, seeds), "bytes", rng.random() < 0.25

    def file_name(self, data: bytes) -> str:
        if self.name == "lldp":
            return f"{SERVER}.json" if data.lstrip().startswith(b"{") else f"{LEAF}.txt"
        if self.name == "bundle":             # which of the leaf's files the seed was
            return "frr.conf" if not data.lstrip().startswith(b"{") else \
                "ppd-pins.json" if b'"acl_table"' in data else "config_db.json"
        return {"design": "fuzzed.fabric.yaml", "aid": "fuzzed.aid.json", "topo": "topo.txt",
                "nicnames": "ibdev2netdev.txt", "ibnd": "ibnetdiscover.txt"}[self.name]


def _yaml_tree(seed: bytes, rng: random.Random) -> bytes | None:
    if rng.random() < 0.1:                  # an alias bomb or deep nesting, written out as text
        bomb = {"format_version": 1, "name": mutate.alias_bomb(rng)} if rng.random() < 0.5 else \
            {"format_version": 1, "description": mutate.deep(rng.choice([70, 900]), rng)}
        return mutate.dump_yaml(bomb)
    return mutate.dump_yaml(mutate.mutate_tree(yaml.load(seed, Loader=_LOADER), rng, aliases=True,
                                               gentle=rng.random() < 0.5))


def _design(seed: bytes, rng: random.Random) -> bytes | None:
    """A third of the time a design edited through the Fabric API (valid YAML, weird design: it
    reaches the checks and the exporters); otherwise the document tree mutated."""
    if rng.random() < 0.35:
        from designer.storage import FileFormatError, dumps, loads
        from .edits import edits
        try:
            fabric = loads(seed.decode())
        except FileFormatError:
            return None
        edits(fabric, rng, rng.randint(1, 8))
        return dumps(fabric).encode("utf-8", "surrogatepass")
    return _yaml_tree(seed, rng)


def _json_tree(seed: bytes, rng: random.Random) -> bytes | None:
    return mutate.dump_json(mutate.mutate_tree(json.loads(seed), rng, aliases=False, gentle=rng.random() < 0.5), rng)


def _topo_text(seed: bytes, rng: random.Random) -> bytes:
    if rng.random() < 0.3:
        gpus = rng.choice([1, 2, 8, 16, rng.randint(1, 64), rng.randint(100, 300)])
        nics = rng.choice([0, 1, gpus, gpus + 2, rng.randint(1, 64), rng.randint(100, 300)])
        seed = mutate.topo_matrix(gpus, nics, rng)
        if rng.random() < 0.5:
            return seed
    return mutate.mutate_lines(seed, rng)


def _lldp(seed: bytes, rng: random.Random) -> bytes | None:
    if seed.lstrip().startswith(b"{"):
        return _json_tree(seed, rng)
    return mutate.mutate_lines(seed, rng)


_bundle_file = _lldp             # JSON (config_db.json, ppd-pins.json) as a tree, frr.conf as lines


KINDS = {k.name: k for k in (
    Kind("design", _run_design, _design),
    Kind("aid", _run_aid, _json_tree),
    Kind("topo", _run_topo, _topo_text),
    Kind("nicnames", _run_nicnames, lambda seed, rng: mutate.mutate_lines(seed, rng), needs_design=True),
    Kind("lldp", _run_lldp, _lldp, needs_design=True),
    Kind("bundle", _run_bundle, _bundle_file, needs_design=True),
    Kind("ibnd", _run_ibnd, lambda seed, rng: mutate.mutate_lines(seed, rng), needs_design=True, infiniband=True),
)}
