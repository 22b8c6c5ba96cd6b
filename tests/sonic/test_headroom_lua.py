"""The dynamic-model headroom formula against SONiC's own plugin, run where SONiC runs it.

buffermgrd hands ``buffer_headroom_mellanox.lua`` (sonic-swss cfgmgr) to redis (EVALSHA) with the
port's speed, cable length, MTU, gearbox delay and lane count; the plugin reads ASIC_TABLE from
STATE_DB and LOSSLESS_TRAFFIC_PATTERN, DEFAULT_LOSSLESS_BUFFER_PARAMETER and BUFFER_POOL from
CONFIG_DB. Here a real redis-server holds those rows and runs the real plugin; `headroom_formula`
must give the same xon/xoff/size for every case. The plugin is SONiC's code, so it is not kept in this
repository: it is read from ``shared/sonic-swss/cfgmgr/`` beside it (or ``RAIL_DESIGNER_SONIC_SWSS``).
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
import time
from dataclasses import replace

import pytest

from designer.export.headroom_formula import PAUSE_QUANTA, AsicFacts, headroom
from designer.export.lossless import platform_for_model
from tests.ci import need, shared_input

LUA = "cfgmgr/buffer_headroom_mellanox.lua"
CONFIG_DB, STATE_DB = 4, 6
# every ASIC_TABLE row of sonic-buildimage platform/mellanox/asic_table.j2 (cell, pipeline, mac/phy, peer)
SPECTRUMS = {
    "MELLANOX-SPECTRUM": (96, 19, 0.8, 3.8), "MELLANOX-SPECTRUM-2": (144, 19, 0.8, 3.8),
    "MELLANOX-SPECTRUM-3": (144, 19, 0.8, 3.8), "MELLANOX-SPECTRUM-4": (192, 19, 0.8, 3.8),
    "MELLANOX-SPECTRUM-5": (192, 19, 0.8, 3.8), "MELLANOX-SPECTRUM-6": (256, 42, 0.8, 3.8),
}
SPEEDS = sorted(PAUSE_QUANTA) + [2500, 5000]          # two with no pause quanta: peer_response_time
LENGTHS = ["1m", "2.5m", "5m", "7m", "23m", "40m", "100m", "300m", "2000m"]
MTUS = ["1500", "4200", "9100"]
LANES = [1, 2, 4, 8]


@pytest.fixture(scope="module")
def plugin():
    path = shared_input("RAIL_DESIGNER_SONIC_SWSS", "sonic-swss") / LUA
    need(path.is_file(), f"needs sonic-swss's {LUA} in shared/sonic-swss (or RAIL_DESIGNER_SONIC_SWSS)")
    return path.read_text()


@pytest.fixture(scope="module")
def redis(tmp_path_factory):
    need(shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None,
         "needs redis-server and redis-cli (install redis-server)")
    folder = tmp_path_factory.mktemp("redis")
    sock = str(folder / "redis.sock")
    proc = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", sock, "--save", "", "--appendonly", "no",
                             "--dir", str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if subprocess.run(["redis-cli", "-s", sock, "ping"], capture_output=True, text=True).stdout.strip() == "PONG":
                break
            time.sleep(0.025)
        else:
            raise RuntimeError("redis-server did not start")
        yield sock
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _cli(sock: str, commands: list[list[str]]) -> list[str]:
    """Run ``commands`` through one redis-cli (its piped output: one line per reply element)."""
    text = "".join(" ".join(_quote(word) for word in command) + "\n" for command in commands)
    done = subprocess.run(["redis-cli", "-s", sock], input=text, capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def _quote(word: str) -> str:
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _load(sock: str, facts: AsicFacts) -> None:
    pattern = ["HSET", "LOSSLESS_TRAFFIC_PATTERN|AZURE", "mtu", str(facts.lossless_mtu),
               "small_packet_percentage", str(facts.small_packet_percentage)]
    defaults = ["HSET", "DEFAULT_LOSSLESS_BUFFER_PARAMETER|AZURE", "default_dynamic_th", "0"]
    if facts.over_subscribe_ratio:
        defaults += ["over_subscribe_ratio", str(facts.over_subscribe_ratio)]
    pool = ["HSET", "BUFFER_POOL|ingress_lossless_pool", "mode", "dynamic", "type", "ingress"]
    if facts.shared_headroom_pool:
        pool += ["xoff", str(facts.shared_headroom_pool)]
    asic = ["HSET", f"ASIC_TABLE|{facts.asic_table}", "cell_size", str(facts.cell_size),
            "pipeline_latency", str(facts.pipeline_latency), "mac_phy_delay", str(facts.mac_phy_delay),
            "peer_response_time", str(facts.peer_response_time)]
    _cli(sock, [["FLUSHALL"], ["SELECT", str(CONFIG_DB)], pattern, defaults, pool,
                ["SELECT", str(STATE_DB)], asic])


def _run(sock: str, script: str, cases: list[tuple]) -> list[dict[str, int]]:
    sha = _cli(sock, [["SCRIPT", "LOAD", script]])[0]
    lines = _cli(sock, [["EVALSHA", sha, "1", "pg_lossless_profile", str(speed), cable, mtu, str(gearbox), str(lanes)]
                        for speed, cable, mtu, gearbox, lanes in cases])
    assert len(lines) == 3 * len(cases), lines[:6]
    results = []
    for i in range(0, len(lines), 3):
        fields = dict(line.split(":") for line in lines[i:i + 3])
        results.append({k: int(v) for k, v in fields.items()})
    return results


def _facts(asic: str, **changes) -> AsicFacts:
    cell, pipeline, mac_phy, peer = SPECTRUMS[asic]
    return replace(AsicFacts(asic, cell, pipeline, mac_phy, peer), **changes)


VARIANTS = [_facts(asic) for asic in SPECTRUMS] + [
    _facts("MELLANOX-SPECTRUM-4", over_subscribe_ratio=2),             # shared headroom pool by ratio
    _facts("MELLANOX-SPECTRUM-3", shared_headroom_pool=1048576),       # ... and by size
    _facts("MELLANOX-SPECTRUM-4", small_packet_percentage=100),
    _facts("MELLANOX-SPECTRUM-2", small_packet_percentage=0, lossless_mtu=9100),
]


@pytest.mark.parametrize("facts", VARIANTS, ids=lambda f: f"{f.asic_table}-osr{f.over_subscribe_ratio}"
                         f"-shp{f.shared_headroom_pool}-spp{f.small_packet_percentage}")
def test_formula_equals_the_plugin_run_in_redis(plugin, redis, facts):
    cases = [(speed, cable, mtu, gearbox, lanes) for speed, cable, mtu, lanes in
             itertools.product(SPEEDS, LENGTHS, MTUS, LANES) for gearbox in (0,)]
    cases += [(400000, "40m", "9100", 13.5, 8), (100000, "5m", "9100", 400, 4)]      # a gearbox delay
    _load(redis, facts)
    expected = _run(redis, plugin, cases)
    for (speed, cable, mtu, gearbox, lanes), lua in zip(cases, expected):
        ours = headroom(facts, speed, float(cable[:-1]), int(mtu), lanes, gearbox)
        assert {"xon": ours.xon, "xoff": ours.xoff, "size": ours.size} == lua, (speed, cable, mtu, gearbox, lanes)


def test_the_sn5600_platform_uses_the_plugins_spectrum4_facts(plugin, redis):
    """The facts the calculator keeps for the SN5600 are the ones the plugin computes the SN5600 with."""
    facts = platform_for_model("nvidia-sn5600").formula
    _load(redis, facts)
    case = (800000, "5m", "9100", 0, 8)
    lua = _run(redis, plugin, [case])[0]
    ours = headroom(facts, 800000, 5.0, 9100, 8)
    assert {"xon": ours.xon, "xoff": ours.xoff, "size": ours.size} == lua
