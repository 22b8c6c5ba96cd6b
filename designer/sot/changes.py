"""What a push would change: the desired `State` compared with the one a server holds, object by object.

A change is a create (the server lacks the object), an update (fields that differ, each with its old and
new value) or a delete (an object the tool owns, by its tag, that the design no longer has; never a
manufacturer, device type or role, which other designs may use). Objects of
the shared kinds (manufacturers, device types, roles, prefixes) that someone else created are used as
they are: never changed, never deleted. Any other object in the way that the tool does not own is a
refusal, so a push never takes over what it did not make.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.ids import natural_key
from .desired import KINDS, TAG, State
from .errors import SotError

CREATE, UPDATE, DELETE = "create", "update", "delete"
SHARED = {"manufacturer", "device_type", "role", "prefix"}
CATALOG = {"manufacturer", "device_type", "role"}      # other designs may use them: never deleted


@dataclass(frozen=True, slots=True)
class Change:
    kind: str
    key: str
    action: str
    fields: tuple[tuple[str, object, object], ...] = ()     # (field, old, new) of an update

    def line(self) -> str:
        head = f"{self.action} {self.kind.replace('_', ' ')} {self.key}"
        if not self.fields:
            return head
        return head + ": " + "; ".join(f"{name} {_shown(old)} -> {_shown(new)}" for name, old, new in self.fields)


def _shown(value) -> str:
    text = "-" if value is None or value == "" else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def flat(fields: dict) -> dict:
    """A kind's fields with the custom fields as ``cf.<name>`` entries, the way they are compared."""
    out = {k: v for k, v in fields.items() if k != "cf"}
    out.update({f"cf.{k}": v for k, v in fields.get("cf", {}).items()})
    return out


def compare(want: State, have: State, owned: dict[str, set[str]]) -> list[Change]:
    """Every change that makes ``have`` hold ``want``: creates and updates in write order, then deletes of
    owned objects the design lacks, last kind first."""
    changes: list[Change] = []
    for kind in KINDS:
        mine, theirs = want.objects[kind], have.objects[kind]
        for key in sorted(mine, key=natural_key):
            if key not in theirs:
                changes.append(Change(kind, key, CREATE))
                continue
            if key not in owned[kind]:
                if kind in SHARED:
                    continue
                raise SotError(f"the {kind.replace('_', ' ')} {key} is already on the server and was not created "
                               f"by rail-designer (it has no '{TAG}' tag): rename or remove it there, or push "
                               "the design under another name")
            new, old = flat(mine[key]), flat(theirs[key])
            differ = tuple((name, old.get(name), value) for name, value in new.items()
                           if _norm(old.get(name)) != _norm(value))
            if differ:
                changes.append(Change(kind, key, UPDATE, differ))
    for kind in reversed(KINDS):
        if kind in CATALOG:
            continue
        gone = owned[kind] - want.objects[kind].keys()
        changes.extend(Change(kind, key, DELETE) for key in sorted(gone, key=natural_key))
    return changes


def _norm(value):
    """Values as both servers echo them: no value and an empty text alike, numbers of either type alike."""
    if value in (None, ""):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def summary(changes: list[Change]) -> str:
    if not changes:
        return "0 changes"
    counts = {a: sum(1 for c in changes if c.action == a) for a in (CREATE, UPDATE, DELETE)}
    noun = "change" if len(changes) == 1 else "changes"
    return f"{len(changes):,} {noun}: " + ", ".join(f"{n:,} to {a}" for a, n in counts.items() if n)
