"""Plain-Python change events. A GUI turns them into repaints; nothing here knows Qt."""

from __future__ import annotations

from dataclasses import dataclass

SERVER_ADDED = "server-added"
SERVER_REMOVED = "server-removed"
SERVER_CHANGED = "server-changed"
SWITCH_ADDED = "switch-added"
SWITCH_REMOVED = "switch-removed"
SWITCH_CHANGED = "switch-changed"
LINK_ADDED = "link-added"
LINK_REMOVED = "link-removed"
PLAN_CHANGED = "plan-changed"          # addresses, ASNs or pins
SETTINGS_CHANGED = "settings-changed"
RESET = "reset"                        # many changes at once (a batch): redraw everything


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    ids: tuple[str, ...] = ()
