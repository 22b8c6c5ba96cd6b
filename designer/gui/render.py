"""The diagram export (File > Export diagram, `rail-designer render`): the whole design as SVG or
PNG, drawn from a scene of its own (so no selection, finding mark or overlay of the window shows),
with a footer holding the title block (design name, description, counts, date) and the rail legend.

The date is the design's, not the clock's: the design file's last save (or SOURCE_DATE_EPOCH when
set, for reproducible builds); a design never saved says so. The same design file therefore gives
the same bytes every time."""

from __future__ import annotations

import os
from datetime import datetime, timezone
from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter, QPen
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


def title_lines(fabric, date: str) -> list[str]:
    leaves, spines, cores = len(fabric.leaves()), len(fabric.spines()), len(fabric.cores())
    gpus = sum(s.gpus for s in fabric.servers.values())
    s = fabric.settings
    planes = f" in {s.fabric_planes} fabric planes" if s.fabric_planes > 1 else ""
    groups = len({sp.group for sp in fabric.spines() if sp.group is not None})
    return [s.name or "untitled",
            s.description or "",
            f"{len(fabric.servers):,} servers ({gpus:,} GPUs) in {len(fabric.sus)} SUs, {len(fabric.rails)} rails{planes}; "
            f"{leaves} leaves, {spines} spines" + (f", {cores} cores" if cores else "")
            + f"; {len(fabric.links):,} cables",
            f"addressing {s.addressing.scheme}, spine planes {s.spine_planes}"
            + (f", {groups} spine groups under a core tier" if cores and groups else ""),
            f"{date} - drawn by {TOOL}"]


def _footer_height(base: float) -> float:
    return base * 8


def _paint_footer(painter: QPainter, fabric, rect: QRectF, base: float, date: str) -> None:
    painter.fillRect(rect, QColor("white"))
    painter.setPen(QPen(QColor("#90a4ae"), max(1.0, base / 12)))
    painter.drawLine(rect.topLeft(), rect.topRight())
    lines = title_lines(fabric, date)
    font = QFont("DejaVu Sans")
    x, y = rect.x() + base, rect.y() + base * 0.8
    for i, line in enumerate(lines):
        font.setPixelSize(max(1, round(base * (1.6 if i == 0 else 0.95))))
        font.setBold(i == 0)
        painter.setFont(font)
        painter.setPen(style.TEXT)
        height = base * (2.0 if i == 0 else 1.3)
        painter.drawText(QRectF(x, y, rect.width() * 0.6, height), Qt.AlignLeft | Qt.AlignVCenter, line)
        y += height
    # the legend: a chip per rail, in columns on the right half
    rails = sorted(fabric.rails.values(), key=lambda r: r.index)
    font.setPixelSize(max(1, round(base * 0.95)))
    font.setBold(False)
    painter.setFont(font)
    left = rect.x() + rect.width() * 0.62
    per_col = 6
    col_w = rect.width() * 0.38 / max(1, -(-len(rails) // per_col))
    painter.drawText(QRectF(left, rect.y() + base * 0.6, col_w * 3, base * 1.3), Qt.AlignLeft, "Rails")
    for i, rail in enumerate(rails):
        cx = left + (i // per_col) * col_w
        cy = rect.y() + base * 2.2 + (i % per_col) * base * 1.25
        painter.fillRect(QRectF(cx, cy, base * 1.4, base * 0.9), style.rail_colour(rail.index))
        painter.drawText(QRectF(cx + base * 1.8, cy - base * 0.2, col_w, base * 1.3),
                         Qt.AlignLeft | Qt.AlignVCenter, rail.name)


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
        _write(scene, fabric, out_path, suffix, design_date(design_path))
        return scene.counts()
    finally:
        scene.detach()


def _write(scene, fabric, out_path: Path, suffix: str, date: str) -> None:
    source = scene.content_rect()
    base = max(12.0, source.width() / 110)
    footer = _footer_height(base)
    page = QSize(int(source.width()), int(source.height() + footer))
    if suffix == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(out_path))
        gen.setSize(page)
        gen.setViewBox(QRectF(0, 0, page.width(), page.height()))
        gen.setTitle(f"{fabric.settings.name} - {TOOL} diagram")
        gen.setDescription(" / ".join(line for line in title_lines(fabric, date) if line))
        painter = QPainter(gen)
        _paint_page(painter, scene, fabric, source, base, footer, date)
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
    _paint_page(painter, scene, fabric, source, base, footer, date)
    painter.end()
    if not image.save(str(out_path)):
        raise OSError(f"could not write {out_path}")


def _paint_page(painter, scene, fabric, source: QRectF, base: float, footer: float, date: str) -> None:
    target = QRectF(0, 0, source.width(), source.height())
    painter.fillRect(QRectF(0, 0, source.width(), source.height() + footer), QColor("white"))
    scene.render(painter, target, source, Qt.KeepAspectRatio)
    _paint_footer(painter, fabric, QRectF(0, source.height(), source.width(), footer), base, date)


def render_scene(fabric, out_path, design_path: Path | None = None) -> dict[str, int]:
    """Headless: lay out ``fabric`` and write it; returns the item counts (devices, nics, links)."""
    return write_diagram(fabric, Path(out_path), design_path)
