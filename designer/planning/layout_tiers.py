"""The upper tiers on the canvas: cores and spines in labelled *bands* (a core group, the spines of
one fabric plane or of one spine group), and the *pods* of a three-tier design (one spine group's
spines above the SUs whose leaves mesh with them, so leaf-spine cables stay inside the pod and only
the spine-core cables run up to the core rows at the top).

Pure geometry, used by `layout.compute`. A design with no spine group and one plane has one
unlabelled band of spines, drawn as it always was: rows across the whole width.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class SwitchBand:
    """Switches drawn together on one plate, with what they share."""

    kind: str                    # "cores" or "spines"
    label: str                   # "" for the one band of a design without groups and planes
    switches: tuple[Switch, ...]
    group: int | None = None
    fabric_plane: int | None = None


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
        out.append(SwitchBand(kind, label, tuple(members), group, plane))
    return out


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


def _pieces(bands: list[SwitchBand], width: float) -> list[list[tuple[int, int, int]]]:
    """Rows of (band index, first switch, count): bands left to right while they fit; a band wider
    than a row fills whole rows of its own (so no two bands' plates overlap)."""
    per_row = max(1, int((width - 2 * BAND_PAD) // SPINE_PITCH))
    rows: list[list[tuple[int, int, int]]] = []
    used = None                          # px used in the open row (None: no open row)
    for i, band in enumerate(bands):
        n = len(band.switches)
        need = n * SPINE_PITCH
        if n <= per_row and used is not None and used + BAND_GAP + need <= width - 2 * BAND_PAD:
            rows[-1].append((i, 0, n))
            used += BAND_GAP + need
            continue
        for start in range(0, n, per_row):
            rows.append([(i, start, min(per_row, n - start))])
        used = need if n <= per_row else None
    return rows


def rows_needed(bands: list[SwitchBand], width: float) -> int:
    return len(_pieces(bands, width)) if bands else 0


def band_height(rows: int) -> float:
    return rows * (BAND_LABEL + SPINE_ROW)


def place_bands(out, bands: list[SwitchBand], x0: float, y0: float, width: float, rows: int | None = None) -> float:
    """Place labelled bands in rows across ``width`` from (x0, y0), each row centred; record each
    band's plate in ``out.bands``. Returns the y below the rows (``rows`` of them, if given more)."""
    from .layout import Band, Box
    pieces = _pieces(bands, width)
    extent: dict[int, list[float]] = {}
    for r, row in enumerate(pieces):
        row_w = sum(count * SPINE_PITCH for _, _, count in row) + BAND_GAP * (len(row) - 1)
        x = x0 + max(0.0, (width - row_w) / 2)
        y = y0 + r * (BAND_LABEL + SPINE_ROW) + BAND_LABEL
        for i, start, count in row:
            for j, switch in enumerate(bands[i].switches[start:start + count]):
                out.boxes[switch.id] = Box(x + j * SPINE_PITCH + (SPINE_PITCH - SWITCH_W) / 2, y, SWITCH_W, SWITCH_H)
            box = extent.setdefault(i, [x, y, x + count * SPINE_PITCH, y + SWITCH_H])
            box[0], box[2], box[3] = min(box[0], x), max(box[2], x + count * SPINE_PITCH), y + SWITCH_H
            x += count * SPINE_PITCH + BAND_GAP
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
    return place_bands(out, bands, 0.0, y0, width)
