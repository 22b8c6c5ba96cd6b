"""Each cable's run and media together, kept up to date across edits (what the exports and checks read).

`CablePlan(fabric)` computes every cable once; `refresh(touched)` recomputes the runs an edit can change
(`cable_lengths.CableRuns`) and the media of those cables and of the cables whose override changed.
"""

from __future__ import annotations

import math

from ..model import events as ev
from ..model.memo import per_state
from .cable_lengths import CableRuns, Run
from .media import Chooser, Choice


class CablePlan:
    def __init__(self, fabric):
        self.fabric = fabric
        self.runs = CableRuns(fabric)
        self.choices: dict[str, Choice | None] = {}
        self._chooser = Chooser(fabric.catalog.media)
        self._choose(None)

    def _choose(self, link_ids) -> None:
        fabric, runs, overrides = self.fabric, self.runs.runs, self.fabric.media_overrides
        choose = self._chooser.choose
        if link_ids is None:
            self.choices = {}
            link_ids = fabric.links
        for link_id in link_ids:
            link = fabric.links.get(link_id)
            if link is None:
                self.choices.pop(link_id, None)
            else:
                self.choices[link_id] = choose(fabric, link, runs.get(link_id), overrides.get(link_id))

    def refresh(self, touched: ev.Touched) -> None:
        self.runs.refresh(touched)
        dirty = self.runs.last
        self._choose(None if dirty is None else dirty | touched.media)

    def run(self, link_id: str) -> Run | None:
        return self.runs.runs.get(link_id)

    def metres(self, link_id: str) -> int | None:
        """The cable's bought length in whole metres (rounded up), or None without a run."""
        return bought_metres(self.choices.get(link_id), self.runs.runs.get(link_id))


def bought_metres(choice: Choice | None, run: Run | None) -> int | None:
    """A cable's bought length in whole metres from its media choice and run (None without a run)."""
    if run is None:
        return None
    length = choice.length_m if choice is not None and choice.length_m else run.needed_m
    return max(1, math.ceil(length - 1e-9))


def _plan(fabric) -> CablePlan | None:
    return CablePlan(fabric) if fabric.floor is not None else None


def cable_plan(fabric) -> CablePlan | None:
    """The design's cable plan, computed once per state of the fabric and shared by the checks and the
    exports (None without a floor)."""
    return per_state(fabric, _plan)
