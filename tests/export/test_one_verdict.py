"""One verdict (issue 13, item 7): over mutated designs, what `validate` says is what export does.

For every mutated design, either
- `check()` reports a finding export cannot get past (`bundle.BLOCKING`): a forced export refuses at
  once, naming exactly those codes, with nothing written; or
- every part renders, every bundle path is one the writer accepts, and no two files collide.
So a design `validate` passes (no error at all) always exports, and one that cannot export fails
`validate` with the code the forced export names.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from designer.checks import Severity, check
from designer.export.bundle import BLOCKING, ExportRefused, _safe_relpath, export
from designer.export.registry import parts
from designer.model.errors import ModelError
from tests.conftest import preset_fabric

NAMES = st.one_of(st.sampled_from(["ens1np0", "eth0", "", "a" * 16, "0eth", "eth..0", "e th", "eth0\n", "é1",
                                   "mlx5_0", "x" * 65, "../x", "eth;rm"]),
                  st.text(min_size=0, max_size=20))
CIDRS = st.one_of(st.sampled_from(["10.0.0.2/29", "10.254.0.0/31", "10.255.0.9/32", "192.168.1.1/24",
                                   "10.1.200.7/31", "0.0.0.0/0", "10.0.0.0/8", "255.255.255.255/32"]),
                  st.builds(lambda a, p: f"{a >> 24}.{a >> 16 & 255}.{a >> 8 & 255}.{a & 255}/{p}",
                            st.integers(0, 2 ** 32 - 1), st.integers(0, 32)))
TEXT = st.text(max_size=30)


def _pick(data, items):
    items = sorted(items)
    return data.draw(st.sampled_from(items)) if items else None


def _mutate(f, data) -> None:
    op = data.draw(st.sampled_from(["netdev", "rdma", "address", "unaddress", "stray", "asn", "unasn", "hostname",
                                    "disconnect", "connect", "move", "breakout", "settings", "names", "nic-rail",
                                    "remove", "switch-rail", "gid"]))
    nics = [n.id for n in f.nics()]
    if op in ("netdev", "rdma"):
        nic = f.nic(_pick(data, nics))
        new = data.draw(NAMES)
        f.set_nic_names(nic.id, new if op == "netdev" else nic.netdev, new if op == "rdma" else nic.rdma)
    elif op == "address":
        keys = [*f.addresses, *nics, *(f"{s}/lo" for s in f.switches), *(f"{l.id}/svi" for l in f.leaves())]
        f.set_address(_pick(data, keys), data.draw(CIDRS), pinned=data.draw(st.booleans()))
    elif op == "unaddress" and f.addresses:
        f.set_address(_pick(data, f.addresses), None)
    elif op == "stray":
        device = _pick(data, [*f.servers, *f.switches])
        f.set_address(f"{device}/{data.draw(st.sampled_from(['nic9', 'svi', 'lo', 'Ethernet999', 'x']))}",
                      data.draw(CIDRS))
    elif op == "asn":
        f.set_asn(_pick(data, f.switches), data.draw(st.integers(1, 4294967294)))
    elif op == "unasn":
        f.set_asn(_pick(data, f.switches), None)
    elif op == "hostname":
        f.set_hostname(_pick(data, [*f.servers, *f.switches]), data.draw(st.sampled_from(
            ["dup", "DUP", "a.b", "x" * 63, "node-1.example.net", "h1"])))
    elif op == "disconnect" and f.links:
        f.disconnect(_pick(data, f.links))
    elif op == "connect":
        a, b = _pick(data, [*f.switches, *f.servers]), _pick(data, f.switches)
        free = f.free_ports(b)
        ends = [n.id for n in f.servers[a].nics] if a in f.servers else [f"{a}/{p.name}" for p in f.free_ports(a)]
        if free and ends:
            f.connect(_pick(data, ends), f"{b}/{_pick(data, [p.name for p in free])}")
    elif op == "move":
        f.move_nic(_pick(data, nics), _pick(data, [l.id for l in f.leaves()]))
    elif op == "breakout":
        switch = f.switches[_pick(data, f.switches)]
        model = f.catalog.switch(switch.model)
        f.set_breakout(switch.id, data.draw(st.integers(1, model.ports)), _pick(data, model.breakouts))
    elif op == "settings":
        s = f.settings
        addressing = dataclasses.replace(
            s.addressing, scheme=_pick(data, ["subnet-per-leaf", "p2p31"]),
            fabric_pool=_pick(data, ["10.254.0.0/16", "10.0.0.0/16", "10.254.0.0/30"]),
            mtu=data.draw(st.sampled_from([576, 1500, 9000, 9216])))
        asn = dataclasses.replace(s.asn, spine_mode=_pick(data, ["shared", "per-plane", "per-spine"]))
        f.set_settings(dataclasses.replace(s, addressing=addressing, asn=asn, name=data.draw(TEXT),
                                           description=data.draw(TEXT)))
    elif op == "names":
        f.set_rail_name(_pick(data, f.rails), data.draw(TEXT))
        f.set_su_name(_pick(data, f.sus), data.draw(TEXT))
    elif op == "remove":
        f.remove_device(_pick(data, [*f.servers, *f.switches]))
    elif op == "switch-rail" and f.leaves():
        f.set_switch_rail(_pick(data, [l.id for l in f.leaves()]), data.draw(st.integers(0, 5)))
    elif op == "gid" and f.servers:
        f.set_gid_index(_pick(data, f.servers), data.draw(st.sampled_from([None, 0, 3, 255])))
    elif op == "nic-rail":
        f.set_nic_rail(_pick(data, nics), data.draw(st.sampled_from([None, 0, 1, 2, 3])))


BASES = {"subnet-per-leaf": lambda: preset_fabric("default"),
         "p2p31": lambda: preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4)}


@pytest.mark.parametrize("base", sorted(BASES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_validate_and_export_agree_on_mutated_designs(base, data, tmp_path_factory):
    f = BASES[base]()
    for _ in range(data.draw(st.integers(1, 6))):
        try:
            _mutate(f, data)
        except ModelError:
            pass                           # the model refused the edit: nothing changed
    findings = check(f)
    assert "RD000" not in {x.code for x in findings}, [x.message for x in findings if x.code == "RD000"]
    blocking = {x.code for x in findings if x.severity is Severity.ERROR and x.code in BLOCKING}
    event("refused up front" if blocking else "rendered, with errors" if any(
        x.severity is Severity.ERROR for x in findings) else "rendered, validate passes")
    if blocking:
        out = tmp_path_factory.mktemp("b") / "bundle"
        with pytest.raises(ExportRefused) as refused:
            export(f, out, force=True)
        assert refused.value.forced and {x.code for x in refused.value.findings} == blocking
        assert not out.exists()
        return
    paths = []                               # what a forced (or, with no errors, any) export writes
    for part in parts():
        for device in part.devices(f):
            paths += part.render_device(f, device)
        paths += part.render_global(f)
    for path in paths:
        _safe_relpath(path)
    assert len(set(paths)) == len(paths), "two objects write one file"
