"""Stable string ids: validation, natural sorting, endpoint parsing.

Devices have ids such as ``su1-srv07``, ``su1-leaf-r3`` or ``p0-spine-02``.
An *endpoint* names one end of a cable: ``<device id>/<port>``, for example
``su1-srv07/nic3`` or ``su1-leaf-r3/Ethernet8``. Device ids never contain a
``/``; port names may (``Ethernet1/1``), so an endpoint splits at its first ``/``.
"""

from __future__ import annotations

import re
from typing import Sequence

_DIGITS = re.compile(r"([0-9]+)")
# RFC 1123 label: letters, digits, hyphens; no leading/trailing hyphen; 1-63 chars.
_LABEL = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)\Z")
_PORT_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_.:/-]{0,62}\Z")
_ADDRESS_KEY = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)/[A-Za-z][A-Za-z0-9_.:/-]{0,62}")


# text -> its natural_key, kept across calls: a design sorts the same ids and endpoints again and again
# (every cable's two ends when it is cabled and again when the design is saved, every address key). A
# pure function of the text, so it cannot go stale; cleared when it outgrows the largest designs.
_KEYS: dict[str, tuple] = {}
_KEYS_LIMIT = 1 << 21
# An endpoint's key from its device's and its port's: device -> (the device's key but its last run, that
# last text run + '/'), and (last run + '/' + port) -> its runs. A few thousand devices share a few
# hundred port names, so an endpoint not seen before costs two lookups and a tuple.
_HEADS: dict[str, tuple[tuple, str]] = {}
_TAILS: dict[str, tuple] = {}
# A whole valid host name in one match (exporters ask for every cable end of a large design).
_HOSTNAME = re.compile(r"(?=.{1,253}\Z)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(?:\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\Z").match


def natural_key(text: str) -> tuple:
    """Sort key that orders ``srv2`` before ``srv10``."""
    key = _KEYS.get(text)
    if key is None:
        if len(_KEYS) >= _KEYS_LIMIT:
            _KEYS.clear()
            _HEADS.clear()
            _TAILS.clear()
        device, sep, port = text.partition("/")
        if device and sep:
            # No digit run crosses the '/', so the runs of an endpoint are its device's runs but the
            # last (text) one, then the runs of that last run joined to '/' and the port.
            head = _HEADS.get(device)
            if head is None:
                whole = natural_key(device)
                head = _HEADS[device] = (whole[:-1], whole[-1] + "/")
            end = head[1] + port
            tail = _TAILS.get(end)
            if tail is None:
                tail = _TAILS[end] = _runs(end)
            key = head[0] + tail
        else:
            key = _runs(text)
        _KEYS[text] = key
    return key


def _runs(text: str) -> tuple:
    # split() with a capturing group alternates text and digit runs, starting and ending with text
    # (maybe ""), so equal positions always hold the same type and tuples compare safely.
    parts = _DIGITS.split(text)
    parts[1::2] = map(int, parts[1::2])
    return tuple(parts)


def endpoint_before(a: str, device_a: str, b: str, device_b: str) -> bool:
    """natural_key(a) < natural_key(b) for endpoints ``a`` and ``b`` of devices ``device_a`` and
    ``device_b``, mostly without the endpoints' keys (a cable's two ends are seldom sorted again).

    An endpoint's key is its device's key up to the last (text) run, so when the two device keys
    differ before the shorter one's last run, they decide; only then, as on one device or on devices
    named like ``leaf1`` and ``leaf1-b``, are the endpoints' own keys needed."""
    head_a, head_b = natural_key(device_a), natural_key(device_b)
    n = min(len(head_a), len(head_b)) - 1
    if head_a[:n] != head_b[:n]:
        return head_a[:n] < head_b[:n]
    return natural_key(a) < natural_key(b)


def natural_sorted(items, key=None):
    if key is None:
        return sorted(items, key=natural_key)
    return sorted(items, key=lambda item: natural_key(key(item)))


def is_valid_hostname(name: str) -> bool:
    """RFC 1123 host name: dot-separated labels, at most 253 characters."""
    return _HOSTNAME(name) is not None


def hostname_problem(name: str) -> str | None:
    """Say what is wrong with a host name, or None when it is valid."""
    return None if _HOSTNAME(name) else _hostname_fault(name)


def _hostname_fault(name: str) -> str | None:
    """The first rule ``name`` breaks, checked one by one (None only for a valid name)."""
    if not name:
        return "it is empty"
    if len(name) > 253:
        return f"it has {len(name)} characters (at most 253)"
    for label in name.split("."):
        if not label:
            return "it has an empty label (two dots in a row, or a leading/trailing dot)"
        if len(label) > 63:
            return f"the label '{label[:20]}...' has {len(label)} characters (at most 63)"
        if label.startswith("-") or label.endswith("-"):
            return f"the label '{label}' starts or ends with a hyphen"
        bad = sorted({c for c in label if not (c.isascii() and (c.isalnum() or c == "-"))})
        if bad:
            shown = " ".join(repr(c) for c in bad)
            return f"it contains {shown}; only letters, digits, hyphens and dots are allowed"
    return None


_NETDEV = re.compile(r"^[A-Za-z0-9_.-]{1,15}\Z")
_RDMA = re.compile(r"^[A-Za-z0-9_.-]{1,64}\Z")


def netdev_problem(name: str) -> str | None:
    """Say what is wrong with a Linux interface name, or None (IFNAMSIZ: at most 15 characters)."""
    if not name:
        return "it is empty"
    if len(name) > 15:
        return f"it has {len(name)} characters (Linux allows at most 15)"
    if name in (".", ".."):
        return "it is '.' or '..'"
    if not _NETDEV.match(name):
        bad = sorted({c for c in name if not (c.isascii() and (c.isalnum() or c in "_.-"))})
        return f"it contains {' '.join(repr(c) for c in bad)}; only letters, digits, '.', '-' and '_' are allowed"
    return None


def rdma_problem(name: str) -> str | None:
    """Say what is wrong with an RDMA device name (mlx5_0), or None."""
    if not _RDMA.match(name):
        return "only letters, digits, '.', '-' and '_' are allowed (at most 64)"
    return None


def is_valid_port_name(name: str) -> bool:
    return bool(_PORT_NAME.match(name)) and ".." not in name


def endpoint(device_id: str, port: str) -> str:
    return f"{device_id}/{port}"


def split_endpoint(ep: str) -> tuple[str, str]:
    device, sep, port = ep.partition("/")
    if not sep or not device or not port:
        raise ValueError(f"'{ep}' is not an endpoint of the form <device>/<port>")
    return device, port


def address_key_problem(key: str) -> str | None:
    """What is wrong with an address key (``<device>/<port>``: a NIC, switch port, ``svi`` or ``lo``),
    or None. Keys are written in a design file's address table, one word each."""
    if isinstance(key, str) and _ADDRESS_KEY.fullmatch(key) and ".." not in key:
        return None          # a device id, '/', a port name: what the two checks below accept, in one match
    device, sep, port = key.partition("/") if isinstance(key, str) else ("", "", "")
    if not sep or not is_valid_device_id(device) or not is_valid_port_name(port):
        shown = repr(key[:60]) if isinstance(key, str) else type(key).__name__
        return (f"{shown} is not an address key: write <device id>/<interface>, such as su1-srv01/nic0, "
                "su1-leaf-r0/Ethernet0, su1-leaf-r0/svi or spine-01/lo (no spaces)")
    return None


def address_keys_problem(keys: Sequence[str]) -> tuple[str, str] | None:
    """(key, problem) of the first key `address_key_problem` refuses, or None: one C-level pass over a
    whole table when every key is fine (a design file holds 10^5)."""
    try:
        if all(map(_ADDRESS_KEY.fullmatch, keys)) and ".." not in "\n".join(keys):   # keys hold no '\n'
            return None
    except TypeError:                      # not all text: the slow pass names the first
        pass
    for key in keys:
        problem = address_key_problem(key)
        if problem:
            return key, problem
    return None


def is_valid_device_id(device_id: str) -> bool:
    """Device ids are single RFC 1123 labels: they name files and never hold '/' or '.'."""
    return bool(_LABEL.match(device_id))
