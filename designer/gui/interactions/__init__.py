"""Gestures on the canvas. The controller picks one on mouse press; the view feeds it moves."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..items import NicItem, SwitchItem
from .base import Interaction
from .leaf_drag import LeafDragInteraction
from .nic_drag import NicDragInteraction
from .palette_drop import MIME, drop, mime_for
from .wire_drag import WireDragInteraction

__all__ = ["InteractionController", "Interaction", "MIME", "mime_for"]


class InteractionController:
    def __init__(self, scene, document, status):
        self.scene = scene
        self.document = document
        self.status = status

    def begin(self, item, pos, modifiers) -> Interaction | None:
        """The gesture for a left press on ``item`` (None: let the view select / rubber-band)."""
        if isinstance(item, NicItem):
            return NicDragInteraction(self.scene, self.document, self.status, item.model_id, pos)
        if isinstance(item, SwitchItem):
            if modifiers & Qt.ShiftModifier:
                return WireDragInteraction(self.scene, self.document, self.status, item.model_id, pos)
            if item.role == "leaf":
                return LeafDragInteraction(self.scene, self.document, self.status, item.model_id, pos)
        return None

    def drop(self, mime, pos) -> str | None:
        return drop(self.scene, self.document, self.status, mime, pos)
