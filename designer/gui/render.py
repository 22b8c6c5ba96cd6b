"""The diagram export (File > Export diagram, `rail-designer render`): the whole design as SVG or
PNG, drawn from a scene of its own (so no selection, finding mark or overlay of the window shows),
with a footer holding the title block (design name, description, counts, date) and the rail legend,
laid out by measuring their text (`footer_layout`).

The date is the design's, not the clock's: the design file's last save (or SOURCE_DATE_EPOCH when
set, for reproducible builds); a design never saved says so. The same design file therefore gives
the same bytes every time."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator

from . import style

MAX_PNG_SIDE = 8000      # a 1,024-server design is large: cap the bitmap, keep the aspect
MIN_PNG_WIDTH = 1200
TOOL = "rail-designer"


def design_date(design_path: Path | None) -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).strftime("%Y-%m-%d")
    if design_path is not None and Path(design_path).is_file():
        return datetime.fromtimestamp(Path(design_path).stat().st_mtime, timezone.utc).strftime("%Y-%m-%d")
    return "not saved yet"


def design_name(fabric, design_path: Path | None) -> str:
    """The diagram's title: the design's own name, else its file's (a design started with File > New
    is "untitled" until it is given a name, even once saved as a file of its own)."""
    from .files import NEW_NAME, design_stem
    name = (fabric.settings.name or "").strip()
    if name and name != NEW_NAME:
        return name
    return design_stem(design_path) if design_path is not None else NEW_NAME


def title_lines(fabric, date: str, name: str | None = None) -> list[str]:
    leaves, spines, cores = len(fabric.leaves()), len(fabric.spines()), len(fabric.cores())
    gpus = sum(s.gpus for s in fabric.servers.values())
    s = fabric.settings
    planes = f" in {s.fabric_planes} fabric planes" if s.fabric_planes > 1 else ""
    groups = len({sp.group for sp in fabric.spines() if sp.group is not None})
    return [name or s.name or "untitled",
            s.description or "",
            f"{len(fabric.servers):,} servers ({gpus:,} GPUs) in {len(fabric.sus)} SUs, {len(fabric.rails)} rails{planes}; "
            f"{leaves} leaves, {spines} spines" + (f", {cores} cores" if cores else "")
            + f"; {len(fabric.links):,} cables",
            f"addressing {s.addressing.scheme}, spine planes {s.spine_planes}"
            + (f", {groups} spine groups under a core tier" if cores and groups else ""),
            f"{date} - drawn by {TOOL}"]


RAILS_PER_COLUMN = 6


@dataclass
class Footer:
    """Where the footer's parts go, measured with the fonts they are drawn in, so that no text is cut
    and the legend never covers the title block: beside it when the page is wide enough, else under it."""

    height: float
    lines: list[tuple[str, QFont, QRectF]]          # the title block, a line each
    legend: list[tuple[str, QFont, QRectF]]         # "Rails" and a name per rail
    chips: list[tuple[int, QRectF]]                 # (rail index, its colour chip)


def footer_layout(fabric, width: float, base: float, date: str, name: str | None = None) -> Footer:
    lines, y = [], base * 0.8
    for i, text in enumerate(title_lines(fabric, date, name)):
        font = _font(base * (1.6 if i == 0 else 0.95), bold=i == 0)
        height = base * (2.0 if i == 0 else 1.3)
        lines.append((text, font, QRectF(base, y, QFontMetricsF(font).horizontalAdvance(text) + 2, height)))
        y += height
    title_right = max(r.right() for _, _, r in lines)
    rails = sorted(fabric.rails.values(), key=lambda r: r.index)
    font = _font(base * 0.95)
    metrics = QFontMetricsF(font)
    col_w = base * 3 + max((metrics.horizontalAdvance(r.name) for r in rails), default=0)
    columns = max(1, -(-len(rails) // RAILS_PER_COLUMN))
    legend_w = columns * col_w
    if title_right + base * 2 + legend_w <= width - base:      # beside the title block, on the right
        left, top = max(width * 0.62, title_right + base * 2), 0.0
    else:                                                      # under it
        left, top = base, y
    legend = [("Rails", font, QRectF(left, top + base * 0.6, metrics.horizontalAdvance("Rails") + 2, base * 1.3))]
    chips = []
    for i, rail in enumerate(rails):
        cx = left + (i // RAILS_PER_COLUMN) * col_w
        cy = top + base * 2.2 + (i % RAILS_PER_COLUMN) * base * 1.25
        chips.append((rail.index, QRectF(cx, cy, base * 1.4, base * 0.9)))
        legend.append((rail.name, font, QRectF(cx + base * 1.8, cy - base * 0.175,     # centred on its chip
                                               metrics.horizontalAdvance(rail.name) + 2, base * 1.25)))
    bottom = max([y] + [r.bottom() for _, _, r in legend] + [r.bottom() for _, r in chips])
    return Footer(max(bottom + base * 0.6, base * 8), lines, legend, chips)


def _font(pixels: float, bold: bool = False) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(pixels)))
    font.setBold(bold)
    return font


def _paint_footer(painter: QPainter, footer: Footer, rect: QRectF, base: float) -> None:
    painter.fillRect(rect, QColor("white"))
    painter.setPen(QPen(QColor("#90a4ae"), max(1.0, base / 12)))
    painter.drawLine(rect.topLeft(), rect.topRight())
    painter.setPen(style.TEXT)
    for text, font, where in footer.lines + footer.legend:
        painter.setFont(font)
        painter.drawText(where.translated(rect.x(), rect.y()), Qt.AlignLeft | Qt.AlignVCenter, text)
    for rail, chip in footer.chips:
        painter.fillRect(chip.translated(rect.x(), rect.y()), style.rail_colour(rail))


def write_diagram(scene_or_fabric, out_path: Path, design_path: Path | None = None) -> dict[str, int]:
    """Write the design's diagram to ``out_path`` (.svg or .png); returns the item counts drawn.

    Takes the window's scene (only its fabric is used) or a Fabric. Needs a QGuiApplication."""
    from .scene import FabricScene
    fabric = getattr(scene_or_fabric, "fabric", None) or scene_or_fabric
    out_path = Path(out_path)
    suffix = out_path.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"cannot write a diagram as '{suffix or out_path.name}': use .png or .svg")
    scene = FabricScene(fabric)
    try:
        _write(scene, fabric, out_path, suffix, design_date(design_path), design_name(fabric, design_path))
        return scene.counts()
    finally:
        scene.detach()


def _write(scene, fabric, out_path: Path, suffix: str, date: str, name: str) -> None:
    source = scene.content_rect()
    base = max(12.0, source.width() / 110)
    footer = footer_layout(fabric, source.width(), base, date, name)
    page = QSize(int(source.width()), int(source.height() + footer.height))
    if suffix == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(out_path))
        gen.setSize(page)
        gen.setViewBox(QRectF(0, 0, page.width(), page.height()))
        gen.setTitle(f"{name} - {TOOL} diagram")
        gen.setDescription(" / ".join(line for line in title_lines(fabric, date, name) if line))
        painter = QPainter(gen)
        _paint_page(painter, scene, source, base, footer)
        painter.end()
        return
    scale = min(MAX_PNG_SIDE / max(page.width(), 1), MAX_PNG_SIDE / max(page.height(), 1),
                max(1.0, MIN_PNG_WIDTH / max(page.width(), 1)))
    image = QImage(QSize(max(1, int(page.width() * scale)), max(1, int(page.height() * scale))), QImage.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing, True)
    painter.setRenderHint(QPainter.TextAntialiasing, True)
    painter.scale(scale, scale)
    _paint_page(painter, scene, source, base, footer)
    painter.end()
    if not image.save(str(out_path)):
        raise OSError(f"could not write {out_path}")


def _paint_page(painter, scene, source: QRectF, base: float, footer: Footer) -> None:
    target = QRectF(0, 0, source.width(), source.height())
    painter.fillRect(QRectF(0, 0, source.width(), source.height() + footer.height), QColor("white"))
    scene.render(painter, target, source, Qt.KeepAspectRatio)
    _paint_footer(painter, footer, QRectF(0, source.height(), source.width(), footer.height), base)


def render_scene(fabric, out_path, design_path: Path | None = None) -> dict[str, int]:
    """Headless: lay out ``fabric`` and write it; returns the item counts (devices, nics, links)."""
    return write_diagram(fabric, Path(out_path), design_path)
