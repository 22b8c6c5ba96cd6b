"""The failover flow prober on its own (root: raw ICMP sockets): it answers its protocol, and it ends
when the runner goes away. An orphaned prober once spun for 44 minutes: at end of input each wake-up
pushed its stop time further away."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from designer.emulation.failover import PROBER


def _start():
    if os.geteuid() != 0:
        pytest.skip("the prober opens raw ICMP sockets, which needs root")
    proc = subprocess.Popen([sys.executable, str(PROBER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1)
    proc.stdin.write(json.dumps({"flows": [["127.0.0.1", "127.0.0.1"]], "interval": 0.02}) + "\n")
    assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
    proc.stdin.write("go\n")
    return proc


def test_stop_reports_each_flows_probes_and_replies():
    proc = _start()
    time.sleep(0.3)
    proc.stdin.write("stop\n")
    out, _ = proc.communicate(timeout=5)
    flow = json.loads(out)["flows"][0]
    assert len(flow["sent"]) >= 5 and flow["answered"] and set(flow["answered"]) <= set(range(len(flow["sent"])))


def test_the_prober_ends_when_the_runner_goes_away():
    proc = _start()
    time.sleep(0.1)
    proc.stdin.close()                       # the runner died: end of input, no "stop"
    try:
        proc.wait(timeout=3)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the prober kept running after its input closed")
    assert proc.returncode == 0
