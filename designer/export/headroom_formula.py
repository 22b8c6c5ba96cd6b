"""SONiC's dynamic buffer model: the lossless PG headroom computed from speed, cable length and MTU.

With ``DEVICE_METADATA|localhost buffer_model`` = ``dynamic``, buffermgrd (sonic-swss
cfgmgr/buffermgrdyn.cpp ``calculateHeadroomSize``) runs the vendor's headroom plugin in redis with
ARGV = port speed (Mb/s), cable length ("5m"), port MTU, gearbox delay and the port's lane count;
ASIC facts come from STATE_DB ``ASIC_TABLE`` and the traffic pattern from CONFIG_DB
``LOSSLESS_TRAFFIC_PATTERN`` / ``DEFAULT_LOSSLESS_BUFFER_PARAMETER``. SONiC ships such a plugin for
Mellanox (``buffer_headroom_mellanox.lua``, which the vs platform reuses) and Barefoot; Broadcom and
the others have none, so they run the static model only.

This module is the Mellanox plugin's arithmetic, in the same order of floating-point operations (IEEE
doubles, as in redis's Lua 5.1), so every rounding up to 1 KB lands where the plugin's does;
tests/sonic/test_headroom_lua.py runs the real plugin in a real redis-server against it.

The computation (bytes):
- peer response = pause quanta of the speed (IEEE 802.3 31B.3.7) x 512 bits / 8; a speed with none
  falls back to ASIC_TABLE ``peer_response_time`` (KB);
- bytes on the cable = 2 x length x speed / 198,000 km/s (light in fibre), both ways;
- propagation = port MTU + cable + 2 x gearbox + ``mac_phy_delay`` + peer response (+ speed/1000 x 15
  bytes "on tile" for Spectrum-4 and -5);
- cell occupancy = the worst-case cell use of minimal 64-byte packets (``cell_size``) weighted by
  ``small_packet_percentage`` counted in bytes of ``lossless_mtu``-sized packets;
- xoff = lossless MTU + propagation x occupancy, up to a whole KB (+18 KB on Spectrum-6; +2 KB when
  there is no shared headroom pool and the result stays over 2 KB under the all-small-packets case);
- xon = ``pipeline_latency`` (doubled on an 8-lane port), up to a whole KB;
- size = xon with a shared headroom pool, else xoff + xon (+ one port MTU on an 8-lane port), up to a
  whole KB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LIGHT_IN_CABLE = 198000000.0          # m/s
MIN_PACKET = 64
KB = 1024
HEADROOM_COMPENSATION = 2 * KB
SPECTRUM6_COMPENSATION = 18 * KB
# IEEE 802.3 31B.3.7 pause quanta per operating speed (Mb/s), as the plugin lists them
PAUSE_QUANTA = {800000: 905, 400000: 905, 200000: 453, 100000: 394, 50000: 147, 40000: 118,
                25000: 80, 10000: 67, 1000: 2, 100: 1}


@dataclass(frozen=True)
class AsicFacts:
    """One ASIC_TABLE row plus the traffic-pattern rows the dynamic model reads (their units: KB for
    the delays, as SONiC's asic_table.j2 writes them)."""

    asic_table: str                  # "MELLANOX-SPECTRUM-4": its last character is the generation
    cell_size: int
    pipeline_latency: float
    mac_phy_delay: float
    peer_response_time: float
    lossless_mtu: int = 1024
    small_packet_percentage: int = 50
    over_subscribe_ratio: float = 0
    shared_headroom_pool: int = 0    # BUFFER_POOL|ingress_lossless_pool xoff (0: none)

    @property
    def generation(self) -> str:
        return self.asic_table[-1:]


@dataclass(frozen=True)
class Computed:
    xon: int
    xoff: int
    size: int


def _up(value: float) -> float:
    return math.ceil(value / KB) * KB


def headroom(facts: AsicFacts, speed: int, cable_m: float, port_mtu: int, lanes: int,
             gearbox_delay: float = 0) -> Computed:
    """xon / xoff / size of the lossless PG of a port (speed in Mb/s, cable in metres)."""
    speed_f, mtu_f = float(speed), float(port_mtu)
    pipeline = facts.pipeline_latency * KB
    mac_phy = facts.mac_phy_delay * KB
    quanta = PAUSE_QUANTA.get(speed)
    peer = quanta * 512 / 8 if quanta is not None else facts.peer_response_time * KB
    on_tile = speed_f / 1000 * 120 / 8 if facts.generation in ("4", "5") else 0
    shared = bool(facts.shared_headroom_pool) or bool(facts.over_subscribe_ratio)
    overhead = 0.0
    if lanes == 8:
        pipeline = pipeline * 2
        overhead = mtu_f
    cell = facts.cell_size
    worst = math.ceil(cell / MIN_PACKET if cell > 2 * MIN_PACKET else (2 * cell) / (1 + cell))
    small = facts.small_packet_percentage
    small_by_bytes = 100 * MIN_PACKET / ((small * MIN_PACKET + (100 - small) * facts.lossless_mtu) / 100)
    occupancy = (100 - small_by_bytes + small_by_bytes * worst) / 100
    on_gearbox = 0.0 if gearbox_delay == 0 else speed_f * gearbox_delay / (8 * 1024)
    on_cable = 2 * float(cable_m) * speed_f * 1000000000 / LIGHT_IN_CABLE / (8 * 1000)
    propagation = mtu_f + on_cable + 2 * on_gearbox + mac_phy + peer + on_tile
    xoff = _up(facts.lossless_mtu + propagation * occupancy)
    if facts.generation == "6":
        xoff = xoff + SPECTRUM6_COMPENSATION
    if not shared and small != 100:
        all_small = _up(facts.lossless_mtu + propagation * worst)
        if xoff + HEADROOM_COMPENSATION < all_small:
            xoff = xoff + HEADROOM_COMPENSATION
    xon = _up(pipeline)
    size = _up(xon if shared else xoff + xon + overhead)
    return Computed(xon=int(xon), xoff=int(xoff), size=int(size))
