"""Charts drawn with matplotlib's Agg backend (no display, no pyplot state), as PNG or SVG bytes.

`render` is the one place a figure becomes bytes, and it makes them reproducible: the PNG carries
no ``Software`` text chunk (matplotlib writes no timestamp into PNGs), the SVG no ``dc:date``, and
SVG element ids come from a fixed hash salt, so the same input always gives the same bytes.

`bar_chart` is the collision chart of ``analyze --chart``: one bar per link, height = utilisation
(demand / capacity) against a full-rate line at 100 %; bars over 100 % red, the others blue.
`draw_modes` / `mode_chart` compare the load-balancing modes (``analyze --compare --chart``, and the
window's Modes tab draws the same figure on its canvas).
"""

from __future__ import annotations

import io
from pathlib import Path

from . import AnalysisError

BLUE, RED, GREY = "#3465a4", "#cc0000", "#888888"
FORMATS = ("png", "svg")
_SVG_SALT = "rail-designer"
_DPI = 100


def figure(width: float = 8.0, height: float = 3.0):
    """A matplotlib Figure on the Agg canvas, not registered with pyplot (so nothing global changes)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    fig = Figure(figsize=(width, height), dpi=_DPI)
    FigureCanvasAgg(fig)
    return fig


def render(fig, fmt: str) -> bytes:
    """PNG or SVG bytes of ``fig``, byte-identical for the same figure."""
    import matplotlib
    if fmt not in FORMATS:
        raise ValueError(f"unknown chart format '{fmt}'; use png or svg")
    out = io.BytesIO()
    if fmt == "png":
        fig.savefig(out, format="png", metadata={"Software": None})
    else:
        with matplotlib.rc_context({"svg.hashsalt": _SVG_SALT, "svg.fonttype": "path"}):
            fig.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
    return out.getvalue()


def format_of(path: Path) -> str:
    """The chart format a file name asks for: ``.png`` or ``.svg``."""
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise AnalysisError(f"cannot tell the chart format of {path}: name it .png or .svg")
    return fmt


def bar_chart(values: list[float], fmt: str = "png") -> bytes:
    """Bars for ``values`` (1.0 = full rate)."""
    fig = figure(max(4.0, min(40.0, 0.12 * len(values) + 2)), 3.0)
    ax = fig.add_subplot()
    xs = range(len(values))
    ax.bar(xs, values, width=0.85, color=[RED if v > 1 + 1e-9 else BLUE for v in values])
    ax.axhline(1.0, color=GREY, linewidth=1, linestyle="--", label="full rate")
    ax.set_ylim(0, max([1.0] + list(values)) * 1.1)
    ax.set_ylabel("load (demand / capacity)")
    ax.set_xlabel("leaf-spine links (see the table or JSON for names)")
    ax.set_xticks([])
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    return render(fig, fmt)


def write_chart(path: Path, values: list[float]) -> None:
    from ..storage.yamlio import write_atomic
    write_atomic(path, bar_chart(values, format_of(path)))


MODE_SERIES = ("bus bandwidth (mean; bar: min to max)", "busiest leaf-spine load (mean)")


def draw_modes(fig, rows, title: str = "") -> None:
    """The modes of `compare.compare` on one axis of ``fig``: per mode, the collective's bus-bandwidth
    fraction (mean, with a min-max bar) and the busiest leaf-spine link's load, against full rate."""
    fig.clear()
    ax = fig.add_subplot()
    xs = list(range(len(rows)))
    width = 0.38
    means = [r.fraction_mean for r in rows]
    spread = [[r.fraction_mean - r.fraction_min for r in rows], [r.fraction_max - r.fraction_mean for r in rows]]
    ax.bar([x - width / 2 for x in xs], means, width, color=BLUE, label=MODE_SERIES[0], yerr=spread,
           capsize=3, gid="busbw")
    loads = [r.uplink_load_mean for r in rows]
    ax.bar([x + width / 2 for x in xs], loads, width, color=[RED if v > 1 + 1e-9 else GREY for v in loads],
           label=MODE_SERIES[1], gid="uplink")
    ax.axhline(1.0, color=GREY, linewidth=1, linestyle="--")
    ax.set_xticks(xs, [r.label for r in rows])
    ax.set_ylim(0, max([1.0] + loads + [r.fraction_max for r in rows]) * 1.35)
    ax.set_ylabel("fraction of line rate")
    if title:
        ax.set_title(title, fontsize="medium")
    ax.legend(loc="upper center", ncol=2, fontsize="small")
    fig.tight_layout()


def mode_chart(rows, fmt: str = "png", title: str = "") -> bytes:
    fig = figure(6.5, 3.2)
    draw_modes(fig, rows, title)
    return render(fig, fmt)


def write_mode_chart(path: Path, rows, title: str = "") -> None:
    from ..storage.yamlio import write_atomic
    write_atomic(path, mode_chart(rows, format_of(path), title))
