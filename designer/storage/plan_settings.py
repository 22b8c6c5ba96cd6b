"""The settings a design is planned with beyond its shape: ``load_balancing``, ``growth`` and ``lossless``.

One form for both places that carry them: the design file's ``settings`` mapping and the AID's ``design``
header (`export.aid_data`, read back by `export.aid_import`). Each is written only when the design sets it,
so a design without them reads and writes exactly as before they existed::

    load_balancing: {mode: qp-hash, qps: 8}          # qps with qp-hash only
    growth: {final_sus: 4, final_servers_per_su: 32, build: {leaf_model: ..., spines: 16, ...}}
    lossless: {ecn: {...}, pfc_watchdog: {...}}       # `lossless_file`
"""

from __future__ import annotations

from ..model.entities import LOAD_BALANCING_MODES, QPS_RANGE, DesignSettings, GrowthPlan, LoadBalancing
from ..model.limits import MAX_LINKS, MAX_SERVERS, excerpt
from ..model.validate import SU_RANGE
from ..planning.growth import PLAN_FIELDS
from .lossless_file import read_lossless, write_lossless
from .yamlio import Context, field, only_keys

KEYS = ("load_balancing", "growth", "lossless")


def write_plan_settings(doc: dict, s: DesignSettings) -> None:
    """Add the keys of `KEYS` the design sets to the settings mapping ``doc``."""
    lb = s.load_balancing
    if lb != LoadBalancing():
        doc["load_balancing"] = {"mode": lb.mode, **({"qps": lb.qps} if lb.mode == "qp-hash" else {})}
    if s.growth is not None:
        doc["growth"] = {"final_sus": s.growth.final_sus, "final_servers_per_su": s.growth.final_servers_per_su,
                         "build": dict(s.growth.build)}
    write_lossless(doc, s.lossless)


def read_plan_settings(ctx: Context, s: dict) -> dict:
    """The `DesignSettings` fields ``growth``, ``lossless`` and ``load_balancing`` read from the settings
    mapping ``s`` (errors through ``ctx``, at paths under ``("settings",)``)."""
    return {"growth": _growth(ctx, s), "lossless": read_lossless(ctx, s), "load_balancing": _load_balancing(ctx, s)}


def _load_balancing(ctx: Context, s: dict) -> LoadBalancing:
    """``mode`` and, for qp-hash, ``qps``; absent: PPD, as before it existed."""
    lb = field(ctx, s, "load_balancing", ("settings",), dict, default={})
    p = ("settings", "load_balancing")
    only_keys(ctx, lb, {"mode", "qps"}, p)
    d = LoadBalancing()
    mode = field(ctx, lb, "mode", p, str, d.mode, LOAD_BALANCING_MODES)
    if "qps" in lb and mode != "qp-hash":
        ctx.fail(p + ("qps",), f"applies to mode qp-hash only, not {mode}: remove it or set mode: qp-hash")
    return LoadBalancing(mode, field(ctx, lb, "qps", p, int, d.qps, bounds=QPS_RANGE))


def _growth(ctx: Context, s: dict) -> GrowthPlan | None:
    """The final size the design is planned for, or None when it has none."""
    g = field(ctx, s, "growth", ("settings",), dict, default=None)
    if g is None:
        return None
    p = ("settings", "growth")
    only_keys(ctx, g, {"final_sus", "final_servers_per_su", "build"}, p)
    final_sus = field(ctx, g, "final_sus", p, int, bounds=SU_RANGE)
    servers = field(ctx, g, "final_servers_per_su", p, int, bounds=(1, MAX_SERVERS))
    raw = field(ctx, g, "build", p, dict)
    bp = p + ("build",)
    only_keys(ctx, raw, set(PLAN_FIELDS), bp)
    values = {}
    for name in PLAN_FIELDS:
        kind = build_kind(name)
        values[name] = field(ctx, raw, name, bp, kind, bounds=None if kind is str else (0, MAX_LINKS))
    if values["core_tier"] not in ("on", "off"):
        ctx.fail(bp + ("core_tier",), f"{excerpt(values['core_tier'])} is not one of: on, off")
    return GrowthPlan(final_sus, servers, tuple(sorted(values.items())))


def build_kind(name: str) -> type:
    """The type of a growth plan's build parameter: a model name or on/off is text, the rest are counts."""
    return str if name.endswith(("model", "tier")) else int
