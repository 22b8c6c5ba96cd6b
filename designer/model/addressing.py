"""IPv4 helpers on plain integers (fast enough for tens of thousands of addresses)."""

from __future__ import annotations

import ipaddress
import re
from socket import inet_aton
from struct import unpack
from typing import Mapping, Sequence

from .errors import ModelError
from .limits import excerpt

_CIDR = re.compile(r"^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})/([0-9]{1,2})\Z")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
# Already valid and normalised (no octet above 255, no leading zeros, length 0..32): most addresses, so
# loading a big design checks each with one match instead of parsing it.
_NORMAL = re.compile(rf"{_OCTET}\.{_OCTET}\.{_OCTET}\.{_OCTET}/(?:3[0-2]|[12]?[0-9])").fullmatch


_PREFIXES = {str(n): n for n in range(33)}
HOST_BITS = [(1 << (32 - prefix)) - 1 for prefix in range(33)]     # prefix length -> its host-bit mask
# CIDR text -> (address, prefix) of the values the model stores (validated and normalised by
# `check_cidr`), kept across calls: the window re-checks and re-addresses after every edit and almost
# every address is unchanged. Cleared when it outgrows the largest designs (PARSED_LIMIT).
PARSED: dict[str, tuple[int, int]] = {}
PARSED_LIMIT = 1 << 20


def parse_cidr(cidr: str) -> tuple[int, int]:
    """(address, prefix) of a CIDR the model stores, remembered in PARSED (callers look there first)."""
    if len(PARSED) >= PARSED_LIMIT:
        PARSED.clear()
    slash = cidr.index("/")
    value = PARSED[cidr] = (int.from_bytes(inet_aton(cidr[:slash]), "big"), _PREFIXES[cidr[slash + 1:]])
    return value


def parse_cidrs(cidrs: Mapping[str, str]) -> dict[str, tuple[int, int]]:
    """key -> (address, prefix) of every CIDR of a mapping the model stores, all at once (one join, split
    and unpack in C instead of a parse each: 0.06 s instead of 0.17 s for 99,072 addresses)."""
    if not cidrs:
        return {}
    words = "/".join(cidrs.values()).split("/")          # stored CIDRs hold exactly one '/'
    addresses = unpack(f">{len(cidrs)}I", b"".join(map(inet_aton, words[0::2])))
    return dict(zip(cidrs, zip(addresses, map(_PREFIXES.__getitem__, words[1::2]))))


def check_cidr(cidr: str, where: str) -> str:
    """Validate ``a.b.c.d/len`` (an interface address: host bits allowed); returns it normalised."""
    if isinstance(cidr, str) and _NORMAL(cidr):
        return cidr
    m = _CIDR.match(cidr) if isinstance(cidr, str) else None
    if not m or any(int(x) > 255 for x in m.groups()[:4]) or int(m.group(5)) > 32:
        raise ModelError(f"{excerpt(cidr)} for {where} is not an IPv4 address with a prefix length, "
                         "like 10.0.0.5/24", (where,))
    if any(len(x) > 1 and x[0] == "0" for x in m.groups()):
        return cidr_str(ip_int(cidr.partition("/")[0]), int(m.group(5)))   # drop leading zeros
    return cidr


def check_cidrs(cidrs: Sequence[str], keys: Sequence[str]) -> Sequence[str]:
    """`check_cidr` of each of ``cidrs`` (the address of ``keys[i]``): one C-level pass when all are valid
    and normalised already (the whole table comes back as it is)."""
    try:
        if all(map(_NORMAL, cidrs)):
            return cidrs
    except TypeError:                      # not all text: check_cidr names the first
        pass
    return [check_cidr(cidr, key) for cidr, key in zip(cidrs, keys)]


def parse_network(cidr: str, what: str) -> tuple[int, int]:
    """``'10.0.0.0/16'`` -> (network int, prefix length). Host bits must be zero."""
    try:
        net = ipaddress.IPv4Network(cidr)
    except ValueError as exc:
        detail = f" ({exc})" if len(str(exc)) < 100 else ""
        raise ModelError(f"{what} {excerpt(cidr)} is not an IPv4 network like 10.0.0.0/16{detail}") from None
    return int(net.network_address), net.prefixlen


_OCTETS = [str(n) for n in range(256)]


def ip_str(value: int) -> str:
    """Dotted quad of the low 32 bits of ``value`` (from the octets' texts: 2.5x inet_ntoa's speed)."""
    value &= 0xFFFFFFFF
    return f"{_OCTETS[value >> 24]}.{_OCTETS[value >> 16 & 255]}.{_OCTETS[value >> 8 & 255]}.{_OCTETS[value & 255]}"


def cidr_str(value: int, prefix: int) -> str:
    return f"{ip_str(value)}/{prefix}"


def ip_int(text: str) -> int:
    a, b, c, d = (int(x) for x in text.split("."))
    return a << 24 | b << 16 | c << 8 | d


def split_cidr(cidr: str) -> tuple[int, int]:
    """``'10.0.0.5/24'`` -> (address int, prefix length)."""
    addr, _, prefix = cidr.partition("/")
    return ip_int(addr), int(prefix)


def network_of(cidr: str) -> tuple[int, int]:
    addr, prefix = split_cidr(cidr)
    mask = (0xFFFFFFFF << (32 - prefix)) & 0xFFFFFFFF
    return addr & mask, prefix


def size(prefix: int) -> int:
    return 1 << (32 - prefix)
