"""The upper tiers on the canvas: cores and spines in labelled *bands* (a core group, the spines of
one fabric plane or of one spine group), and the *pods* of a three-tier design (one spine group's
spines above the SUs whose leaves mesh with them, so leaf-spine cables stay inside the pod and only
the spine-core cables run up to the core rows at the top).

Pure geometry, used by `layout.compute`. A design with no spine group and one plane has one
unlabelled band of spines, drawn as it always was: rows across the whole width.

Every band of a tier has the same number of *slots*, one more than most bands use (or what the
fullest uses, if more), and a switch keeps the slot its number names (``cg3-core-02`` the second, ``sg2-spine-07`` the seventh;
a switch whose slot is taken gets the first free one). So adding a switch to a band, deleting one,
or moving one to another group moves no other switch, and re-routes only that switch's cables
(at 64 SUs a spine group move re-routed 4,096 cables while the bands were packed and centred).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..model.entities import Switch
from ..model.ids import natural_key

SWITCH_W, SWITCH_H = 76, 30
SPINE_PITCH = SWITCH_W + 10
SPINE_ROW = SWITCH_H + 20
BAND_LABEL = 16      # a band's name, above its switches
BAND_PAD = 6         # a band's plate around its switches
BAND_GAP = 24        # between two bands of one row
POD_TITLE = 30       # the pod's name (its spine group and SUs)
POD_SPINE_GAP = 120  # a pod's spines -> its SUs
POD_GAP = 96         # between two pods side by side
POD_PAD = 14         # the pod's plate around its spines and SUs
CORE_GAP = 160       # the core rows -> the spines below
SPARE = 1            # free slots every band keeps (room for one more switch without moving the others)
_NUMBER = re.compile(r"(\d+)$")


@dataclass(frozen=True, slots=True)
class SwitchBand:
    """Switches drawn together on one plate, with what they share, and the slot of each."""

    kind: str                    # "cores" or "spines"
    label: str                   # "" for the one band of a design without groups and planes
    switches: tuple[Switch, ...]
    group: int | None = None
    fabric_plane: int | None = None
    slot: dict = field(default_factory=dict, compare=False)   # switch id -> slot (from 0)

    @property
    def used(self) -> int:
        """Slots up to the last one taken."""
        return max(self.slot.values(), default=-1) + 1


def _slots(switches) -> dict[str, int]:
    """Each switch's slot: the one its id's number names, while free and not far past the band's
    size (the band's usual names first: ``sg1-spine-05`` moved into spine group 2 does not take
    ``sg2-spine-05``'s slot); the others take the lowest free slots, in id order."""
    out: dict[str, int] = {}
    taken: set[int] = set()
    later = []
    limit = 2 * len(switches) + SPARE
    names = Counter(_NUMBER.sub("", s.id) for s in switches)
    for s in sorted(switches, key=lambda s: -names[_NUMBER.sub("", s.id)]):     # stable: id order kept
        m = _NUMBER.search(s.id)
        want = int(m.group(1)) - 1 if m else -1
        if 0 <= want < limit and want not in taken:
            out[s.id] = want
            taken.add(want)
        else:
            later.append(s)
    free = (i for i in range(limit + len(later)) if i not in taken)
    for s in later:
        out[s.id] = next(free)
    return out


def plane_count(fabric) -> int:
    """How many fabric planes the canvas gives room for (the settings', or more if a switch is on one)."""
    return max([fabric.settings.fabric_planes] + [s.fabric_plane + 1 for s in fabric.switches.values()])


def _name(kind: str, group: int | None, plane: int | None, planes: int) -> str:
    parts = [f"{'core' if kind == 'cores' else 'spine'} group {group}"] if group is not None else []
    if planes > 1:
        parts.append(f"fabric plane {plane}")
    return ", ".join(parts) or ("cores" if kind == "cores" else "")


def bands_of(kind: str, switches: list[Switch], planes: int, in_pod: bool = False) -> list[SwitchBand]:
    """``switches`` grouped by (fabric plane, group), in that order; spines in spine-plane order inside.
    In a pod (``in_pod``) the pod's title names the group, so a band names only its plane."""
    by_key: dict[tuple, list[Switch]] = {}
    for s in switches:
        by_key.setdefault((s.fabric_plane, s.group is None, s.group or 0), []).append(s)
    out = []
    for (plane, _, group), members in sorted(by_key.items()):
        members.sort(key=lambda s: (s.plane if s.plane is not None else -1, natural_key(s.id)))
        group = members[0].group
        label = _name(kind, None if in_pod else group, plane, planes)
        out.append(SwitchBand(kind, label, tuple(members), group, plane, _slots(members)))
    return out


def band_slots(*tiers: list[SwitchBand]) -> int:
    """The slots each band of these tiers gets: SPARE more than most bands use (and what the fullest
    uses), so one more switch in any band of a regular design fits without widening them all."""
    used = Counter(b.used for bands in tiers for b in bands)
    if not used:
        return SPARE
    usual = max(used, key=lambda n: (used[n], n))
    return max(usual + SPARE, max(used))


def pods_of(leaves_by_su: dict, sus: list) -> dict:
    """SU -> the spine group its leaves mesh with (most of them; the lower group on a tie), for SUs
    whose leaves have one. Empty for a design without spine groups."""
    out = {}
    for su in sus:
        groups = Counter(l.group for l in leaves_by_su.get(su, []) if l.group is not None)
        if groups:
            out[su] = min(groups, key=lambda g: (-groups[g], g))
    return out


def pod_label(group: int, sus: list) -> str:
    named = [su for su in sus if su is not None]
    if not named:
        return f"spine group {group}"
    run = named == list(range(named[0], named[-1] + 1))
    where = f"SU{named[0]}" if len(named) == 1 else (f"SU{named[0]}-SU{named[-1]}" if run else
                                                      ", ".join(f"SU{s}" for s in named))
    return f"spine group {group}: {where}"


def _pieces(bands: list[SwitchBand], width: float, slots: int) -> list[list[tuple[int, int, int]]]:
    """Rows of (band index, first slot, slots): bands of ``slots`` slots left to right while they fit;
    a band wider than a row fills whole rows of its own (so no two bands' plates overlap)."""
    per_row = max(1, int((width - 2 * BAND_PAD) // SPINE_PITCH))
    rows: list[list[tuple[int, int, int]]] = []
    used = None                          # px used in the open row (None: no open row)
    need = slots * SPINE_PITCH
    for i in range(len(bands)):
        if slots <= per_row and used is not None and used + BAND_GAP + need <= width - 2 * BAND_PAD:
            rows[-1].append((i, 0, slots))
            used += BAND_GAP + need
            continue
        for start in range(0, slots, per_row):
            rows.append([(i, start, min(per_row, slots - start))])
        used = need if slots <= per_row else None
    return rows


def rows_needed(bands: list[SwitchBand], width: float, slots: int) -> int:
    return len(_pieces(bands, width, slots)) if bands else 0


def band_height(rows: int) -> float:
    return rows * (BAND_LABEL + SPINE_ROW)


def place_bands(out, bands: list[SwitchBand], x0: float, y0: float, width: float, slots: int,
                rows: int | None = None) -> float:
    """Place labelled bands of ``slots`` slots each in rows across ``width`` from (x0, y0), each row
    centred; record each band's plate in ``out.bands``. Returns the y below the rows (``rows`` of
    them, if given more)."""
    from .layout import Band, Box
    pieces = _pieces(bands, width, slots)
    extent: dict[int, list[float]] = {}
    at: dict[int, dict[int, tuple[float, float]]] = {}        # band -> slot -> (x, y)
    for r, row in enumerate(pieces):
        row_w = sum(count * SPINE_PITCH for _, _, count in row) + BAND_GAP * (len(row) - 1)
        x = x0 + max(0.0, (width - row_w) / 2)
        y = y0 + r * (BAND_LABEL + SPINE_ROW) + BAND_LABEL
        for i, start, count in row:
            at.setdefault(i, {}).update((start + j, (x + j * SPINE_PITCH, y)) for j in range(count))
            box = extent.setdefault(i, [x, y, x + count * SPINE_PITCH, y + SWITCH_H])
            box[0], box[2], box[3] = min(box[0], x), max(box[2], x + count * SPINE_PITCH), y + SWITCH_H
            x += count * SPINE_PITCH + BAND_GAP
    for i, band in enumerate(bands):
        for switch in band.switches:
            sx, sy = at[i][band.slot[switch.id]]
            out.boxes[switch.id] = Box(sx + (SPINE_PITCH - SWITCH_W) / 2, sy, SWITCH_W, SWITCH_H)
    for i, (left, top, right, bottom) in sorted(extent.items()):
        band = bands[i]
        plate = Box(left - BAND_PAD, top - BAND_LABEL, right - left + 2 * BAND_PAD, bottom - top + BAND_LABEL + BAND_PAD)
        out.bands.append(Band(band.kind, band.label, plate, band.group, band.fabric_plane))
    return y0 + band_height(max(len(pieces), rows or 0))


def place_plain(out, switches: list[Switch], width: float, y0: float) -> float:
    """One unlabelled band (a design without groups and planes): rows across the whole width, each
    centred, a single row spread out. Returns the y below the rows."""
    from .layout import Box
    per_row = max(1, int(width // SPINE_PITCH))
    for start in range(0, len(switches), per_row):
        row = switches[start:start + per_row]
        pitch = max(SPINE_PITCH, width / len(row)) if len(row) > 1 else SPINE_PITCH
        x0 = max(0.0, (width - pitch * len(row)) / 2)
        y = y0 + (start // per_row) * SPINE_ROW
        for i, switch in enumerate(row):
            out.boxes[switch.id] = Box(x0 + i * pitch + (pitch - SWITCH_W) / 2, y, SWITCH_W, SWITCH_H)
    return y0 + -(-len(switches) // per_row) * SPINE_ROW


def plain_width(count: int, width: float) -> float:
    """How wide one unlabelled row of ``count`` spines wants the picture (at most the design's width)."""
    per_row = max(1, int(width // SPINE_PITCH))
    return min(count, per_row) * SPINE_PITCH


def place_tier(out, bands: list[SwitchBand], width: float, y0: float) -> float:
    """A whole tier across the top (the cores, or the spines outside any pod); returns the y below it."""
    if not bands:
        return y0
    if len(bands) == 1 and not bands[0].label:
        return place_plain(out, list(bands[0].switches), width, y0)
    return place_bands(out, bands, 0.0, y0, width, band_slots(bands))
