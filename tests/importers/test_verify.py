"""As-built check: generated LLDP from a design verifies clean; swaps, cross-rail moves and missing
cables are reported as exactly what was changed, with the fewest moves to fix them."""

import pytest

from designer.importers.lldp import LldpDump, parse_lldp, read_lldp_dir
from designer.importers.verify import verify
from designer.model.ids import split_endpoint
from designer.planning.build import build
from designer.storage.catalog_file import builtin_catalog
from designer.storage.presets import load_preset

from .lldpgen import dumps_for

PRESETS = ["default", "rail-only-32x4", "rail-optimized-64x4"]


@pytest.fixture(scope="module", params=PRESETS)
def fabric(request):
    return build(load_preset(request.param).spec(), builtin_catalog())


def planned(fabric):
    return [(l.a, l.b) for l in fabric.sorted_links()]


def as_dumps(files):
    return [LldpDump(name, *parse_lldp(text, name), source=name) for name, text in sorted(files.items())]


def run(fabric, cables, **kw):
    return verify(fabric, as_dumps(dumps_for(fabric, cables, **kw)))


def nic_links_on(fabric, leaf):
    return [(l.a, l.b) for l in fabric.links_of(leaf.id)
            if split_endpoint(l.a)[0] in fabric.servers or split_endpoint(l.b)[0] in fabric.servers]


def test_design_cabled_as_planned_verifies_clean(fabric):
    hosts = {s.id for s in fabric.sorted_servers()[::2]}     # half the hosts send json0
    result = run(fabric, planned(fabric), json0_hosts=hosts)
    assert result.ok and result.moves == [] and result.not_checked == []
    assert sorted(result.as_planned) == sorted(fabric.links)
    assert set(result.link_status().values()) == {"as-planned"}


def test_two_swapped_cables_are_two_miswirings_and_a_two_move_order(fabric):
    (a_nic, a_port), (b_nic, b_port) = [sorted(c, key=lambda e: split_endpoint(e)[0] not in fabric.servers)
                                        for c in nic_links_on(fabric, fabric.leaves()[-1])[:2]]
    cables = [c for c in planned(fabric) if a_nic not in c and b_nic not in c]
    cables += [(a_nic, b_port), (b_nic, a_port)]
    result = run(fabric, cables)
    assert [m.kind for m in result.mismatches] == ["miswired", "miswired"]
    assert {frozenset(m.ends) for m in result.mismatches} == {frozenset((a_nic, b_port)), frozenset((b_nic, a_port))}
    assert {(m.action, m.keep, m.unplug, m.plug) for m in result.moves} == {
        ("move", a_nic, b_port, a_port), ("move", b_nic, a_port, b_port)}
    assert len(result.as_planned) == len(fabric.links) - 2


def server_end_first(cable, fabric):
    return tuple(sorted(cable, key=lambda e: split_endpoint(e)[0] not in fabric.servers))


def test_nic_on_another_rails_leaf_is_cross_rail_and_listed_first(fabric):
    leaf0, leaf1 = [l for l in fabric.leaves() if l.su == 1][:2]
    nic, port = server_end_first(nic_links_on(fabric, leaf0)[0], fabric)
    # the leaves are full: the NIC takes the port of rail-1 NIC y, whose cable is pulled
    (y, y_port), (x, xp), (z, zp) = [server_end_first(c, fabric) for c in nic_links_on(fabric, leaf1)[:3]]
    stray = (nic, y_port)
    cables = [c for c in planned(fabric) if not {nic, y, x, z} & set(c)] + [stray, (x, zp), (z, xp)]
    result = run(fabric, cables)
    assert [m.kind for m in result.mismatches] == ["cross-rail", "miswired", "miswired"]
    assert set(result.mismatches[0].ends) == set(stray) and "CROSS-RAIL" in result.mismatches[0].message
    first = result.moves[0]
    assert (first.action, first.keep, first.unplug, first.plug) == ("move", nic, y_port, port)
    assert [m.action for m in result.moves] == ["move", "move", "move", "add"]
    assert {result.moves[-1].plug, result.moves[-1].other} == {y, y_port}
    assert result.link_status()[fabric.link_at(nic).id] == "cross-rail"


def test_missing_cable_and_unknown_neighbour(default_fabric):
    fabric = default_fabric
    gone = planned(fabric)[0]
    files = dumps_for(fabric, [c for c in planned(fabric) if c != gone])
    leaf = "su1-leaf-r0"
    lines = files[f"{leaf}.txt"].splitlines()
    starts = [i for i, ch in enumerate(lines[2]) if ch == "-" and (i == 0 or lines[2][i - 1] == " ")]
    row = "".join(v.ljust(b - a) for v, a, b in zip(["Ethernet96", "mystery-box", "eth7", "O"], starts, starts[1:]))
    files[f"{leaf}.txt"] = "\n".join(lines[:3] + [row] + lines[3:]) + "\n"
    result = verify(fabric, as_dumps(files))
    kinds = [m.kind for m in result.mismatches]
    assert kinds == ["missing", "unknown"]
    assert result.mismatches[0].ends == gone and result.mismatches[1].found == "mystery-box port eth7"
    assert [m.action for m in result.moves] == ["add"] and result.moves[0].plug == gone[0]


def test_reads_a_folder_and_skips_strangers(default_fabric, tmp_path):
    for name, text in dumps_for(default_fabric, planned(default_fabric)).items():
        (tmp_path / name).write_text(text)
    (tmp_path / "mgmt-switch.txt").write_text((tmp_path / "su1-leaf-r0.txt").read_text())
    result = verify(default_fabric, read_lldp_dir(tmp_path))
    assert result.ok and any("mgmt-switch" in n for n in result.notes)


def test_only_switch_side_data_still_checks_every_cable(default_fabric):
    files = {k: v for k, v in dumps_for(default_fabric, planned(default_fabric)).items() if k.endswith(".txt")}
    result = verify(default_fabric, as_dumps(files))
    assert result.ok and len(result.as_planned) == len(default_fabric.links)


def test_sonic_port_aliases_in_host_dumps_are_understood(default_fabric, tmp_path):
    """SONiC's lldpd sends the port alias (etp1, etp1a ...) as the port ID hosts see."""
    import json
    from designer.importers.lldp import read_lldp_dir
    from designer.importers.verify import verify as run_verify
    from tests.importers.lldpgen import dumps_for
    fabric = default_fabric
    files = dumps_for(fabric, [(l.a, l.b) for l in fabric.sorted_links()])
    for name, text in files.items():
        if name.endswith(".json"):
            for leaf in fabric.leaves():
                for port in fabric.ports(leaf.id).values():
                    text = text.replace(json.dumps(port.name), json.dumps(port.alias))
        (tmp_path / name).write_text(text)
    assert '"etp1"' in (tmp_path / "su1-srv01.json").read_text()
    result = run_verify(fabric, read_lldp_dir(tmp_path))
    assert result.ok and len(result.as_planned) == len(fabric.links)
