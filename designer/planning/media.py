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

from bisect import bisect_left
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


@dataclass(frozen=True, slots=True)
class _Option:
    """A `Choice` before it is given one cable's ids: each item names whose it is (``whom``): ``a`` / ``b``
    (that end's cage) or a suffix of the cable id (``""`` the cable itself, ``/a``, ``/b``, ``#n``)."""

    media: str
    kind: str
    length_m: float
    reach_m: float
    items: tuple[tuple[str, str], ...]      # (part number, whom)
    fits: bool

    def choice(self, link, a: End, b: End) -> Choice:
        items = tuple((part, a.cage if whom == "a" else b.cage if whom == "b" else link.id + whom)
                      for part, whom in self.items)
        return Choice(self.media, self.kind, self.length_m, self.reach_m, items, self.fits)


class Chooser:
    """`choose` with what fits each port shape worked out once (a design has a few shapes, 10^5 cables),
    and the choice of a shape worked out once per length band: between two neighbouring lengths that
    matter to it (a sold length, a transceiver's reach) every cable of the shape gets the same media."""

    def __init__(self, media: MediaCatalog):
        self.media = media
        self._fits: dict[tuple, tuple[list, list, list[float]]] = {}
        self._shapes: dict[tuple, tuple] = {}
        self._chosen: dict[tuple, _Option | None] = {}

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

    @staticmethod
    def _shape(speed: int, a: End, b: End) -> tuple:
        return (speed, a.form, a.cage_speed, a.split, b.form, b.cage_speed, b.split)

    def _fitting(self, speed: int, a: End, b: End) -> tuple[list, list, list[float]]:
        """The cables and optics that fit the port pair, and the lengths where a choice among them can
        change (each ``x + 1e-9`` of the comparisons ``x + 1e-9 >= need`` below, sorted)."""
        key = self._shape(speed, a, b)
        found = self._fits.get(key)
        if found is None:
            media = self.media
            cables = list(_cables(media, speed, a, b))
            optics = []
            for fibre in sorted(media.fibres.values(), key=lambda f: f.id):
                ta, tb = _transceivers(media, a, speed, fibre.id), _transceivers(media, b, speed, fibre.id)
                if ta and tb:
                    optics.append((fibre, ta, tb))
            edges = {length for cable, _ in cables for length, _ in cable.parts}
            edges |= {length for fibre, ta, tb in optics for length, _ in fibre.parts}
            edges |= {t.reach_m for _, ta, tb in optics for t in (*ta, *tb)}
            found = self._fits[key] = (cables, optics, sorted(x + 1e-9 for x in edges))
        return found

    def _options(self, speed: int, a: End, b: End, need: float, first: bool) -> list[_Option]:
        cables, optics, _ = self._fitting(speed, a, b)
        out = []
        for cable, a_wide in cables:
            sold = _sold(cable.parts, need)
            length, part = sold if sold else cable.parts[-1]
            whom = ("a" if a_wide else "b") if cable.legs > 1 else ""
            out.append(_Option(cable.id, cable.kind, length, cable.reach_m, ((part, whom),), sold is not None))
            if first and sold is not None:
                return out[-1:]
        found = []
        for fibre, fit_a, fit_b in optics:
            ta, tb = _pick(fit_a, need), _pick(fit_b, need)
            sold = _sold(fibre.parts, need)
            length, part = sold if sold else fibre.parts[-1]
            reach = min(ta.reach_m, tb.reach_m, fibre.parts[-1][0])
            fibres = tuple((part, f"#{n}") for n in range(max(ta.fibres, tb.fibres)))
            items = ((ta.part, "a" if ta.ports > 1 else "/a"), (tb.part, "b" if tb.ports > 1 else "/b"), *fibres)
            found.append(_Option(OPTICS + fibre.id, "optics", length, reach, items,
                                 sold is not None and reach + 1e-9 >= need))
        return out + sorted(found, key=lambda c: (c.reach_m, c.media))

    def candidates(self, link, a: End, b: End, need: float, first: bool = False) -> list[Choice]:
        """Every media that fits the port pair, in preference order (reaching or not); with ``first``, only
        the first cable that reaches when one does (the optics are not worked out then)."""
        return [option.choice(link, a, b) for option in self._options(link.speed, a, b, need, first)]

    def _first_fit(self, link, a: End, b: End, need: float) -> _Option | None:
        """The preferred media that reaches ``need``, worked out once per shape and length band."""
        edges = self._fitting(link.speed, a, b)[2]
        key = (self._shape(link.speed, a, b), bisect_left(edges, need))
        if key not in self._chosen:
            self._chosen[key] = next((o for o in self._options(link.speed, a, b, need, True) if o.fits), None)
        return self._chosen[key]

    def choose(self, fabric, link, run: Run | None, override: str | None = None) -> Choice | None:
        """The media of one cable (None when it has no run)."""
        if run is None:
            return None
        a, b = self.end(fabric, link.a), self.end(fabric, link.b)
        if override is None:
            option = self._first_fit(link, a, b, run.needed_m)
            if option is not None:
                return option.choice(link, a, b)
        options = self.candidates(link, a, b, run.needed_m, first=override is None)
        if override is not None:
            for option in options:
                if option.media == override:
                    return option if option.fits else _short(option, run)
            return Choice(override, "", 0.0, 0.0, (), False, f"media {override} does not fit {_pair(link, a, b)}")
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
