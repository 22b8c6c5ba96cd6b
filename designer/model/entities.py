"""The design's entities. All are frozen: only `Fabric` replaces them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .ids import endpoint


class Role(str, Enum):
    LEAF = "leaf"
    SPINE = "spine"


@dataclass(frozen=True, slots=True)
class Nic:
    """A rail NIC of a server. ``id`` is ``<server id>/nic<index>``."""

    server_id: str
    index: int
    netdev: str
    rdma: str
    speed: int
    gpus: tuple[int, ...]
    rail: int | None

    @property
    def id(self) -> str:
        return endpoint(self.server_id, self.port)

    @property
    def port(self) -> str:
        return f"nic{self.index}"


@dataclass(frozen=True, slots=True)
class Server:
    id: str
    hostname: str
    model: str
    su: int
    nics: tuple[Nic, ...]
    gpus: int
    rack: str | None = None
    position: int | None = None
    gid_index: int | None = None      # RoCE v2 GID index measured on this server (None: the model's)

    def nic(self, index: int) -> Nic:
        for n in self.nics:
            if n.index == index:
                return n
        raise KeyError(f"{self.id} has no nic{index}")


@dataclass(frozen=True, slots=True)
class Switch:
    """A leaf (rail switch: ``su`` and ``rail`` set) or a spine (``plane`` set when planes are per rail)."""

    id: str
    hostname: str
    role: Role
    model: str
    su: int | None = None
    rail: int | None = None
    plane: int | None = None
    breakouts: tuple[tuple[int, str], ...] = ()   # (cage, mode) for cages not in native mode

    def breakout_of(self, cage: int, native: str) -> str:
        for c, mode in self.breakouts:
            if c == cage:
                return mode
        return native


@dataclass(frozen=True, slots=True)
class Link:
    """A cable between two endpoints. ``a`` sorts before ``b``; the id is ``a~b``."""

    a: str
    b: str
    speed: int

    @property
    def id(self) -> str:
        return f"{self.a}~{self.b}"

    def other(self, ep: str) -> str:
        return self.b if ep == self.a else self.a


@dataclass(frozen=True, slots=True)
class Rail:
    index: int
    name: str


@dataclass(frozen=True, slots=True)
class ScalableUnit:
    index: int
    name: str


@dataclass(frozen=True, slots=True)
class AddressingSettings:
    scheme: str = "subnet-per-leaf"          # or "p2p31"
    rail_supernet: str = "10.0.0.0/12"      # carved into one pool per rail
    rail_prefix: int = 16                    # size of each rail's pool
    fabric_pool: str = "10.254.0.0/16"      # leaf-spine /31s
    loopback_pool: str = "10.255.0.0/16"    # /32 loopbacks
    mtu: int = 9000                          # host NIC MTU (switch ports carry 9100)


@dataclass(frozen=True, slots=True)
class AsnSettings:
    leaf_base: int = 4200000000
    spine_base: int = 4200100000
    spine_mode: str = "shared"               # "shared", "per-plane" or "per-spine"


@dataclass(frozen=True, slots=True)
class DesignSettings:
    name: str = "fabric"
    description: str = ""
    max_oversubscription: float = 1.0         # allowed downlink:uplink ratio
    spine_planes: str = "shared"              # "shared" or "per-rail"
    addressing: AddressingSettings = field(default_factory=AddressingSettings)
    asn: AsnSettings = field(default_factory=AsnSettings)


SCHEMES = ("subnet-per-leaf", "p2p31")
SPINE_ASN_MODES = ("shared", "per-plane", "per-spine")
SPINE_PLANE_MODES = ("shared", "per-rail")
