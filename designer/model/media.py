"""Cable and optics types (the media catalogue: ``resources/catalog/media.yaml`` and users' catalog files).

A `CableType` joins both ends itself (DAC, ACC, AOC; a splitter when ``legs`` > 1); otherwise a link is
a `Transceiver` in each cage and a `Fibre` between them. `planning.media` picks one per cable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS = ("dac", "acc", "aoc")          # cheapest first: the choice prefers them in this order


@dataclass(frozen=True, slots=True)
class CableType:
    id: str
    kind: str                          # dac, acc or aoc
    description: str
    ends: tuple[str, str]              # cage types; a splitter's broken-out end first
    speed: int                         # what each leg carries, Gb/s
    legs: int                          # links one item carries
    parts: tuple[tuple[float, str], ...]   # (sold length m, part number), shortest first

    @property
    def reach_m(self) -> float:
        return self.parts[-1][0]


@dataclass(frozen=True, slots=True)
class Transceiver:
    part: str
    form: str                          # cage type
    cage_speed: int                    # the cage's native speed
    ports: int                         # links it carries (2: twin-port)
    speed: int                         # per port
    fibre: str                         # the Fibre id it takes
    reach_m: float
    type: str                          # SR4, DR4, 2xDR4, FR4...
    description: str = ""
    fibres: int = 1                    # fibres per link (2: a twin-port plug carrying one 800G link)

    @property
    def key(self) -> str:
        """Its catalogue key: the part, and how it is used when one part serves several ways."""
        return f"{self.part}@{self.ports}x{self.speed}"

@dataclass(frozen=True, slots=True)
class Fibre:
    id: str
    description: str
    parts: tuple[tuple[float, str], ...]


@dataclass
class MediaCatalog:
    cables: dict[str, CableType] = field(default_factory=dict)
    transceivers: dict[str, Transceiver] = field(default_factory=dict)   # by `Transceiver.key`
    fibres: dict[str, Fibre] = field(default_factory=dict)
    prices: dict[str, float] = field(default_factory=dict)               # part number -> unit price
    currency: str = ""

    def merged(self, other: "MediaCatalog") -> "MediaCatalog":
        return MediaCatalog({**self.cables, **other.cables}, {**self.transceivers, **other.transceivers},
                            {**self.fibres, **other.fibres}, {**self.prices, **other.prices},
                            other.currency or self.currency)

    def describe(self, part: str) -> str:
        """A part number's description (the cable's or transceiver's, or the fibre's with its length)."""
        for cable in self.cables.values():
            for length, number in cable.parts:
                if number == part:
                    return f"{cable.description}, {length:g} m"
        for t in self.transceivers.values():
            if t.part == part:
                return t.description
        for fibre in self.fibres.values():
            for length, number in fibre.parts:
                if number == part:
                    return f"{fibre.description}, {length:g} m"
        return ""
