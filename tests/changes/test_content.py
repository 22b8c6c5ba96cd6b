"""How one changed bundle file is judged: JSON as data, text line by line, bytes as bytes."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from designer.changes.content import file_changes, json_changes
from designer.changes.lines import added_lines, line_changes
from designer.changes.matching import unmatched


def _one(changes):
    assert len(changes) == 1
    c = changes[0]
    return c.kind, c.old, c.new, c.disruptive


def test_lines_only_added_anywhere_are_additive():
    assert _one(line_changes("frr.conf", b"a\nb\nc\n", b"a\nx\nb\nc\ny\n")) == ("lines", None, ["x", "y"], False)


def test_a_line_gone_or_changed_is_disruptive_and_named():
    assert _one(line_changes("frr.conf", b"a\nb\nc\n", b"a\nB\nc\n")) == ("lines", ["b"], ["B"], True)
    assert _one(line_changes("f", b"a\na\nb\n", b"a\nb\n")) == ("lines", ["a"], [], True)   # a repeat counts


def test_the_same_lines_in_another_order_are_disruptive():
    kind, old, new, disruptive = _one(line_changes("f", b"a\nb\n", b"b\na\n"))
    assert disruptive and "order" in new


def test_json_keys_added_are_additive_and_a_changed_value_disruptive():
    old = {"PORT": {"Ethernet0": {"mtu": "9100", "admin_status": "up"}}, "LOOPBACK_INTERFACE": {"Loopback0": {}}}
    grown = {"PORT": {"Ethernet0": {"mtu": "9100", "admin_status": "up", "fec": "rs"}},
             "LOOPBACK_INTERFACE": {"Loopback0": {}, "Loopback0|10.255.0.1/32": {}}}
    found = [(c.key, c.old, c.new, c.disruptive) for c in json_changes("config_db.json", old, grown)]
    assert found == [("config_db.json: LOOPBACK_INTERFACE > Loopback0|10.255.0.1/32", None, {}, False),
                     ("config_db.json: PORT > Ethernet0 > fec", None, "rs", False)]
    moved = {"PORT": {"Ethernet0": {"mtu": "1500", "admin_status": "up"}}, "LOOPBACK_INTERFACE": {}}
    found = [(c.key, c.old, c.new, c.disruptive) for c in json_changes("config_db.json", old, moved)]
    assert found == [("config_db.json: LOOPBACK_INTERFACE > Loopback0", {}, None, True),
                     ("config_db.json: PORT > Ethernet0 > mtu", "9100", "1500", True)]


def test_a_shut_port_coming_into_use_is_a_gain_and_a_used_port_shut_is_not():
    down = {"PORT": {"Ethernet8": {"admin_status": "down", "mtu": "9100"}}}
    up = {"PORT": {"Ethernet8": {"admin_status": "up", "mtu": "9100", "description": "leaf:Ethernet0"}}}
    assert all(not c.disruptive for c in json_changes("switches/s/config_db.json", down, up))
    assert any(c.disruptive for c in json_changes("switches/s/config_db.json", up, down))
    assert any(c.disruptive for c in json_changes("other.json", down, up))     # the rule is config_db.json's


def test_a_list_that_only_gains_items_is_additive_and_one_that_loses_one_is_not():
    assert _one(list(json_changes("p.json", {"d": ["a", "b"]}, {"d": ["a", "b", "c"]}))) == \
        ("json", None, ["c"], False)
    assert _one(list(json_changes("p.json", {"d": ["a", "b"]}, {"d": ["b", "c"]}))) == ("json", ["a"], ["c"], True)
    kind, old, new, disruptive = _one(list(json_changes("p.json", {"d": [1, 2]}, {"d": [2, 1]})))
    assert disruptive


def test_files_are_read_by_type():
    old, new = json.dumps({"a": 1}).encode(), json.dumps({"a": 1, "b": 2}).encode()
    assert _one(file_changes("x.json", old, new)) == ("json", None, 2, False)
    assert _one(file_changes("x.json", b"not json\n", b"not json\nmore\n")) == ("lines", None, ["more"], False)
    kind, _, _, disruptive = _one(file_changes("aid.xlsx", b"\xff\x00", b"\xff\x01"))
    assert kind == "binary" and disruptive


def _greedy(old, new):
    """The plain definition: walk the new items, taking each old item at its first match."""
    extra, i = [], 0
    for item in new:
        if i < len(old) and item == old[i]:
            i += 1
        else:
            extra.append(item)
    return extra if i == len(old) else None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "ab", ""]), max_size=12), st.data())
def test_the_fast_in_order_matching_agrees_with_the_plain_definition(old, data):
    inserts = data.draw(st.lists(st.tuples(st.integers(0, 12), st.sampled_from(["a", "b", "c", "ab", ""])),
                                 max_size=5))
    new = list(old) if data.draw(st.booleans()) else data.draw(st.lists(st.sampled_from(["a", "b", "c"]), max_size=12))
    for at, item in inserts:
        new.insert(min(at, len(new)), item)
    assert unmatched(old, new) == _greedy(old, new)
    as_bytes = lambda lines: "".join(f"{line}\n" for line in lines).encode()
    assert added_lines(as_bytes(old), as_bytes(new)) == _greedy(old, new)


def test_a_json_file_written_one_item_per_line_may_gain_a_comma_where_an_item_was_added():
    old = b'{\n  "rows": [\n    {"a": 1}\n  ]\n}\n'
    new = b'{\n  "rows": [\n    {"a": 1},\n    {"a": 2}\n  ]\n}\n'
    assert _one(line_changes("aid.json", old, new, commas=True)) == ("lines", None, ['    {"a": 2}'], False)
    assert _one(line_changes("aid.json", old, new))[3]          # without the JSON rule, a changed line


def test_json_nested_past_pythons_stack_is_compared_as_lines():
    deep = lambda inner: ("[" * 1000 + inner + "]" * 1000 + "\n").encode()
    kind, old, new, disruptive = _one(file_changes("deep.json", deep("1"), deep("2")))
    assert kind == "lines" and disruptive


def test_a_value_nested_too_deep_to_print_is_carried_as_words():
    deep = 1
    for _ in range(900):
        deep = [deep]
    kind, old, new, disruptive = _one(list(json_changes("x.json", {"a": 1}, {"a": 1, "b": deep})))
    assert new == "(a value nested more than 64 levels deep)" and not disruptive
    assert _one(list(json_changes("x.json", {"a": [[1]]}, {"a": [[1], [[2]]]})))[2] == [[[2]]]


def test_a_list_whose_items_nest_past_orjsons_limit_is_compared_as_lines():
    deep = lambda inner: ('{"a": [' + "[" * 300 + inner + "]" * 300 + "]}\n").encode()
    kind, old, new, disruptive = _one(file_changes("x.json", deep("1"), deep("2")))
    assert kind == "lines" and disruptive
