"""The hash fields a qp-hash design writes, run for real: in the emulation the leaf hashes as its
config_db.json's SWITCH_HASH says (the kernel's multipath hash), so 64 RoCEv2 queue pairs of one
connection (same addresses, UDP port 4791, one source port each, as the NIC gives each QP) leave by
both uplinks; hashed on the addresses only, as without the table, they all take one.

Needs root, `ip netns` and FRR, as tests/emulation/test_netns.py."""

from __future__ import annotations

import json
from dataclasses import replace

from designer.emulation import emulate, environment_problem
from designer.emulation.configdb import HASH_POLICY, apply_config_db
from designer.model.entities import LoadBalancing
from tests.ci import need
from tests.conftest import preset_fabric

QPS = 64
SEND = """
import socket, sys
src, dst, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
for port in range(first, first + count):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind((src, port))
    for _ in range(4):
        s.sendto(b"rocev2-qp" * 8, (dst, 4791))
    s.close()
"""


def test_switch_hash_becomes_the_kernels_multipath_policy():
    db = {"SWITCH_HASH": {"GLOBAL": {"ecmp_hash": ["SRC_IP", "DST_IP", "IP_PROTOCOL", "L4_SRC_PORT", "L4_DST_PORT"]}}}
    assert apply_config_db(json.dumps(db), "x", str, set()).sysctls == [f"{HASH_POLICY}=1"]
    db["SWITCH_HASH"]["GLOBAL"]["ecmp_hash"] = ["SRC_IP", "DST_IP"]
    assert apply_config_db(json.dumps(db), "x", str, set()).sysctls == [f"{HASH_POLICY}=0"]
    assert apply_config_db("{}", "x", str, set()).sysctls == []


def _tx(runner, ns: str, ifname: str) -> int:
    out = runner.exec(ns, ["ip", "-s", "-j", "link", "show", "dev", ifname]).stdout
    return json.loads(out)[0]["stats64"]["tx"]["packets"]


def test_qp_hash_design_spreads_one_connections_qps_over_both_uplinks():
    problem = environment_problem()
    need(problem is None, problem)
    fabric = preset_fabric("default", sus=2, servers_per_su=2, rails=1)
    fabric.set_settings(replace(fabric.settings, load_balancing=LoadBalancing("qp-hash", QPS)))
    seen: dict[str, dict[str, int]] = {}

    def send_qps(runner) -> None:
        plan = runner.plan
        src = next(e for e in plan.endpoints if e.host == "su1-srv01")
        dst = next(e for e in plan.endpoints if e.host == "su2-srv01")
        leaf_ns = plan.ns_of(src.leaf)
        spine_ns = {plan.ns_of(s.id) for s in fabric.spines()}
        uplinks = [c.a_if if c.a_ns == leaf_ns else c.b_if for c in plan.cables
                   if {c.a_ns, c.b_ns} & {leaf_ns} and {c.a_ns, c.b_ns} & spine_ns]
        assert len(uplinks) == 2
        policy = runner.exec(leaf_ns, ["sysctl", "-n", HASH_POLICY]).stdout.strip()
        for label, first, hashing in (("5-tuple", 40000, policy), ("addresses only", 50000, "0")):
            runner.exec(leaf_ns, ["sysctl", "-q", "-w", f"{HASH_POLICY}={hashing}"])
            before = {u: _tx(runner, leaf_ns, u) for u in uplinks}
            runner.exec(src.ns, ["python3", "-c", SEND, src.address.split("/")[0], dst.address.split("/")[0],
                                 str(first), str(QPS)])
            seen[label] = {u: _tx(runner, leaf_ns, u) - before[u] for u in uplinks}
        seen["policy"] = {"as written": int(policy)}

    result = emulate(fabric, after_setup=send_qps, failover=False)
    assert result.ok, [r for r in result.rows if not r.ok]
    assert seen["policy"] == {"as written": 1}                  # config_db.json's SWITCH_HASH, applied
    spread, pinned = seen["5-tuple"], seen["addresses only"]
    assert all(n >= 4 for n in spread.values()) and sum(spread.values()) >= 4 * QPS, seen
    assert sorted(pinned.values())[0] < 4 <= sorted(pinned.values())[1], seen   # one uplink carries them all
