from hypothesis import given, strategies as st

from designer.model.ids import _hostname_fault, hostname_problem, is_valid_hostname, natural_key, split_endpoint


def test_natural_order_puts_srv2_before_srv10():
    names = ["su1-srv10", "su1-srv2", "su10-srv1", "su2-srv1"]
    assert sorted(names, key=natural_key) == ["su1-srv2", "su1-srv10", "su2-srv1", "su10-srv1"]


def test_endpoint_splits_at_first_slash_so_port_names_may_hold_slashes():
    assert split_endpoint("leaf1/Ethernet1/1") == ("leaf1", "Ethernet1/1")


def test_hostname_problems_are_named():
    assert hostname_problem("gpu-01") is None
    assert "'/'" in hostname_problem("a/b")
    assert "hyphen" in hostname_problem("-x")
    assert "' '" in hostname_problem("a b")
    assert "empty" in hostname_problem("")


@given(st.one_of(st.text(alphabet="aZ09-._ /\né", max_size=70),
                 st.lists(st.text(alphabet="ab-", min_size=0, max_size=66), max_size=5).map(".".join)))
def test_one_match_accepts_exactly_the_names_the_rules_accept(name):
    # hostname_problem answers valid names with one regex match and explains the others rule by rule.
    assert is_valid_hostname(name) == (_hostname_fault(name) is None)
    assert (hostname_problem(name) is None) == is_valid_hostname(name)
