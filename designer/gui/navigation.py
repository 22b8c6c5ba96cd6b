"""Finding things on a large canvas: Find by name (Ctrl+F) over ids and host names."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QCompleter, QLineEdit

from ..model.ids import natural_key

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
