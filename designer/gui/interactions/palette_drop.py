"""A catalog model dropped from the palette onto the canvas becomes a new, auto-named device, placed
by where it lands: a server in the SU under the mouse; a leaf in that SU's rail lane (its rail and
fabric plane) and the SU's spine group; a spine in the spine group of the pod and the plane of the
band under the mouse; a core in the core group and plane of the band under (or nearest to) it."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QPointF

from ...model.entities import Role, Switch
from ...planning.build import make_server
from ...planning.naming import free_rail, group_of_su, next_core_id, next_leaf_id, next_server_id, next_spine_id
from ..commands import AddDeviceCommand

MIME = "application/x-rail-designer-model"
KINDS = ("server", "leaf", "spine", "core")


def mime_for(kind: str, model_id: str) -> QMimeData:
    """``kind`` is server, leaf, spine or core."""
    data = QMimeData()
    data.setData(MIME, f"{kind}|{model_id}".encode())
    data.setText(f"{kind} {model_id}")
    return data


def parse(mime: QMimeData) -> tuple[str, str] | None:
    if not mime.hasFormat(MIME):
        return None
    kind, _, model_id = bytes(mime.data(MIME)).decode().partition("|")
    return (kind, model_id) if kind in KINDS and model_id else None


def new_device(scene, kind: str, model_id: str, pos: QPointF):
    """The device a drop of ``model_id`` at ``pos`` adds (raises KeyError for an unknown server model)."""
    fabric, layout = scene.fabric, scene.layout
    x, y = pos.x(), pos.y()
    su = scene.su_at(pos) or 1
    if kind == "server":
        rails = len(fabric.rails) or None
        return make_server(fabric.catalog, next_server_id(fabric, su), model_id, su, rails,
                           planes=fabric.settings.fabric_planes)
    if kind == "leaf":
        lane = scene.lane_at(pos)
        rail, plane = (lane.rail, lane.fabric_plane) if lane is not None and lane.su == su else (free_rail(fabric, su), 0)
        lid = next_leaf_id(fabric, su, rail, fabric_plane=plane)
        return Switch(lid, lid, Role.LEAF, model_id, su=su, rail=rail, group=group_of_su(fabric, su), fabric_plane=plane)
    if kind == "spine":
        band, pod = layout.band_at(x, y, "spines"), layout.band_at(x, y, "pod")
        group = pod.group if pod is not None else band.group if band is not None else None
        plane = (band.fabric_plane or 0) if band is not None else 0
        sid = next_spine_id(fabric, group=group, fabric_plane=plane)
        return Switch(sid, sid, Role.SPINE, model_id, group=group, fabric_plane=plane)
    band = layout.band_at(x, y, "cores") or layout.nearest_band(x, y, "cores")
    group, plane = (band.group or 1, band.fabric_plane or 0) if band is not None else (1, 0)
    cid = next_core_id(fabric, group, fabric_plane=plane)
    return Switch(cid, cid, Role.CORE, model_id, group=group, fabric_plane=plane)


def drop(scene, document, status, mime: QMimeData, pos: QPointF) -> str | None:
    """Add the dropped model at ``pos``; returns the new device id (None when refused)."""
    parsed = parse(mime)
    if parsed is None:
        return None
    kind, model_id = parsed
    try:
        device = new_device(scene, kind, model_id, pos)
    except KeyError as exc:
        status(f"not added: {exc.args[0]}")
        return None
    error = document.execute(AddDeviceCommand(scene.fabric, device))
    if error:
        status(f"not added: {error}")
        return None
    where = [f"{'core' if kind == 'core' else 'spine'} group {device.group}"] if getattr(device, "group", None) else []
    if scene.fabric.settings.fabric_planes > 1 and kind != "server":
        where.append(f"fabric plane {device.fabric_plane}")
    status(f"added {device.id} ({model_id}" + "".join(f", {w}" for w in where) + ")")
    return device.id
