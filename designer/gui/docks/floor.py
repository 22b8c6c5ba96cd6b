"""The floor view: a plan of the rack footprints (`floor_plan`) beside rows of rack elevations to scale
(`floor_scene`), built when the dock is first shown.

Its device boxes share the canvas's selection (both ways). A rack dragged to another slot, or moved with
Design > Move rack…, is one undoable `MoveRackCommand`; the dock keeps a `CablePlan` and says after each
move how many cables were recomputed and how their lengths changed.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDockWidget, QGraphicsView, QLabel, QSplitter, QVBoxLayout, QWidget

from ...model import events as ev
from ...planning.cable_plan import CablePlan, bought_metres
from ..commands import MoveRackCommand
from ..floor_plan import PlanScene
from ..floor_scene import FloorScene

REBUILD_MS = 300
MAX_RUN_DEVICES = 32       # a bigger selection (Select all) draws no cables: listing 24,576 would stall
HINT = "Drag a rack (by its frame or name) to another slot; click a device to select it on the canvas too"


class FloorView(QGraphicsView):
    """Fits the floor to its size until the wheel zooms it."""

    def __init__(self, scene):
        super().__init__(scene)
        self.auto_fit = True
        self.setDragMode(QGraphicsView.RubberBandDrag)
        self.setViewportUpdateMode(QGraphicsView.BoundingRectViewportUpdate)
        self.setTransformationAnchor(QGraphicsView.AnchorUnderMouse)

    def fit(self) -> None:
        self.auto_fit = True
        self.fitInView(self.scene().itemsBoundingRect(), Qt.KeepAspectRatio)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self.auto_fit:
            self.fit()

    def wheelEvent(self, event) -> None:
        self.auto_fit = False
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.scale(factor, factor)


class FloorDock(QDockWidget):
    selected = Signal(list)          # device ids chosen here (the window selects them on the canvas)
    message = Signal(str)            # what a move did, or why it was refused (the status bar)

    def __init__(self, document, parent=None):
        super().__init__("Floor", parent)
        self.setObjectName("FloorDock")
        self.document = document
        self.scene = FloorScene(self)
        self.scene.on_drop = self.move_rack
        self.scene.refused.connect(self._say)
        self.scene.selectionChanged.connect(self._scene_selection)
        self.view = FloorView(self.scene)
        self.plan_scene = PlanScene(self)
        self.plan_scene.rack_clicked.connect(self.show_rack)
        self.plan_view = FloorView(self.plan_scene)
        split = QSplitter(Qt.Horizontal)
        split.addWidget(self.plan_view)
        split.addWidget(self.view)
        split.setSizes([300, 700])
        self.info = QLabel(HINT)
        self.info.setWordWrap(True)
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.info)
        layout.addWidget(split, 1)
        self.setWidget(box)
        self.plan: CablePlan | None = None
        self.last_change: list = []          # the last move's (cable, metres before, after), lengths that changed
        self.built = False
        self._touched = ev.Touched()
        self._echo = False
        self._rebuild = QTimer(self)
        self._rebuild.setSingleShot(True)
        self._rebuild.setInterval(REBUILD_MS)
        self._rebuild.timeout.connect(self.build)
        self._stale = False
        self.visibilityChanged.connect(lambda shown: shown and (self._stale or not self.built) and self.build())
        document.model_changed.connect(self._model_changed)
        document.fabric_replaced.connect(self._fabric_replaced)

    # ------------------------------------------------------------------ building
    def build(self) -> None:
        """Draw the floor; compute every cable's length the first time, after that only what edits touched."""
        self._rebuild.stop()
        self._stale = False
        fabric = self.document.fabric
        chosen = self.scene.selected_ids() if self.built else []
        self.scene.build(fabric)
        self.plan_scene.build(fabric)
        self._echo = True
        try:
            self.scene.select_ids(chosen)              # what was selected stays so (the canvas has it too)
        finally:
            self._echo = False
        if fabric.floor is None:
            self.plan = None
        elif self.plan is None or self._touched.settings or self._touched.everything:
            self.plan = CablePlan(fabric)
        elif self._touched_any():
            self.plan.refresh(self._touched)
        self._touched = ev.Touched()
        if not self.built:
            self.view.fit()
            self.plan_view.fit()
        self.built = True
        self._show_runs()

    def _fabric_replaced(self, _fabric) -> None:
        self.built = False
        self.plan = None
        self.scene.forget()
        self.plan_scene.clear()
        self.plan_scene.footprints = {}
        if self.isVisible():
            self.build()

    def _model_changed(self, event) -> None:
        if not self.built:
            return                                     # drawn fresh when first shown
        self._touched.add(event)
        fabric = self.document.fabric
        if event.kind == ev.FLOOR_CHANGED and event.ids and all(i in fabric.racks for i in event.ids):
            if self.scene.move(fabric, event.ids):
                self.plan_scene.move(fabric, event.ids)
                self._report(event.ids)
                return
        if event.kind in ev.LINK_KINDS or event.kind in (ev.PLAN_CHANGED, ev.MEDIA_CHANGED, ev.SETTINGS_CHANGED):
            return                                     # nothing drawn changes; lengths follow when next asked
        if event.kind in ev.DEVICE_KINDS and self.scene.shows(fabric, event.ids):
            return                                     # a rename or re-rail: every box where it was
        if self.isVisible():
            self._rebuild.start()                      # anything else: redrawn once the edits settle
        else:
            self._stale = True                         # (or when shown again)

    # ------------------------------------------------------------------ moving racks
    def move_rack(self, rack_id: str, row: str, position: int) -> str | None:
        """Move a rack as one undo step; the model's refusal is returned (and shown), not raised."""
        if not self.built:
            self.build()
        rack = self.document.fabric.racks.get(rack_id)
        if rack is not None and (rack.row, rack.position) == (row, position):
            return f"rack {rack_id} stands at {row} position {position} already"
        refusal = self.document.execute(MoveRackCommand(self.document.fabric, rack_id, row, position))
        if refusal:
            self._say(f"rack {rack_id} not moved: {refusal}")
        return refusal

    def _report(self, rack_ids) -> None:
        """Recompute the moved racks' cables and say what changed."""
        plan = self.plan
        if plan is None:
            return
        before_runs, before_choices = plan.runs.runs.copy(), plan.choices.copy()
        plan.refresh(self._touched)
        self._touched = ev.Touched()
        dirty = plan.runs.last if plan.runs.last is not None else plan.runs.runs.keys()
        changed = [(link, bought_metres(before_choices.get(link), before_runs.get(link)), plan.metres(link))
                   for link in sorted(dirty)]
        changed = [c for c in changed if c[1] != c[2]]
        racks = self.document.fabric.racks
        where = ", ".join(f"{r} at {racks[r].row} position {racks[r].position}" for r in rack_ids if r in racks)
        text = f"rack {where}: {len(dirty)} cables recomputed, {len(changed)} changed length"
        if changed:
            link, old, new = max(changed, key=lambda c: abs((c[2] or 0) - (c[1] or 0)))
            text += f" (most: {link} {old} m → {new} m)"
        self.last_change = changed
        self._say(text)

    def _say(self, text: str) -> None:
        self.info.setText(text)
        self.message.emit(text)

    # ------------------------------------------------------------------ selection
    def show_selection(self, ids) -> None:
        """The canvas's selection: highlight the same devices' boxes (no echo back)."""
        if not self.built:
            return
        self._echo = True
        try:
            self.scene.select_ids(ids)
        finally:
            self._echo = False
        self._show_runs()

    def _scene_selection(self) -> None:
        if not self._echo:
            self.selected.emit(self.scene.selected_ids())
            self._show_runs()

    def _show_runs(self) -> None:
        """The selected devices' cables drawn between racks, and their lengths summed up in the label."""
        fabric, plan = self.document.fabric, self.plan
        devices = [d for d in self.scene.selected_ids() if fabric.has_device(d)]
        self.plan_scene.choose({self.rack_of_selection([d]) for d in devices} - {None})
        if plan is None or not devices or len(devices) > MAX_RUN_DEVICES:
            self.scene.show_runs([])
            if len(devices) > MAX_RUN_DEVICES:
                self.info.setText(f"{len(devices):,} devices selected (cables drawn for up to {MAX_RUN_DEVICES})")
            return
        if self._touched_any():
            plan.refresh(self._touched)
            self._touched = ev.Touched()
        cables, metres = [], []
        for device in devices:
            for link in fabric.links_of(device):
                length, choice = plan.metres(link.id), plan.choices.get(link.id)
                metres += [length] if length is not None else []
                media = choice.media if choice is not None and choice.media else "no media fits"
                cables.append((link.id, link.a.split("/")[0], link.b.split("/")[0],
                               f"{link.id}: {length if length is not None else '?'} m, {media}"))
        drawn = self.scene.show_runs(cables)
        place = ""
        if len(devices) == 1:
            device = fabric.servers.get(devices[0]) or fabric.switches.get(devices[0])
            place = f"{device.id} in rack {device.rack} at U{device.position}: "
        span = "" if not metres else f", {min(metres)} m" if min(metres) == max(metres) else \
            f", {min(metres)}-{max(metres)} m"
        self.info.setText(f"{place}{len(cables)} cables{span}"
                          + (f" ({drawn} drawn)" if drawn < len(cables) else ""))

    def _touched_any(self) -> bool:
        t = self._touched
        return bool(t.devices or t.links or t.floor or t.media or t.settings or t.everything)

    def show_rack(self, rack_id: str) -> None:
        """Centre the elevations on a rack (a click on its footprint in the plan)."""
        item = self.scene.racks.get(rack_id)
        if item is not None:
            self.view.auto_fit = False
            self.view.fitInView(item.sceneBoundingRect().adjusted(-1200, -600, 1200, 600), Qt.KeepAspectRatio)
            self.info.setText(f"rack {rack_id}")

    def rack_of_selection(self, ids) -> str | None:
        """The rack of the first selected device that stands in one."""
        fabric = self.document.fabric
        for i in ids:
            device = fabric.servers.get(i.split("/")[0]) or fabric.switches.get(i.split("/")[0])
            if device is not None and device.rack in fabric.racks:
                return device.rack
        return None
