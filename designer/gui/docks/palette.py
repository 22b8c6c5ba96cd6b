"""The hardware catalog's server, leaf, spine and core models, dragged onto the canvas to add a device."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QDockWidget, QListWidget, QListWidgetItem

from ..interactions import mime_for

ROLE = Qt.UserRole
WHERE = {"server": " to the SU under the mouse", "leaf": " (a rail lane gives its rail and plane)",
         "spine": " (a spine group's pod gives its group, a plane's band its plane)",
         "core": " (a core group's band gives its group and plane)"}


class PaletteList(QListWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragOnly)
        self.setSelectionMode(QAbstractItemView.SingleSelection)

    def set_catalog(self, catalog) -> None:
        self.clear()
        for kind, title, models in (("server", "Servers", catalog.servers), ("leaf", "Leaves", catalog.switches),
                                    ("spine", "Spines", catalog.switches), ("core", "Cores", catalog.switches)):
            header = QListWidgetItem(title)
            header.setFlags(Qt.NoItemFlags)
            font = header.font()
            font.setBold(True)
            header.setFont(font)
            self.addItem(header)
            for model_id in sorted(models):
                model = models[model_id]
                item = QListWidgetItem(f"  {model_id}")
                item.setData(ROLE, (kind, model_id))
                item.setToolTip(f"{model.description}\nDrag onto the canvas to add a {kind}{WHERE[kind]}.")
                self.addItem(item)

    def mimeData(self, items):
        data = items[0].data(ROLE) if items else None
        return mime_for(*data) if data else super().mimeData(items)


class PaletteDock(QDockWidget):
    def __init__(self, parent=None):
        super().__init__("Palette", parent)
        self.setObjectName("PaletteDock")
        self.list = PaletteList()
        self.setWidget(self.list)

    def set_catalog(self, catalog) -> None:
        self.list.set_catalog(catalog)
