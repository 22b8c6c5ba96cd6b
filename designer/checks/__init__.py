"""The design-rule catalogue: `check(fabric)` reports every problem of a design at once.

It never raises on a bad design: a rule that fails unexpectedly becomes one RD000 finding
naming the rule. Findings come sorted (severity, code, ids in natural order) so the same design
always gives the same list. `RULES` lists every code with its title, severity and fix hint.
"""

from __future__ import annotations

from ..model.fabric import Fabric
from ..model.gcpause import collector_paused
from . import addressing, capacity, export_ready, floor, growth, naming, reach, tiers, wiring  # noqa: F401  (importing registers the rules)
from .context import Context
from .finding import Finding, Severity
from .registry import INTERNAL, Rule, applies, registered, run_guarded, skipped_note, sort_key

_RUNNABLE: tuple[Rule, ...] = registered()
RULES: tuple[Rule, ...] = (INTERNAL, *_RUNNABLE)

__all__ = ["RULES", "Finding", "Rule", "Severity", "check", "has_errors", "skipped_note"]


def check(fabric: Fabric) -> list[Finding]:
    """Every finding for ``fabric``, sorted deterministically."""
    with collector_paused():
        ctx = Context(fabric)
        findings: list[Finding] = []
        for rule in _RUNNABLE:
            if applies(rule, fabric):
                findings.extend(run_guarded(rule, ctx))
        return sorted(findings, key=sort_key)


def has_errors(findings) -> bool:
    return any(f.severity is Severity.ERROR for f in findings)
