"""yamldump.dump writes the bytes PyYAML writes, for any document of the shapes bundles hold."""

from __future__ import annotations

import yaml
from hypothesis import given, settings, strategies as st

from designer.export import yamldump
from designer.export.yamldump import dump

# Characters that steer PyYAML's quoting: indicators, spaces, colons, quotes, breaks, non-ASCII.
TRICKY = "aZ09yYnNoOtTfF -_.:/#,?[]{}&*!|>'\"%@`=+~()$\t\n\x85\u2028é\x07"
WORDS = ["", "-", "- x", "yes", "No", "null", "~", "true", "0", "0x1F", "1e3", ".5", ".inf", "1:20", "2024-01-02",
         "=", "<<", "...", "---", "a: b", "a:", "a #b", "a#b", "  x", "x ", "10.0.0.1/31", "Ethernet0",
         "ip address add 10.0.0.1/31 dev Ethernet8", "../hosts/h1:/etc/rail-designer:ro", "{{ x }}/..", "a" * 130,
         "a" * 250, "x\ny"]

strings = st.one_of(st.sampled_from(WORDS), st.text(alphabet=TRICKY, max_size=12),
                    st.text(alphabet="abc 01:.-/", max_size=30))
scalars = st.one_of(strings, st.integers(-10**6, 10**6), st.booleans(), st.none(),
                    st.floats(allow_nan=False, width=32))
keys = st.one_of(strings, st.integers(0, 300), st.booleans())
documents = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(keys, inner, max_size=4)), max_leaves=30)


def pyyaml(data, sort_keys=False) -> str:
    return yaml.dump(data, Dumper=yamldump._Dumper, sort_keys=sort_keys, default_flow_style=False,
                     allow_unicode=True, width=1000)


@settings(max_examples=150, deadline=None)
@given(documents)
def test_same_bytes_as_pyyaml(data):
    assert dump(data) == pyyaml(data)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.text(alphabet="ab_0", min_size=1, max_size=4), documents, max_size=5))
def test_same_bytes_as_pyyaml_with_sorted_keys(data):
    assert dump(data, sort_keys=True) == pyyaml(data, sort_keys=True)


def test_the_usual_bundle_document_takes_the_direct_path(monkeypatch):
    calls = []
    real = yamldump._pyyaml
    monkeypatch.setattr(yamldump, "_pyyaml", lambda data, sort_keys: calls.append(data) or real(data, sort_keys))
    doc = {"name": "lab", "topology": {"nodes": {"leaf-1": {"kind": "linux", "exec": ["ip link set lo up"],
                                                          "labels": {"rail-designer.group": "0"}}},
                                       "links": [{"endpoints": ["leaf-1:Ethernet0", "h1:eth0"], "mtu": 9100}]}}
    assert dump(doc) == pyyaml(doc)
    assert calls == [["0"]]            # only the one scalar PyYAML must quote went to PyYAML
