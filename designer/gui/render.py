"""Diagram output: the canvas as SVG or PNG, from a window or headless (`rail-designer render`)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgGenerator

MAX_PNG_SIDE = 8000      # a 1,024-server design is wide: cap the bitmap, keep the aspect
MIN_PNG_WIDTH = 1200


def write_scene(scene, out_path: Path) -> None:
    """Write ``scene`` to ``out_path``; the suffix (.svg or .png) picks the format."""
    out_path = Path(out_path)
    source = scene.sceneRect()
    suffix = out_path.suffix.lower()
    if suffix == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(out_path))
        gen.setSize(QSize(int(source.width()), int(source.height())))
        gen.setViewBox(QRectF(0, 0, source.width(), source.height()))
        gen.setTitle("rail-designer diagram")
        painter = QPainter(gen)
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
        painter.end()
        return
    if suffix != ".png":
        raise ValueError(f"cannot write a diagram as '{suffix or out_path.name}': use .png or .svg")
    scale = min(MAX_PNG_SIDE / max(source.width(), 1), MAX_PNG_SIDE / max(source.height(), 1),
                max(1.0, MIN_PNG_WIDTH / max(source.width(), 1)))
    size = QSize(max(1, int(source.width() * scale)), max(1, int(source.height() * scale)))
    image = QImage(size, QImage.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.Antialiasing, True)
    painter.setRenderHint(QPainter.TextAntialiasing, True)
    scene.render(painter, QRectF(0, 0, size.width(), size.height()), source, Qt.KeepAspectRatio)
    painter.end()
    if not image.save(str(out_path)):
        raise OSError(f"could not write {out_path}")


def render_scene(fabric, out_path) -> dict[str, int]:
    """Headless: lay out ``fabric`` and write it; returns the item counts (devices, nics, links).

    Needs a QGuiApplication (the CLI creates one on the offscreen platform)."""
    from .scene import FabricScene
    scene = FabricScene(fabric)
    try:
        write_scene(scene, Path(out_path))
        return scene.counts()
    finally:
        scene.detach()
