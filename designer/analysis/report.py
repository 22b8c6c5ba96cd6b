"""Plain-text and JSON forms of traces and collision analyses (the CLI prints these)."""

from __future__ import annotations

from .collisions import Analysis, LinkLoad, summary
from .paths import Leg, Trace

TABLE_LINKS = 20     # the text table lists the busiest links; JSON lists them all


def trace_text(traces: list[Trace]) -> str:
    out = []
    for t in traces:
        state = "ok" if t.ok else "FAIL"
        out.append(f"{t.src_nic} -> {t.dst_nic}: {state}")
        for name, leg in (("request", t.request), ("reply", t.reply)):
            if leg is not None:
                out.extend(_leg_lines(name, leg))
        for f in t.flags:
            out.append(f"  {f.severity.value.upper():7} {f.code} {f.message}")
        out.append("")
    failed = sum(not t.ok for t in traces)
    out.append(f"{len(traces)} pairs traced, {failed} with errors")
    return "\n".join(out) + "\n"


def _leg_lines(name: str, leg: Leg) -> list[str]:
    lines = [f"  {name} {leg.source} -> {leg.destination}:"]
    for i, h in enumerate(leg.hops, 1):
        ports = f"{h.ingress or '-'} > {h.egress or '-'}"
        lines.append(f"    {i}. {h.device:16} {ports:28} {h.decision}")
    return lines


def trace_json(traces: list[Trace]) -> dict:
    return {"pairs": [t.as_dict() for t in traces], "errors": sum(not t.ok for t in traces)}


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def ranked(a: Analysis) -> list[LinkLoad]:
    """Links busiest first (utilisation, then leaf-spine before host links, then flows), ties by name."""
    return sorted(a.links, key=lambda l: (-round(l.utilisation, 9), l.tier == "host", -l.mean_flows))


def chart_links(a: Analysis) -> list[LinkLoad]:
    """What the PNG shows: the switch links (leaf-spine up, then down; spine-core up, then down), or the host
    links when none are used."""
    fabric = [l for tier in ("up", "down", "up2", "dn2") for l in a.links if l.tier == tier]
    return fabric or list(a.links)


def analysis_table(a: Analysis) -> str:
    s = summary(a)
    fr, mf = s["fraction"], s["mean_flow_fraction"]
    qps = f" ({a.qps} QPs per flow, each hashed)" if a.routing == "qp-hash" else ""
    out = [f"pattern {a.pattern}, routing {a.routing}{qps}, {a.flows} flows, "
           f"{a.trials} trial{'s' if a.trials != 1 else ''} (seed {a.seed})"]
    if a.unroutable:
        out.append(f"{len(a.unroutable)} flows have no path, e.g. {a.unroutable[0][0]} -> {a.unroutable[0][1]}: "
                   f"{a.unroutable[0][2]}")
    up = [l for l in a.links if l.tier == "up"]
    out.append(f"links loaded: {len(a.links)} ({len(up)} leaf->spine)")
    if a.trials == 1:
        out.append(f"bus-bandwidth fraction: {_pct(fr['min'])} (mean per flow {_pct(mf['mean'])})")
    else:
        out.append(f"bus-bandwidth fraction over trials: min {_pct(fr['min'])}  median {_pct(fr['median'])}  "
                   f"mean {_pct(fr['mean'])}  max {_pct(fr['max'])}")
        out.append(f"mean per-flow fraction: mean {_pct(mf['mean'])} (min {_pct(mf['min'])})")
    ul = s["max_uplink_load"]
    if ul:
        out.append(f"busiest leaf->spine load: mean {_pct(ul['mean'])} (max {_pct(ul['max'])})")
    out.append(f"trials with no upstream collision: {a.upstream_collision_free} of {a.trials} "
               f"({_pct(s['upstream_collision_free_share'])})")
    busiest = a.busiest
    if busiest:
        out.append(f"busiest link: {busiest.link} ({busiest.mean_flows:g} flows, {_pct(busiest.utilisation)})")
    out.append("")
    out.append(f"{'link':60} {'tier':4} {'flows':>7} {'max':>4} {'Gb/s':>8} {'cap':>6} {'load':>7}")
    for l in ranked(a)[:TABLE_LINKS]:
        out.append(f"{l.link:60} {l.tier:4} {l.mean_flows:7.2f} {l.max_flows:4d} {l.mean_demand:8.1f} "
                   f"{l.capacity:6.0f} {_pct(l.utilisation):>7}")
    if len(a.links) > TABLE_LINKS:
        out.append(f"... {len(a.links) - TABLE_LINKS} more (use --format json for every link)")
    return "\n".join(out) + "\n"


def analysis_json(a: Analysis) -> dict:
    busiest = a.busiest
    return {
        "pattern": a.pattern, "routing": a.routing, "qps": a.qps, "trials": a.trials, "seed": a.seed, "flows": a.flows,
        "unroutable": [{"from": s, "to": d, "why": w} for s, d, w in a.unroutable],
        **summary(a),
        "upstream_collision_free_trials": a.upstream_collision_free,
        "busiest": busiest.link if busiest else None,
        "links": [{"link": l.link, "tier": l.tier, "capacity_gbps": l.capacity, "mean_flows": l.mean_flows,
                   "max_flows": l.max_flows, "mean_demand_gbps": round(l.mean_demand, 6),
                   "utilisation": round(l.utilisation, 6)} for l in a.links],
    }
