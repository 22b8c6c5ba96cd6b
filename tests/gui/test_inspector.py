"""Every inspector field validates (issue 23): a bad value is refused with the reason at the field
and in the status bar, and the design is byte-identical afterwards. Typed as a user types: keys
into the field (a non-ASCII letter as an input method commits it), then Return."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from designer.gui.docks.inspector import BAD_STYLE
from designer.storage import dumps

# (what is selected, field, what is typed, words the reason must have)
BAD = [
    ("su1-leaf-r1", "rail", "-5", "out of range"),                   # was: moved to rail 5, 38 errors
    ("su1-leaf-r1", "rail", "abc", "not a whole number"),
    ("su1-leaf-r1", "rail", "64", "from 0 to 63"),
    ("spine-01", "group", "1234567890123456789012345678901", "out of range"),   # was: group 12349
    ("spine-01", "group", "-1", "out of range"),
    ("spine-01", "fabric_plane", "2", "one fabric plane"),
    ("su1-leaf-r0", "fabric_plane", "1.5", "not a whole number"),
    ("su1-srv01", "hostname", "", "not a valid host name"),
    ("su1-srv01", "hostname", "sérveur-01", "not a valid host name"),
    ("su1-srv01", "hostname", "su1-srv02", "already used by su1-srv02"),
    ("su1-srv01/nic0", "rail", "٣", "not a whole number"),          # an Arabic-Indic digit three
    ("su1-srv01/nic0", "address", "10.0.0.300/29", "10.0.0.300"),
    ("su1-srv01/nic0", "address", "banana", "banana"),
]


@pytest.mark.parametrize("selected, name, text, reason", BAD, ids=[f"{b[1]}={b[2]!r}" for b in BAD])
def test_a_bad_value_is_refused_with_its_reason_and_changes_nothing(window, qtbot, selected, name, text, reason):
    f = window.document.fabric
    before = dumps(f)
    window.scene.select_ids([selected])
    field = window.inspector.fields[name]
    field.setFocus()
    field.selectAll()
    qtbot.keyClick(field, Qt.Key_Backspace)
    for ch in text:           # QTest aborts on a key it cannot map: a non-ASCII letter comes as an input method's
        qtbot.keyClicks(field, ch) if ch.isascii() else field.insert(ch)
    qtbot.keyClick(field, Qt.Key_Return)
    shown = window.inspector.error.text()
    assert reason in shown, shown
    assert reason in window.statusBar().currentMessage()
    assert field.styleSheet() == BAD_STYLE and field.toolTip() == shown and field.text() == text
    assert dumps(f) == before and window.document.undo_stack.count() == 0


def test_a_good_value_after_a_refusal_goes_through_and_clears_the_mark(window, qtbot):
    f = window.document.fabric
    window.scene.select_ids(["su1-leaf-r1"])
    field = window.inspector.fields["rail"]
    field.setText("-5")
    field.editingFinished.emit()
    assert field.styleSheet() == BAD_STYLE
    field.setText("+2")
    field.editingFinished.emit()
    assert f.switches["su1-leaf-r1"].rail == 2 and field.styleSheet() == "" and window.inspector.error.text() == ""
    assert window.document.undo_stack.count() == 1


def test_a_nic_rail_and_a_group_take_none(window):
    f = window.document.fabric
    window.scene.select_ids(["su1-srv01/nic0"])
    field = window.inspector.fields["rail"]
    assert field.text() == "0"
    field.setText("none")
    field.editingFinished.emit()
    assert f.nic("su1-srv01/nic0").rail is None and field.text() == "none"
    window.scene.select_ids(["spine-01"])
    group = window.inspector.fields["group"]
    group.setText("7")
    group.editingFinished.emit()
    assert f.switches["spine-01"].group == 7
    group.setText("")
    group.editingFinished.emit()
    assert f.switches["spine-01"].group is None and group.text() == "none"
