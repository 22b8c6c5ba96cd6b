"""Issue 13, items 1-3 and 11: hostile design and catalog files are refused quickly, in one short
line that names the file, the line and the field."""

import re
import resource
import time

import pytest

from designer.model.hardware import PortTemplate, cage_range
from designer.model.limits import excerpt
from designer.storage import FileFormatError, dumps, load
from designer.storage import design_file
from designer.storage.catalog_file import load_catalog_file
from tests.conftest import preset_fabric

GOOD = dumps(preset_fabric("default"))

# Item 1: nine lists of nine, six deep, is 9**6 = 531,441 values from 300 bytes.
BOMB = ("format_version: 1\nname: [&a [lol,lol,lol,lol,lol,lol,lol,lol,lol], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], "
        "&c [*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d], "
        "&f [*e,*e,*e,*e,*e,*e,*e,*e,*e]]\n")


def _refusal(tmp_path, text: str, name: str = "d.yaml") -> FileFormatError:
    path = tmp_path / name
    path.write_text(text)
    started = time.perf_counter()
    with pytest.raises(FileFormatError) as info:
        load(path)
    assert time.perf_counter() - started < 2
    message = str(info.value)
    assert "\n" not in message and len(message) < 400, message
    assert message.startswith(str(path)), message
    return info.value


def test_alias_bomb_is_refused_at_once_with_a_short_message(tmp_path):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    error = _refusal(tmp_path, BOMB)
    assert "aliases" in str(error) and error.line == 2
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 50_000   # KB: nothing was expanded


def test_a_few_aliases_are_still_fine(tmp_path):
    text = GOOD.replace("description: ''", "description: &d ''\nx-unused: *d", 1)
    error = _refusal(tmp_path, text)     # refused for the unknown field, not for the alias
    assert "unknown field 'x-unused'" in str(error)


def test_a_mistyped_huge_value_is_quoted_as_an_excerpt(tmp_path):
    text = GOOD.replace("name: two-su-demo", "name: [" + ", ".join(["lol"] * 5000) + "]", 1)
    error = _refusal(tmp_path, text)
    assert "a list of 5000 items" in str(error)


@pytest.mark.parametrize("text, expected", [
    ("format_version: 1\nname: " + "[" * 200 + "]" * 200 + "\n", r"d.yaml:2: values are nested more than 64"),
    ("format_version: 1\nsettings: {asn: {leaf_base: " + "9" * 5000 + "}}\n", r"d.yaml:2: the number .* 5,000 characters"),
    ("format_version: 1\nsettings: {asn: {leaf_base: ²}}\n", r"d.yaml:2: settings.asn.leaf_base: should be a whole number"),
    ("format_version: 1\nsettings: {asn: {leaf_base: 99999999999}}\n", r"leaf_base: 99999999999 is out of range"),
    ("format_version: 1\nsettings: {max_oversubscription: .nan}\n", r"max_oversubscription: nan is out of range"),
    ("format_version: 1\nsettings: {addressing: {mtu: 0}}\n", r"settings.addressing.mtu: 0 is out of range"),
    ("format_version: 1\nswitches: []\nasns: |\n  spine-01 ²\n", r"d.yaml:4: asns: the ASN of 'spine-01' should be a whole"),
    ("format_version: 1\nname: " + "x" * 5000 + "\n", r"name: has 5,000 characters; at most 1,024"),
    ("format_version: 1\nrails:\n- {index: 99999, name: r}\n", r"rails\[0\].index: 99999 is out of range: use 0 to 63"),
])
def test_numbers_depth_and_lengths_beyond_the_limits(tmp_path, text, expected):
    assert re.search(expected, str(_refusal(tmp_path, text)))


@pytest.mark.parametrize("cages", ["1-999999999", "1-99999999999999999999", "9-2", "0", "1-1025"])
def test_breakout_ranges_beyond_a_switch_are_refused(tmp_path, cages):
    text = GOOD.replace("  role: spine\n  model: asterfusion-cx732q-n\n",
                        f"  role: spine\n  model: asterfusion-cx732q-n\n  breakouts:\n    {cages}: 2x200G\n", 1)
    error = _refusal(tmp_path, text)
    assert error.field.startswith("switches[0].breakouts")


def test_cage_range_stays_bounded():
    assert cage_range("1-32") == range(1, 33) and cage_range("7") == range(7, 8)
    with pytest.raises(ValueError, match="1,024"):
        cage_range("1-999999999")


def _catalog(tmp_path, **switch) -> FileFormatError:
    model = {"id": "t1", "ports": 4, "speed": 800, "lanes": 8, "breakouts": "[1x800G, 2x400G]", **switch}
    body = "".join(f"    {k}: {v}\n" for k, v in model.items() if k != "id")
    path = tmp_path / "catalog.yaml"
    path.write_text(f"switch_models:\n  - id: {model['id']}\n{body}")
    with pytest.raises(FileFormatError) as info:
        load_catalog_file(path)
    assert str(info.value).startswith(str(path)) and len(str(info.value)) < 400
    return info.value


@pytest.mark.parametrize("pattern, expected", [
    ('"E{port[0]}"', r"\{port\[0\]\} is not a port name field"),
    ('"E{port.x}"', r"\{port.x\} is not a port name field"),
    ('"E{port.__class__}"', r"is not a port name field"),
    ('"E{lane:99999999}"', r"\{lane:99999999\} is not a port name field"),
    ('"E{0}"', r"\{0\} is not a port name field"),
    ('"E{lane"', r"unmatched '\{'"),
    ('"Eth"', r"has no field"),
    ('"E{port}"', r"sub-ports of cage 1 one name, E1; add \{sub\}"),
    ('"E {lane}"', r"not an interface name"),
    ('"E{sub}"', r"names a port of cage 1 and one of cage 2 both E0"),
])
def test_port_name_patterns_are_a_small_template_language(tmp_path, pattern, expected):
    error = _catalog(tmp_path, port_name=pattern)
    assert error.field == "switch_models[0].port_name" and re.search(expected, error.message), error.message


def test_a_switch_model_with_ten_million_ports_is_refused(tmp_path):
    error = _catalog(tmp_path, ports=10_000_000)
    assert "ports: 10000000 is out of range: use 1 to 1024" in str(error)


def test_port_templates_render_only_whole_number_fields():
    template = PortTemplate("Ethernet{port}/{sub1}")
    assert template.render(port=3, sub=1, sub1=2, lane=20) == "Ethernet3/2"
    with pytest.raises(ValueError):
        PortTemplate("{port!r}")


def test_a_design_file_over_the_size_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(design_file, "MAX_DESIGN_BYTES", 1000)
    error = _refusal(tmp_path, GOOD)
    assert "larger than" in str(error) and "design file" in str(error)


def test_excerpt_is_short_and_one_line():
    assert excerpt("a\nb") == "'a\\nb'"
    assert len(excerpt("x" * 10_000)) <= 60
    assert excerpt(list(range(10 ** 6))) == "a list of 1000000 items"
    assert "digits" in excerpt(10 ** 5000)
