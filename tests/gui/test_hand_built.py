"""A design drawn by hand is addressed like a planned one (issue 23): 4 servers, 2 leaves and 1 spine
dropped from the palette onto File > New's empty canvas and cabled one gesture at a time validate
with 0 errors, with no menu command; connecting leaves to spines before the servers are cabled
sizes the uplinks for those servers, or says what to do first."""

from __future__ import annotations

from PySide6.QtCore import QPointF

from designer.checks import Severity, check
from designer.gui.interactions.nic_drag import NicDragInteraction
from designer.gui.interactions.palette_drop import drop, mime_for
from designer.gui.interactions.wire_drag import WireDragInteraction
from designer.planning.topology import leaf_links

SWITCH, SERVER = "generic-64x400g", "hgx-h100-8x400g"


def _centre(scene, model_id: str) -> QPointF:
    item = scene.nics.get(model_id) or scene.devices[model_id]
    return item.sceneBoundingRect().center()


def _place(window, kind: str, model: str) -> str:
    """A palette drop of ``model`` on the empty canvas's first SU."""
    placed = drop(window.scene, window.document, window.status, mime_for(kind, model), QPointF(0, 0))
    assert placed, window.statusBar().currentMessage()
    return placed


def _drag_nic(window, nic_id: str, leaf_id: str) -> None:
    scene = window.scene
    NicDragInteraction(scene, window.document, window.status, nic_id, _centre(scene, nic_id)).finish(
        _centre(scene, leaf_id))
    assert window.document.fabric.peer(nic_id).startswith(leaf_id + "/"), window.statusBar().currentMessage()


def _drag_wire(window, lower: str, upper: str) -> None:
    scene = window.scene
    before = len(window.document.fabric.links)
    WireDragInteraction(scene, window.document, window.status, lower, _centre(scene, lower)).finish(
        _centre(scene, upper))
    assert len(window.document.fabric.links) == before + 1, window.statusBar().currentMessage()


def _errors(fabric) -> list[str]:
    return [f"{x.code} {x.message}" for x in check(fabric) if x.severity is Severity.ERROR]


def test_four_servers_two_leaves_one_spine_drawn_by_hand_validate_with_no_errors(window):
    assert window.files.new_empty()
    leaves = [_place(window, "leaf", SWITCH) for _ in range(2)]
    spine = _place(window, "spine", SWITCH)
    servers = [_place(window, "server", SERVER) for _ in range(4)]
    f = window.document.fabric
    for server in servers:                               # each NIC dragged onto its rail's leaf, one by one
        for nic in f.servers[server].nics:
            if nic.rail is not None:
                _drag_nic(window, nic.id, next(l for l in leaves if f.switches[l].rail == nic.rail))
    for leaf in leaves:                                  # as many uplinks as server cables: 1:1
        for _ in leaf_links(f, leaf).downlinks:
            _drag_wire(window, leaf, spine)
    assert _errors(f) == []
    gateways = {leaf: f.addresses[f"{leaf}/svi"] for leaf in leaves}
    assert all(v.endswith("/26") for v in gateways.values()), gateways    # 32 server ports per leaf, not a /30
    assert all(nic.id in f.addresses for s in servers for nic in f.servers[s].nics if nic.rail is not None)
    assert window.document.undo_stack.count() == 7 + 8 + 8


def test_leaves_connected_to_their_spine_before_the_servers_are_cabled_get_uplinks_for_those_servers(window):
    assert window.files.new_empty()
    leaves = [_place(window, "leaf", SWITCH) for _ in range(2)]
    _place(window, "spine", SWITCH)
    servers = [_place(window, "server", SERVER) for _ in range(4)]
    f = window.document.fabric
    assert window.edit.mesh_to_spines(leaves)
    assert [len(leaf_links(f, leaf).uplinks) for leaf in leaves] == [4, 4]    # 4 servers x 400G each, 1:1
    assert window.edit.cable_to_rail_leaves(servers)
    assert _errors(f) == []


def test_a_leaf_with_no_servers_yet_is_not_meshed_and_the_status_says_what_to_do_first(window):
    assert window.files.new_empty()
    leaf = _place(window, "leaf", SWITCH)
    _place(window, "spine", SWITCH)
    links = len(window.document.fabric.links)
    assert window.edit.mesh_to_spines([leaf]) is False
    message = window.statusBar().currentMessage()
    assert "no servers to carry yet" in message and "Design > Cable NICs to their rail leaves" in message
    assert len(window.document.fabric.links) == links and window.document.undo_stack.count() == 2
