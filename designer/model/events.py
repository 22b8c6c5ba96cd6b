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
PLAN_CHANGED = "plan-changed"          # addresses, ASNs or pins: ids the keys (an address key or a switch id)
SETTINGS_CHANGED = "settings-changed"
FLOOR_CHANGED = "floor-changed"        # floor settings, rows or racks: ids the racks or rows (none: the settings)
MEDIA_CHANGED = "media-changed"        # a cable's media override: ids the cables
RESET = "reset"                        # many changes at once (a batch): `parts` the events it folded

DEVICE_KINDS = frozenset({SERVER_ADDED, SERVER_REMOVED, SERVER_CHANGED, SWITCH_ADDED, SWITCH_REMOVED,
                          SWITCH_CHANGED})
LINK_KINDS = frozenset({LINK_ADDED, LINK_REMOVED})


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    ids: tuple[str, ...] = ()
    parts: tuple[Event, ...] | None = None   # a RESET's folded events (None: not recorded, anything changed)


class Touched:
    """The keys a run of events changed, so a listener can compare only those with what it saw last
    instead of the whole design. ``plan`` holds keys whose address or ASN may have changed;
    ``plan_all`` says the plan changed at keys not named; ``everything`` that an event did not say
    what it changed (compare it all)."""

    __slots__ = ("devices", "links", "plan", "plan_all", "settings", "floor", "media", "everything")

    def __init__(self) -> None:
        self.devices: set[str] = set()
        self.links: set[str] = set()
        self.plan: set[str] = set()
        self.floor: set[str] = set()        # racks or rows changed ("" for the floor's settings)
        self.media: set[str] = set()        # cables whose media override changed
        self.plan_all = self.settings = self.everything = False

    def add(self, event: Event) -> None:
        kind = event.kind
        if kind in LINK_KINDS:
            self.links.update(event.ids)
        elif kind in DEVICE_KINDS:
            self.devices.update(event.ids)
        elif kind == PLAN_CHANGED:
            if event.ids:
                self.plan.update(event.ids)
            else:
                self.plan_all = True
        elif kind == SETTINGS_CHANGED:
            self.settings = True
        elif kind == FLOOR_CHANGED:
            self.floor.update(event.ids or ("",))
        elif kind == MEDIA_CHANGED:
            self.media.update(event.ids)
        elif kind == RESET and event.parts is not None:
            for part in event.parts:
                self.add(part)
        else:
            self.everything = True

    def update(self, other: Touched) -> None:
        """Add what ``other`` names."""
        self.devices |= other.devices
        self.links |= other.links
        self.plan |= other.plan
        self.plan_all |= other.plan_all
        self.settings |= other.settings
        self.floor |= other.floor
        self.media |= other.media
        self.everything |= other.everything

    def __bool__(self) -> bool:
        return bool(self.devices or self.links or self.plan or self.plan_all or self.settings or self.floor
                    or self.media or self.everything)
