"""Plain-text and JSON forms of an nccl-check result."""

from __future__ import annotations

from .check import CheckResult
from .diagnose import Judgement, by_size


def _gb(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def expected_at(j: Judgement) -> float | None:
    """The ceiling drawn and tabled for every size (the design does not model latency)."""
    return j.prediction.line_gbs


def run_lines(j: Judgement) -> list[str]:
    run, pred = j.run, j.prediction
    servers = j.placement.servers
    out = [f"{run.name}: {run.rank_count} ranks on {len(servers)} server(s)"
           + (f" ({', '.join(servers[:4])}{', ...' if len(servers) > 4 else ''})" if servers else "")
           + f", routing {pred.routing}"]
    if run.collective_from:
        out.append(f"  collective {run.collective}: told by {run.collective_from}")
    if run.networks:
        out.append(f"  network: {', '.join(run.networks)}")
    if pred.line_gbs is not None:
        out.append(f"  design rate {pred.line_gbs:.2f} GB/s busbw ({pred.nics_per_host} NIC(s) per host), ceiling "
                   f"{pred.ceiling_gbs:.2f} GB/s with the share inside the node ({pred.ranks} ranks on "
                   f"{pred.nodes} nodes); "
                   f"flows from {pred.flows_from} "
                   f"({pred.flow_count}); slowest flow gets {pred.fraction.get('min', 1):.0%} "
                   f"(median {pred.fraction.get('median', 1):.0%})")
    if pred.reported_gbs is not None:
        out.append(f"  with the NIC speeds NCCL reported: {pred.reported_gbs:.2f} GB/s")
    out.append(f"  {'size (B)':>12} {'busbw oop':>10} {'in-place':>9} {'expected':>9} {'ratio':>6}")
    judged = {r.size for r in j.judged}
    expected = expected_at(j)
    for r in by_size(run.rows):
        ratio = f"{r.busbw / expected:.0%}" if expected else "-"
        mark = " *" if r.size in judged else ""
        in_place = _gb(r.in_place.busbw if r.in_place else None)
        out.append(f"  {r.size:>12} {r.busbw:>10.2f} {in_place:>9} {_gb(expected):>9} {ratio:>6}{mark}")
    peak = run.peak
    out.append(f"  peak out-of-place busbw {peak.out_of_place.busbw:.2f} GB/s at {peak.size} B"
               + (f" (in-place {peak.in_place.busbw:.2f})" if peak.in_place else ""))
    if j.plateau is not None:
        out.append(f"  * judged sizes: median out-of-place busbw {j.plateau:.2f} GB/s"
                   + (f" = {j.ratio:.0%} of the design's rate" if j.ratio is not None else "")
                   + (f"; nccl-tests' average {run.avg_busbw:g}" if run.avg_busbw is not None else ""))
    verdict = j.verdict
    if verdict is not None:
        out.append(f"  verdict: {verdict.code} {verdict.message}")
        if verdict.hint:
            out.append(f"           fix: {verdict.hint}")
    for f in j.findings:
        if f is not verdict:
            out.append(f"  {f.severity.value.upper():7} {f.code} {f.message}")
    return out


def result_text(result: CheckResult) -> str:
    out = []
    for f in result.findings:
        out += [f"{f.severity.value.upper()} {f.code} {f.message}", f"  fix: {f.hint}", ""]
    for j in result.judgements:
        out += run_lines(j) + [""]
    bad = sum(v.severity.value != "info" for v in result.verdicts)
    out.append(f"{len(result.judgements)} run(s) checked, {bad} verdict(s) that need action")
    return "\n".join(out) + "\n"


def run_json(j: Judgement) -> dict:
    run, pred = j.run, j.prediction
    expected = expected_at(j)
    return {
        "file": run.file, "line": run.start.line, "collective": run.collective,
        "collective_from": run.collective_from or None, "version": run.version, "networks": list(run.networks),
        "ranks": run.rank_count, "hosts": run.hosts, "servers": j.placement.servers,
        "peak": {"size": run.peak.size, "busbw_out_of_place": run.peak.out_of_place.busbw,
                 "busbw_in_place": run.peak.in_place.busbw if run.peak.in_place else None},
        "rows": [{"size": r.size, "count": r.count, "type": r.dtype, "redop": r.redop,
                  "busbw_out_of_place": r.out_of_place.busbw,
                  "busbw_in_place": r.in_place.busbw if r.in_place else None,
                  "expected_busbw": expected, "judged": r in j.judged, "line": r.where.line}
                 for r in by_size(run.rows)],
        "avg_busbw": run.avg_busbw,
        "prediction": {"routing": pred.routing, "rate_busbw": pred.line_gbs, "ceiling_busbw": pred.ceiling_gbs,
                       "ceiling_with_reported_nic_speeds": pred.reported_gbs, "nics_per_host": pred.nics_per_host,
                       "fraction": pred.fraction, "collision_free_share": pred.collision_free_share,
                       "trials": pred.trials, "flows_from": pred.flows_from, "flows": pred.flow_count,
                       "crosses_spines": pred.crosses_spines,
                       "cross_rail": [{"from": s, "to": d} for s, d, _ in pred.cross_rail]},
        "plateau_busbw": j.plateau, "ratio": j.ratio,
        "step": {"before": j.step[0], "after": j.step[1]} if j.step else None,
        "verdict": j.verdict.as_dict() if j.verdict else None,
        "findings": [f.as_dict() for f in j.findings],
    }


def result_json(result: CheckResult) -> dict:
    return {"ok": result.ok, "findings": [f.as_dict() for f in result.findings],
            "runs": [run_json(j) for j in result.judgements]}
