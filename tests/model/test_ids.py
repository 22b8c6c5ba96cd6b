import re

from hypothesis import given, settings, strategies as st

from designer.model.ids import (_hostname_fault, address_key_problem, endpoint_before, hostname_problem,
                                is_valid_device_id, is_valid_hostname, is_valid_port_name, natural_key,
                                split_endpoint)
from designer.model.queries import nic_index


def test_natural_order_puts_srv2_before_srv10():
    names = ["su1-srv10", "su1-srv2", "su10-srv1", "su2-srv1"]
    assert sorted(names, key=natural_key) == ["su1-srv2", "su1-srv10", "su2-srv1", "su10-srv1"]


def _runs(text: str) -> tuple:
    """The natural key by its definition: text and whole-number runs, alternating."""
    return tuple(int(part) if i % 2 else part for i, part in enumerate(re.split(r"([0-9]+)", text)))


@given(st.text(alphabet="ab-/Z09.", max_size=14))
def test_natural_key_of_an_endpoint_is_built_from_its_halves_without_changing_it(text):
    # endpoints take the device's and the port's remembered keys; the answer must not depend on what
    # was asked before, so ask twice (the second answer comes from the memo)
    assert natural_key(text) == _runs(text)
    assert natural_key(text) == _runs(text)
    assert natural_key(text + "/p1") == _runs(text + "/p1")


_DEVICE = st.text(alphabet="ab-09", min_size=1, max_size=8)
_PORT = st.text(alphabet="aE-/09", min_size=1, max_size=6)


@given(_DEVICE, _PORT, _DEVICE, _PORT)
def test_endpoint_order_from_the_device_keys_is_the_natural_order_of_the_endpoints(dev_a, port_a, dev_b, port_b):
    # connect() orders a cable's ends by their devices' keys where those decide; devices named like
    # 'a1' and 'a1-b' (where '-' sorts before '/') and ends on one device must still come out right
    a, b = f"{dev_a}/{port_a}", f"{dev_b}/{port_b}"
    assert endpoint_before(a, dev_a, b, dev_b) == (_runs(a) < _runs(b))
    assert endpoint_before(b, dev_b, a, dev_a) == (_runs(b) < _runs(a))


def test_endpoint_order_where_a_device_id_begins_another():
    assert endpoint_before("leaf1-b/p1", "leaf1-b", "leaf1/p1", "leaf1")    # '-' < '/'
    assert not endpoint_before("leaf1/p1", "leaf1", "leaf1-b/p1", "leaf1-b")
    assert endpoint_before("su1-leaf/Ethernet8", "su1-leaf", "su1-srv2/nic0", "su1-srv2")


def test_nic_names_are_exact():
    assert [nic_index(name) for name in ("nic0", "nic7", "nic1024", "nic5000")] == [0, 7, 1024, 5000]
    assert [nic_index(name) for name in ("nic03", "nic", "nic-1", "nic\u0663", "Nic1", "nic1 ")] == [None] * 6


@settings(max_examples=300)
@given(st.lists(st.text(alphabet="a1-/0x9", max_size=12), max_size=30))
def test_keys_built_from_remembered_device_and_port_halves_are_the_runs_of_the_whole(texts):
    # many endpoints share a device or a port end: the halves come from memos filled by earlier texts
    assert [natural_key(t) for t in texts] == [_runs(t) for t in texts]


def test_endpoint_splits_at_first_slash_so_port_names_may_hold_slashes():
    assert split_endpoint("leaf1/Ethernet1/1") == ("leaf1", "Ethernet1/1")


def test_hostname_problems_are_named():
    assert hostname_problem("gpu-01") is None
    assert "'/'" in hostname_problem("a/b")
    assert "hyphen" in hostname_problem("-x")
    assert "' '" in hostname_problem("a b")
    assert "empty" in hostname_problem("")


@given(st.text(alphabet="aZ09-./_:é ", max_size=70))
def test_the_one_match_address_key_check_accepts_exactly_what_the_full_checks_accept(text):
    device, sep, port = text.partition("/")
    assert (address_key_problem(text) is None) == bool(sep and is_valid_device_id(device) and is_valid_port_name(port))


@given(st.one_of(st.text(alphabet="aZ09-._ /\né", max_size=70),
                 st.lists(st.text(alphabet="ab-", min_size=0, max_size=66), max_size=5).map(".".join)))
def test_one_match_accepts_exactly_the_names_the_rules_accept(name):
    # hostname_problem answers valid names with one regex match and explains the others rule by rule.
    assert is_valid_hostname(name) == (_hostname_fault(name) is None)
    assert (hostname_problem(name) is None) == is_valid_hostname(name)
