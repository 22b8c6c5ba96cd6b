"""Test scaffolding for rail-ppd-agent: load it as a module, write pins files, stand in for vtysh.

The vtysh stand-in (``fake_vtysh``) answers the agent's two BGP questions from a JSON file the test
writes; real FRR answers them in tests/emulation. It is scaffolding, not a model of FRR's routing.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AGENT_PATH = ROOT / "resources" / "ppd" / "rail-ppd-agent.py"


def load_agent():
    spec = importlib.util.spec_from_file_location("rail_ppd_agent", AGENT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


UPLINKS = {"Ethernet240": {"next_hop": "10.254.0.0", "spine": "spine-01", "spine_port": "Ethernet0"},
           "Ethernet248": {"next_hop": "10.254.0.2", "spine": "spine-02", "spine_port": "Ethernet0"}}


def pins_data(l3: str = "Ethernet0") -> dict:
    """A leaf with two pinned sources, primaries on different uplinks, and two remote destinations."""
    return {
        "format": 1, "hostname": "leaf1", "acl_table": "PPD", "local": ["10.0.0.0/30"],
        "destinations": ["10.0.0.4/30", "10.0.0.8/30"], "uplinks": UPLINKS,
        "pins": [
            {"rule": "PIN_Ethernet0", "nic": "srv1/nic0", "downlink": "Ethernet0", "l3_interface": l3,
             "source": "10.0.0.1/32", "priority": 5000, "exception_priority": 8000,
             "candidates": ["Ethernet240", "Ethernet248"]},
            {"rule": "PIN_Ethernet8", "nic": "srv2/nic0", "downlink": "Ethernet8", "l3_interface": "Ethernet8",
             "source": "10.0.0.3/32", "priority": 4999, "exception_priority": 7999,
             "candidates": ["Ethernet248", "Ethernet240"]},
        ],
        "linux": {"table_base": 200, "pref_base": 10000},
    }


def write_pins(folder: Path, data: dict | None = None) -> Path:
    path = folder / "ppd-pins.json"
    path.write_text(json.dumps(data or pins_data()))
    return path


FAKE_VTYSH = '''import json, sys
state = json.load(open(sys.argv[1]))
for i, arg in enumerate(sys.argv):
    if arg == "-c":
        command = sys.argv[i + 1]
        if "summary" in command:
            print(json.dumps({"peers": {ip: {"state": s} for ip, s in state["sessions"].items()}}))
        else:
            print(json.dumps({"routes": {p: [{"valid": True, "peerId": ip} for ip in ips]
                                          for p, ips in state["adverts"].items()}}))
'''


def fake_vtysh(folder: Path, sessions: dict, adverts: dict) -> str:
    """The --vtysh command for a stand-in that reports these sessions and advertisements."""
    script, state = folder / "fake_vtysh.py", folder / "bgp.json"
    script.write_text(FAKE_VTYSH)
    state.write_text(json.dumps({"sessions": sessions, "adverts": adverts}))
    return f"{sys.executable} {script} {state}"


def set_bgp(folder: Path, sessions: dict, adverts: dict) -> None:
    (folder / "bgp.json").write_text(json.dumps({"sessions": sessions, "adverts": adverts}))


ALL_UP = {"10.254.0.0": "Established", "10.254.0.2": "Established"}
BOTH_ADVERTISE = {"10.0.0.4/30": ["10.254.0.0", "10.254.0.2"], "10.0.0.8/30": ["10.254.0.0", "10.254.0.2"]}
