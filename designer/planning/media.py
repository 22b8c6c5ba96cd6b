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
    """The cable types that fit the port pair, with the (broken-out end, other end) order they take."""
    wide, other = (a, b) if a.split >= b.split else (b, a)
    for cable in sorted(media.cables.values(), key=lambda c: (KINDS.index(c.kind), c.reach_m, c.id)):
        if cable.speed != speed or other.split != 1 or cable.legs != wide.split:
            continue
        x, y = cable.ends
        if (_form(x, wide.form) and _form(y, other.form)) or (cable.legs == 1 and _form(y, wide.form)
                                                                and _form(x, other.form)):
            yield cable, wide


def _transceiver(media: MediaCatalog, end: End, speed: int, fibre: str, need: float):
    fitting = [t for t in media.transceivers.values()
               if t.fibre == fibre and _form(t.form, end.form) and t.cage_speed == end.cage_speed
               and t.ports == end.split and t.speed == speed]
    reaching = sorted((t for t in fitting if t.reach_m + 1e-9 >= need), key=lambda t: (t.reach_m, t.part))
    return reaching[0] if reaching else (max(fitting, key=lambda t: t.reach_m) if fitting else None)


def _optics(media: MediaCatalog, speed: int, a: End, b: End, need: float):
    for fibre in sorted(media.fibres.values(), key=lambda f: f.id):
        ta, tb = _transceiver(media, a, speed, fibre.id, need), _transceiver(media, b, speed, fibre.id, need)
        if ta is not None and tb is not None:
            yield fibre, ta, tb


def candidates(media: MediaCatalog, link, a: End, b: End, need: float) -> list[Choice]:
    """Every media that fits the port pair, in preference order (reaching or not)."""
    out = []
    for cable, wide in _cables(media, link.speed, a, b):
        sold = _sold(cable.parts, need)
        length, part = sold if sold else cable.parts[-1]
        serves = wide.cage if cable.legs > 1 else link.id
        out.append(Choice(cable.id, cable.kind, length, cable.reach_m, ((part, serves),), sold is not None))
    optics = []
    for fibre, ta, tb in _optics(media, link.speed, a, b, need):
        sold = _sold(fibre.parts, need)
        length, part = sold if sold else fibre.parts[-1]
        reach = min(ta.reach_m, tb.reach_m, fibre.parts[-1][0])
        fibres = tuple((part, f"{link.id}#{n}") for n in range(max(ta.fibres, tb.fibres)))
        items = ((ta.part, a.cage if ta.ports > 1 else f"{link.id}/a"),
                 (tb.part, b.cage if tb.ports > 1 else f"{link.id}/b"), *fibres)
        optics.append(Choice(OPTICS + fibre.id, "optics", length, reach, items, sold is not None and reach + 1e-9 >= need))
    return out + sorted(optics, key=lambda c: (c.reach_m, c.media))


def choose(fabric, link, run: Run | None, override: str | None = None) -> Choice | None:
    """The media of one cable (None when it has no run)."""
    if run is None:
        return None
    a, b = end_of(fabric, link.a), end_of(fabric, link.b)
    options = candidates(fabric.catalog.media, link, a, b, run.needed_m)
    if override is not None:
        for option in options:
            if option.media == override:
                return option if option.fits else _short(option, run)
        return Choice(override, "", 0.0, 0.0, (), False,
                      f"media {override} does not fit {_pair(link, a, b)}")
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
