"""The design's entities. All are frozen: only `Fabric` replaces them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from .ids import endpoint


class Role(str, Enum):
    LEAF = "leaf"
    SPINE = "spine"
    CORE = "core"      # super-spine: the third tier, above spine groups


# Each switch tier's height, bottom up (a str Enum: its values "leaf", "spine", "core" look it up too).
TIER_RANK = {Role.LEAF: 0, Role.SPINE: 1, Role.CORE: 2}


@dataclass(frozen=True, slots=True)
class Nic:
    """A rail NIC port of a server. ``id`` is ``<server id>/nic<index>``.

    On a multi-plane NIC each port (or split lane group) that goes to its own plane is one `Nic`,
    with the plane in ``fabric_plane`` (from the server model); single-plane NICs are on plane 0.
    """

    server_id: str
    index: int
    netdev: str
    rdma: str
    speed: int
    gpus: tuple[int, ...]
    rail: int | None
    fabric_plane: int = 0

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
    rack: str | None = None           # the rack (a floor rack's id when the design has a floor)
    position: int | None = None       # its lowest unit in the rack, from 1
    gid_index: int | None = None      # RoCE v2 GID index measured on this server (None: the model's)

    def nic(self, index: int) -> Nic:
        for n in self.nics:
            if n.index == index:
                return n
        raise KeyError(f"{self.id} has no nic{index}")


@dataclass(frozen=True, slots=True)
class Switch:
    """A leaf (rail switch: ``su`` and ``rail`` set), a spine (``plane`` set when spine planes are per
    rail) or a core (super-spine).

    ``group`` (from 1): for a leaf or spine of a three-tier design, its spine group (the leaves and
    spines meshed together, NVIDIA's spine-leaf group); for a core, its core group (the cores that
    serve one spine position of every spine group). None in two-tier designs.
    ``fabric_plane`` (from 0): the independent plane of a multi-plane design the switch belongs to.
    """

    id: str
    hostname: str
    role: Role
    model: str
    su: int | None = None
    rail: int | None = None
    plane: int | None = None
    breakouts: tuple[tuple[int, str], ...] = ()   # (cage, mode) for cages not in native mode
    group: int | None = None
    fabric_plane: int = 0
    rack: str | None = None            # where it stands (as a `Server`'s): rack id and lowest unit
    position: int | None = None

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


SWITCH_PORT_MTU = 9100      # the IP MTU the bundle gives every switch port (SONiC's default; clab's links)


@dataclass(frozen=True, slots=True)
class AddressingSettings:
    scheme: str = "subnet-per-leaf"          # or "p2p31"
    rail_supernet: str = "10.0.0.0/12"      # carved into one pool per rail
    rail_prefix: int = 16                    # size of each rail's pool
    fabric_pool: str = "10.254.0.0/16"      # leaf-spine /31s
    loopback_pool: str = "10.255.0.0/16"    # /32 loopbacks
    mtu: int = 9000                          # host NIC MTU (switch ports carry SWITCH_PORT_MTU)


@dataclass(frozen=True, slots=True)
class AsnSettings:
    leaf_base: int = 4200000000
    spine_base: int = 4200100000
    spine_mode: str = "shared"               # "shared", "per-plane", "per-spine" or "per-group"


@dataclass(frozen=True, slots=True)
class GrowthPlan:
    """The final size a design is planned for (`planning.growth`): spines, cores, spine ports,
    address blocks and ASNs are sized and allocated for ``final_sus`` SUs of ``final_servers_per_su``
    servers, so adding SUs or servers up to that size only adds. ``build`` holds the resolved build
    parameters (hardware models and tier sizes, as sorted ``(name, value)`` pairs) the planner
    re-runs to place what is added; the pools, scheme, ASN bases and ratios are the settings'."""

    final_sus: int
    final_servers_per_su: int
    build: tuple[tuple[str, object], ...] = ()


LOAD_BALANCING_MODES = ("ppd", "ecmp", "qp-hash", "adaptive")
QPS_RANGE = (1, 128)


@dataclass(frozen=True, slots=True)
class LoadBalancing:
    """How leaves spread cross-leaf traffic: ``ppd`` (pinned paths, the bundle's PPD), ``ecmp`` (one
    5-tuple hash per flow, NCCL's one QP per connection), ``qp-hash`` (``qps`` queue pairs per connection,
    NCCL_IB_QPS_PER_CONNECTION, each hashed on its own) or ``adaptive`` (per-packet spraying / adaptive
    routing: a switch vendor feature). The host's NCCL env and the switches' hash fields follow it."""

    mode: str = "ppd"
    qps: int = 4            # queue pairs per connection; used by qp-hash only


@dataclass(frozen=True, slots=True)
class LosslessSettings:
    """The design's own ECN (WRED) marking and PFC watchdog values for the RoCE class; None keeps the
    documented default (`model.lossless.DEFAULTS`). Written to the design file only when set."""

    ecn_min_bytes: int | None = None
    ecn_max_bytes: int | None = None
    ecn_mark_percent: int | None = None
    pfcwd_detection_ms: int | None = None
    pfcwd_restoration_ms: int | None = None
    pfcwd_poll_ms: int | None = None
    pfcwd_action: str | None = None


@dataclass(frozen=True, slots=True)
class DesignSettings:
    name: str = "fabric"
    description: str = ""
    max_oversubscription: float = 1.0         # allowed downlink:uplink ratio
    spine_planes: str = "shared"              # "shared" or "per-rail"
    max_spine_oversubscription: float = 1.0   # allowed spine downlink:uplink ratio (three tiers)
    fabric_planes: int = 1                    # independent planes (multi-plane NICs); pools are split per plane
    core_asn: int = 4200200000                # every core shares this ASN (RFC 7938 section 5.2.1)
    addressing: AddressingSettings = field(default_factory=AddressingSettings)
    asn: AsnSettings = field(default_factory=AsnSettings)
    growth: GrowthPlan | None = None          # the final size planned for; None: designed for its size only
    fabric_kind: str = "ethernet"             # "ethernet" (RoCE, routed) or "infiniband" (OpenSM routes it)
    lossless: LosslessSettings = field(default_factory=LosslessSettings)   # ECN / PFC watchdog overrides
    load_balancing: LoadBalancing = field(default_factory=LoadBalancing)

    @property
    def infiniband(self) -> bool:
        return self.fabric_kind == INFINIBAND


SCHEMES = ("subnet-per-leaf", "p2p31")
ETHERNET, INFINIBAND = "ethernet", "infiniband"
FABRIC_KINDS = (ETHERNET, INFINIBAND)
SPINE_ASN_MODES = ("shared", "per-plane", "per-spine", "per-group")
SPINE_PLANE_MODES = ("shared", "per-rail")
