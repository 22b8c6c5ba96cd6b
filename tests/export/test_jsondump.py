"""jsondump.indented writes the bytes json.dumps(indent=2, sort_keys=True) writes, whichever encoder runs."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from designer.export import jsondump
from designer.export.jsondump import indented

strings = st.one_of(st.text(alphabet="aZ09 -_.:/\\\"'\t\n\x00\x1f\x7f\x80é€😀null1e5E", max_size=10),
                    st.sampled_from(["", "null", "1e5", "x" * 50]))
scalars = st.one_of(strings, st.integers(-2**70, 2**70), st.booleans(), st.none(), st.floats(),
                    st.sampled_from([0.0, -0.0, 1e15, 1e16, 1e22, 1.5e-5, 9.999e-05, 0.0001, 5e-324, 123456.789, 1e308]))
keys = st.one_of(strings, st.integers(-5, 5), st.booleans(), st.none(), st.floats(allow_nan=False))
documents = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(keys, inner, max_size=4)), max_leaves=25)


def outcome(write, data):
    try:
        return write(data)
    except (TypeError, ValueError) as exc:            # mixed key types cannot be sorted: both refuse
        return type(exc)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_same_bytes_as_json(data):
    assert outcome(indented, data) == outcome(lambda d: json.dumps(d, indent=2, sort_keys=True), data)


def test_plain_documents_take_orjson(monkeypatch):
    doc = {"targets": ["su1-srv01:9100"], "labels": {"rail": "0,1", "su": "1"}, "panels": [{"id": 3, "w": 0.5}], "x": {}}
    expected = json.dumps(doc, indent=2, sort_keys=True)

    def refuse(*args, **kwargs):
        raise AssertionError("took the json module")
    monkeypatch.setattr(jsondump.json, "dumps", refuse)
    assert indented(doc) == expected
