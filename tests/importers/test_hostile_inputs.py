"""Issue 13, items 2 (topo sizes), 4 (deep JSON), 5 (malformed LLDP), 6 (import-aid writes only what
opens) and 11 (messages name the file): one readable line, exit 2, nothing written."""

import json
import time
from pathlib import Path

import pytest

from designer.cli import main
from designer.export.aid import PARTS as AID_PARTS
from designer.importers.errors import ImportFormatError
from designer.importers.lldp import parse_lldp
from designer.importers.nicnames import read_nic_names
from designer.importers.topo import read_topo
from designer.storage import save
from tests.conftest import preset_fabric

DATA = Path(__file__).parent.parent / "data" / "importers"
DEEP = "[" * 100_000 + "]" * 100_000


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and len(err) < 1000, err
    return code, out, err


@pytest.fixture
def design(tmp_path):
    path = tmp_path / "d.fabric.yaml"
    save(preset_fabric("default"), path)
    return path


def _aid(**changes) -> dict:
    doc = json.loads(AID_PARTS[0].render_global(preset_fabric("default"))["aid/fabric.aid.json"])
    for where, value in changes.items():
        target = doc
        *steps, last = where.split(".")
        for step in steps:
            target = target[int(step)] if step.isdigit() else target[step]
        target[int(last) if last.isdigit() else last] = value
    return doc


# ---------------------------------------------------------------- item 4: nesting
def test_deeply_nested_json_is_refused_by_import_aid(tmp_path, capsys):
    aid = tmp_path / "deep.aid.json"
    aid.write_text('{"aid_format_version": 1, "design": ' + DEEP + "}")
    code, _, err = run(capsys, "import-aid", aid, "-o", tmp_path / "x.fabric.yaml")
    assert code == 2 and str(aid) in err and "nested more than 64 levels" in err
    assert not (tmp_path / "x.fabric.yaml").exists()


def test_deeply_nested_json_is_refused_by_verify(tmp_path, design, capsys):
    (tmp_path / "lldp").mkdir()
    (tmp_path / "lldp" / "su1-srv01.json").write_text('{"lldp": ' + DEEP + "}")
    code, _, err = run(capsys, "verify", design, "--lldp", tmp_path / "lldp")
    assert code == 2 and "su1-srv01.json" in err and "nested more than 64" in err


@pytest.mark.parametrize("text, expected", [
    ('{"lldp": {"interface": [' + "1" * 5000 + "]}}", "more than 4,300 digits"),
    ('{"lldp": {"interface": [NaN]}}', "NaN is not a JSON number"),
    ('{"lldp": {"interface": ["\\udc80"]}}', "lone surrogate"),
])
def test_json_numbers_and_strings_python_cannot_hold_are_refused(text, expected):
    with pytest.raises(ImportFormatError, match=expected):
        parse_lldp(text, "dump")


# ---------------------------------------------------------------- item 5: malformed LLDP
@pytest.mark.parametrize("doc, expected", [
    ({"lldp": "x"}, "'lldp' should be a mapping, not text"),
    ({"lldp": {"interface": "eth0"}}, r"lldp.interface\[0\] should be a mapping, not text"),
    ({"lldp": {"interface": {"ens1np0": "up"}}}, "interface 'ens1np0' should be a mapping, not text"),
    ({"lldp": {"interface": {"ens1np0": {"chassis": ["x"]}}}}, "'chassis' should be a mapping, not a list"),
    ({"lldp": {"interface": {"ens1np0": {"port": {"id": "Ethernet0"}}}}}, "'port.id' should be a mapping"),
    ({"lldp": {"interface": {"ens1np0": {"port": {"id": {"value": 7}}}}}}, "'port.id.value' should be text"),
    ({"lldp": [{"interface": "x"}]}, r"lldp\[0\].interface should be a list, not text"),
    ({"lldp": [{"interface": [{"name": "e"}, {}]}]}, r"lldp\[0\].interface\[1\] has no 'name'"),
    ({"lldp": [{"interface": [{"name": "e", "chassis": {"name": "x"}}]}]}, r"chassis should be a list"),
    ({"lldp": [{"interface": [{"name": "e", "port": [{"id": [{"value": None}, 3]}]}]}]}, None),
    ({"lldp": [{"interface": [{"name": "e", "port": [{"id": ["Ethernet0"]}]}]}]}, r"port\[0\].id\[0\] should be a mapping"),
    ({"lldp": [7]}, r"lldp\[0\] should be a mapping, not a int"),
])
def test_malformed_lldp_json_gives_one_located_message(doc, expected):
    if expected is None:                   # a null value is an absent value, as lldpctl writes it
        assert parse_lldp(json.dumps(doc), "dump")[1][0].port_id is None
        return
    with pytest.raises(ImportFormatError, match=expected) as info:
        parse_lldp(json.dumps(doc), "dump.json")
    assert str(info.value).startswith("dump.json: ")


def test_an_lldp_dump_without_neighbours_is_read_as_none():
    assert parse_lldp('{"lldp": {}}', "d") == ("lldpctl-json", [])
    assert parse_lldp('{"lldp": [{"interface": null}]}', "d") == ("lldpctl-json0", [])


# ---------------------------------------------------------------- item 6: import-aid writes what opens
@pytest.mark.parametrize("changes, expected", [
    ({"design.addressing.fabric_pool": "10.254.0.1/16"}, "design.addressing.fabric_pool: pool '10.254.0.1/16'"),
    ({"design.addressing.mtu": 1}, "design.addressing.mtu: 1 is less than the minimum of 68"),
    ({"design.addressing.mtu": 10_000}, "design.addressing.mtu: 10000 is out of range: use 576 to 9216"),
    ({"design.asn.leaf_base": 0}, "design.asn.leaf_base: 0 is out of range"),
    ({"ip_plan.0.key": "su1 srv01/nic0"}, "is not an address key"),
    ({"ip_plan.0.key": "loose"}, "is not an address key"),
    ({"devices.0.su": 10 ** 9}, "SU 1000000000 is not valid"),
    ({"devices.0.hostname": "x" * 100_000}, "characters"),
    ({"interfaces.0.speed": 10 ** 12}, "speed 1000000000000 is out of range"),
])
def test_import_aid_refuses_what_no_command_could_open(tmp_path, capsys, changes, expected):
    aid = tmp_path / "fabric.aid.json"
    aid.write_text(json.dumps(_aid(**changes)))
    out = tmp_path / "x.fabric.yaml"
    code, _, err = run(capsys, "import-aid", aid, "-o", out)
    assert code == 2 and expected in err and err.startswith(f"rail-designer: {aid}"), err
    assert not out.exists()


def test_import_aid_of_a_good_aid_writes_a_file_that_validates(tmp_path, capsys):
    aid = tmp_path / "fabric.aid.json"
    aid.write_text(json.dumps(_aid()))
    code, out, _ = run(capsys, "import-aid", aid, "-o", tmp_path / "x.fabric.yaml")
    assert code == 0 and "wrote" in out
    assert run(capsys, "validate", tmp_path / "x.fabric.yaml")[0] == 0


def test_an_aid_over_its_size_limit_is_refused_before_parsing(tmp_path, capsys, monkeypatch):
    import designer.model.limits as limits
    monkeypatch.setattr(limits, "MAX_AID_BYTES", 100)
    aid = tmp_path / "fabric.aid.json"
    aid.write_text(json.dumps(_aid()))
    code, _, err = run(capsys, "import-aid", aid, "-o", tmp_path / "x.fabric.yaml")
    assert code == 2 and "larger than" in err


# ---------------------------------------------------------------- item 2: topo sizes, and names it writes
def _topo(gpus: int, nics: int) -> str:
    cols = [f"GPU{i}" for i in range(gpus)] + [f"NIC{i}" for i in range(nics)]
    rows = ["\t" + "\t".join(cols) + "\tCPU Affinity"]
    for r in cols:
        rows.append(r + "\t" + "\t".join("X" if r == c else "SYS" if "NIC" in r + c else "NV18" for c in cols) + "\t0-1")
    rows += ["", "NIC Legend:", ""] + [f"  NIC{i}: mlx5_{i}" for i in range(nics)]
    return "\n".join(rows) + "\n"


def test_a_200_by_200_topo_matrix_is_read_at_once():
    from designer.importers.affinity import parse_topo
    started = time.perf_counter()
    result = parse_topo(_topo(200, 200))
    assert len(result.rails) == 200 and [r.rdma for r in result.rails[:3]] == ["mlx5_0", "mlx5_1", "mlx5_2"]
    assert time.perf_counter() - started < 5       # was 8.6 s; bench/bench_topo.py measures it


def test_the_issues_256_by_512_matrix_is_read_too():
    from designer.importers.affinity import parse_topo
    assert len(parse_topo(_topo(256, 512)).rails) == 256       # it hung; bench/bench_topo.py times it


def test_topo_matrices_beyond_the_limits_are_refused_before_matching():
    with pytest.raises(ImportFormatError, match="names 300 GPUs; a server model has at most 256"):
        read_topo(_topo(300, 8))
    with pytest.raises(ImportFormatError, match="more than 1,024 devices"):
        read_topo(_topo(8, 1100))


def test_topo_nic_legend_names_must_be_device_names():
    text = _topo(2, 2).replace("NIC1: mlx5_1", "NIC1: mlx5;reboot")
    with pytest.raises(ImportFormatError, match="is not an RDMA device name"):
        read_topo(text)


# ---------------------------------------------------------------- apply-nics inputs
@pytest.mark.parametrize("text, expected", [
    ("mlx5_0 port 1 ==> averyveryverylongnetdev0 (Up)\n", r"in:1: the interface name 'averyveryverylongnetdev0' "
                                                         r"cannot be used in host configs: it has 24 characters"),
    ("DEV PORT INDEX GID IPv4 VER DEV\nmlx5_0 1 ² fe80:0000:0000:0000:0000:0000:0000:0000  v2 ens1np0\n",
     r"in:2: expected a show_gids row"),
    ("DEV PORT INDEX GID IPv4 VER DEV\nmlx5_0 1 999 fe80:0000:0000:0000:0000:0000:0000:0000  v2 ens1np0\n",
     r"in:2: expected a show_gids row"),
])
def test_nic_name_inputs_that_host_configs_could_not_use_are_refused_with_the_line(text, expected):
    with pytest.raises(ImportFormatError, match=expected):
        read_nic_names([("in", text)])


def test_apply_nics_refuses_a_24_character_netdev_and_saves_nothing(tmp_path, design, capsys):
    before = design.read_bytes()
    names = tmp_path / "ibdev2netdev.txt"
    names.write_text("mlx5_0 port 1 ==> enp24s0np0-with-a-suffix (Up)\n")
    code, _, err = run(capsys, "apply-nics", design, "--server", "su1-srv01", names)
    assert code == 2 and f"{names}:1" in err and "Linux allows at most 15" in err
    assert design.read_bytes() == before


# ---------------------------------------------------------------- item 11: every message names its file
def test_import_topo_on_a_full_disk_names_the_catalog(tmp_path, capsys, monkeypatch):
    import errno
    import designer.storage.atomic as atomic

    def full(*_a, **_k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(atomic, "write_atomic", full)
    cat = tmp_path / "catalog.yaml"
    code, _, err = run(capsys, "import-topo", DATA / "topo-dgx-h100-tabs-ansi.txt", "--catalog", cat)
    assert code == 2 and f"{cat}: cannot be written: No space left on device" in err
