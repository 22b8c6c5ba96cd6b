"""Malformed design files: one readable message each, naming file, line and field."""

import pytest

from designer.storage import FileFormatError, dumps, load, loads
from tests.conftest import preset_fabric

GOOD = dumps(preset_fabric("default"))


def _replace(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


CASES = {
    "yaml-syntax": ("format_version: 1\nname: [unclosed\n", r"d.yaml:3: YAML syntax error"),
    "not-a-mapping": ("- just\n- a list\n", r"is not a design file"),
    "no-version": ("name: x\n", r"'format_version' is missing"),
    "newer-version": (_replace("format_version: 1", "format_version: 7"),
                      r"d.yaml:1: format_version: the file is format 7, written by a newer rail-designer"),
    "unknown-field": (_replace("name: two-su-demo", "name: two-su-demo\ncolour: red"),
                      r"d.yaml:3: colour: unknown field 'colour'"),
    "bad-scheme": (_replace("scheme: subnet-per-leaf", "scheme: dhcp"),
                   r"settings.addressing.scheme: 'dhcp' is not one of: subnet-per-leaf, p2p31"),
    "bad-pool": (_replace("fabric_pool: 10.254.0.0/16", "fabric_pool: 10.254.0.1/16"),
                 r"settings.addressing.fabric_pool: pool '10.254.0.1/16' is not an IPv4 network"),
    "unknown-model": (_replace("model: gpu-4x400g", "model: dgx-z9"),
                      r"servers\[0\].model: unknown server model 'dgx-z9'"),
    "hostname-with-slash": (_replace("hostname: su1-srv01", "hostname: su1/srv01"),
                            r"servers\[0\]: 'su1/srv01' is not a valid host name for su1-srv01: it contains '/'"),
    "duplicate-key": (_replace("  su: 1\n", "  su: 1\n  su: 2\n"), r"key 'su' appears twice"),
    "wrong-type": (_replace("servers:\n- id: su1-srv01\n  hostname: su1-srv01\n  model: gpu-4x400g\n  su: 1",
                            "servers:\n- id: su1-srv01\n  hostname: su1-srv01\n  model: gpu-4x400g\n  su: one"),
                   r"servers\[0\].su: should be a whole number, not 'one'"),
    "bad-link": (_replace("  spine-01/Ethernet0 -- su1-leaf-r0/Ethernet224\n",
                          "  spine-01/Ethernet0 -> su1-leaf-r0/Ethernet224\n"),
                 r"links: a link should read 'device/port -- device/port'"),
    "link-to-missing-port": (_replace("spine-01/Ethernet0 -- su1-leaf-r0/Ethernet224",
                                      "spine-01/Ethernet0 -- su1-leaf-r0/Ethernet999"),
                             r"links: 'su1-leaf-r0/Ethernet999' is not a NIC or a switch port"),
    "port-cabled-twice": (_replace("spine-01/Ethernet0 -- su1-leaf-r0/Ethernet224",
                                   "spine-01/Ethernet8 -- su1-leaf-r0/Ethernet224"),
                          r"links: spine-01/Ethernet8 is already cabled"),
    "bad-address": (_replace("su1-srv01/nic0 10.0.0.2/29", "su1-srv01/nic0 10.0.0.999/29"),
                    r"addresses: '10.0.0.999/29' for su1-srv01/nic0 is not an IPv4 address"),
    "leaf-without-su": (_replace("  role: leaf\n  model: asterfusion-cx732q-n\n  su: 1\n",
                                 "  role: leaf\n  model: asterfusion-cx732q-n\n"),
                        r"d.yaml:\d+: switches\[2\]: leaf su1-leaf-r0 needs an SU"),
    "bad-nic": (_replace("model: gpu-4x400g\n  su: 1\n", "model: gpu-4x400g\n  su: 1\n  nics:\n    nic9: {rail: 1}\n"),
                r"servers\[0\].nics.nic9: server model gpu-4x400g has no NIC 'nic9'"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_file_gives_one_readable_located_message(name, tmp_path):
    text, expected = CASES[name]
    path = tmp_path / "d.yaml"
    path.write_text(text)
    with pytest.raises(FileFormatError) as info:
        load(path)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    import re
    assert re.search(expected, message), message


def test_table_errors_name_the_line_of_the_record(tmp_path):
    lines = GOOD.splitlines()
    index = next(i for i, l in enumerate(lines) if l.startswith("  su1-srv01/nic0 10.0.0.2/29"))
    lines[index] = "  su1-srv01/nic0 banana"
    path = tmp_path / "d.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(FileFormatError) as info:
        load(path)
    assert info.value.line == index + 1 and info.value.field == "addresses"


def test_missing_file_and_binary_file(tmp_path):
    with pytest.raises(FileFormatError, match="no such file"):
        load(tmp_path / "absent.yaml")
    (tmp_path / "b.yaml").write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    with pytest.raises(FileFormatError, match="is not UTF-8 text"):
        load(tmp_path / "b.yaml")


def test_loads_of_an_empty_text_is_refused():
    with pytest.raises(FileFormatError, match="is not a design file"):
        loads("")


def _with_address_rows(rows: list[str]) -> str:
    """GOOD with ``rows`` first in its address table, in place of the records of their keys."""
    head, _, table = GOOD.partition("addresses: |\n")
    assert table.endswith("\n") and all(line.startswith("  ") for line in table.splitlines())   # the file's end
    keys = {row.split()[0] for row in rows if row.split()}
    kept = [line for line in table.splitlines(keepends=True) if line.split()[0] not in keys]
    return head + "addresses: |\n" + "".join(f"  {row}\n" for row in rows) + "".join(kept)


@pytest.mark.parametrize("rows, address, pinned", [
    (["su1-srv01/nic0 10.0.0.2/29 pinned"], "10.0.0.2/29", True),
    (["su1-srv01/nic0 10.0.0.3/29", "", "su1-srv01/nic0 10.0.0.2/29 pinned"], "10.0.0.2/29", True),   # the last wins
    (["su1-srv01/nic0 10.0.0.2/29 pinned", "su1-srv01/nic0 10.0.0.3/29"], "10.0.0.3/29", False),
    (["su1-srv01/nic0 010.0.0.4/29"], "10.0.0.4/29", False),          # normalised, as set_address does
])
def test_the_whole_table_read_means_what_the_records_say_one_by_one(rows, address, pinned):
    fabric = loads(_with_address_rows(rows))
    assert fabric.addresses["su1-srv01/nic0"] == address and fabric.is_pinned("su1-srv01/nic0") is pinned
    one_by_one = loads(GOOD)
    for row in (r.split() for r in rows if r):
        one_by_one.set_address(row[0], row[1], pinned=len(row) == 3)
    assert fabric.addresses == one_by_one.addresses and fabric.pinned == one_by_one.pinned


@pytest.mark.parametrize("row, expected", [
    ("su1-srv01/nic0 10.0.0.2/29 pinnd", "should be 2 words, optionally followed by 'pinned'"),
    ("su1-srv01/nic0", "should be 2 words"),
    ("su1-srv01//nic0 10.0.0.2/29", "is not an address key"),
    ("su1..srv01/nic0 10.0.0.2/29", "is not an address key"),
    ("su1-srv01/nic0 10.0.0.2/33", "is not an IPv4 address"),
])
def test_a_bad_record_anywhere_in_the_table_is_named_by_its_line(row, expected):
    text = _with_address_rows(["su1-srv01/nic1 10.0.0.10/29", row])
    line = text.splitlines().index(f"  {row}") + 1
    with pytest.raises(FileFormatError, match=expected) as info:
        loads(text, "d.yaml")
    assert info.value.line == line and info.value.field == "addresses"
