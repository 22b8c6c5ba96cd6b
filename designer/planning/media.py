"""Which cable or optics each cable of a floor is, and the length bought.

The choice follows the port pair and the length needed (`cable_lengths.Run.needed_m`):

- an end is a switch port (its model's ``form_factor``, the cage's native speed, and how many links its
  cage is broken out into) or a NIC (the server model's ``nic_form_factor`` and the NIC's speed);
- a catalogue cable fits when it carries the link's speed per leg, its ends are the two cage types (a
  splitter's broken-out end first) and its legs are the broken-out cage's links; optics fit when each
  cage has a transceiver of its type, speed and port count taking one fibre type;
- of those that reach, the first in the order DAC, ACC, AOC, optics by reach wins, at the shortest sold
  length not under the need. A per-cable override (`Fabric.set_media`) names a cable id or ``optics-<fibre>``.

`Choice` is None for a cable without a run (an end not on the floor).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.hardware import parse_breakout
from ..model.media import KINDS, MediaCatalog
from .cable_lengths import Run

OPTICS = "optics-"


@dataclass(frozen=True, slots=True)
class End:
    device: str
    form: str
    cage_speed: int
    split: int            # links sharing its cage
    cage: str             # the cage (a switch cage, or the NIC): what one splitter or twin-port item serves


@dataclass(frozen=True, slots=True)
class Choice:
    media: str            # the cable type id, or optics-<fibre id>
    kind: str             # dac, acc, aoc or optics
    length_m: float       # bought length (m)
    reach_m: float        # the longest this media reaches
    items: tuple[tuple[str, str], ...]   # (part number, what one item serves: a cage id or the cable id)
    fits: bool = True     # False: an override that reaches less than the need
    problem: str = ""     # why nothing (or the override) fits; then media is "" or the override


def end_of(fabric, ep: str) -> End:
    device, _, name = ep.partition("/")
    switch = fabric.switches.get(device)
    if switch is not None:
        model = fabric.catalog.switch(switch.model)
        port = fabric.port(ep)
        split = parse_breakout(port.breakout)[0] if port is not None else 1
        cage = port.cage if port is not None else name
        return End(device, model.form_factor, model.speed, split, f"{device}/cage{cage}")
    server = fabric.servers[device]
    model = fabric.catalog.server(server.model)
    return End(device, model.nic_form_factor, fabric.nic(ep).speed, 1, ep)


def _form(want: str, have: str) -> bool:
    return not want or not have or want == have


def _sold(parts, need: float):
    for length, part in parts:
        if length + 1e-9 >= need:
            return length, part
    return None


def _cables(media: MediaCatalog, speed: int, a: End, b: End):
    """The cable types that fit the port pair, and whether end ``a`` is the broken-out one."""
    wide, other = (a, b) if a.split >= b.split else (b, a)
    for cable in sorted(media.cables.values(), key=lambda c: (KINDS.index(c.kind), c.reach_m, c.id)):
        if cable.speed != speed or other.split != 1 or cable.legs != wide.split:
            continue
        x, y = cable.ends
        if (_form(x, wide.form) and _form(y, other.form)) or (cable.legs == 1 and _form(y, wide.form)
                                                                and _form(x, other.form)):
            yield cable, wide is a


def _transceivers(media: MediaCatalog, end: End, speed: int, fibre: str) -> list:
    """The transceivers that fit an end's cage on a fibre type, shortest reach first."""
    return sorted((t for t in media.transceivers.values()
                   if t.fibre == fibre and _form(t.form, end.form) and t.cage_speed == end.cage_speed
                   and t.ports == end.split and t.speed == speed), key=lambda t: (t.reach_m, t.part))


def _pick(fitting: list, need: float):
    for t in fitting:
        if t.reach_m + 1e-9 >= need:
            return t
    return fitting[-1]


class Chooser:
    """`choose` with what fits each port shape worked out once (a design has a few shapes, 10^5 cables)."""

    def __init__(self, media: MediaCatalog):
        self.media = media
        self._fits: dict[tuple, tuple[list, list]] = {}
        self._shapes: dict[tuple, tuple] = {}

    def end(self, fabric, ep: str) -> End:
        """`end_of`, with a switch port's shape looked up once per model, breakouts and port."""
        device, _, name = ep.partition("/")
        switch = fabric.switches.get(device)
        if switch is None:
            return end_of(fabric, ep)
        key = (switch.model, switch.breakouts, name)
        shape = self._shapes.get(key)
        if shape is None:
            end = end_of(fabric, ep)
            shape = self._shapes[key] = (end.form, end.cage_speed, end.split, end.cage.rpartition("/")[2])
        return End(device, shape[0], shape[1], shape[2], f"{device}/{shape[3]}")

    def _fitting(self, speed: int, a: End, b: End) -> tuple[list, list]:
        key = (speed, a.form, a.cage_speed, a.split, b.form, b.cage_speed, b.split)
        found = self._fits.get(key)
        if found is None:
            media = self.media
            cables = list(_cables(media, speed, a, b))
            optics = []
            for fibre in sorted(media.fibres.values(), key=lambda f: f.id):
                ta, tb = _transceivers(media, a, speed, fibre.id), _transceivers(media, b, speed, fibre.id)
                if ta and tb:
                    optics.append((fibre, ta, tb))
            found = self._fits[key] = (cables, optics)
        return found

    def candidates(self, link, a: End, b: End, need: float, first: bool = False) -> list[Choice]:
        """Every media that fits the port pair, in preference order (reaching or not); with ``first``, only
        the first cable that reaches when one does (the optics are not worked out then)."""
        cables, optics = self._fitting(link.speed, a, b)
        out = []
        for cable, a_wide in cables:
            sold = _sold(cable.parts, need)
            length, part = sold if sold else cable.parts[-1]
            serves = (a.cage if a_wide else b.cage) if cable.legs > 1 else link.id
            out.append(Choice(cable.id, cable.kind, length, cable.reach_m, ((part, serves),), sold is not None))
            if first and sold is not None:
                return out[-1:]
        found = []
        for fibre, fit_a, fit_b in optics:
            ta, tb = _pick(fit_a, need), _pick(fit_b, need)
            sold = _sold(fibre.parts, need)
            length, part = sold if sold else fibre.parts[-1]
            reach = min(ta.reach_m, tb.reach_m, fibre.parts[-1][0])
            fibres = tuple((part, f"{link.id}#{n}") for n in range(max(ta.fibres, tb.fibres)))
            items = ((ta.part, a.cage if ta.ports > 1 else f"{link.id}/a"),
                     (tb.part, b.cage if tb.ports > 1 else f"{link.id}/b"), *fibres)
            found.append(Choice(OPTICS + fibre.id, "optics", length, reach, items,
                                sold is not None and reach + 1e-9 >= need))
        return out + sorted(found, key=lambda c: (c.reach_m, c.media))

    def choose(self, fabric, link, run: Run | None, override: str | None = None) -> Choice | None:
        """The media of one cable (None when it has no run)."""
        if run is None:
            return None
        a, b = self.end(fabric, link.a), self.end(fabric, link.b)
        options = self.candidates(link, a, b, run.needed_m, first=override is None)
        if override is not None:
            for option in options:
                if option.media == override:
                    return option if option.fits else _short(option, run)
            return Choice(override, "", 0.0, 0.0, (), False, f"media {override} does not fit {_pair(link, a, b)}")
        for option in options:
            if option.fits:
                return option
        longest = max((o.reach_m for o in options), default=0.0)
        return Choice("", "", 0.0, longest, (), False,
                      f"no media of the catalogue fits {_pair(link, a, b)} at {run.needed_m:.1f} m"
                      + (f" (the longest reaches {longest:g} m)" if options else ""))


def _short(option: Choice, run: Run) -> Choice:
    return Choice(option.media, option.kind, option.length_m, option.reach_m, option.items, False,
                  f"{option.media} reaches {option.reach_m:g} m, the cable needs {run.needed_m:.1f} m")


def _pair(link, a: End, b: End) -> str:
    def word(e: End) -> str:
        return f"{e.form or 'any'} {e.cage_speed}G" + (f" in {e.split} links" if e.split > 1 else "")
    return f"{link.speed}G between {word(a)} and {word(b)}"
