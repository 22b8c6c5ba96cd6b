"""The whole flow through `import designer` alone (issue 12, "Done when"): a server model from real
``nvidia-smi topo -m`` output, a design built on it, edits, checks, the save rules, a partial export
with progress and cancellation, in-memory rendering, traces, collisions, real NIC names, SONiC YANG
lint, nccl-tests logs and LLDP verification. Only public names are used (test_surface.py checks)."""

import csv
import json
import stat
from pathlib import Path

import pytest

import designer
from tests.ci import yang_dir

DATA = Path(__file__).resolve().parents[1] / "data"
TOPO = DATA / "importers" / "topo-8gpu-4nic-spaces-prompt.txt"
NIC_NAMES = [DATA / "importers" / "ibdev2netdev-plain.txt", DATA / "importers" / "show-gids.txt"]


def errors(fabric):
    return [f for f in designer.check(fabric) if f.severity is designer.Severity.ERROR]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A catalog with the imported server model, and a design of two SUs of three such servers."""
    root = tmp_path_factory.mktemp("lab")
    imported = designer.import_topo(TOPO, root / "catalog.yaml", name="lab-8gpu")
    spec = designer.spec("default", name="lab", server_model="lab-8gpu", servers_per_su=3)
    return root, imported, spec, designer.build(spec, catalogs=[imported.catalog])


def test_the_imported_server_model_builds_and_sizes_as_the_design_counts(lab):
    root, imported, spec, fabric = lab
    assert (imported.model.id, imported.model.gpus, imported.replaced) == ("lab-8gpu", 8, False)
    assert [n.rdma for n in imported.model.nics] == ["mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3"]
    assert [r.gpus for r in imported.topo.rails] == [(0, 1), (2, 3), (4, 5), (6, 7)]
    sizing = designer.size(spec, catalogs=[imported.catalog])
    assert sizing.ok and sizing.servers == len(fabric.servers) == 6 and sizing.gpus == 48
    assert (sizing.leaves, sizing.spines) == (len(fabric.leaves()), len(fabric.spines())) == (8, 2)
    assert errors(fabric) == []
    again = designer.import_topo(TOPO, root / "catalog.yaml", name="lab-8gpu")
    assert again.replaced and again.model == imported.model


def test_parameters_a_script_gets_wrong_are_refused_readably():
    with pytest.raises(designer.PlanningError, match="unknown parameter 'server'; parameters: name, "):
        designer.spec("default", server=4)
    wrong = designer.spec("default", sus="2", mtu=9000.5)
    assert designer.size(wrong).problems == ["sus should be a whole number, not '2'",
                                             "mtu should be a whole number, not 9000.5"]
    with pytest.raises(designer.PlanningError) as refused:
        designer.build(wrong)
    assert refused.value.problems == designer.size(wrong).problems
    too_big = designer.spec("default", servers_per_su=999)
    assert not designer.size(too_big).ok
    with pytest.raises(designer.PlanningError) as refused:
        designer.build(too_big)
    assert refused.value.problems == designer.size(too_big).problems


def test_an_edit_the_checks_catch_blocks_the_export_until_it_is_undone(lab, tmp_path):
    _, imported, _, _ = lab
    fabric = designer.load(_saved(lab, tmp_path), catalogs=[imported.catalog])
    fabric.move_nic("su1-srv02/nic1", "su1-leaf-r0")
    found = errors(fabric)
    assert any(f.code == "RD004" and "su1-srv02/nic1" in f.ids for f in found)
    with pytest.raises(designer.ExportRefused) as refused:
        designer.export_bundle(fabric, tmp_path / "bundle")
    assert isinstance(refused.value, designer.DesignerError) and refused.value.findings == found
    assert not (tmp_path / "bundle").exists()
    fabric.move_nic("su1-srv02/nic1", "su1-leaf-r1")
    assert designer.assign(fabric) == 0 and errors(fabric) == []


def _saved(lab, folder: Path) -> Path:
    path = folder / "lab.fabric.yaml"
    designer.save(lab[3], path)
    return path


def test_saves_are_byte_identical_and_keep_the_file_as_the_command_line_does(lab, tmp_path):
    _, imported, _, fabric = lab
    path = _saved(lab, tmp_path)
    text = path.read_bytes()
    designer.save(designer.load(path, catalogs=[imported.catalog]), tmp_path / "again.fabric.yaml")
    assert (tmp_path / "again.fabric.yaml").read_bytes() == text
    path.chmod(0o600)
    link = tmp_path / "link.fabric.yaml"
    link.symlink_to(path.name)
    assert designer.save(fabric, link) == []
    assert link.is_symlink() and stat.S_IMODE(path.stat().st_mode) == 0o600
    path.chmod(0o400)
    with pytest.raises(designer.DesignerError, match="is read-only"):
        designer.save(fabric, path)
    designer.save(fabric, path, force=True)
    assert path.read_bytes() == text


def test_a_partial_export_with_progress_and_a_cancelled_one_that_changes_nothing(lab, tmp_path):
    fabric = lab[3]
    seen = []
    result = designer.export_bundle(fabric, tmp_path / "bundle", parts=["cabling", "hosts"],
                                    progress=lambda done, total, label: seen.append((done, total, label)))
    assert "cabling.csv" in result.files and "hosts/su1-srv01/netplan.yaml" in result.files
    assert not any(f.startswith("switches/") for f in result.files)
    assert seen[-1][0] == seen[-1][1] == len(seen) and any(label == "hosts: su2-srv03" for *_, label in seen)
    before = (tmp_path / "bundle" / "MANIFEST.sha256").read_bytes()
    with pytest.raises(designer.ExportCancelled):
        designer.export_bundle(fabric, tmp_path / "bundle", cancel=lambda: True)
    assert (tmp_path / "bundle" / "MANIFEST.sha256").read_bytes() == before
    with pytest.raises(designer.DesignerError, match="unknown part.*parts: aid, aid-csv, aid-yaml, ansible, bom, cabling"):
        designer.export_bundle(fabric, tmp_path / "other", parts="cables")
    shown = designer.render_device(fabric, "su1-srv01")
    for path in ("hosts/su1-srv01/netplan.yaml", "hosts/su1-srv01/policy-routing.sh"):
        assert shown[path] == (tmp_path / "bundle" / path).read_text()
    with pytest.raises(designer.UnknownDevice):
        designer.render_device(fabric, "su9-srv99")


def test_traces_and_collisions(lab):
    fabric = lab[3]
    traces = designer.trace(fabric, "su1-srv01", "su2-srv03")
    assert [(t.src_nic, t.dst_nic) for t in traces] == [(f"su1-srv01/nic{k}", f"su2-srv03/nic{k}") for k in range(4)]
    for t in traces:
        assert t.ok and t.request.delivered and t.reply.delivered and t.request.spines
        assert t.request.hops[0].device == "su1-srv01" and t.reply.arrival_nic == t.src_nic
    with pytest.raises(designer.DesignerError, match="no server is called 'nobody'"):
        designer.trace(fabric, "nobody", "su2-srv03")
    ppd = designer.analyze(fabric, "alltoall", routing="ppd")
    ecmp = designer.analyze(fabric, "alltoall", routing="ecmp", trials=50, seed=1)
    assert min(ecmp.fraction) < min(ppd.fraction)                # hashing collides where the pins do not
    assert ecmp.fraction == designer.analyze(fabric, "alltoall", routing="ecmp", trials=50, seed=1).fraction


def test_real_nic_names_applied_and_saved(lab, tmp_path):
    _, imported, _, _ = lab
    path = _saved(lab, tmp_path)
    fabric = designer.load(path, catalogs=[imported.catalog])
    result = designer.apply_nics(fabric, NIC_NAMES, model="lab-8gpu")
    assert len(result.servers) == 6 and len(result.renamed) == 24 and result.gid_index == 3
    assert result.unused == ["mlx5_bond_0"]
    assert [n.netdev for n in fabric.servers["su2-srv01"].nics] == ["ens1np0", "ens2np0", "ens3np0", "ens4np0"]
    designer.save(fabric, path)
    assert "ens4np0" in designer.render_device(designer.load(path, catalogs=[imported.catalog]),
                                               "su1-srv03")["hosts/su1-srv03/netplan.yaml"]
    with pytest.raises(designer.UnknownDevice, match="there is no server 'nobody'"):
        designer.apply_nics(fabric, NIC_NAMES, server="nobody")


def test_verify_against_lldp_dumps_of_the_exported_cabling(lab, tmp_path):
    fabric = lab[3]
    designer.export_bundle(fabric, tmp_path / "bundle", parts=["cabling"])
    with (tmp_path / "bundle" / "cabling.csv").open() as fh:
        cables = [(r["a_device"], r["a_port"], r["b_device"], r["b_port"]) for r in csv.DictReader(fh)]
    assert len(cables) == len(fabric.links)
    # As built: su1-srv01's rail 0 cable is unplugged, and su2-srv02 and su2-srv03 sit in each other's
    # ports of their rail 3 leaf.
    unplugged = ("su1-srv01", fabric.nic("su1-srv01/nic0").netdev)
    crossed = {"su2-srv02": "su2-srv03", "su2-srv03": "su2-srv02"}
    dumps = {}
    for a, p, b, q in cables:
        if (b, q) == unplugged:
            continue
        if a == "su2-leaf-r3" and b in crossed:
            b = crossed[b]
        dumps.setdefault(a, []).append({p: _neighbour(b, q)})
        dumps.setdefault(b, []).append({q: _neighbour(a, p)})
    (tmp_path / "lldp").mkdir()
    for device, interfaces in dumps.items():
        (tmp_path / "lldp" / f"{device}.json").write_text(json.dumps({"lldp": {"interface": interfaces}}))
    result = designer.verify(fabric, tmp_path / "lldp")
    kinds = sorted((m.kind, m.ends) for m in result.mismatches)
    assert kinds == [("missing", ("su1-leaf-r0/Ethernet0", "su1-srv01/nic0")),
                     ("miswired", ("su2-leaf-r3/Ethernet16", "su2-srv02/nic3")),
                     ("miswired", ("su2-leaf-r3/Ethernet8", "su2-srv03/nic3"))]
    assert not result.ok and result.moves and len(result.as_planned) == len(fabric.links) - 3


def _neighbour(device: str, port: str) -> dict:
    return {"via": "LLDP", "chassis": {device: {"id": {"type": "mac", "value": "0c:42:a1:00:00:01"}}},
            "port": {"id": {"type": "ifname", "value": port}}}


def test_lint_with_sonic_yang(lab, tmp_path):
    if not any(yang_dir().glob("*.yang")):
        pytest.skip(f"SONiC's YANG models are not in {yang_dir()} (set RAIL_DESIGNER_YANG_DIR)")
    designer.export_bundle(lab[3], tmp_path / "bundle", parts=["switches"])
    results = designer.lint(tmp_path / "bundle", yang_dir())
    assert len(results) == 10 and all(r.mode == "standalone" and not r.problems for r in results)
    config = tmp_path / "bundle" / "switches" / "su1-leaf-r0" / "config_db.json"
    data = json.loads(config.read_text())
    data["PORT"]["Ethernet0"]["mtu"] = "jumbo"
    config.write_text(json.dumps(data))
    (bad,) = [r for r in designer.lint(tmp_path / "bundle", yang_dir()) if r.problems]
    assert bad.hostname == "su1-leaf-r0" and any("mtu" in p.where for p in bad.problems)
    with pytest.raises(designer.DesignerError, match="no SONiC YANG models"):
        designer.lint(tmp_path / "bundle", tmp_path)


def test_nccl_check_of_a_real_format_log():
    fabric = designer.build("default")
    result = designer.nccl_check(fabric, DATA / "nccl" / "all_reduce_perf-old.log")
    (judgement,) = result.judgements
    assert judgement.run.collective == "all_reduce_perf" and judgement.verdict.code == "NCCL-OK" and result.ok
    with pytest.raises(designer.DesignerError, match="missing.log: cannot read it"):
        designer.nccl_check(fabric, [DATA / "nccl" / "missing.log"])
