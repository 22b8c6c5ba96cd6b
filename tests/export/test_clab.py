"""The containerlab lab: nodes, binds into the bundle's own files, links from the cabling.

containerlab's JSON schema (srl-labs/containerlab ``schemas/clab.schema.json``) is not shipped by any
registry this project's CI reaches (PyPI, npm, Debian), and nothing fetched may be committed, so the
schema test reads the project's shared copy beside the repository (``../shared/containerlab``, or
``RAIL_DESIGNER_CLAB_SCHEMA``); the other tests check what the schema checks for the parts this
exporter writes, plus what it cannot (binds, endpoints, names).
"""

from __future__ import annotations

import json
import re

import pytest
import yaml

from designer.export.bundle import render_in_memory, select_parts
from designer.export.clab import LINK_MTU, PARTS
from designer.export.switch_data import switch_data
from tests.ci import clab_schema
from tests.export.shapes import design as fabric


LAB = PARTS[0]
PRESETS = [("default", {}), ("rail-only-32x4", {}), ("rail-optimized-64x4", {}), ("superpod-su", {}),
           ("superpod-su", {"sus": 2, "spine_planes": "per-rail"}), ("b200-three-tier-p2p31", {}),
           ("twin-plane-p2p31", {})]
NODE_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9-._|]*$")        # the schema's pattern for node names
LAB_NAME = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9-._]*$")           # and for the topology name
IFNAME = re.compile(r"^[A-Za-z0-9_.-]{1,15}$")
NODE_KEYS = {"kind", "image", "group", "labels", "binds", "exec"}   # all in the schema's node-config


def lab(preset, overrides):
    f = fabric(preset, **overrides)
    files = LAB.render_global(f)
    (path,) = [p for p in files if p.endswith(".clab.yml")]
    return f, path, yaml.safe_load(files[path]), files


@pytest.mark.parametrize("preset,overrides", PRESETS)
def test_nodes_links_and_binds_match_the_bundle(preset, overrides):
    f, path, doc, files = lab(preset, overrides)
    assert path == f"lab/{doc['name']}.clab.yml" and LAB_NAME.match(doc["name"])
    nodes, links = doc["topology"]["nodes"], doc["topology"]["links"]
    assert set(doc) == {"name", "topology"} and set(doc["topology"]) == {"nodes", "links"}
    assert sorted(nodes) == sorted(d.hostname for d in [*f.servers.values(), *f.switches.values()])
    bundle = render_in_memory(f, select_parts(["switches", "hosts"]))
    folders = {p.rsplit("/", 1)[0] for p in bundle}
    for name, node in nodes.items():
        assert NODE_NAME.match(name) and set(node) <= NODE_KEYS and node["kind"] == "linux"
        for bind in node["binds"]:
            source = bind.split(":")[0]
            if source.startswith("../"):
                inside = source[3:]
                assert inside in bundle or inside in folders, bind
            else:
                assert f"lab/{source}" in files, bind
    seen = set()
    for link in links:
        assert set(link) == {"endpoints", "mtu"} and link["mtu"] == LINK_MTU and len(link["endpoints"]) == 2
        for ep in link["endpoints"]:
            node, _, iface = ep.partition(":")
            assert node in nodes and IFNAME.match(iface), ep
            assert ep not in seen, f"{ep} used twice"
            seen.add(ep)
    assert len(links) == len(f.links)


def test_switch_nodes_run_the_bundles_frr_conf_with_config_db_addresses():
    f, _, doc, files = lab("default", {})
    leaf = doc["topology"]["nodes"]["su1-leaf-r0"]
    assert "../switches/su1-leaf-r0/frr.conf:/etc/frr/frr.conf:ro" in leaf["binds"]
    sw = switch_data(f, "su1-leaf-r0")
    assert f"ip address add {sw['loopback']} dev lo" in leaf["exec"]
    assert f"ip address add {sw['vlan']['address']} dev Vlan1000" in leaf["exec"]      # subnet-per-leaf SVI
    assert sum(e.endswith("master Vlan1000") for e in leaf["exec"]) == len(sw["vlan"]["members"])
    assert {"bgpd=yes", "pbrd=yes"} <= set(files["lab/frr-daemons"].splitlines())
    host = doc["topology"]["nodes"]["su1-srv01"]
    assert host["binds"] == ["../hosts/su1-srv01:/etc/rail-designer:ro"]
    assert host["exec"][0] == "bash /etc/rail-designer/policy-routing.sh"
    _, _, p2p, _ = lab("rail-optimized-64x4", {})
    leaf = p2p["topology"]["nodes"]["su1-leaf-r0"]
    assert not any("Vlan" in e for e in leaf["exec"]) and sum(e.startswith("ip address add") for e in leaf["exec"]) > 64


def test_cores_and_planes_are_labelled_nodes():
    f, _, doc, _ = lab("b200-three-tier-p2p31", {})
    nodes = doc["topology"]["nodes"]
    for core in f.cores():
        assert nodes[core.hostname]["group"] == "core"
        assert nodes[core.hostname]["labels"]["rail-designer.group"] == str(core.group)
    assert all("rail-designer.fabric-plane" not in n["labels"] for n in nodes.values())
    t, _, doc, _ = lab("twin-plane-p2p31", {})
    nodes = doc["topology"]["nodes"]
    assert {nodes[w.hostname]["labels"]["rail-designer.fabric-plane"] for w in t.switches.values()} == {"0", "1"}
    assert all("rail-designer.group" not in n["labels"] for n in nodes.values())


def test_lab_is_deterministic():
    assert LAB.render_global(fabric("superpod-su")) == LAB.render_global(fabric("superpod-su"))


@pytest.mark.parametrize("preset,overrides", PRESETS)
def test_against_containerlabs_published_schema(preset, overrides):
    if not clab_schema().is_file():
        pytest.skip(f"containerlab's schema is not at {clab_schema()} (set RAIL_DESIGNER_CLAB_SCHEMA to a copy "
                    "of containerlab's schemas/clab.schema.json; no registry reachable here ships it)")
    import jsonschema
    schema = json.loads(clab_schema().read_text())
    _, _, doc, _ = lab(preset, overrides)
    errors = [f"{e.json_path}: {e.message[:200]}" for e in jsonschema.Draft7Validator(schema).iter_errors(doc)]
    assert errors == []
