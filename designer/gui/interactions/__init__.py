"""Gestures on the canvas. The controller picks one on mouse press; the view feeds it moves.

In the select mode: drag a NIC onto a switch (re-cable it), a leaf sideways onto another rail lane
(re-rail it), a cable's end onto another device (re-home it), Shift-drag from a switch to another
(draw a cable). In the cable mode every drag from a switch or NIC draws or moves a cable."""

from __future__ import annotations

from PySide6.QtCore import Qt

from ..items import LinkItem, NicItem, SwitchItem
from .base import Interaction
from .cable_end import CableEndDragInteraction, grabbed_end
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

    def begin(self, item, pos, modifiers, mode: str = "select", scale: float = 1.0) -> Interaction | None:
        """The gesture for a left press on ``item`` (None: let the view select / rubber-band)."""
        args = (self.scene, self.document, self.status)
        if isinstance(item, NicItem):
            return NicDragInteraction(*args, item.model_id, pos)
        if isinstance(item, LinkItem):
            end = grabbed_end(self.scene, item.model_id, pos, scale)
            return CableEndDragInteraction(*args, item.model_id, end) if end else None
        if isinstance(item, SwitchItem):
            if mode == "cable" or modifiers & Qt.ShiftModifier:
                return WireDragInteraction(*args, item.model_id, pos)
            if item.role == "leaf":
                return LeafDragInteraction(*args, item.model_id, pos)
        return None

    def drop(self, mime, pos) -> str | None:
        return drop(self.scene, self.document, self.status, mime, pos)
