"""The MTU a netplan file gives each ethernet (``network.ethernets.<netdev>.mtu``).

Building the whole document with PyYAML costs about 2 ms per host file even with libyaml (8 s of a
4,096-host bundle, most of the QoS check), and only one key per interface is wanted. So a file in plain
block style (what the exporter writes, and what a person's edit usually keeps) is read by walking its
keys by indentation; anything else (flow style, anchors, tags, block scalars, tabs, several documents,
quoted or complex keys) goes to PyYAML. Both give the same answer on a block-style file
(tests/qos/test_netplan.py compares them).
"""

from __future__ import annotations

import re

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_KEY = re.compile(r"^( *)(- +)?([A-Za-z0-9_.@/-]+):(?: +(.*))?$")
_ITEM = re.compile(r"^( *)- +(.*)$")
_PLAIN_VALUE = re.compile(r'^(?:"[^"\\]*"|[^\s"\'{}\[\]&*!|>%@`#,][^#]*?)?\s*(?:\s#.*)?$')
_COMPLEX = re.compile(r"[\t]|^(?:---|\.\.\.|%)", re.M)


class NotPlain(Exception):
    """The file is not in the plain block style `_walk` reads."""


def mtus(text: str) -> dict[str, str]:
    """netdev -> its MTU as text, for each ethernet that sets one. Raises yaml.YAMLError for bad YAML."""
    try:
        return _walk(text)
    except NotPlain:
        return _by_yaml(text)


def _by_yaml(text: str) -> dict[str, str]:
    data = yaml.load(text, Loader=_LOADER)
    network = data.get("network") if isinstance(data, dict) else None
    ethernets = network.get("ethernets") if isinstance(network, dict) else None
    return {str(dev): str(conf["mtu"]) for dev, conf in (ethernets or {}).items()
            if isinstance(ethernets, dict) and isinstance(conf, dict) and "mtu" in conf}


def _scalar(raw: str | None) -> str:
    value = (raw or "").split(" #", 1)[0].strip()
    if not _PLAIN_VALUE.match(value) or ": " in value or value in ("", "~", "null", "Null", "NULL"):
        raise NotPlain                 # empty, null, quoted specially or flow style: let PyYAML say what it is
    return value[1:-1] if value.startswith('"') else value


def _walk(text: str) -> dict[str, str]:
    if _COMPLEX.search(text) or any(ch in text for ch in "{[&*!|>"):
        raise NotPlain
    out: dict[str, str] = {}
    stack: list[list] = [[-1, None, None]]            # [indent, key, indent of its children] of the open levels
    for line in text.splitlines():
        body = line.lstrip(" ")
        if not body or body.startswith("#"):
            continue
        indent = len(line) - len(body)
        if len(stack) > 4 and indent > stack[-1][0]:
            continue                                    # below a key of an interface: cannot be its mtu
        match = _KEY.match(line.rstrip())
        item = None if match else _ITEM.match(line.rstrip())
        if match is None and item is None:
            raise NotPlain
        _enter(stack, indent)
        if item is not None:
            _scalar(item.group(2))                      # a plain list item: its value is not needed
            continue
        dash, key, value = match.group(2), match.group(3), match.group(4)
        if dash:
            stack.append([indent, "-", None])
            indent += len(dash)
            _enter(stack, indent)
        if value is None or value.split(" #", 1)[0].strip() == "":
            stack.append([indent, key, None])           # a mapping or a list opens below
            continue
        scalar = _scalar(value)
        if key == "mtu" and [k for _, k, _ in stack[1:3]] == ["network", "ethernets"] and len(stack) == 4:
            if stack[3][1] in out:
                raise NotPlain                          # a duplicate key: PyYAML's answer (the last) is the rule
            out[stack[3][1]] = scalar
    return out


def _enter(stack: list[list], indent: int) -> None:
    """Close the levels a line at ``indent`` leaves; it must sit where its parent's other children sit."""
    while stack[-1][0] >= indent:
        stack.pop()
    parent = stack[-1]
    if parent[2] is None:
        parent[2] = indent
    elif parent[2] != indent:
        raise NotPlain                                  # indented unlike its siblings: PyYAML decides
