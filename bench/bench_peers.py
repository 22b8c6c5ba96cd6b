"""Benchmark: our switch configs against pyavd's, per switch, on the same leaf-spine fabric (issue 11:
">= 50x faster than pyavd's, measured side by side").

    .venv/bin/pip install pyavd          # not a project dependency; without it this prints why and stops
    .venv/bin/python bench/bench_peers.py [--big] [--repeat N]

The fabric is ours: 144 switches (16 SUs x 8 rails = 128 leaves, 2 spines per rail plane, 8 x 800G uplinks
per leaf, 4 to each spine, p2p /31s, eBGP; `--big`: the 4,096-server design's 512 leaves and 256 spines).
pyavd gets the same switches, host names, BGP ASNs, uplink ports and spine ports as eos_designs inputs
(l3leaf and spine nodes, eBGP underlay, no EVPN overlay, no VTEP), from which it derives the same kind of
p2p /31 uplinks and loopbacks.

What each side renders, per switch:
- ours: the `switches` part (config_db.json: ports, addresses, RoCE QoS, the PPD ACL; frr.conf; NOTES.txt)
  and the `ppd` part (ppd-pins.json, the PPD plan CSV), starting from a fresh fabric state, so the
  whole-fabric stage-1 data is computed inside the timing;
- pyavd: `get_avd_facts` over the fabric (its fabric-wide stage), then `get_device_structured_config` and
  `get_device_config` per switch: EOS CLI with interfaces, loopback and BGP. It configures no server
  ports and no QoS (its inputs would need connected endpoints and QoS profiles), so it does less per switch
  than we do. `validate_inputs` is timed apart and left out of the ratio.
Times are process CPU seconds (steadier than wall time on a shared machine), the best of --repeat pyavd runs
and of five times as many of ours (each takes a fraction of a second, so one load spike can cover it).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from designer.export import ppd, switches  # noqa: E402
from designer.model.entities import Role  # noqa: E402
from designer.planning.build import build  # noqa: E402
from designer.planning.spec import BuildSpec  # noqa: E402
from designer.planning.topology import all_leaf_links  # noqa: E402
from designer.storage.catalog_file import builtin_catalog  # noqa: E402

TARGET = 50.0
SMALL = BuildSpec(name="peers-144", sus=16, servers_per_su=16, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600",
                  leaf_uplinks=8, uplink_speed=800, spines=2, spine_planes="per-rail", scheme="p2p31")
BIG = BuildSpec(name="peers-768", sus=64, servers_per_su=64, leaf_model="nvidia-sn5600", spine_model="nvidia-sn5600",
                leaf_uplinks=32, uplink_speed=800, spines=32, spine_planes="per-rail", scheme="p2p31")
PARTS = [p for p in switches.PARTS + ppd.PARTS if p.name in ("switches", "ppd")]


def ours(spec: BuildSpec) -> tuple[float, int, dict[str, str]]:
    """CPU seconds to render every switch's files of a freshly built fabric, the switch count, the files."""
    fabric = build(spec, builtin_catalog())
    start, files = time.process_time(), {}
    for part in PARTS:
        for device in part.devices(fabric):
            files.update(part.render_device(fabric, device))
        files.update(part.render_global(fabric))
    return time.process_time() - start, len(fabric.switches), files


def avd_inputs(spec: BuildSpec) -> dict[str, dict]:
    """Per host, eos_designs inputs for the same switches, ASNs and cabling as our fabric."""
    fabric = build(spec, builtin_catalog())
    spines = [s for s in fabric.switches.values() if s.role is Role.SPINE]
    host = {s.id: s.hostname for s in fabric.switches.values()}
    leaves = []
    for number, (leaf_id, links) in enumerate(all_leaf_links(fabric).items(), 1):
        far = [ep.partition("/") for _, ep in links.uplinks]
        leaves.append({"name": host[leaf_id], "id": number, "bgp_as": str(fabric.asns[leaf_id]),
                       "uplink_interfaces": [port.name for port, _ in links.uplinks],
                       "uplink_switches": [host[spine] for spine, _, _ in far],
                       "uplink_switch_interfaces": [port for _, _, port in far]})
    parallel = max(max(l["uplink_switches"].count(s) for s in set(l["uplink_switches"])) for l in leaves)
    common = {
        "fabric_name": "RAIL", "underlay_routing_protocol": "ebgp", "overlay_routing_protocol": "none",
        "p2p_uplinks_mtu": 9100,
        "spine": {"defaults": {"loopback_ipv4_pool": "10.255.0.0/22", "platform": "7050X3"},
                  "nodes": [{"name": s.hostname, "id": n, "bgp_as": str(fabric.asns[s.id])}
                            for n, s in enumerate(spines, 1)]},
        "l3leaf": {"defaults": {"loopback_ipv4_pool": "10.255.8.0/22", "uplink_ipv4_pool": "10.254.0.0/16",
                                "vtep": False, "platform": "7050X3", "max_parallel_uplinks": parallel,
                                "max_uplink_switches": max(len(set(l["uplink_switches"])) for l in leaves)},
                   "nodes": leaves},
    }
    return {s.hostname: {**common, "type": "spine"} for s in spines} | {l["name"]: {**common, "type": "l3leaf"}
                                                                         for l in leaves}


def pyavd_run(hosts: dict[str, dict]) -> tuple[float, float, float, float, dict[str, str]]:
    """CPU seconds for (validate_inputs, get_avd_facts, structured configs, EOS configs) and the configs."""
    from pyavd import get_avd_facts, get_device_config, get_device_structured_config, validate_inputs

    start, inputs = time.process_time(), {}
    for name, data in hosts.items():
        result = validate_inputs(data)
        if result.validated_data is None:
            raise SystemExit(f"pyavd refused the inputs of {name}: {result.validation_result.violations[:3]}")
        inputs[name] = result.validated_data
    validated = time.process_time()
    facts = get_avd_facts(inputs)
    faced = time.process_time()
    structured = {name: get_device_structured_config(name, inputs[name], facts) for name in inputs}
    built = time.process_time()
    configs = {name: get_device_config(structured[name]) for name in inputs}
    done = time.process_time()
    return validated - start, faced - validated, built - faced, done - built, configs


def neighbours(text: str) -> int:
    return len(re.findall(r"^\s*neighbor \S+ remote-as \d+$", text, flags=re.M))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", action="store_true", help="the 4,096-server design's 768 switches (pyavd takes minutes)")
    parser.add_argument("--repeat", type=int, default=2, help="pyavd runs (about 15 s each for 144 switches)")
    args = parser.parse_args()
    spec = BIG if args.big else SMALL
    try:
        import pyavd
    except ImportError:
        print("pyavd is not installed: `.venv/bin/pip install pyavd` to run this side by side (it is not a "
              "project dependency)")
        return 0
    runs = [ours(spec) for _ in range(5 * args.repeat)]        # ours is short: more runs ride out load spikes
    our_cpu, count, files = min(runs, key=lambda r: r[0])
    hosts = avd_inputs(spec)
    best = min((pyavd_run(hosts) for _ in range(args.repeat)), key=lambda r: sum(r[1:4]))
    validate, facts, structured, cli, configs = best
    avd_cpu = facts + structured + cli
    # The same fabric on both sides: every switch, and as many BGP sessions per switch.
    ours_bgp = {path.split("/")[1]: neighbours(text) for path, text in files.items() if path.endswith("/frr.conf")}
    assert len(configs) == count == len(ours_bgp), (len(configs), count, len(ours_bgp))
    assert all(neighbours(configs[h]) == n for h, n in ours_bgp.items()), "pyavd's BGP sessions differ from ours"
    sessions = sum(ours_bgp.values()) // 2
    print(f"fabric: {count} switches, {sessions:,} eBGP sessions on p2p /31s (pyavd {pyavd.__version__}; CPU seconds, "
          f"best of {args.repeat} pyavd runs, {5 * args.repeat} of ours)")
    print(f"  ours : {our_cpu:6.2f} s  = {our_cpu / count * 1000:7.2f} ms/switch  "
          f"(config_db.json, frr.conf, NOTES.txt, ppd-pins.json, PPD csv: {len(files):,} files, "
          f"{sum(map(len, files.values())) / 1e6:.1f} MB)")
    print(f"  pyavd: {avd_cpu:6.2f} s  = {avd_cpu / count * 1000:7.2f} ms/switch  (facts {facts:.2f} s, structured "
          f"config {structured:.2f} s, EOS CLI {cli:.2f} s; validate_inputs {validate:.2f} s more, not counted; "
          f"{sum(map(len, configs.values())) / 1e6:.1f} MB)")
    ratio = avd_cpu / our_cpu
    print(f"ratio: ours is {ratio:.1f}x faster per switch (target >= {TARGET:.0f}x): {'met' if ratio >= TARGET else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
