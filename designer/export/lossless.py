"""The lossless calculator: the PG profile SONiC's buffer manager gives a lossless port.

For a SONiC platform (resources/lossless/platforms.yaml, which also maps the catalogue's switch
models to one), a port speed (Mb/s), a cable length and an MTU it returns the BUFFER_PROFILE the
buffer manager creates for the port's lossless PG (``BUFFER_PG|<port>|3``) and says where the numbers
come from:

- the static ("traditional") model, sonic-swss cfgmgr/buffermgr.cpp ``doSpeedUpdateTask``: the row of
  the platform's ``pg_profile_lookup.ini`` for exactly that speed and ``CABLE_LENGTH`` string, as
  profile ``pg_lossless_<speed>_<cable>_profile`` (xon, xon_offset when the table has the column,
  xoff, size, and ``<pool mode>_th`` = the threshold column). A pair the table does not list gets no
  profile: buffermgrd logs "No PG profile configured for speed ... and cable length ..." and creates no
  BUFFER_PG, so the port has PFC without headroom. There is no rounding to a nearby length.
- the dynamic model (buffermgrdyn.cpp): the vendor's headroom plugin (`headroom_formula`), profile
  ``pg_lossless_<speed>_<cable>[_mtu<mtu>][_8lane]_profile`` (no ``_mtu`` for SONiC's default 9100;
  ``_8lane`` on an 8-lane Spectrum port that runs below the ASIC's full port speed).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import yaml

from ..errors import DesignerError
from ..resources import resources_dir
from .headroom_formula import AsicFacts, headroom

TRADITIONAL, DYNAMIC = "traditional", "dynamic"
DEFAULT_MTU = "9100"                   # buffermgrdyn.h DEFAULT_MTU_STR
LUA_COMMIT = "sonic-swss 422271e7e9a1cf659a4fd1fbd4d5e0acc0b61e16"
TABLE_COMMIT = "sonic-buildimage 086b03bd70f9e211aaaf5f6aefe0790b508d2a94"
# the full speed of an 8-lane port per Spectrum series (buffermgrdyn.cpp getDynamicProfileName)
FULL_8LANE_SPEED = {4: "400000", 5: "800000"}


@dataclass(frozen=True)
class Platform:
    name: str                      # the HWSKU
    device: str                    # sonic-buildimage device folder
    asic: str
    vendor: str
    table: str                     # file under resources/lossless/tables
    pool_mode: str
    buffer_model: str              # the one its image starts with
    models: tuple[str, ...]
    is_class: bool = False
    formula: AsicFacts | None = None
    lua: str | None = None

    @property
    def model_number(self) -> int:
        """What buffermgrdyn reads from the platform name: the 4 digits after "sn" (0 if none)."""
        at = self.device.find("sn")
        digits = self.device[at + 2:at + 6] if at >= 0 else ""
        return int(digits) if digits.isdigit() else 0


@dataclass(frozen=True)
class Profile:
    name: str
    xon: int
    xoff: int
    size: int
    threshold: tuple[str, str]     # ("dynamic_th", "0")
    xon_offset: int | None = None

    def fields(self) -> dict[str, str]:
        """The BUFFER_PROFILE fields (what ``show buffer configuration`` lists)."""
        out = {"pool": "ingress_lossless_pool", "xon": str(self.xon)}
        if self.xon_offset is not None:
            out["xon_offset"] = str(self.xon_offset)
        out.update(xoff=str(self.xoff), size=str(self.size))
        out[self.threshold[0]] = self.threshold[1]
        return out


@dataclass(frozen=True)
class Headroom:
    """What one buffer model does for a port: a profile, or None and the reason."""

    buffer_model: str
    profile: Profile | None
    source: str
    problem: str = ""


@lru_cache(maxsize=1)
def platforms() -> dict[str, Platform]:
    data = yaml.safe_load((resources_dir() / "lossless" / "platforms.yaml").read_text(encoding="utf-8"))
    out = {}
    for name, p in data["platforms"].items():
        formula = p.get("formula")
        facts = None if formula is None else AsicFacts(
            formula["asic_table"], formula["cell_size"], formula["pipeline_latency"], formula["mac_phy_delay"],
            formula["peer_response_time"], formula["lossless_mtu"], formula["small_packet_percentage"],
            formula["over_subscribe_ratio"])
        out[name] = Platform(name, p["device"], p["asic"], p["vendor"], p["table"], p["pool_mode"],
                             p["buffer_model"], tuple(p["models"]), bool(p.get("class")), facts,
                             None if formula is None else formula["lua"])
    return out


def platform_for_model(model_id: str) -> Platform | None:
    """The SONiC platform a catalogue switch model is (None: sonic-buildimage has none for it)."""
    for platform in platforms().values():
        if model_id in platform.models:
            return platform
    return None


def parse_lookup(text: str) -> dict[tuple[str, str], tuple[str, ...]]:
    """A pg_profile_lookup.ini as buffermgr reads it: lines that are not empty and do not start with
    ``#``, split on white space: speed, cable, size, xon, xoff, threshold[, xon_offset]."""
    rows = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        words = line.split()
        if len(words) >= 6:
            rows[(words[0], words[1])] = tuple(words[2:7])
    return rows


@lru_cache(maxsize=16)
def lookup_table(platform: Platform) -> dict[tuple[str, str], tuple[str, ...]]:
    return parse_lookup((resources_dir() / "lossless" / "tables" / platform.table).read_text(encoding="utf-8"))


def static_headroom(platform: Platform, speed: str, cable: str) -> Headroom:
    source = f"pg_profile_lookup.ini of {platform.name} ({platform.device}, {TABLE_COMMIT})"
    row = lookup_table(platform).get((speed, cable))
    if row is None:
        listed = sorted({c for s, c in lookup_table(platform) if s == speed}, key=_metres)
        hint = (f"it lists {', '.join(listed)} for this speed" if listed else "it lists no length for this speed")
        return Headroom(TRADITIONAL, None, source,
                        f"no row for speed {speed} and cable length {cable} ({hint}): buffermgrd creates no "
                        "lossless PG on such a port")
    size, xon, xoff, threshold = row[:4]
    profile = Profile(f"pg_lossless_{speed}_{cable}_profile", int(xon), int(xoff), int(size),
                      (f"{platform.pool_mode}_th", threshold), int(row[4]) if len(row) > 4 else None)
    return Headroom(TRADITIONAL, profile, source)


def table_length(model_id: str, speed: str, metres: float) -> str | None:
    """The shortest CABLE_LENGTH the model's platform table lists for ``speed`` that is at least
    ``metres`` (a longer cable only adds headroom), or None when the model has no platform, the table
    lists nothing that long, or the platform computes any length (dynamic model). For a writer of
    CABLE_LENGTH that wants the static model to find a profile."""
    platform = platform_for_model(model_id)
    if platform is None or platform.buffer_model == DYNAMIC:
        return None
    listed = sorted((_metres(c), c) for s, c in lookup_table(platform) if s == speed)
    return next((cable for length, cable in listed if length >= metres), None)


def dynamic_headroom(platform: Platform, speed: str, cable: str, mtu: str = DEFAULT_MTU, lanes: int = 4) -> Headroom:
    if platform.formula is None:
        return Headroom(DYNAMIC, None, "", f"SONiC has no headroom plugin for {platform.vendor} ASICs: "
                                           "only the static model runs there")
    facts = platform.formula
    source = (f"the headroom formula of {platform.lua} ({LUA_COMMIT}) with {facts.asic_table}: cell "
              f"{facts.cell_size} B, pipeline latency {facts.pipeline_latency} KB, MAC/PHY delay "
              f"{facts.mac_phy_delay} KB, lossless MTU {facts.lossless_mtu}, small packets "
              f"{facts.small_packet_percentage} %")
    try:
        metres = _metres(cable)
    except ValueError:
        return Headroom(DYNAMIC, None, source, f"cable length '{cable}' is not <number>m")
    computed = headroom(facts, int(speed), metres, int(mtu), lanes)
    name = f"pg_lossless_{speed}_{cable}" + ("" if mtu == DEFAULT_MTU else f"_mtu{mtu}")
    full = FULL_8LANE_SPEED.get(platform.model_number // 1000)
    if platform.vendor == "mellanox" and lanes == 8 and full is not None and speed != full:
        name += "_8lane"
    return Headroom(DYNAMIC, Profile(name + "_profile", computed.xon, computed.xoff, computed.size, ("dynamic_th", "0")),
                    source)


def lossless_headroom(platform: Platform, speed: str, cable: str, mtu: str = DEFAULT_MTU, lanes: int = 4,
                      buffer_model: str | None = None) -> Headroom:
    """The profile under ``buffer_model`` (default: the one the platform's image starts with)."""
    if (buffer_model or platform.buffer_model) == DYNAMIC:
        return dynamic_headroom(platform, speed, cable, mtu, lanes)
    return static_headroom(platform, speed, cable)


def _metres(cable: str) -> float:
    if not cable.endswith("m"):
        raise ValueError(cable)
    return float(cable[:-1])


class UnknownPlatform(DesignerError, ValueError):
    """A switch model or platform the calculator has no SONiC platform for."""


def resolve_platform(model_id: str | None, platform_name: str | None) -> Platform:
    """The platform named, or the one the catalogue model is; a readable refusal for neither."""
    known = ", ".join(platforms())
    if platform_name is not None:
        if platform_name not in platforms():
            raise UnknownPlatform(f"no SONiC platform '{platform_name}' in the calculator; known: {known}")
        return platforms()[platform_name]
    if model_id is None:
        raise UnknownPlatform(f"name a switch model (--model) or a SONiC platform (--platform: {known})")
    platform = platform_for_model(model_id)
    if platform is None:
        mapped = ", ".join(m for p in platforms().values() for m in p.models)
        raise UnknownPlatform(f"switch model '{model_id}' has no SONiC platform in sonic-buildimage (models with "
                              f"one: {mapped}); its own HWSKU decides its headroom, or name a platform with "
                              f"--platform ({known})")
    return platform
