"""Finding and showing things on a large canvas: Find by name (Ctrl+F) over ids and host names,
collapsing SUs, highlighting a rail or a fabric plane, the analysis overlays, and the View menu's
other commands."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

from ..model.ids import natural_key
from . import style

MAX_MATCHES = 2000


def find(fabric, text: str) -> list[str]:
    """Device, NIC or cable ids for ``text``: an exact id or host name, else every device whose id or
    host name contains it (case-insensitive), in natural order."""
    text = text.strip()
    if not text:
        return []
    if fabric.has_device(text) or text in fabric.links:
        return [text]
    owner = fabric.hostname_owner(text)
    if owner:
        return [owner]
    device, _, port = text.partition("/")
    device = device if fabric.has_device(device) else fabric.hostname_owner(device)
    if port and device in fabric.servers:
        nics = [n.id for n in fabric.servers[device].nics if port in (n.port, n.netdev)]
        if nics:
            return nics
    low = text.lower()
    hits = [d for d in (*fabric.switches.values(), *fabric.servers.values())
            if low in d.id.lower() or low in d.hostname.lower()]
    return sorted((d.id for d in hits), key=natural_key)[:MAX_MATCHES]


class FindBar(QLineEdit):
    """The toolbar's find box: Enter selects, centres and zooms onto what matches."""

    found = Signal(str, list)            # the text, the ids found

    def __init__(self, parent=None):
        super().__init__(parent)
        self.fabric = None
        self.setPlaceholderText("Find (Ctrl+F): device, host name, NIC…")
        self.setClearButtonEnabled(True)
        self.setMaximumWidth(300)
        self.returnPressed.connect(self.search)

    def set_fabric(self, fabric) -> None:
        self.fabric = fabric
        self.refresh_names()

    def refresh_names(self) -> None:
        f = self.fabric
        names = sorted({*f.servers, *f.switches, *(d.hostname for d in (*f.servers.values(), *f.switches.values()))},
                       key=natural_key)
        completer = QCompleter(names, self)
        completer.setCaseSensitivity(Qt.CaseInsensitive)
        completer.setFilterMode(Qt.MatchContains)
        completer.activated.connect(lambda _text: self.search())
        self.setCompleter(completer)

    def search(self) -> list[str]:
        ids = find(self.fabric, self.text()) if self.fabric is not None else []
        self.found.emit(self.text(), ids)
        return ids


class ViewActions:
    """The View and Tools menus' commands that change what the canvas shows (not the design)."""

    def __init__(self, window):
        self.window = window

    def focus_find(self) -> None:
        self.window.find_bar.setFocus()
        self.window.find_bar.selectAll()

    def found(self, text: str, ids: list) -> None:
        w = self.window
        if not ids:
            w.status(f"nothing is called '{text}'")
            return
        self.expand_for(ids)
        w.view.centre_on_ids(ids)
        w.status(f"{len(ids)} matches for '{text}'" if len(ids) > 1 else f"found {ids[0]}")

    def expand_for(self, ids) -> None:
        """Expand collapsed SUs holding any of ``ids`` (so what is found or named can be shown)."""
        scene = self.window.scene
        hidden = {scene.layout.su_of.get(i.split("/")[0]) for i in ids if i.split("/")[0] in scene.layout.hidden}
        if hidden:
            scene.set_collapsed(scene.collapsed - hidden)

    def collapse_selection(self, sus=None) -> None:
        w, scene = self.window, self.window.scene
        if sus is None:
            sus = {scene.layout.su_of.get(i.split("/")[0]) for i in scene.selected_ids()} - {None}
        if not sus:
            w.status("select something in the SUs to collapse (or right-click an SU)")
            return
        scene.clearSelection()
        scene.set_collapsed(scene.collapsed | set(sus))
        w.status(f"collapsed {', '.join(f'SU{s}' for s in sorted(sus))}; View > Expand every SU shows them again")

    def expand_all(self) -> None:
        self.window.scene.set_collapsed(set())

    def highlight_rail(self, rail) -> None:
        self._highlight("rail", "highlighted", rail, f"rail {rail} highlighted; click it in the legend again to show "
                        "every rail", "every rail shown")

    def highlight_plane(self, plane) -> None:
        self._highlight("plane", "highlighted_plane", plane, f"fabric plane {plane} shown, the other planes dimmed; "
                        "click it in the legend again to show every plane", "every fabric plane shown")

    def _highlight(self, what: str, legend_field: str, value, shown: str, cleared: str) -> None:
        """Dim what is not on rail / fabric plane ``value`` (None: nothing), and say so in the legend."""
        w = self.window
        w.marks.highlight(what, value)
        setattr(w.legend, legend_field, value)
        w.legend.update()
        w.status(shown if value is not None else cleared)

    def clear_highlight(self) -> None:
        self.window.marks.clear_overlay()
        self.highlight_rail(None)
        self.highlight_plane(None)
        self.window.legend.set_extra([])

    def toggle_legend(self) -> None:
        self.window.legend.set_wanted(self.window.legend_action.isChecked())

    def toggle_minimap(self) -> None:
        self.window.minimap.set_wanted(self.window.minimap_action.isChecked())

    def trace_path(self, source: str | None = None) -> None:
        """Tools > Trace a path (or the context menu's "from here"): the source filled in."""
        w = self.window
        ids = w.scene.selected_ids()
        w.analysis.trace_from(source or (ids[0] if ids and "~" not in ids[0] else w.analysis.source.text()))

    def analyze(self) -> None:
        dock = self.window.analysis
        dock.tabs.setCurrentIndex(1)
        dock.show()
        dock.raise_()

    def path_traced(self, links: list, nodes: list) -> None:
        w = self.window
        self.expand_for(nodes)
        w.marks.show_path(links, nodes)
        w.legend.set_extra([(style.PATH, "traced path", False)])
        rect = None
        for item in filter(None, (w.scene.item_for(i) for i in nodes)):
            rect = item.sceneBoundingRect() if rect is None else rect.united(item.sceneBoundingRect())
        if rect is not None:
            w.view.show_rect(rect, max_scale=1.0)

    def loads_ready(self, utilisation: dict) -> None:
        self.window.marks.show_loads(utilisation)
        self.window.legend.set_extra([(c, f"load {n}", False) for c, n in zip(style.LOAD_COLOURS, style.LOAD_NAMES)])

    def show_config(self, device_id: str) -> None:
        w = self.window
        w.scene.select_ids([device_id])
        w.preview.show()
        w.preview.raise_()
        w.preview.show_device(w.document.fabric, device_id)
        w.preview.refresh()
