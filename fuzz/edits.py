"""Design-level mutations: edits made through the Fabric API (so every one is a state the model can
hold), chosen to stress what export needs. The fuzzer saves the result as a design file; the
one-verdict property test (tests/export/test_one_verdict.py) checks validate against export on it.
"""

from __future__ import annotations

import dataclasses
import random

from designer.model.errors import ModelError

NAMES = ["ens1np0", "eth0", "", "a" * 16, "0eth", "eth..0", "e th", "eth0\n", "é1", "mlx5_0", "x" * 65, "../x",
         "eth;rm", "bond0.100", "-", "."]
CIDRS = ["10.0.0.2/29", "10.254.0.0/31", "10.255.0.9/32", "192.168.1.1/24", "10.1.200.7/31", "0.0.0.0/0",
         "10.0.0.0/8", "255.255.255.255/32", "10.0.0.1/32", "10.254.0.1/31"]
TEXT = ["", "x", "é", "a\nb", "x" * 300, "<b>&amp;", "'quote\"", "=cmd|'/c calc'!A1", "\t", "rail-0"]
OPS = ("netdev", "rdma", "address", "unaddress", "stray", "asn", "unasn", "hostname", "disconnect", "connect",
       "move", "breakout", "settings", "names", "nic-rail", "remove", "switch-rail", "gid")


def _pick(rng: random.Random, items):
    items = sorted(items)
    return rng.choice(items) if items else None


def _cidr(rng: random.Random) -> str:
    if rng.random() < 0.6:
        return rng.choice(CIDRS)
    a = rng.randrange(1 << 32)
    return f"{a >> 24}.{a >> 16 & 255}.{a >> 8 & 255}.{a & 255}/{rng.randint(0, 32)}"


def _text(rng: random.Random) -> str:
    return rng.choice(TEXT) if rng.random() < 0.7 else "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(8))


def edit(f, rng: random.Random) -> None:
    """One edit; raises ModelError when the model refuses it (nothing changed then)."""
    op = rng.choice(OPS)
    nics = [n.id for n in f.nics()]
    leaves = [l.id for l in f.leaves()]
    if op in ("netdev", "rdma") and nics:
        nic = f.nic(_pick(rng, nics))
        new = rng.choice(NAMES) if rng.random() < 0.8 else _text(rng)
        f.set_nic_names(nic.id, new if op == "netdev" else nic.netdev, new if op == "rdma" else nic.rdma)
    elif op == "address":
        keys = [*f.addresses, *nics, *(f"{s}/lo" for s in f.switches), *(f"{l}/svi" for l in leaves)]
        if keys:
            f.set_address(_pick(rng, keys), _cidr(rng), pinned=rng.random() < 0.5)
    elif op == "unaddress" and f.addresses:
        f.set_address(_pick(rng, f.addresses), None)
    elif op == "stray" and (f.servers or f.switches):
        device = _pick(rng, [*f.servers, *f.switches])
        f.set_address(f"{device}/{rng.choice(['nic9', 'svi', 'lo', 'Ethernet999', 'x'])}", _cidr(rng))
    elif op == "asn" and f.switches:
        f.set_asn(_pick(rng, f.switches), rng.choice([1, 65000, 4200000000, 4294967294, rng.randint(1, 2 ** 32 - 2)]))
    elif op == "unasn" and f.switches:
        f.set_asn(_pick(rng, f.switches), None)
    elif op == "hostname" and (f.servers or f.switches):
        f.set_hostname(_pick(rng, [*f.servers, *f.switches]),
                       rng.choice(["dup", "DUP", "a.b", "x" * 63, "node-1.example.net", "h1"]))
    elif op == "disconnect" and f.links:
        f.disconnect(_pick(rng, f.links))
    elif op == "connect" and f.switches:
        a, b = _pick(rng, [*f.switches, *f.servers]), _pick(rng, f.switches)
        ends = [n.id for n in f.servers[a].nics] if a in f.servers else [f"{a}/{p.name}" for p in f.free_ports(a)]
        free = [p.name for p in f.free_ports(b)]
        if free and ends:
            f.connect(_pick(rng, ends), f"{b}/{_pick(rng, free)}")
    elif op == "move" and nics and leaves:
        f.move_nic(_pick(rng, nics), _pick(rng, leaves))
    elif op == "breakout" and f.switches:
        switch = f.switches[_pick(rng, f.switches)]
        model = f.catalog.switch(switch.model)
        f.set_breakout(switch.id, rng.randint(1, model.ports), _pick(rng, model.breakouts))
    elif op == "settings":
        s = f.settings
        addressing = dataclasses.replace(
            s.addressing, scheme=rng.choice(["subnet-per-leaf", "p2p31"]),
            fabric_pool=rng.choice(["10.254.0.0/16", "10.0.0.0/16", "10.254.0.0/30"]),
            mtu=rng.choice([576, 1500, 9000, 9216]))
        asn = dataclasses.replace(s.asn, spine_mode=rng.choice(["shared", "per-plane", "per-spine"]))
        f.set_settings(dataclasses.replace(s, addressing=addressing, asn=asn, name=_text(rng), description=_text(rng)))
    elif op == "names" and f.rails and f.sus:
        f.set_rail_name(_pick(rng, f.rails), _text(rng))
        f.set_su_name(_pick(rng, f.sus), _text(rng))
    elif op == "nic-rail" and nics:
        f.set_nic_rail(_pick(rng, nics), rng.choice([None, 0, 1, 2, 3]))
    elif op == "remove" and (f.servers or f.switches):
        f.remove_device(_pick(rng, [*f.servers, *f.switches]))
    elif op == "switch-rail" and leaves:
        f.set_switch_rail(_pick(rng, leaves), rng.randint(0, 5))
    elif op == "gid" and f.servers:
        f.set_gid_index(_pick(rng, f.servers), rng.choice([None, 0, 3, 255]))


def edits(f, rng: random.Random, count: int) -> None:
    for _ in range(count):
        try:
            edit(f, rng)
        except ModelError:
            pass
