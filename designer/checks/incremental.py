"""Incremental re-checking for the window: `LiveChecker(fabric).run()` returns exactly what
`check(fabric)` returns, but after an edit it recomputes only what the edit can have changed.

- Per-leaf rules (`LEAF_RULES`) run once per leaf, on a view of the context that holds only that
  leaf and no cables, and are cached by leaf; an edit re-runs them for the leaves it touched (a NIC
  move: the old and new leaf). Their cable part (RD004's NIC-to-spine cables) runs on a view with
  all cables and no leaves, like every other rule.
- The other rules run on the whole (incrementally maintained) context and are cached by the facets
  of the design they read (`READS`); RD008 keeps its `OverlapIndex` and updates it key by key.
If anything fails (an RD000 finding), the result is the full `check()`'s, so the two always agree.
"""

from __future__ import annotations

from typing import Iterator

from ..model.fabric import Fabric
from ..model.gcpause import collector_paused
from . import _RUNNABLE, check
from .finding import Finding
from .live_context import LiveContext
from .registry import INTERNAL, applies, run_guarded, sort_key

LEAF_RULES = frozenset({"RD004", "RD006", "RD013", "RD014", "RD017", "RD019", "RD025", "RD026", "RD028"})
_ALL = frozenset({"devices", "wiring", "plan", "settings", "floor"})
READS = {   # facets a rule's whole-design pass reads (rules not listed: all of them)
    "RD002": {"devices", "wiring"}, "RD003": {"devices", "wiring"}, "RD005": {"devices", "wiring"},
    "RD018": {"devices", "wiring"}, "RD001": {"devices", "wiring", "settings"},
    "RD016": {"devices", "wiring", "settings"}, "RD007": {"plan"}, "RD010": {"devices"},
    "RD011": {"devices"}, "RD012": {"devices", "plan"},
    "RD040": {"devices", "wiring", "settings"}, "RD048": {"devices", "wiring", "settings"},
    "RD041": {"devices", "wiring"}, "RD042": {"devices", "wiring"}, "RD043": {"devices", "wiring"},
    "RD044": {"devices", "wiring"}, "RD045": {"devices", "wiring"}, "RD046": {"devices", "plan"},
    "RD047": {"devices", "plan"}, "RD049": {"devices", "settings"},
    "RD027": {"devices"}, "RD029": {"devices", "plan"}, "RD031": {"devices"},
    "RD032": {"devices", "wiring"}, "RD050": {"devices", "wiring", "settings"}, "RD076": {"settings"},
    # the floor rules: racks and what stands in them; the cables' runs and media
    "RD060": {"devices", "floor"}, "RD061": {"devices", "floor"}, "RD062": {"devices", "floor"},
    "RD063": {"devices", "floor"}, "RD064": {"devices", "wiring", "floor"}, "RD065": {"devices", "wiring", "floor"},
}


class _View:
    """The live context with other leaves and cables (what a scoped rule pass iterates)."""

    def __init__(self, ctx: LiveContext, leaves, cables):
        self._ctx, self.leaves, self.cables = ctx, leaves, cables

    def __getattr__(self, name):
        return getattr(self._ctx, name)


class LiveChecker:
    """`run()` re-checks at once; `steps()` does the same work one small step at a time (a leaf's
    rules, one rule), so the window can run it in slices between input events. An edit between two
    steps ends that pass: what it had not re-run yet stays stale, and the next pass starts with it."""

    def __init__(self, fabric: Fabric):
        self.fabric = fabric
        self._ctx = LiveContext(fabric)
        self._edits = 0                            # events seen
        self._checked = -1                         # the events the last whole pass saw
        self._by_rule: dict[str, list[Finding]] = {}
        self._by_leaf: dict[str, list[Finding]] = {}
        self._stale_rules: set[str] = set()       # rules whose cached findings predate an edit
        self._stale_leaves: set[str] = set()      # leaves whose per-leaf findings do
        self._findings: list[Finding] = []
        fabric.subscribe(self._on_event)

    def close(self) -> None:
        self.fabric.unsubscribe(self._on_event)

    def _on_event(self, event) -> None:
        self._edits += 1
        self._ctx.hint(event)

    @property
    def edited(self) -> bool:
        """The design changed since the last pass that ran to its end began."""
        return self._edits != self._checked

    def run(self) -> list[Finding]:
        if self.edited:
            with collector_paused():
                for _ in self.steps():
                    pass
        return list(self._findings)

    def findings(self) -> list[Finding]:
        """The findings of the last pass that ran to its end."""
        return list(self._findings)

    def steps(self) -> Iterator[None]:
        """One pass as a generator: each ``next`` does one step. Drop it once the design changes
        (`edited`); the model must not change while a step runs."""
        seen = self._edits
        ctx = self._ctx
        try:
            change = ctx.diff()
            yield                                    # dropped here, the next pass diffs again: nothing is lost
            dirty = ctx.refresh(change)
        except Exception:
            self._ctx = LiveContext(self.fabric)     # start over next time; report like check()
            self._by_rule, self._by_leaf = {}, {}
            self._findings = check(self.fabric)
            return
        facets = _ALL if change is None else change.facets()
        leaves = {leaf.id: leaf for leaf in ctx.leaves}
        if dirty is None:
            self._by_leaf, dirty = {}, set(leaves)
        for leaf_id in list(self._by_leaf):
            if leaf_id not in leaves:
                del self._by_leaf[leaf_id]
        self._stale_leaves = (self._stale_leaves | dirty) & leaves.keys()
        self._stale_rules |= {rule.code for rule in _RUNNABLE
                              if rule.code not in self._by_rule or facets & READS.get(rule.code, _ALL)}
        yield
        for leaf_id in sorted(self._stale_leaves):
            view = _View(ctx, [leaves[leaf_id]], ())
            self._by_leaf[leaf_id] = [f for rule in _RUNNABLE if rule.code in LEAF_RULES and applies(rule, self.fabric)
                                      for f in run_guarded(rule, view)]
            self._stale_leaves.discard(leaf_id)
            yield
        whole = _View(ctx, (), ctx.cables)
        for rule in _RUNNABLE:
            if not applies(rule, self.fabric):
                self._by_rule.pop(rule.code, None)
                self._stale_rules.discard(rule.code)
            elif rule.code in self._stale_rules:
                self._by_rule[rule.code] = run_guarded(rule, whole if rule.code in LEAF_RULES else ctx)
                self._stale_rules.discard(rule.code)
                yield
        findings = [f for part in (*self._by_rule.values(), *self._by_leaf.values()) for f in part]
        if any(f.code == INTERNAL.code for f in findings):
            self._findings = check(self.fabric)
        else:
            self._findings = sorted(findings, key=sort_key)
        self._checked = seen
