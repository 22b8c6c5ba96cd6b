import pytest

from designer.model import ModelError, Role, Switch
from designer.model import events as ev


def test_connect_refuses_a_port_already_cabled(default_fabric):
    nic = "su1-srv01/nic0"
    peer = default_fabric.peer(nic)
    with pytest.raises(ModelError, match="already cabled"):
        default_fabric.connect("su1-srv02/nic1", peer)


def test_connect_refuses_an_unknown_port(default_fabric):
    default_fabric.disconnect(default_fabric.link_at("su1-srv01/nic0").id)
    with pytest.raises(ModelError, match="not a NIC or a switch port"):
        default_fabric.connect("su1-srv01/nic0", "su1-leaf-r0/Ethernet999")


def test_move_nic_recables_to_a_free_port_of_its_speed_and_emits_one_event(default_fabric):
    seen = []
    default_fabric.subscribe(seen.append)
    old, new = default_fabric.move_nic("su1-srv01/nic0", "su1-leaf-r1")
    assert old.other("su1-srv01/nic0").startswith("su1-leaf-r0/")
    assert new.other("su1-srv01/nic0").startswith("su1-leaf-r1/")
    assert default_fabric.nic("su1-srv01/nic0").rail == 0      # the NIC keeps its affinity rail
    assert [e.kind for e in seen] == [ev.RESET]


def test_move_nic_to_a_switch_without_a_free_port_of_its_speed_says_why(default_fabric):
    leaf = "su1-leaf-r1"
    for port in default_fabric.free_ports(leaf, 400):      # every free cage now runs 4 x 100G
        default_fabric.set_breakout(leaf, port.cage, "4x100G")
    with pytest.raises(ModelError, match="su1-leaf-r1 has no free 400G port for su1-srv01/nic0"):
        default_fabric.move_nic("su1-srv01/nic0", leaf)
    assert default_fabric.peer("su1-srv01/nic0").startswith("su1-leaf-r0/")   # nothing changed


def test_breakout_change_refused_while_cables_sit_on_the_cage(default_fabric):
    port = default_fabric.port(default_fabric.peer("su1-srv01/nic0"))
    with pytest.raises(ModelError, match="disconnect them"):
        default_fabric.set_breakout("su1-leaf-r0", port.cage, "2x200G")


def test_invalid_hostname_refused_with_reason(default_fabric):
    with pytest.raises(ModelError, match="not a valid host name.*'/'"):
        default_fabric.set_hostname("su1-srv01", "bad/name")


def test_duplicate_hostname_refused(default_fabric):
    with pytest.raises(ModelError, match="already used by su1-srv02"):
        default_fabric.set_hostname("su1-srv01", "su1-srv02")


def test_device_id_with_slash_refused(default_fabric):
    with pytest.raises(ModelError, match="not a valid device id"):
        default_fabric.add_switch(Switch("x/y", "xy", Role.SPINE, "asterfusion-cx732q-n"))


def test_remove_device_returns_its_cables_for_undo(default_fabric):
    links_before = len(default_fabric.links)
    device, links = default_fabric.remove_device("spine-01")
    assert device.id == "spine-01" and len(links) == 16
    assert len(default_fabric.links) == links_before - 16
    default_fabric.add_switch(device)
    for link in links:
        default_fabric.connect(link.a, link.b)
    assert len(default_fabric.links) == links_before


def test_pinned_address_survives_replace_plan(default_fabric):
    default_fabric.set_address("su1-srv01/nic0", "10.0.0.200/29", pinned=True)
    default_fabric.replace_plan({"su1-srv01/nic0": "10.0.0.2/29"}, {})
    assert default_fabric.addresses["su1-srv01/nic0"] == "10.0.0.200/29"


def test_bad_address_refused(default_fabric):
    with pytest.raises(ModelError, match="not an IPv4 address"):
        default_fabric.set_address("su1-srv01/nic0", "10.0.0.300/24")


def test_forget_unused_drops_only_sus_and_rails_nothing_uses(default_fabric):
    from designer.planning.build import make_server
    f = default_fabric
    f.add_server(make_server(f.catalog, "su5-srv01", "gpu-4x400g", 5, 4))
    f.set_nic_rail("su1-srv01/nic0", 9)
    assert 5 in f.sus and 9 in f.rails
    f.forget_unused(sus={1, 5}, rails={0, 9})
    assert 5 in f.sus and 9 in f.rails and 1 in f.sus          # still used: kept
    f.remove_device("su5-srv01")
    f.set_nic_rail("su1-srv01/nic0", 0)
    f.forget_unused(sus={5}, rails={9})
    assert 5 not in f.sus and 9 not in f.rails


def test_a_removed_device_takes_its_addresses_and_asn_and_the_file_reopens(default_fabric, tmp_path):
    from designer.storage import load, save
    f = default_fabric
    f.set_address("spine-01/lo", "10.255.0.200/32", pinned=True)
    addresses, asn = f.plan_of("spine-01")
    assert addresses["spine-01/lo"] == ("10.255.0.200/32", True) and asn == (f.asns["spine-01"], False)
    f.remove_device("spine-01")
    f.remove_device("su1-srv01")
    assert not [k for k in (*f.addresses, *f.asns, *f.pinned) if k.split("/")[0] in ("spine-01", "su1-srv01")]
    save(f, tmp_path / "d.fabric.yaml")           # a gone switch's ASN once made this file unreadable
    assert set(load(tmp_path / "d.fabric.yaml").addresses) == set(f.addresses)


def test_a_table_of_addresses_is_set_whole_or_not_at_all(default_fabric):
    fabric = default_fabric
    before, pins = dict(fabric.addresses), fabric.pinned
    keys = ["su1-srv01/nic0", "su1-srv01/nic1", "su1-srv01/nic2"]
    cidrs = ["10.9.0.1/31", "10.9.0.3/31", "10.9.0.999/31"]
    with pytest.raises(ModelError, match="10.9.0.999/31' for su1-srv01/nic2 is not an IPv4 address"):
        fabric.set_addresses(keys, cidrs)
    with pytest.raises(ModelError, match="is not an address key"):
        fabric.set_addresses(["su1-srv01/nic0", "su1-srv01 nic1"], cidrs[:2])
    with pytest.raises(ModelError, match="is pinned but has no address here"):
        fabric.set_addresses(keys[:2], cidrs[:2], pinned=["su1-srv01/nic3"])
    assert dict(fabric.addresses) == before and fabric.pinned == pins
    fabric.set_addresses(keys[:2], ["10.9.0.1/31", "010.9.0.3/31"], pinned=["su1-srv01/nic1"])
    assert [fabric.addresses[k] for k in keys[:2]] == ["10.9.0.1/31", "10.9.0.3/31"]
    assert fabric.is_pinned("su1-srv01/nic1") and not fabric.is_pinned("su1-srv01/nic0")


def test_cables_whose_ends_share_a_natural_key_go_by_their_far_ends(default_fabric):
    from designer.model.ids import natural_key
    from designer.planning.build import make_server
    fabric = default_fabric
    server = fabric.servers["su1-srv01"]
    model = server.model
    ports = [p.name for p in fabric.free_ports("su1-leaf-r0", server.nics[0].speed)][:2]
    for server_id, port in (("a1", ports[1]), ("a01", ports[0])):      # 'a01/nic0' and 'a1/nic0': one key
        fabric.add_server(make_server(fabric.catalog, server_id, model, 1, len(fabric.rails)))
        fabric.connect(f"{server_id}/nic0", f"su1-leaf-r0/{port}")
    links = fabric.sorted_links()
    assert links == sorted(fabric.links.values(), key=lambda l: (natural_key(l.a), natural_key(l.b)))
    assert [l.a for l in links[:2]] == ["a01/nic0", "a1/nic0"]          # by su1-leaf-r0's port order
