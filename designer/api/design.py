"""Designs: load and save design files, presets and build parameters, sizing, building, re-planning,
checks, and rebuilding a design from an AID."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..checks.finding import Finding
    from ..model.fabric import Fabric
    from ..model.hardware import Catalog
    from ..planning.grow import GrowResult
    from ..planning.spec import BuildSpec, Sizing
    from ..storage.presets import Preset

DEFAULT_PRESET = "default"


def load(path: str | os.PathLike, *, catalogs: Iterable[str | os.PathLike] = ()) -> Fabric:
    """Read a design file (``*.fabric.yaml``) into a `Fabric`.

    ``catalogs``: your own hardware catalog files (YAML with switch_models / server_models) whose models
    the design may use besides the bundled ones and those saved inside it. Raises a DesignerError
    (``FileFormatError``: file, line, field and what to do) when the file cannot be used."""
    from ..storage import load as load_file
    return load_file(Path(path), extra_catalogs=[Path(p) for p in catalogs])


def save(fabric: Fabric, path: str | os.PathLike, *, force: bool = False, verify: bool = False) -> list[Path]:
    """Write ``fabric`` to a design file atomically: a reader sees the old file or the new one, never half.

    The replaced file keeps its mode and owner, a symlink stays a link (the file it points at is
    replaced), and a read-only file is refused unless ``force``. With ``verify`` the text is read back
    first and nothing is written when it would not load again. Same design, same bytes. Returns the
    leftovers of interrupted saves that it removed beside the file. Raises a DesignerError
    (``FileFormatError``) when the file cannot be written."""
    from ..storage import save as save_file
    return save_file(fabric, Path(path), force=force, verify=verify)


def presets() -> list[Preset]:
    """The bundled presets, by name: each has ``name``, ``description``, ``parameters`` (a dict of
    `BuildSpec` fields) and ``spec(**overrides)``."""
    from ..storage.presets import load_preset, preset_names
    return [load_preset(name) for name in preset_names()]


def catalog(files: Iterable[str | os.PathLike] = ()) -> Catalog:
    """The hardware catalog: the bundled switch and server models plus those of ``files``.

    ``.switches`` and ``.servers`` map model ids to models (ports, speed, breakouts; GPUs, NICs)."""
    from ..storage.catalog_file import catalog_with
    return catalog_with([Path(p) for p in files])


def spec(preset: str = DEFAULT_PRESET, **parameters) -> BuildSpec:
    """The build parameters of a preset, with ``parameters`` (any `BuildSpec` field) overriding its
    values; a parameter given as None keeps the preset's value. An unknown parameter or preset raises a
    DesignerError (``PlanningError`` / ``FileFormatError``) naming what exists."""
    from ..planning.errors import PlanningError
    from ..planning.spec import BuildSpec
    from ..storage.presets import load_preset
    known = BuildSpec.field_names()
    unknown = sorted(set(parameters) - set(known))
    if unknown:
        raise PlanningError([f"unknown parameter '{name}'; parameters: {', '.join(known)}" for name in unknown])
    return load_preset(preset).spec(**parameters)


def size(build_spec: BuildSpec | str = DEFAULT_PRESET, *, catalogs: Iterable[str | os.PathLike] = ()) -> Sizing:
    """The numbers a spec (or a preset, by name) gives: servers, GPUs, rails, leaves, spines, cores,
    uplinks, cables per tier, oversubscription (``ratio``, ``spine_ratio``). Never raises for an
    impossible spec: ``problems`` lists every shortfall with the numbers, and ``ok`` is False."""
    from ..planning.spec import Sizing, size as size_of
    build_spec = _spec_of(build_spec)
    problems = _type_problems(build_spec)
    if problems:
        return Sizing(problems=problems)
    return size_of(build_spec, catalog(catalogs))


def build(build_spec: BuildSpec | str = DEFAULT_PRESET, *, catalogs: Iterable[str | os.PathLike] = ()) -> Fabric:
    """A fully wired, addressed design from a spec (or a preset, by name): servers, leaves, spines
    (and cores), cables, rails, addresses, ASNs, ids such as ``su1-srv01``, ``su1-leaf-r0``,
    ``spine-01``. Raises a DesignerError (``PlanningError``, whose ``problems`` lists every shortfall)
    when the spec cannot be built, and a ``FileFormatError`` for an unusable catalog file."""
    from ..planning.build import build as build_fabric
    from ..planning.errors import PlanningError
    build_spec = _spec_of(build_spec)
    models = catalog(catalogs)
    problems = _type_problems(build_spec)
    if problems:
        raise PlanningError(problems)
    return build_fabric(build_spec, models)


def assign(fabric: Fabric, *, rails: bool = True) -> int:
    """Re-plan a design after edits, as one change: every NIC's rail back to its GPU-affinity order
    (unless ``rails`` is False), then every address and ASN that is not pinned. Pinned values are kept.
    Returns how many NIC rails changed. Raises a DesignerError (``PlanningError``, with ``problems``)
    when a pool is too small."""
    from ..planning.addressing import assign_addresses
    from ..planning.rails import assign_rails
    with fabric.batch():
        changed = assign_rails(fabric) if rails else 0
        assign_addresses(fabric)
    return changed


def grow(fabric: Fabric, sus: int | None = None, servers_per_su: int | None = None, *,
         final_sus: int | None = None, allow_renumber: bool = False) -> GrowResult:
    """Grow a design in place to ``sus`` SUs of ``servers_per_su`` servers each (either defaults to what
    it has), keeping every existing device's name, ports, cables, addresses, ASN and pins: only new
    devices, cables on free ports and new addresses are added, placed as `build` places them for the
    design's plan (a design planned with ``final_sus``) or for the parameters it was built with.
    ``final_sus``: plan for that many SUs from now on. Returns a result with ``fabric`` (the grown
    design), ``added`` (new device ids), ``cables``, ``renumbered`` and ``plan``.

    Raises ``NotAdditive`` (a DesignerError whose ``problems`` names every device that would be
    renumbered or recabled; nothing changed) when the growth cannot be additive, unless
    ``allow_renumber``: then ``fabric`` is a new design of the new size (host names kept) and
    ``renumbered`` lists what changed. Raises ``PlanningError`` when the size cannot be built."""
    from ..planning.grow import grow as grow_fabric
    return grow_fabric(fabric, sus, servers_per_su, final_sus=final_sus, allow_renumber=allow_renumber)


def check(fabric: Fabric) -> list[Finding]:
    """Every finding of the design rules, sorted: each `Finding` has ``code`` (``RD004`` ...),
    ``severity`` (`Severity`), ``message``, ``ids`` (the objects involved) and ``hint`` (the fix).
    Never raises for a bad design; export refuses while ERROR findings remain."""
    from ..checks import check as run_checks
    return run_checks(fabric)


def checks_not_run(fabric: Fabric) -> str:
    """The sentence naming the rules `check` does not run on this design's fabric kind ('' if none)."""
    from ..checks import skipped_note
    return skipped_note(fabric)


def import_aid(path: str | os.PathLike, *, catalogs: Iterable[str | os.PathLike] = ()) -> Fabric:
    """Rebuild the design an AI Infrastructure Descriptor (``aid/fabric.aid.json`` of a bundle)
    describes, addresses and pins included. Raises a DesignerError naming the file and the record."""
    from ..export.aid_import import load_aid_text
    from ..model.limits import MAX_AID_BYTES
    from ..storage.yamlio import read_text
    models = catalog(catalogs)
    return load_aid_text(read_text(Path(path), MAX_AID_BYTES, "AID file"), os.fspath(path), models)


def _spec_of(value) -> BuildSpec:
    return spec(value) if isinstance(value, str) else value


_TYPES = {"int": (int,), "float": (int, float), "str": (str,), "None": (type(None),)}
_WORDS = {"int": "a whole number", "float": "a number", "str": "text", "None": "None"}


def _type_problems(build_spec: BuildSpec) -> list[str]:
    """Parameters of the wrong type (a script can pass anything): the sizing would fail on them."""
    import dataclasses

    from ..model.limits import excerpt
    problems = []
    for f in dataclasses.fields(build_spec):
        value = getattr(build_spec, f.name)
        kinds = [word.strip() for word in str(f.type).split("|")]
        allowed = tuple(t for kind in kinds for t in _TYPES[kind])
        if isinstance(value, bool) or not isinstance(value, allowed):
            problems.append(f"{f.name} should be {' or '.join(_WORDS[k] for k in kinds)}, not {excerpt(value)}")
    return problems
