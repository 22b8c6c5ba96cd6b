"""The window's File > Push to source of truth… and Pull from source of truth… against the session's real
Nautobot (pytest-qt): each dialog shows what would happen (the push's dry-run changes, the pull's refusal for a
site the server lacks) and writes nothing before it is asked to."""

from __future__ import annotations

import requests

import designer
from designer.gui.dialogs.sot import SotPullDialog, SotPushDialog

WAIT = 180_000      # ms: the server is shared with the other sot tests on a busy 2-core machine


def _count(nautobot, path: str) -> int:
    reply = requests.get(f"{nautobot.url}/api/{path}?limit=1", timeout=60,
                         headers={"Authorization": f"Token {nautobot.token}", "Accept": "application/json"})
    return reply.json()["count"]


def _design():
    """A design of its own name: its site is on no server, whatever the other sot tests pushed."""
    return designer.build(designer.spec("default", sus=1, servers_per_su=2, name="gui-sot"))


def test_push_dialog_previews_the_dry_run_before_it_may_push(qtbot, nautobot):
    before = _count(nautobot, "dcim/devices/")
    dialog = SotPushDialog(_design())
    qtbot.addWidget(dialog)
    dialog.url.setText(nautobot.url)
    dialog.token_file.setText(str(nautobot.token_file))
    assert not dialog.action_button.isEnabled()              # nothing to push before a preview
    dialog.preview_button.click()
    qtbot.waitUntil(lambda: not dialog.busy() and dialog.status.text().startswith("preview"), timeout=WAIT)
    text = dialog.output.toPlainText()
    assert text.startswith("dry run: ") and "create location gui-sot" in text and "create device su1-srv01" in text
    assert dialog.action_button.isEnabled()
    dialog.url.setText(nautobot.url + "/")                    # any change of the server asks for a new preview
    assert not dialog.action_button.isEnabled()
    assert _count(nautobot, "dcim/devices/") == before       # a preview writes nothing


def test_pull_dialog_shows_the_refusal_and_saves_nothing(qtbot, nautobot, tmp_path):
    out = tmp_path / "pulled.fabric.yaml"
    dialog = SotPullDialog(_design(), out)
    qtbot.addWidget(dialog)
    dialog.url.setText(nautobot.url)
    dialog.token_file.setText(str(nautobot.token_file))
    assert dialog.site.text() == "gui-sot"
    dialog.preview_button.click()
    qtbot.waitUntil(lambda: not dialog.busy() and dialog.status.text().startswith("refused"), timeout=WAIT)
    assert "has no site 'gui-sot' written by rail-designer" in dialog.output.toPlainText()
    assert not dialog.action_button.isEnabled() and not out.exists()


def test_a_token_file_that_is_not_there_is_said_in_the_dialog(qtbot, tmp_path):
    dialog = SotPushDialog(_design())
    qtbot.addWidget(dialog)
    dialog.token_file.setText(str(tmp_path / "missing"))
    dialog.preview_button.click()
    assert dialog.output.toPlainText().startswith("cannot read the token file")
    assert not dialog.busy()
