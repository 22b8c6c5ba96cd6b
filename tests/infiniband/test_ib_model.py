"""The InfiniBand fabric kind in the model and the design file, the IB presets against NVIDIA's
SuperPOD compute-fabric tables, and the GUIDs derived from stable ids."""

from __future__ import annotations

import pytest

from designer.cli import main
from designer.model import guids
from designer.storage import load, save
from designer.storage.yamlio import FileFormatError

# DGX SuperPOD H100 RA, table "Compute fabric component count": SUs, leaves, spines, spine-leaf cables.
NVIDIA_H100 = [(1, 8, 4, 256), (2, 16, 8, 512), (3, 24, 16, 768), (4, 32, 16, 1024)]
# DGX SuperPOD B200 RA, InfiniBand switch and cable counts: SUs, leaves, spines, cores, node-leaf,
# leaf-spine, spine-core cables.
NVIDIA_B200 = [(2, 16, 8, 0, 512, 512, 0), (4, 32, 16, 0, 1024, 1024, 0), (16, 128, 128, 64, 4096, 4096, 4096),
               (32, 256, 256, 128, 8192, 8192, 8192), (64, 512, 512, 256, 16384, 16384, 16384)]


def _new(capsys, tmp_path, preset, sus):
    path = tmp_path / f"{preset}.fabric.yaml"
    assert main(["new", "--preset", preset, "--sus", str(sus), "-o", str(path)]) == 0
    return path, capsys.readouterr().out


@pytest.mark.parametrize("row", NVIDIA_H100, ids=[f"{r[0]}-SUs" for r in NVIDIA_H100])
def test_h100_ib_preset_gives_nvidias_component_counts(tmp_path, capsys, row):
    sus, leaves, spines, leaf_spine = row
    path, out = _new(capsys, tmp_path, "superpod-h100-ib", sus)
    assert f"{leaves} leaves, {spines} spines, {sus * 256} server-leaf and {leaf_spine} leaf-spine cables" in out
    fabric = load(path)
    assert fabric.settings.fabric_kind == "infiniband"
    assert {fabric.switches[s].model for s in fabric.switches} == {"nvidia-qm9700"}


@pytest.mark.parametrize("row", NVIDIA_B200, ids=[f"{r[0]}-SUs" for r in NVIDIA_B200])
def test_b200_ib_preset_gives_nvidias_switch_and_cable_counts(tmp_path, capsys, row):
    sus, leaves, spines, cores, node_leaf, leaf_spine, spine_core = row
    _, out = _new(capsys, tmp_path, "b200-superpod-ib", sus)
    tiers = f"{leaves} leaves, {spines} spines" + (f", {cores} cores" if cores else "")
    cables = (f"{node_leaf} server-leaf, {leaf_spine} leaf-spine and {spine_core} spine-core cables" if cores
              else f"{node_leaf} server-leaf and {leaf_spine} leaf-spine cables")
    assert f"{tiers}, {cables}" in out


def test_fabric_kind_is_written_only_for_infiniband_and_reads_back(tmp_path, capsys):
    path, _ = _new(capsys, tmp_path, "superpod-h100-ib", 1)
    text = path.read_text()
    assert text.count("fabric_kind: infiniband") == 1
    fabric = load(path)
    save(fabric, path)
    assert path.read_text() == text                                   # byte-identical round trip
    eth = tmp_path / "eth.fabric.yaml"
    assert main(["new", "--preset", "superpod-su", "-o", str(eth)]) == 0
    assert "fabric_kind" not in eth.read_text()                       # ethernet designs as before


def test_an_unknown_fabric_kind_is_one_located_message(tmp_path, capsys):
    path, _ = _new(capsys, tmp_path, "superpod-h100-ib", 1)
    path.write_text(path.read_text().replace("fabric_kind: infiniband", "fabric_kind: omnipath"))
    with pytest.raises(FileFormatError) as exc:
        load(path)
    assert "fabric_kind" in str(exc.value) and "ethernet, infiniband" in str(exc.value)


def test_guids_are_stable_distinct_and_nvidia_oui():
    switches = {guids.switch_guid(f"su{s}-leaf-r{r}") for s in range(1, 129) for r in range(8)}
    hcas = {guids.hca_port_guid(f"su{s}-srv{n:02d}", k) for s in range(1, 129) for n in range(1, 33) for k in range(8)}
    assert len(switches) == 1024 and len(hcas) == 32768 and not switches & hcas
    assert guids.text(guids.switch_guid("spine-01")) == "0x0002c93c3fb65210"   # pinned: a fabric's GUIDs never move
    assert guids.text(guids.switch_guid("spine-01")).startswith("0x0002c9") and len(guids.text(1)) == 18
    assert guids.hca_port_guid("a", 0) == guids.hca_node_guid("a", 0) + 1


def test_validate_skips_ip_bgp_ppd_rules_on_infiniband_and_says_so(tmp_path, capsys):
    """Without any address or ASN an InfiniBand design is clean (the SM assigns LIDs); the same cut
    on an Ethernet design is an error, and validate says there which rules it ran."""
    for preset, kind_clean in (("superpod-h100-ib", True), ("superpod-su", False)):
        path, _ = _new(capsys, tmp_path, preset, 1)
        text = path.read_text()
        path.write_text(text[:text.index("asns: |")])                 # no ASNs, no addresses
        code = main(["validate", str(path)])
        out = capsys.readouterr().out
        assert (code == 0) is kind_clean
        assert ("do not apply to an InfiniBand fabric" in out and "RD012" in out) is kind_clean
