"""Measured against expected bus bandwidth by message size, one panel per run (PNG or SVG bytes)."""

from __future__ import annotations

from ..analysis.chart import BLUE, GREY, RED, figure, render
from .check import CheckResult
from .diagnose import by_size

GREEN, ORANGE = "#4e9a06", "#f57900"
MAX_PANELS = 12


def busbw_chart(result: CheckResult, fmt: str = "png") -> bytes:
    shown = result.judgements[:MAX_PANELS]
    fig = figure(8.0, 3.2 * max(1, len(shown)))
    for i, j in enumerate(shown, 1):
        ax = fig.add_subplot(len(shown), 1, i)
        rows = by_size(j.run.rows)
        sizes = [r.size for r in rows]
        ax.plot(sizes, [r.out_of_place.busbw for r in rows], marker="o", markersize=3, color=BLUE,
                label="measured, out-of-place")
        if any(r.in_place for r in rows):
            ax.plot(sizes, [r.in_place.busbw if r.in_place else float("nan") for r in rows], marker="x",
                    markersize=3, color=GREEN, linewidth=0.8, label="measured, in-place")
        pred = j.prediction
        if pred.line_gbs is not None:
            ax.axhline(pred.line_gbs, color=GREY, linestyle="--", label=f"design ceiling {pred.line_gbs:.1f} GB/s")
            if pred.fraction and pred.fraction["median"] < 1 - 1e-9:
                ax.axhline(pred.line_gbs * pred.fraction["median"], color=ORANGE, linestyle=":",
                           label=f"{pred.routing.upper()} collisions, median draw")
            if pred.reported_gbs is not None:
                ax.axhline(pred.reported_gbs, color=RED, linestyle="-.", label="with the NIC speeds NCCL reported")
        if j.judged:
            ax.axvspan(j.judged[0].size, j.judged[-1].size, color="#eeeeec", zorder=0)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message size (bytes)")
        ax.set_ylabel("busbw (GB/s)")
        top = max([r.busbw for r in rows] + [pred.line_gbs or 0.0])
        ax.set_ylim(0, top * 1.12 if top > 0 else 1.0)
        verdict = j.verdict
        ax.set_title(f"{j.run.collective or 'nccl-tests'}, {len(j.placement.servers)} servers"
                     + (f": {verdict.code}" if verdict else ""), fontsize="medium")
        ax.legend(loc="upper left", fontsize="x-small")
    fig.tight_layout()
    return render(fig, fmt)
