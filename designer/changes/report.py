"""The result of a diff: per device a status and the changes that earned it, plus the fabric-wide section.

A change is *additive* when it only adds (a cable on a port that was free, a new address key, a new pin,
a line or a JSON key added to a file) and *disruptive* when something that may be in use changes or goes
away. A device is ``added`` or ``removed`` when only one side has it, ``unchanged`` when nothing about it
differs, else ``disruptive`` when any of its changes is, and ``additive`` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..model.ids import natural_key

ADDED, REMOVED, UNCHANGED, ADDITIVE, DISRUPTIVE = "added", "removed", "unchanged", "additive", "disruptive"
# The order a report lists the groups in: what a CI gate stops on first.
STATUSES = (DISRUPTIVE, REMOVED, ADDITIVE, ADDED, UNCHANGED)


@dataclass(frozen=True, slots=True)
class Change:
    """One difference: ``kind`` (a design's attribute, breakout, cable, address, asn, pin, ppd, setting; a
    bundle's file, lines, json, binary), ``key`` (which one: a port, an address key, a file and the
    place in it), the ``old`` and ``new`` values (None: there was none / there is none) and whether it
    is ``disruptive``."""

    kind: str
    key: str
    old: object
    new: object
    disruptive: bool

    def as_dict(self) -> dict:
        return {"kind": self.kind, "key": self.key, "old": self.old, "new": self.new,
                "disruptive": self.disruptive}


@dataclass(frozen=True, slots=True)
class DeviceChange:
    """One device (a switch or a server; in a bundle, its folder's name) with its status and changes."""

    device: str
    role: str
    status: str
    changes: tuple[Change, ...] = ()

    def as_dict(self) -> dict:
        return {"device": self.device, "role": self.role, "status": self.status,
                "changes": [c.as_dict() for c in self.changes]}


def status_of(changes: Iterable[Change]) -> str:
    """The status of a device both sides have, from its changes."""
    changes = list(changes)
    if not changes:
        return UNCHANGED
    return DISRUPTIVE if any(c.disruptive for c in changes) else ADDITIVE


@dataclass(frozen=True)
class ChangeReport:
    """What changed from ``old`` to ``new`` (``kind``: "design" or "bundle").

    ``devices``: every device of either side, in natural order, with its status; ``fabric``: the
    design-wide settings (a design) or the bundle-wide files (a bundle) that changed. ``disruptive`` is
    what a CI gate asks: is any device disruptive or removed, or (when ``fabric_gates``: the settings of
    a design) any fabric-wide change disruptive."""

    kind: str
    old: str
    new: str
    devices: tuple[DeviceChange, ...]
    fabric: tuple[Change, ...] = ()
    fabric_gates: bool = True
    counts: dict[str, int] = field(init=False)

    def __post_init__(self):
        counts = dict.fromkeys(STATUSES, 0)
        for d in self.devices:
            counts[d.status] += 1
        object.__setattr__(self, "counts", counts)
        object.__setattr__(self, "_by_name", {d.device: d for d in self.devices})

    @property
    def disruptive(self) -> bool:
        return bool(self.counts[DISRUPTIVE] or self.counts[REMOVED]
                    or (self.fabric_gates and any(c.disruptive for c in self.fabric)))

    @property
    def changed(self) -> bool:
        """Anything at all differs."""
        return bool(self.fabric) or any(d.status != UNCHANGED for d in self.devices)

    def changed_devices(self) -> list[DeviceChange]:
        return [d for d in self.devices if d.status != UNCHANGED]

    def device(self, name: str) -> DeviceChange:
        """The entry of one device (KeyError when neither side has it)."""
        return self._by_name[name]

    def as_dict(self) -> dict:
        """Plain data for JSON: the summary, the devices that changed and the fabric-wide changes."""
        return {"kind": self.kind, "old": self.old, "new": self.new, "counts": dict(self.counts),
                "disruptive": self.disruptive,
                "devices": [d.as_dict() for d in self.changed_devices()],
                "fabric": [c.as_dict() for c in self.fabric]}


def sorted_devices(devices: Iterable[DeviceChange]) -> tuple[DeviceChange, ...]:
    return tuple(sorted(devices, key=lambda d: natural_key(d.device)))
