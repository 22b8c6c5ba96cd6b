"""Tools > Verify cabling against LLDP: the as-built result is listed and its cables are marked."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox

from tests.importers.lldpgen import dumps_for


def _write(folder, files):
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)


def test_swapped_cables_are_listed_and_marked_then_cleared(window, tmp_path):
    fabric = window.document.fabric
    a, b = "su1-srv01/nic0", "su1-srv02/nic0"
    cables = [(l.a, l.b) for l in fabric.sorted_links() if a not in (l.a, l.b) and b not in (l.a, l.b)]
    cables += [(a, fabric.peer(b)), (b, fabric.peer(a))]                  # the two NICs swapped at the leaf
    _write(tmp_path / "lldp", dumps_for(fabric, cables))
    window.verify_lldp(str(tmp_path / "lldp"))
    mismatches = window.as_built.tree.topLevelItem(0)
    order = window.as_built.tree.topLevelItem(1)
    assert mismatches.childCount() == 2 and order.childCount() == 2
    assert {mismatches.child(i).text(0) for i in range(2)} == {"miswired"}
    swapped = {fabric.link_at(a).id, fabric.link_at(b).id}
    marked = {link_id for link_id, item in window.scene.links.items() if item.as_built}
    assert marked == swapped
    assert window.scene.links[fabric.link_at(a).id].pen_key()[0] == "as-built"
    window.as_built.clear()
    assert not any(item.as_built for item in window.scene.links.values())


def test_cabling_as_planned_marks_nothing(window, tmp_path):
    fabric = window.document.fabric
    _write(tmp_path / "lldp", dumps_for(fabric, [(l.a, l.b) for l in fabric.sorted_links()]))
    window.verify_lldp(str(tmp_path / "lldp"))
    assert "0 mismatch" not in window.as_built.summary.text() and "cabled as planned" in window.as_built.summary.text()
    assert not any(item.as_built for item in window.scene.links.values())


def test_a_folder_that_is_not_lldp_data_is_one_message(window, tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: shown.append(text))
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "su1-srv01.json").write_text("this is not LLDP output")
    window.verify_lldp(str(tmp_path / "junk"))
    assert len(shown) == 1 and "su1-srv01.json" in shown[0]
