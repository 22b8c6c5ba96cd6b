"""A device's rack and unit, and a cable's media, edited in the inspector (issue 20: the user can move
devices and override the media): undoable commands, a refusal shown at the field and nothing changed."""

from __future__ import annotations

from designer.gui.docks.inspector import BAD_STYLE
from designer.storage import dumps


def _type(window, name: str, text: str):
    field = window.inspector.fields[name]
    field.setText(text)
    field.editingFinished.emit()
    return field


def test_a_server_moves_to_another_rack_and_unit_and_undo_puts_it_back(window):
    f = window.document.fabric
    server = f.servers["su1-srv01"]
    other = next(r for r, devices in f.rack_contents() if server.rack != r.id and
                 not any(d.startswith("su") and "leaf" in d for d, _, _ in devices))
    window.scene.select_ids(["su1-srv01"])
    assert window.inspector.fields["rack"].text() == server.rack
    _type(window, "rack", other.id)
    assert f.servers["su1-srv01"].rack == other.id
    window.inspector.refresh()
    _type(window, "unit", "30")
    assert f.servers["su1-srv01"].position == 30
    assert window.document.undo_stack.count() == 2
    window.document.undo_stack.undo()
    window.document.undo_stack.undo()
    assert (f.servers["su1-srv01"].rack, f.servers["su1-srv01"].position) == (server.rack, server.position)


def test_an_unknown_rack_is_refused_at_the_field(window):
    f = window.document.fabric
    before = dumps(f)
    window.scene.select_ids(["su1-srv01"])
    field = _type(window, "rack", "no-such-rack")
    assert field.styleSheet() == BAD_STYLE and "no-such-rack" in window.inspector.error.text()
    assert dumps(f) == before and window.document.undo_stack.count() == 0


def test_a_cables_media_is_chosen_by_hand_and_back_by_length(window):
    f = window.document.fabric
    link = f.link_at("su1-srv01/nic0")
    window.scene.select_ids([link.id])
    field = window.inspector.fields["media"]
    assert field.text() == "" and field.placeholderText().startswith("by length: ")
    _type(window, "media", "optics-smf-mpo12")
    assert f.media_overrides[link.id] == "optics-smf-mpo12"
    window.inspector.refresh()
    _type(window, "media", "")
    assert link.id not in f.media_overrides
    before = dumps(f)
    window.inspector.refresh()
    bad = _type(window, "media", "string-and-tin-cans")
    assert bad.styleSheet() == BAD_STYLE and "not a media of the catalogue" in window.inspector.error.text()
    assert dumps(f) == before
