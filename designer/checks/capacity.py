"""Capacity rules: leaf oversubscription and ports the switch model does not have."""

from __future__ import annotations

from ..model.ids import natural_sorted
from ..planning.failures import failure_capacity
from ..planning.spec import format_ratio
from .context import valid_mode
from .finding import Severity
from .registry import listing, rule

_EPSILON = 1e-9


def format_allowed(ratio: float) -> str:
    """``1:1`` for an integral limit, ``1.50:1`` otherwise."""
    return f"{int(ratio)}:1" if float(ratio).is_integer() else format_ratio(ratio)


@rule("RD001", "Leaf oversubscription above the allowed ratio", Severity.ERROR,
      "Add uplinks to the leaf (or spines), move servers to another leaf, or raise the allowed "
      "oversubscription in the design settings if this fabric is meant to be blocking.")
def oversubscription(ctx):
    if not ctx.spines:
        return
    allowed = ctx.settings.max_oversubscription
    for leaf_id, (down, up) in ctx.leaf_bandwidth.items():
        if not down:
            continue
        if not up:
            yield (f"{leaf_id} has {down:,}G of server downlinks and no uplink to a spine, "
                   f"allowed {format_allowed(allowed)}", (leaf_id,))
        elif down / up > allowed + _EPSILON:
            yield (f"{leaf_id} is oversubscribed {format_ratio(down / up)}, allowed {format_allowed(allowed)} "
                   f"({down:,}G down, {up:,}G up)", (leaf_id,))


@rule("RD016", "Leaf oversubscription ratio (not 1:1)", Severity.INFO,
      "Nothing to fix if this ratio is intended; compute fabrics are usually built 1:1.")
def ratio_report(ctx):
    if not ctx.spines:
        return
    allowed = ctx.settings.max_oversubscription
    by_ratio: dict[str, list[str]] = {}
    for leaf_id, (down, up) in ctx.leaf_bandwidth.items():
        if down and up and abs(down / up - 1) > _EPSILON and down / up <= allowed + _EPSILON:
            by_ratio.setdefault(format_ratio(down / up), []).append(leaf_id)
    for ratio, leaves in sorted(by_ratio.items()):
        count = f"{len(leaves)} leaf runs" if len(leaves) == 1 else f"{len(leaves)} leaves run"
        yield (f"{count} at {ratio} downlink:uplink (allowed {format_allowed(allowed)}): {listing(leaves)}",
               leaves)


@rule("RD002", "Port the switch model does not have", Severity.ERROR,
      "Re-cable onto a port that exists under the cage's breakout, change the breakout, or pick a switch "
      "model with more ports.")
def missing_ports(ctx):
    catalog = ctx.fabric.catalog
    for switch in ctx.switches.values():
        if switch.id in ctx.usable_switches:
            continue
        model = catalog.switches.get(switch.model)
        if model is None:
            yield (f"{switch.id} uses switch model '{switch.model}', which is not in the catalog", (switch.id,))
            continue
        bad = [f"cage {cage} ({mode})" for cage, mode in switch.breakouts
               if not 1 <= cage <= model.ports or not model.supports(mode) or not valid_mode(mode)]
        yield (f"{switch.id} ({model.id}, cages 1..{model.ports}, breakouts {', '.join(model.breakouts)}) "
               f"has unsupported breakouts: {', '.join(bad)}", (switch.id,))
    beyond: dict[str, list[str]] = {}
    for _, a, b in ctx.cables:
        for ep, device, _, speed in (a, b):
            if speed is None and device in ctx.usable_switches:
                beyond.setdefault(device, []).append(ep)
    for switch_id, eps in beyond.items():
        eps = natural_sorted(eps)
        switch = ctx.switches[switch_id]
        yield (f"{switch_id} ({switch.model}, {len(ctx.fabric.ports(switch_id))} ports under its breakouts) has "
               f"{len(eps)} cable(s) on ports it does not have: {listing(p.partition('/')[2] for p in eps)}",
               (switch_id, *eps))


@rule("RD075", "Failures the fabric takes and stays within its ratio", Severity.INFO,
      "Nothing to fix: spare uplink capacity (Meta sizes spines 1:1.125, 8 down and 9 up per leaf) lets the fabric "
      "lose that many parts at full rate. `rail-designer failures FILE` prints it for any design.")
def failure_report(ctx):
    """Said only of a design built with spare uplink capacity somewhere (a tier that takes a failure): a
    design sized exactly at its ratio takes none, and `rail-designer failures` says so on request."""
    if not ctx.spines:
        return
    rows = failure_capacity(ctx.fabric, ctx.leaf_links, ctx.spine_links if ctx.fabric.cores() else None)
    if any(r.failures > 0 for r in rows):
        yield ("failure capacity per tier (every switch stays within its allowed downlink:uplink ratio): "
               + "; ".join(r.text for r in rows), tuple(dict.fromkeys(r.limiting for r in rows)))
