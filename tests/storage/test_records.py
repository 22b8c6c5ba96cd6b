"""The design file's device lists are read without PyYAML only where that cannot change the answer."""

from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from designer.storage import records
from designer.storage.yamlio import FileFormatError, dump, parse

DESIGNS = sorted(Path(__file__).resolve().parent.parent.joinpath("data", "designs").glob("*.fabric.yaml"))


def outcome(reader, text):
    try:
        return reader(text, "f.yaml")
    except FileFormatError as exc:
        return ("refused", str(exc))


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: p.name)
def test_saved_designs_read_their_device_lists_directly_and_get_pyyaml_s_answer(path, monkeypatch):
    text = path.read_text()
    taken = []
    real = records._records
    monkeypatch.setattr(records, "_records", lambda lines: taken.append(real(lines)) or taken[-1])
    assert records.read(text, "f.yaml") == parse(text, "f.yaml")
    assert len(taken) == 2 and all(found for found in taken)    # both sections took the direct path


HEAD = "format_version: 1\nname: x\n"
TAIL = "links: |\n  a/b -- c/d\n"


def test_a_quoted_value_running_across_a_section_is_left_to_pyyaml():
    text = HEAD + 'description: "one\nservers:\n- id: a\n  su: 1\nsus: []"\n' + TAIL
    assert "servers" not in parse(text, "f.yaml")
    assert outcome(records.read, text) == outcome(parse, text)


def test_a_section_written_twice_is_refused_as_pyyaml_refuses_it():
    text = HEAD + "servers:\n- id: a\nservers:\n- id: b\n"
    assert outcome(records.read, text) == outcome(parse, text)
    assert outcome(parse, text)[0] == "refused"


def test_an_error_after_a_section_keeps_the_file_s_line_number():
    text = HEAD + "switches:\n- id: a\n  su: 1\nlinks: [\n"
    assert outcome(records.read, text) == outcome(parse, text)


WORDS = ["a", "su1-srv01", "yes", "No", "on", "OFF", "null", "Null", "true", "y", "n", "0", "7", "012", "0x1F",
         "1_000", "1e5", "1.5", "2x400G", "1-32", "2024-01-02", "12:30", "~", ".inf", "-", "- x", "a b", "a#b",
         "a: b", "'q'", '"q"', "[1]", "{}", "&x", "*x", "!t", "", " a", "a ", "\t", "9999999999", "99999999999",
         "nic3", "rail", "id"]
KEYS = ["id", "su", "nics", "nic0", "rail", "5", "1-32", "yes", "null", "a b", "x"]
INDENTS = ["", "- ", "  ", "    ", "      ", "   ", "  - "]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["switches", "servers"]),
       st.lists(st.tuples(st.sampled_from(INDENTS), st.sampled_from(KEYS),
                          st.one_of(st.none(), st.sampled_from(WORDS))), min_size=1, max_size=8),
       st.sampled_from(["", "sus: []\n", "# note\n", "\n", "---\n"]))
def test_any_section_reads_as_pyyaml_reads_it(name, lines, after):
    body = "".join(f"{indent}{key}:" + ("" if value is None else f" {value}") + "\n"
                   for indent, key, value in lines)
    text = HEAD + f"{name}:\n" + body + after + TAIL
    assert outcome(records.read, text) == outcome(parse, text)


SAFE = ["a", "su1-srv01", "hgx-h100-8x400g", "2x400G", "1-32", "nic3", "0", "7", "64", "x.y_z"]
TREE = st.recursive(st.sampled_from(SAFE * 8 + WORDS),   # mostly words read directly
                    lambda inner: st.lists(st.tuples(st.sampled_from(KEYS), inner), min_size=1, max_size=3),
                    max_leaves=6)


def render(records) -> list[str]:
    lines = []

    def entries(items, column, first_prefix):
        for i, (key, value) in enumerate(items):
            prefix = first_prefix if i == 0 else " " * column
            if isinstance(value, list):
                lines.append(f"{prefix}{key}:")
                entries(value, column + 2, " " * (column + 2))
            else:
                lines.append(f"{prefix}{key}: {value}")

    for record in records:
        entries(record, 2, "- ")
    return lines


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(KEYS), TREE), min_size=1, max_size=4), min_size=1, max_size=3),
       st.sampled_from([None, "indent", "outdent", "repeat", "drop"]), st.integers(0, 40))
def test_regular_lists_read_directly_give_pyyaml_s_values(entries, mutation, at):
    lines = render(entries)
    at %= len(lines)
    if mutation == "indent":
        lines[at] = " " + lines[at]
    elif mutation == "outdent" and lines[at].startswith("  "):
        lines[at] = lines[at][2:]
    elif mutation == "repeat":
        lines.insert(at, lines[at])
    elif mutation == "drop" and len(lines) > 1:
        del lines[at]
    text = HEAD + "servers:\n" + "\n".join(lines) + "\n" + TAIL
    assert outcome(records.read, text) == outcome(parse, text)


@pytest.mark.parametrize("path", DESIGNS, ids=lambda p: p.name)
def test_saved_designs_write_their_device_lists_as_pyyaml_does(path, monkeypatch):
    doc = parse(path.read_text(), "f.yaml")
    head = {key: value for key, value in doc.items() if key not in ("links", "asns", "addresses")}
    dumped = []
    monkeypatch.setattr(records, "dump", lambda data: dumped.append(list(data)) or dump(data))
    assert records.write(head) == dump(head)
    assert dumped == [[key for key in head if key not in records.SECTIONS]]   # the lists went the direct way


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.tuples(st.sampled_from(KEYS + [3, 12]), TREE), min_size=1, max_size=4), max_size=3),
       st.sampled_from([[], [7, -1, True, None, 1.5, "x" * 130]]))
def test_any_device_list_is_written_as_pyyaml_writes_it(entries, odd):
    def mapping(items):
        return {key: mapping(value) if isinstance(value, list) else value for key, value in items}
    servers = [mapping(record) for record in entries]
    if odd and servers:
        servers[0]["odd"] = odd[len(entries) % len(odd)]
    doc = {"format_version": 1, "switches": [{"id": "s1"}], "servers": servers}
    assert records.write(doc) == dump(doc)
    text = records.write(doc)
    assert records.read(text, "f.yaml") == parse(text, "f.yaml") == doc or odd
