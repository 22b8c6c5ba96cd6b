"""The collision analysis for the window, run in a child process (no Qt here): an all-to-all over
a thousand servers under ECMP takes minutes, so the window stays usable and Cancel can stop it.

The child gets the design as text (`storage.dumps`), so it works on a copy that later edits in
the window cannot change under it."""

from __future__ import annotations

from ..analysis import AnalysisError


def link_utilisation(fabric, analysis) -> dict[str, float]:
    """Cable id -> the busier direction's share of capacity asked (what the canvas colours)."""
    out: dict[str, float] = {}
    for load in analysis.links:
        a, _, _b = load.link.partition(" -> ")
        link = fabric.link_at(a)
        if link is not None:
            out[link.id] = max(out.get(link.id, 0.0), load.utilisation)
    return out


def run(design_text: str, pattern: str, routing: str, trials: int, seed: int = 0, qps: int = 4) -> dict:
    """Analyse and return plain data: the CLI's table text and per-cable utilisation."""
    from ..analysis.collisions import analyze
    from ..analysis.flows import flows
    from ..analysis.report import analysis_table
    from ..analysis.routing import Forwarding
    from ..storage import loads
    fabric = loads(design_text)
    fw = Forwarding(fabric)
    result = analyze(fw, flows(fabric, pattern), routing, trials, seed, pattern, qps)
    return {"table": analysis_table(result), "utilisation": link_utilisation(fabric, result),
            "busiest": result.busiest.link if result.busiest else None}


def run_compare(design_text: str, pattern: str, qps: int, trials: int, seed: int = 0) -> dict:
    """Every load-balancing mode on the pattern's flows: the rows (`compare.ModeRow`) and their table."""
    from ..analysis.compare import compare, compare_table
    from ..analysis.flows import flows
    from ..analysis.routing import Forwarding
    from ..storage import loads
    fabric = loads(design_text)
    rows = compare(Forwarding(fabric), flows(fabric, pattern), qps, trials, seed, pattern)
    return {"modes": rows, "table": compare_table(rows, pattern), "pattern": pattern}


def child(conn, design_text: str, pattern: str, routing: str, trials: int, seed: int, qps: int = 4) -> None:
    """Entry point of the child process: sends ("ok", result) or ("error", message). ``routing`` "compare"
    runs every mode (`run_compare`)."""
    try:
        if routing == "compare":
            conn.send(("ok", run_compare(design_text, pattern, qps, trials, seed)))
        else:
            conn.send(("ok", run(design_text, pattern, routing, trials, seed, qps)))
    except Exception as exc:            # noqa: BLE001 - everything goes back to the window as one line
        readable = isinstance(exc, (ValueError, AnalysisError))
        conn.send(("error", str(exc) if readable else f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()
