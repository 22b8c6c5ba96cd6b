"""A catalog model dropped from the palette onto the canvas becomes a new, auto-named device."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF

from ...model.entities import Role, Switch
from ...planning.build import make_server
from ...planning.naming import free_rail, next_leaf_id, next_server_id, next_spine_id
from ..commands import AddDeviceCommand

MIME = "application/x-rail-designer-model"


def mime_for(kind: str, model_id: str) -> QMimeData:
    """``kind`` is server, leaf or spine."""
    data = QMimeData()
    data.setData(MIME, f"{kind}|{model_id}".encode())
    data.setText(f"{kind} {model_id}")
    return data


def parse(mime: QMimeData) -> tuple[str, str] | None:
    if not mime.hasFormat(MIME):
        return None
    kind, _, model_id = bytes(mime.data(MIME)).decode().partition("|")
    return (kind, model_id) if kind in ("server", "leaf", "spine") and model_id else None


def drop(scene, document, status, mime: QMimeData, pos: QPointF) -> str | None:
    """Add the dropped model at ``pos``; returns the new device id (None when refused)."""
    parsed = parse(mime)
    if parsed is None:
        return None
    kind, model_id = parsed
    fabric = scene.fabric
    su = scene.su_at(pos) or 1
    if kind == "server":
        rails = len(fabric.rails) or None
        try:
            device = make_server(fabric.catalog, next_server_id(fabric, su), model_id, su, rails)
        except KeyError as exc:
            status(f"not added: {exc.args[0]}")
            return None
    elif kind == "leaf":
        lane = scene.lane_at(pos)
        rail = lane.rail if lane is not None and lane.su == su else free_rail(fabric, su)
        lid = next_leaf_id(fabric, su, rail)
        device = Switch(lid, lid, Role.LEAF, model_id, su=su, rail=rail)
    else:
        sid = next_spine_id(fabric)
        device = Switch(sid, sid, Role.SPINE, model_id)
    error = document.execute(AddDeviceCommand(fabric, device))
    if error:
        status(f"not added: {error}")
        return None
    status(f"added {device.id} ({model_id})")
    return device.id
