"""export -> import -> export gives byte-identical AID files; bad AIDs give one readable error."""

from __future__ import annotations

import json

import pytest

import designer.storage
from designer.cli import main
from designer.export.aid import PARTS
from designer.export.aid_import import AidError, fabric_from_aid
from designer.storage.catalog_file import builtin_catalog

from tests.export.helpers_hosts import fabric
from tests.export.shapes import new_shape

AID = PARTS[0]


def _pinned_variant():
    f = fabric("rail-optimized-64x4")
    f.set_address("su1-srv03/nic1", "10.1.200.7/31", pinned=True)
    f.set_asn("su1-leaf-r2", 65010, pinned=True)
    f.set_rail_name(2, "rail-two")
    f.set_hostname("su1-srv05", "gpu-node-5")
    f.set_gid_index("su1-srv06", 5)
    return f


def _three_tier_per_group():
    f = new_shape("b200-three-tier-per-rail")        # per-group spine ASNs, spine planes per rail, cores
    assert f.settings.asn.spine_mode == "per-group" and f.cores()
    return f


@pytest.mark.parametrize("make", [lambda: fabric("default"), lambda: fabric("rail-optimized-64x4"),
                                  _pinned_variant, lambda: new_shape("b200-three-tier-p2p31"), _three_tier_per_group,
                                  lambda: new_shape("twin-plane-p2p31"), lambda: new_shape("twin-plane-subnet")],
                         ids=["default", "p2p31", "pinned-and-renamed", "three-tier", "three-tier-per-group",
                              "twin-plane-p2p31", "twin-plane-subnet"])
def test_export_import_export_is_byte_identical(make):
    first = AID.render_global(make())
    rebuilt = fabric_from_aid(json.loads(first["aid/fabric.aid.json"]), builtin_catalog())
    second = AID.render_global(rebuilt)
    for name in first:
        assert first[name] == second[name], name
    assert designer.storage.dumps(rebuilt) == designer.storage.dumps(make())   # the whole design survives


@pytest.mark.parametrize("mutate,message", [
    (lambda d: d["devices"][0].update(su="one"), "devices[0].su: 'one' is not of type"),
    (lambda d: d.pop("links"), "'links' is a required property"),
    (lambda d: d["devices"][0].update(model="no-such-server"), "no-such-server"),
    (lambda d: d["links"].append(dict(d["links"][0])), "links["),
    (lambda d: d["ip_plan"][0].update(address="10.0.0.999/31"), "ip_plan[0]"),
    (lambda d: d["devices"][0].update(hostname="a;b"), "'a;b' is not a valid host name"),
])
def test_bad_aid_gives_one_readable_error(mutate, message):
    doc = json.loads(AID.render_global(fabric("default"))["aid/fabric.aid.json"])
    mutate(doc)
    with pytest.raises(AidError) as err:
        fabric_from_aid(doc, builtin_catalog())
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_cli_refuses_bad_input_with_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.aid.json"
    bad.write_text('{"aid_format_version": 1, "design": ')
    assert main(["import-aid", str(bad), "-o", str(tmp_path / "x.fabric.yaml")]) == 2
    err = capsys.readouterr().err
    assert "bad.aid.json:1: not valid JSON" in err and "Traceback" not in err
    assert main(["import-aid", str(tmp_path / "missing.json"), "-o", str(tmp_path / "x.fabric.yaml")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert not (tmp_path / "x.fabric.yaml").exists()


def test_cli_writes_a_design_that_loads_back(tmp_path):
    files = AID.render_global(fabric("rail-optimized-64x4"))
    aid = tmp_path / "fabric.aid.json"
    aid.write_bytes(files["aid/fabric.aid.json"])
    out = tmp_path / "rebuilt.fabric.yaml"
    assert main(["import-aid", str(aid), "-o", str(out)]) == 0
    loaded = designer.storage.load(out)
    assert AID.render_global(loaded)["aid/fabric.aid.json"] == files["aid/fabric.aid.json"]
    assert main(["import-aid", str(aid), "-o", str(out)]) == 2      # exists, no --force
