"""The trace over an exported bundle's host files, including one broken by hand."""

import pytest
import yaml

from designer.analysis.bundle_hosts import forwarding_from_bundle
from designer.analysis.paths import trace
from designer.analysis.routing import Forwarding
from designer.cli import main
from designer.export import export
from designer.storage import save

from tests.export.shapes import new_shape


def _drop_rule(bundle, hostname: str, netdev: str) -> None:
    path = bundle / "hosts" / hostname / "netplan.yaml"
    data = yaml.safe_load(path.read_text())
    del data["network"]["ethernets"][netdev]["routing-policy"]
    path.write_text(yaml.safe_dump(data))


def test_an_untouched_bundle_traces_like_the_design(tmp_path, default_fabric):
    export(default_fabric, tmp_path / "b")
    from_bundle = forwarding_from_bundle(default_fabric, tmp_path / "b")
    from_design = Forwarding(default_fabric)
    assert from_bundle.host_nics == from_design.host_nics
    t = trace(from_bundle, "su1-srv01/nic1", "su2-srv03/nic1")
    assert t.ok and t.reply.egress_nic == "su2-srv03/nic1"


def test_a_rule_deleted_from_the_bundle_is_flagged(tmp_path, default_fabric):
    export(default_fabric, tmp_path / "b")
    _drop_rule(tmp_path / "b", "su2-srv03", "ens2np0")
    fw = forwarding_from_bundle(default_fabric, tmp_path / "b")
    broken = trace(fw, "su1-srv01/nic1", "su2-srv03/nic1")
    assert not broken.ok
    assert [f.code for f in broken.flags if f.severity.value == "error"] == ["PATH-NO-RULE"]
    assert "su2-srv03/nic1" in broken.flags[0].message and "no policy rule" in broken.flags[0].message
    assert "no rule from" in broken.reply.hops[0].decision       # the reply falls back to the main table
    assert trace(fw, "su1-srv01/nic1", "su2-srv02/nic1").ok       # other hosts are untouched


def test_cli_paths_with_bundle_exits_1_on_the_broken_host(tmp_path, default_fabric, capsys):
    design = tmp_path / "d.fabric.yaml"
    save(default_fabric, design)
    export(default_fabric, tmp_path / "b")
    _drop_rule(tmp_path / "b", "su1-srv02", "ens1np0")
    code = main(["paths", str(design), "--from", "su1-srv02", "--to", "su1-srv04", "--bundle", str(tmp_path / "b")])
    out = capsys.readouterr().out
    assert code == 1 and "PATH-NO-RULE" in out
    code = main(["paths", str(design), "--from", "su1-srv03", "--to", "su1-srv04", "--bundle", str(tmp_path / "b")])
    assert code == 0


def test_a_folder_that_is_not_a_bundle_is_one_message(tmp_path, default_fabric, capsys):
    design = tmp_path / "d.fabric.yaml"
    save(default_fabric, design)
    code = main(["paths", str(design), "--from", "su1-srv01", "--to", "su1-srv02", "--bundle", str(tmp_path)])
    assert code == 2 and "netplan.yaml is missing" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["b200-three-tier-p2p31", "twin-plane-p2p31"])
def test_the_bundle_of_a_three_tier_or_twin_plane_design_traces_like_the_design(tmp_path, name, capsys):
    fabric = new_shape(name)
    export(fabric, tmp_path / "b")
    from_bundle = forwarding_from_bundle(fabric, tmp_path / "b")
    railed = {k: v for k, v in Forwarding(fabric).host_nics.items() if v.rail is not None}
    assert railed and {k: from_bundle.host_nics[k] for k in railed} == railed   # tables, rules, planes as exported
    design = tmp_path / "d.fabric.yaml"
    save(fabric, design)
    servers = fabric.sorted_servers()
    code = main(["paths", str(design), "--from", servers[0].id, "--to", servers[-1].id, "--bundle", str(tmp_path / "b")])
    out = capsys.readouterr().out
    assert code == 0 and out.rstrip().endswith(" with errors") and ", 0 with errors" in out
    if fabric.cores():
        assert "cg1-core-01" in out or "cg2-core-01" in out
