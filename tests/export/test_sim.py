"""The ``sim`` part: SimAI's topology file equals, link for link, what SimAI's own generator writes for
the same rail-optimized shape (tests/data/simai, with its provenance), and ASTRA-sim's dimensions
multiply out to the design's GPUs."""

from __future__ import annotations

from pathlib import Path

import yaml

import designer
from designer.export.sim import render_sim

DATA = Path(__file__).resolve().parents[1] / "data" / "simai"


def _links(text: str) -> tuple[list[str], set[tuple[str, ...]]]:
    lines = text.splitlines()
    return lines[:2], {tuple(line.split()) for line in lines[2:]}


def test_the_default_preset_is_simais_own_file_for_its_shape():
    ours = render_sim(designer.build(designer.spec("default")))["sim/simai-topology.txt"]
    theirs = (DATA / "Rail_Opti_SingleToR_32g_4gps_400Gbps_H100").read_text()
    (head, links), (their_head, their_links) = _links(ours), _links(theirs)
    assert head == their_head and links == their_links and len(links) == 80
    assert ours == theirs                  # and in the same order, byte for byte


def test_the_node_map_names_every_number_and_a_recabled_nic_moves_its_line():
    fabric = designer.build(designer.spec("default"))
    files = render_sim(fabric)
    rows = files["sim/simai-nodes.csv"].splitlines()[1:]
    assert len(rows) == 50 and rows[0] == "0,gpu,su1-srv01,gpu0 nic0" and rows[40].endswith(",leaf,su1-leaf-r0,")
    fabric.move_nic("su1-srv01/nic0", "su1-leaf-r1")
    _, links = _links(render_sim(fabric)["sim/simai-topology.txt"])
    assert ("0", "41", "400Gbps", "0.0005ms", "0") in links and ("0", "40", "400Gbps", "0.0005ms", "0") not in links


def test_astra_sims_dimensions_multiply_out_to_the_gpus():
    for preset, params in (("default", {}), ("superpod-su", {"sus": 2}), ("superpod-su", {"sus": 16})):
        fabric = designer.build(designer.spec(preset, **params))
        net = yaml.safe_load(render_sim(fabric)["sim/astra-sim-network.yml"])
        product = 1
        for n in net["npus_count"]:
            product *= n
        assert product == sum(s.gpus for s in fabric.servers.values())
        assert len(net["topology"]) == len(net["npus_count"]) == len(net["bandwidth"]) == len(net["latency"])
    assert len(net["npus_count"]) == 4          # 16 SUs: through the cores, one more dimension


def test_a_fabric_of_two_server_shapes_has_no_astra_sim_file_and_says_why():
    fabric = designer.build(designer.spec("default"))
    fabric.remove_device("su2-srv04")
    files = render_sim(fabric)
    assert "sim/astra-sim-network.yml" not in files
    assert "SUs have different server counts" in files["sim/README.txt"]
