"""The rule catalogue's machinery: a `Rule` per stable code, registered by a decorator.

A rule function takes the shared `Context` and yields ``(message, ids)`` pairs; the
registry turns them into `Finding`s carrying the rule's code, severity and hint, so a
rule cannot misstate its own severity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from ..model.ids import natural_key
from .finding import Finding, Severity

Issue = tuple[str, Iterable[str]]
RuleFunction = Callable[[Any], Iterator[Issue]]   # takes a checks.context.Context


@dataclass(frozen=True)
class Rule:
    code: str
    title: str
    severity: Severity
    hint: str
    run: RuleFunction | None = None

    def findings(self, ctx) -> list[Finding]:
        return [Finding(self.code, self.severity, message, tuple(ids), self.hint)
                for message, ids in self.run(ctx)]


# The re-plan command and the window's menu item, for hints (both exist: rail-designer assign --help).
ASSIGN = "`rail-designer assign FILE` (in the window: Design > Assign rails and addresses)"

INTERNAL = Rule("RD000", "A check rule failed", Severity.ERROR,
                "This is a bug in rail-designer, not in the design: report it with the design file.")

_REGISTERED: dict[str, Rule] = {}

# Rules about IP addresses, BGP ASNs, host routing and PPD pins: on an InfiniBand fabric the subnet
# manager assigns LIDs and computes the routes, so these say nothing about it and are not run.
ETHERNET_ONLY = frozenset({"RD007", "RD008", "RD009", "RD012", "RD013", "RD014", "RD015", "RD025", "RD026",
                           "RD028", "RD030", "RD031", "RD046", "RD047", "RD076"})
NOT_APPLICABLE_NOTE = ("IP, BGP, host-routing and PPD rules ({codes}) do not apply to an InfiniBand fabric "
                       "(the subnet manager assigns LIDs and routes): not run")


def applies(rule_: "Rule", fabric) -> bool:
    return not (fabric.settings.infiniband and rule_.code in ETHERNET_ONLY)


def skipped_note(fabric) -> str:
    """What validate says about the rules it did not run on this design ('' when it ran them all)."""
    return NOT_APPLICABLE_NOTE.format(codes=", ".join(sorted(ETHERNET_ONLY))) if fabric.settings.infiniband else ""


def rule(code: str, title: str, severity: Severity, hint: str) -> Callable[[RuleFunction], RuleFunction]:
    """Register ``function`` as the check for ``code``."""
    def register(function: RuleFunction) -> RuleFunction:
        if code in _REGISTERED or code == INTERNAL.code:
            raise ValueError(f"rule code {code} is registered twice")
        _REGISTERED[code] = Rule(code, title, severity, hint, function)
        return function
    return register


def registered() -> tuple[Rule, ...]:
    return tuple(sorted(_REGISTERED.values(), key=lambda r: r.code))


def run_guarded(rule_: Rule, ctx) -> list[Finding]:
    """The rule's findings, or one RD000 error naming it when it fails unexpectedly."""
    try:
        return rule_.findings(ctx)
    except Exception as exc:   # a bad design must never crash the checker
        message = (f"rule {rule_.code} ({rule_.title}) failed on this design: "
                   f"{type(exc).__name__}: {exc}")
        return [Finding(INTERNAL.code, INTERNAL.severity, message, (), INTERNAL.hint)]


def sort_key(finding: Finding) -> tuple:
    return (finding.severity.rank, finding.code, tuple(natural_key(i) for i in finding.ids), finding.message)


def listing(items: Iterable[str], limit: int = 5) -> str:
    """``'a, b, c and 4 more'``: names in a message without flooding it."""
    items = list(items)
    shown = ", ".join(items[:limit])
    return shown if len(items) <= limit else f"{shown} and {len(items) - limit} more"
