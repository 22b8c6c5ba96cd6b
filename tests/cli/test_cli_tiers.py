"""`new --preset b200-superpod` against NVIDIA's DGX SuperPOD B200 table, and the other tier commands.

The table ("switch and cable count by SU", DGX SuperPOD B200 reference architecture, DGX SuperPOD
Architecture section): SUs, then leaf, spine and core switches, then node-leaf, leaf-spine and
spine-core cables. The counts are taken from the design file `new` wrote.
"""

from __future__ import annotations

import json

import pytest

from designer.cli import main
from designer.model import Role
from designer.model.ids import split_endpoint
from designer.storage import load

NVIDIA_B200 = [
    (2, 16, 8, 0, 512, 512, 0),
    (4, 32, 16, 0, 1024, 1024, 0),
    (16, 128, 128, 64, 4096, 4096, 4096),
    (32, 256, 256, 128, 8192, 8192, 8192),
    (64, 512, 512, 256, 16384, 16384, 16384),
]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _tier_counts(fabric):
    roles = {s.id: s.role for s in fabric.switches.values()}
    cables = {"server": 0, (Role.LEAF, Role.SPINE): 0, (Role.SPINE, Role.CORE): 0}
    for link in fabric.links.values():
        a, b = (roles.get(split_endpoint(ep)[0]) for ep in (link.a, link.b))
        if a is None or b is None:
            cables["server"] += 1
        else:
            key = tuple(sorted((a, b), key=lambda r: list(Role).index(r)))
            cables[key] = cables.get(key, 0) + 1
    return (len(fabric.leaves()), len(fabric.spines()), len(fabric.cores()), cables["server"],
            cables[(Role.LEAF, Role.SPINE)], cables[(Role.SPINE, Role.CORE)])


@pytest.mark.parametrize("row", NVIDIA_B200, ids=[f"{r[0]}-SUs" for r in NVIDIA_B200])
def test_b200_preset_gives_nvidias_switch_and_cable_counts(tmp_path, capsys, row):
    sus, *expected = row
    path = tmp_path / "pod.fabric.yaml"
    code, out, _ = run(capsys, "new", "--preset", "b200-superpod", "--sus", str(sus), "-o", str(path))
    assert code == 0
    leaves, spines, cores, node_leaf, leaf_spine, spine_core = expected
    tiers = f"{leaves} leaves, {spines} spines" + (f", {cores} cores" if cores else "")
    cables = (f"{node_leaf} server-leaf, {leaf_spine} leaf-spine and {spine_core} spine-core cables" if cores
              else f"{node_leaf} server-leaf and {leaf_spine} leaf-spine cables")
    assert f"{tiers}, {cables}" in out                    # `new` counts these on the design it built
    if sus <= 16:                                         # and the file holds them (reading 64 SUs back takes 2 s)
        assert _tier_counts(load(path)) == tuple(expected)


def test_three_tier_design_validates_clean_and_reports_new_rules(tmp_path, capsys):
    path = tmp_path / "pod.fabric.yaml"
    run(capsys, "new", "--preset", "b200-superpod", "--sus", "16", "-o", str(path))
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "0 errors, 0 warnings, 1 notes" in out and "RD050" in out   # how far it grows
    fabric = load(path)
    spine = fabric.switches["sg1-spine-01"]
    link = fabric.links_of(spine.id)[-1]                         # a core uplink, taken off
    fabric.disconnect(link.id)
    from designer.storage import save
    save(fabric, path)
    code, out, _ = run(capsys, "validate", str(path), "--format", "json")
    found = {f["code"] for f in json.loads(out)["findings"]}
    assert code == 1 and {"RD040", "RD045"} <= found


def test_new_help_lists_the_tier_parameters(capsys):
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    out = capsys.readouterr().out
    for option in ("--core-tier", "--cores", "--sus-per-group", "--spine-uplinks", "--spine-oversubscription",
                   "--core-model", "--fabric-planes", "--core-asn"):
        assert option in out


def test_presets_lists_cores_and_planes(capsys):
    code, out, _ = run(capsys, "presets")
    assert code == 0 and "b200-superpod" in out and "twin-plane-800g" in out
    assert "16 leaves, 8 spines, 2 fabric planes, 1536 cables" in out


def test_new_twin_plane_then_export_show_and_lint(tmp_path, capsys):
    path = tmp_path / "twin.fabric.yaml"
    code, out, _ = run(capsys, "new", "--preset", "twin-plane-800g", "--servers-per-su", "8", "-o", str(path))
    assert code == 0 and "8 rails in 2 fabric planes" in out
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 0 and "0 errors" in out
    code, out, err = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"))
    assert code == 0, err
    readme = (tmp_path / "bundle" / "README.txt").read_text()
    assert "2 fabric planes" in readme
    assert (tmp_path / "bundle" / "switches" / "pl1-su1-leaf-r7" / "frr.conf").is_file()
    code, out, _ = run(capsys, "show", str(path), "pl0-su1-leaf-r0")
    assert code == 0 and "pl0-su1-leaf-r0" in out


def test_three_tier_exports_with_cores(tmp_path, capsys):
    path = tmp_path / "b3.fabric.yaml"
    code, out, _ = run(capsys, "new", "--preset", "b200-superpod", "--core-tier", "on", "--sus", "2",
                       "--sus-per-group", "1", "--servers-per-su", "2", "--rails", "2", "-o", str(path))
    assert code == 0 and "cores" in out
    code, out, err = run(capsys, "export", str(path), "-o", str(tmp_path / "bundle"))
    assert code == 0, err
    assert " cores, " in (tmp_path / "bundle" / "README.txt").read_text()
    assert (tmp_path / "bundle" / "switches" / "cg1-core-01" / "config_db.json").is_file()
