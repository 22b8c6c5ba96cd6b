"""rail-designer as a library: design rail-optimized GPU fabrics, check them, export their configs, and
hold them against what real machines report. The command line (``rail-designer``) is built on these
functions; docs/api.md describes each, with a worked script.

    import designer
    fabric = designer.build(designer.spec("default", servers_per_su=4))
    findings = designer.check(fabric)
    designer.export_bundle(fabric, "bundle", parts=["switches", "hosts"])

Every refusal is a `DesignerError` whose message is the command line's, word for word. Names listed in
``__all__`` are the stable surface; everything under ``designer.*`` submodules may change.
Importing this package is cheap and never loads Qt: the engine is imported when a function runs.
(The exporting function is `export_bundle`: ``designer.export`` is the subpackage of that name.)
"""

from __future__ import annotations

import importlib

from .api.bundle import bundle_parts, export_bundle, lint, qos_check, render_device
from .api.changes import diff
from .api.design import assign, build, catalog, check, checks_not_run, grow, import_aid, load, presets, save, size, spec
from .api.floor import floor
from .api.emulate import emulate, emulate_change, sweep_emulations
from .api.drift import check_drift
from .api.lossless import headroom
from .api.sot import sot_pull, sot_push
from .api.machines import apply_inventory, apply_nics, import_topo, verify, verify_ib
from .api.questions import analyze, compare_modes, failure_capacity, nccl_check, trace
from .errors import DesignerError, UnknownDevice

# Types a script constructs, compares or catches, imported on first use (they pull in the engine).
_LAZY = {
    "Fabric": "designer.model.fabric",
    "BuildSpec": "designer.planning.spec",
    "Finding": "designer.checks.finding",
    "Severity": "designer.checks.finding",
    "PlanningError": "designer.planning.errors",
    "NotAdditive": "designer.planning.grow",
    "ExportRefused": "designer.export.bundle",
    "ExportCancelled": "designer.export.bundle",
    "ChangeReport": "designer.changes.report",
}

__all__ = [
    # designs
    "load", "save", "presets", "catalog", "spec", "size", "build", "assign", "grow", "check", "checks_not_run",
    "import_aid", "floor",
    # the bundle
    "export_bundle", "bundle_parts", "render_device", "lint", "qos_check",
    # questions
    "trace", "analyze", "compare_modes", "failure_capacity", "nccl_check", "headroom",
    # real machines
    "import_topo", "apply_nics", "apply_inventory", "verify", "verify_ib", "emulate", "emulate_change", "sweep_emulations",
    "check_drift",
    # the source of truth
    "sot_push", "sot_pull",
    # changes
    "diff",
    # types
    "Fabric", "BuildSpec", "Finding", "Severity",
    "ChangeReport",
    # errors
    "DesignerError", "PlanningError", "NotAdditive", "UnknownDevice", "ExportRefused", "ExportCancelled",
]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'designer' has no attribute '{name}'")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
