"""The canvas's right-click menu: what can be done with the object under the cursor (or with the
selection, when the object is part of it), and with its SU."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from ..model.ids import split_endpoint


def context_menu(window, model_id: str | None, scene_pos) -> QMenu | None:
    """Build (not show) the menu for a right-click on ``model_id`` (None: the empty canvas)."""
    scene, edit, fabric = window.scene, window.edit, window.document.fabric
    selected = scene.selected_ids()
    if model_id is None:
        scene.clearSelection()
    elif model_id not in selected:
        scene.select_ids([model_id])
        selected = [model_id]
    targets = selected if model_id is not None else []
    menu = QMenu(window)
    add = lambda text, slot: _item(menu, text, slot)   # noqa: E731
    nics = edit.nics_in(targets)
    leaves = edit.leaves_in(targets)
    devices = [i for i in targets if fabric.has_device(i)]
    cables = [i for i in targets if i in fabric.links]
    n = len(targets)
    if nics:
        add(f"Cable {'its NICs' if len(devices) == 1 else 'the NICs'} to their rail leaves"
            if devices else "Cable to its rail leaf", lambda: edit.cable_to_rail_leaves(targets))
    if leaves:
        add("Connect to its spines" if len(leaves) == 1 else f"Connect {len(leaves)} leaves to their spines",
            lambda: edit.mesh_to_spines(targets))
    spines = edit.switches_in(targets, "spine")
    if spines and fabric.cores():
        add("Connect to its cores" if len(spines) == 1 else f"Connect {len(spines)} spines to their cores",
            lambda: edit.mesh_to_cores(targets))
    trace_from = next((i for i in targets if i in fabric.servers or ("/" in i and "~" not in i
                                                                     and split_endpoint(i)[0] in fabric.servers)), None)
    if trace_from:
        host, _, nic = trace_from.partition("/")
        add("Trace a path from here…", lambda: window.nav.trace_path(f"{host}:{nic}" if nic else host))
    device = model_id.split("/")[0] if model_id and "~" not in model_id and fabric.has_device(model_id.split("/")[0]) \
        else None
    if device:
        add(f"Show the config of {device}", lambda: window.nav.show_config(device))
    if devices:
        menu.addSeparator()
        add("Copy", lambda: edit.copy(targets))
        add(f"Duplicate {'it' if len(devices) == 1 else f'{len(devices)} devices'}", lambda: edit.duplicate(targets))
    if devices or cables:
        add("Re-address", lambda: edit.readdress(targets))
        add(f"Delete {'it' if n == 1 else f'{n} objects'}", lambda: edit.delete_selection(targets))
    if len(cables) == 1 and not devices:
        link = fabric.links[cables[0]]
        add(f"Select both ends ({split_endpoint(link.a)[0]}, {split_endpoint(link.b)[0]})",
            lambda: scene.select_ids([split_endpoint(link.a)[0], split_endpoint(link.b)[0]]))
    rail = _rail_of(fabric, model_id)
    plane = _plane_of(fabric, model_id) if fabric.settings.fabric_planes > 1 else None
    if rail is not None or plane is not None:
        menu.addSeparator()
    if rail is not None:
        add(f"Highlight rail {rail}", lambda: window.nav.highlight_rail(rail))
    if plane is not None:
        add(f"Show only fabric plane {plane}", lambda: window.nav.highlight_plane(plane))
    su = scene.layout.su_of.get(device) if device else scene.su_at(scene_pos)
    menu.addSeparator()
    if su is not None:
        add(f"Add servers to SU{su}…", lambda: edit.add_servers(su))
        if edit.clipboard():
            add(f"Paste into SU{su}", lambda: edit.paste(su=su))
        if su in scene.collapsed:
            add(f"Expand SU{su}", lambda: scene.set_collapsed(scene.collapsed - {su}))
        else:
            add(f"Collapse SU{su}", lambda: window.nav.collapse_selection({su}))
    add("Fit to window", window.view.fit)
    return menu


def _item(menu: QMenu, text: str, slot):
    action = menu.addAction(text)
    action.triggered.connect(lambda _checked=False: slot())
    return action


def _placed(fabric, model_id: str | None):
    """The switch or NIC ``model_id`` names (what has a rail and a fabric plane), else None."""
    if not model_id or "~" in model_id:
        return None
    if model_id in fabric.switches:
        return fabric.switches[model_id]
    device, _, port = model_id.partition("/")
    return fabric.nic(model_id) if port and device in fabric.servers else None


def _rail_of(fabric, model_id: str | None) -> int | None:
    return getattr(_placed(fabric, model_id), "rail", None)


def _plane_of(fabric, model_id: str | None) -> int | None:
    return getattr(_placed(fabric, model_id), "fabric_plane", None)
