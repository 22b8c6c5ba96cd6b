"""qos.netplan reads a netplan file's per-interface MTU by walking block-style keys; it must say what PyYAML
says, on the exporter's files and on the edits a person makes (anything not plain goes to PyYAML)."""

from __future__ import annotations

import pytest
import yaml

import designer
from designer.qos.netplan import NotPlain, _by_yaml, _walk, mtus
from tests.conftest import preset_fabric

BASE = """# a host
network:
  version: 2
  ethernets:
    ens1np0:
      # rail 0
      addresses:
        - "10.0.0.1/31"
      mtu: 9000
      routes:
        - to: default
          via: "10.0.0.0"
          mtu: 1500
    ens2np0:
      addresses: ["10.1.0.1/31"]
      mtu: 4200
"""

EDITS = {
    "as exported": BASE.replace('addresses: ["10.1.0.1/31"]', "addresses:\n        - 10.1.0.1/31"),
    "flow style": BASE,
    "quoted mtu and a comment": BASE.replace("mtu: 9000", 'mtu: "9216"   # jumbo'),
    "list at the key's indent": BASE.replace("      routes:\n        - to", "      routes:\n      - to")
                                    .replace("          via", "        via").replace("          mtu: 1500", "        mtu: 1500"),
    "mtu after the routes": BASE.replace("      mtu: 9000\n", "").replace("          mtu: 1500\n",
                                                                          "          mtu: 1500\n      mtu: 9100\n"),
    "no mtu": BASE.replace("      mtu: 9000\n", ""),
    "hex mtu": BASE.replace("mtu: 9000", "mtu: 0x2328"),
    "empty mtu": BASE.replace("mtu: 9000", "mtu:"),
    "odd indent": BASE.replace("      mtu: 9000", "     mtu: 9000"),
    "duplicate": BASE.replace("      mtu: 9000", "      mtu: 9000\n      mtu: 1500"),
    "a second document": BASE + "---\nnetwork: {}\n",
    "tabs": BASE.replace("      mtu: 9000", "\tmtu: 9000"),
    "renderer and bonds": "network:\n  renderer: networkd\n  bonds:\n    bond0:\n      mtu: 1500\n  ethernets:\n    e0:\n      mtu: 9000\n",
}


def _yaml_or_error(text: str):
    try:
        return _by_yaml(text)
    except yaml.YAMLError:
        return "YAMLError"


def _ours_or_error(text: str):
    try:
        return mtus(text)
    except yaml.YAMLError:
        return "YAMLError"


@pytest.mark.parametrize("name", list(EDITS))
def test_each_edit_reads_as_pyyaml_reads_it(name):
    text = EDITS[name]
    assert _ours_or_error(text) == _yaml_or_error(text)


def test_the_plain_walk_covers_the_exporters_files_and_flow_style_falls_back():
    assert _walk(EDITS["as exported"]) == {"ens1np0": "9000", "ens2np0": "4200"}
    with pytest.raises(NotPlain):
        _walk(EDITS["flow style"])


@pytest.mark.parametrize("preset", ["rail-optimized-64x4", "twin-plane-800g", "default"])
def test_every_exported_netplan_file_is_walked_to_pyyamls_answer(preset):
    fabric = preset_fabric(preset, sus=1, servers_per_su=4 if preset == "rail-optimized-64x4" else 2)
    files = {p: t for s in fabric.servers for p, t in designer.render_device(fabric, s).items()
             if p.endswith("netplan.yaml")}
    assert files
    for text in files.values():
        assert _walk(text) == _by_yaml(text) != {}
