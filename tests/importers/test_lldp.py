"""LLDP dump formats: lldpctl -f json (list and single-interface forms), -f json0, SONiC table."""

from pathlib import Path

import pytest

from designer.importers.errors import ImportFormatError
from designer.importers.lldp import Neighbor, parse_lldp, read_lldp_dir

DATA = Path(__file__).parent.parent / "data" / "importers"


def read(name):
    return parse_lldp((DATA / name).read_text(), name)


def test_sonic_table_columns_from_the_rule_blank_cells_and_spaces():
    fmt, rows = read("lldp-sonic-table.txt")
    assert fmt == "sonic-table"
    assert rows == [
        Neighbor("Ethernet0", "su1-srv01", "ens1np0", "Mellanox ConnectX-7 port 1"),
        Neighbor("Ethernet8", None, "0c:42:a1:5e:7b:01", None),
        Neighbor("Ethernet16", "su1-srv03", "0c:42:a1:5e:7b:02", "ens1np0"),
        Neighbor("Ethernet224", "spine-01", "Ethernet0", "to su1-leaf-r0 Ethernet224"),
        Neighbor("eth0", "oob-mgmt sw 3", "Gi1/0/12", "GigabitEthernet1/0/12"),
    ]


def test_lldpctl_json_interface_list_and_chassis_without_name():
    fmt, rows = read("lldp-lldpctl.json")
    assert fmt == "lldpctl-json"
    assert rows == [Neighbor("ens1np0", "su1-leaf-r0", "Ethernet0", "Ethernet0"),
                    Neighbor("eno1", None, "Gi1/0/5", None)]


def test_lldpctl_json_single_interface_mapping():
    assert read("lldp-lldpctl-single.json") == (
        "lldpctl-json", [Neighbor("ens2np0", "su1-leaf-r1", "0c:42:a1:11:22:41", "Ethernet8")])


def test_lldpctl_json0():
    fmt, rows = read("lldp-lldpctl.json0")
    assert fmt == "lldpctl-json0"
    assert rows == [Neighbor("ens1np0", "su1-leaf-r0", "Ethernet0", "Ethernet0"),
                    Neighbor("ens2np0", None, "0c:42:a1:11:22:41", None)]


@pytest.mark.parametrize("text, words", [
    ('{"lldp": {"interface": ', "not valid JSON"),
    ('{"neighbors": []}', "without an 'lldp' key"),
    ("LocalPort RemoteDevice\nfoo bar\n", "no 'LocalPort ...' header"),
    ("LocalPort  Capability\n---------  ----------\nEthernet0  BR\n", "lacks LocalPort, RemoteDevice"),
])
def test_unreadable_dumps(text, words):
    with pytest.raises(ImportFormatError, match=words):
        parse_lldp(text, "dump")


def test_folder_reading_names_files(tmp_path):
    (tmp_path / "su1-srv01.example.net.json").write_text((DATA / "lldp-lldpctl.json").read_text())
    (tmp_path / ".hidden").write_text("x")
    (dump,) = read_lldp_dir(tmp_path)
    assert dump.device == "su1-srv01.example.net.json" and dump.format == "lldpctl-json"
    with pytest.raises(ImportFormatError, match="holds no LLDP dump"):
        read_lldp_dir(tmp_path / "empty" if (tmp_path / "empty").mkdir() is None else tmp_path)


def test_sample_dumps_against_the_default_design(default_fabric, tmp_path):
    from designer.importers.verify import verify
    (tmp_path / "su1-leaf-r0.txt").write_text((DATA / "lldp-sonic-table.txt").read_text())
    (tmp_path / "su1-srv01.json").write_text((DATA / "lldp-lldpctl.json").read_text())
    result = verify(default_fabric, read_lldp_dir(tmp_path))
    assert sorted(result.as_planned) == ["spine-01/Ethernet0~su1-leaf-r0/Ethernet224",
                                         "su1-leaf-r0/Ethernet0~su1-srv01/nic0",
                                         "su1-leaf-r0/Ethernet16~su1-srv03/nic0"]   # port ID was a MAC
    # the sample dumps are partial: every other planned cable of these two devices is missing
    *missing, stray = result.mismatches
    assert {m.kind for m in missing} == {"missing"} and len(missing) == 7
    assert ("su1-leaf-r1/Ethernet0", "su1-srv01/nic1") in [m.ends for m in missing]
    assert stray.kind == "unknown" and stray.ends == ("su1-leaf-r0/Ethernet8",)
    assert stray.link_ids == ("su1-leaf-r0/Ethernet8~su1-srv02/nic0",)
    assert any("2 LLDP entries on ports outside the fabric" in n for n in result.notes)
    check = result.moves[-1]
    assert (check.action, check.unplug, check.other) == ("check", "su1-leaf-r0/Ethernet8", "su1-srv02/nic0")
    port = "su1-leaf-r0/Ethernet8"
    assert [m.action for m in result.moves if port in (m.unplug, m.plug, m.other)] == ["check"]
