import re

from hypothesis import given, strategies as st

from designer.model.ids import (_hostname_fault, address_key_problem, hostname_problem, is_valid_device_id,
                                is_valid_hostname, is_valid_port_name, natural_key, split_endpoint)


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
