"""check_cidr: valid, normalised addresses pass as they are; others are normalised or refused."""

import pytest
from hypothesis import given, strategies as st

from designer.model.addressing import PARSED, check_cidr, ip_str, parse_cidr, parse_cidrs
from designer.model.errors import ModelError


@pytest.mark.parametrize("text, expected", [
    ("10.0.0.1/31", "10.0.0.1/31"), ("0.0.0.0/0", "0.0.0.0/0"), ("255.255.255.255/32", "255.255.255.255/32"),
    ("10.0.0.01/24", "10.0.0.1/24"), ("01.2.3.4/08", "1.2.3.4/8"), ("10.200.249.199/9", "10.200.249.199/9"),
])
def test_valid_addresses(text, expected):
    assert check_cidr(text, "k") == expected


@pytest.mark.parametrize("text", ["10.0.0.256/24", "10.0.0.1/33", "10.0.0/24", "10.0.0.1", "a.b.c.d/8", None, 7])
def test_invalid_addresses_are_refused_naming_the_key(text):
    with pytest.raises(ModelError, match="for su1-srv01/nic0 is not an IPv4 address with a prefix length"):
        check_cidr(text, "su1-srv01/nic0")


@given(st.integers(-(2 ** 40), 2 ** 40))
def test_ip_str_writes_the_low_32_bits_as_a_dotted_quad(value):
    low = value & 0xFFFFFFFF
    assert ip_str(value) == ".".join(str(low >> shift & 255) for shift in (24, 16, 8, 0))


@given(st.dictionaries(st.text(min_size=1, max_size=5), st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 32)),
                       max_size=20))
def test_parsing_a_whole_table_at_once_gives_what_parsing_each_gives(table):
    cidrs = {key: f"{ip_str(addr)}/{prefix}" for key, (addr, prefix) in table.items()}
    PARSED.clear()
    assert parse_cidrs(cidrs) == {key: parse_cidr(cidr) for key, cidr in cidrs.items()} == table
    assert list(parse_cidrs(cidrs)) == list(cidrs)             # in the table's order
