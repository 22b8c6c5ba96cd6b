"""Opening another design while everything is selected: the old items go without each announcing its
own deselection (that restyled cables already deleted: thousands of "Internal C++ object (LinkItem)
already deleted" errors, and minutes at 1,024 servers)."""

from __future__ import annotations

import designer


def test_replacing_the_design_with_everything_selected_restyles_nothing_deleted(window, qtbot):
    seen = []
    scene = window.scene

    def record():
        seen.append(len(scene.selectedItems()))

    scene.selectionChanged.connect(record)
    window.select_all()
    assert window.scene.selectedItems()
    seen.clear()
    window.document.replace(designer.build(designer.spec("default")), None)
    assert not window.scene.selectedItems() and window.scene._selected_links == set()
    assert seen == [0]                 # one announcement, after the old items are gone
    scene.selectionChanged.disconnect(record)           # the scene goes before this function's cell does
    window.scene.select_ids(["su1-srv01"])
    assert [i.model_id for i in window.scene.selectedItems()] == ["su1-srv01"]
