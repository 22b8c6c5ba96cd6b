"""Headless diagrams: `render_scene` and `rail-designer render`."""

from __future__ import annotations

from PySide6.QtGui import QImage

from designer.cli import main
from designer.gui.render import render_scene
from designer.gui.style import rail_colour
from designer.storage import save


def _distinct_colours(image: QImage, step: int = 7) -> set[int]:
    return {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}


def test_render_default_design_png_is_not_blank_and_counts_match(qapp, default_fabric, tmp_path):
    out = tmp_path / "default.png"
    counts = render_scene(default_fabric, out)
    f = default_fabric
    assert counts == {"devices": len(f.servers) + len(f.switches), "nics": sum(len(s.nics) for s in f.servers.values()),
                      "links": len(f.links)}
    image = QImage(str(out))
    assert not image.isNull() and image.width() >= 1200
    colours = _distinct_colours(image, step=3)
    assert len(colours) > 10                                      # lanes, rails, text: not one flat fill
    for rail in range(4):                                         # every rail's leaves drawn in their colour
        assert rail_colour(rail).rgb() in colours


def test_render_svg_names_every_device(qapp, default_fabric, tmp_path):
    out = tmp_path / "default.svg"
    render_scene(default_fabric, out)
    text = out.read_text()
    assert text.startswith("<?xml") and "<svg" in text
    for device_id in list(default_fabric.switches) + list(default_fabric.servers):
        assert device_id in text


def test_render_command_writes_png_and_refuses_other_suffixes(qapp, default_fabric, tmp_path, capsys):
    design = tmp_path / "d.fabric.yaml"
    save(default_fabric, design)
    assert main(["render", str(design), "-o", str(tmp_path / "d.png")]) == 0
    assert (tmp_path / "d.png").stat().st_size > 1000
    assert "18 devices" in capsys.readouterr().out
    assert main(["render", str(design), "-o", str(tmp_path / "d.jpg")]) == 2
    assert "png or .svg" in capsys.readouterr().err
    (tmp_path / "bad.fabric.yaml").write_text("nonsense: [")
    assert main(["render", str(tmp_path / "bad.fabric.yaml"), "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "bad.fabric.yaml" in err and "Traceback" not in err


def test_the_diagram_has_a_title_block_and_legend_and_its_date_is_the_designs(qapp, default_fabric, tmp_path,
                                                                             monkeypatch):
    import os
    design = tmp_path / "d.fabric.yaml"
    save(default_fabric, design)
    os.utime(design, (1_700_000_000, 1_700_000_000))          # 2023-11-14
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    out = tmp_path / "d.svg"
    render_scene(default_fabric, out, design)
    text = out.read_text()
    for needle in ("two-su-demo", "8 servers (32 GPUs) in 2 SUs, 4 rails; 8 leaves, 2 spines; 64 cables",
                   "2023-11-14", "Rails", "rail3"):
        assert needle in text, needle
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1000000000")
    render_scene(default_fabric, out, design)
    assert "2001-09-09" in out.read_text()
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    render_scene(default_fabric, out, None)
    assert "not saved yet" in out.read_text()


def test_the_same_design_file_gives_the_same_bytes(qapp, default_fabric, tmp_path):
    design = tmp_path / "d.fabric.yaml"
    save(default_fabric, design)
    for suffix in (".png", ".svg"):
        a, b = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
        render_scene(default_fabric, a, design)
        render_scene(default_fabric, b, design)
        assert a.read_bytes() == b.read_bytes(), suffix


def test_the_windows_export_shows_no_selection_marks_or_overlays(window, tmp_path):
    from designer.gui.commands import MoveNicCommand
    f = window.document.fabric
    path = tmp_path / "w.fabric.yaml"
    window.files.save_to(path)
    clean = tmp_path / "clean.png"
    render_scene(f, clean, path)
    window.document.execute(MoveNicCommand(f, "su1-srv01/nic0", "su1-leaf-r1"))
    window.document.undo_stack.undo()                         # same design, but the window has been used
    window.checks.run_now()
    window.scene.select_ids(["su1-leaf-r0", "su1-srv02"])
    window.nav.highlight_rail(2)
    out = tmp_path / "from-window.png"
    assert window.files.export_diagram(str(out))
    assert out.read_bytes() == clean.read_bytes()


def _overlaps(footer) -> list[tuple[str, str]]:
    texts = [(t, r) for t, _, r in footer.lines if t] + [(t, r) for t, _, r in footer.legend]
    boxes = texts + [(f"chip {i}", r) for i, r in footer.chips]
    return [(a, b) for i, (a, ra) in enumerate(boxes) for b, rb in boxes[i + 1:] if ra.intersects(rb)]


def test_the_title_block_is_measured_and_the_legend_never_covers_it(qapp, default_fabric):
    from designer.gui.render import footer_layout
    from designer.gui.scene import FabricScene
    from tests.conftest import preset_fabric
    for fabric in (default_fabric, preset_fabric("superpod-su", sus=2)):
        scene = FabricScene(fabric)
        width = scene.content_rect().width()
        base = max(12.0, width / 110)
        footer = footer_layout(fabric, width, base, "2026-01-01")
        scene.detach()
        assert _overlaps(footer) == []                   # the counts line ran under the legend's chips
        for _, _, rect in footer.lines + footer.legend:
            assert 0 <= rect.left() and rect.right() <= width and rect.bottom() <= footer.height
    narrow = footer_layout(default_fabric, 400, 12, "2026-01-01")      # too narrow for both side by side
    assert _overlaps(narrow) == [] and narrow.legend[0][2].top() >= narrow.lines[-1][2].bottom()


def test_a_design_started_empty_and_saved_is_titled_by_its_file_not_untitled(window, tmp_path):
    assert window.files.new_empty()
    assert window.files.save_to(tmp_path / "rack-a.fabric.yaml")
    out = tmp_path / "rack-a.svg"
    assert window.files.export_diagram(str(out))
    text = out.read_text(encoding="utf-8")
    assert "<title>rack-a - rail-designer diagram</title>" in text and "untitled" not in text
