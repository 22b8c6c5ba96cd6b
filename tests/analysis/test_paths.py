"""Path traces on preset designs and hand-broken ones."""

from __future__ import annotations

from designer.analysis.paths import trace
from designer.analysis.routing import Forwarding
from designer.analysis.select import pairs
from designer.model.ids import endpoint
from designer.planning.ppd import ppd_plan
from tests.conftest import preset_fabric


def codes(t):
    return {f.code for f in t.flags}


def test_same_leaf_is_delivered_locally_and_symmetric(default_fabric):
    t = trace(Forwarding(default_fabric), "su1-srv01/nic0", "su1-srv02/nic0")
    assert t.ok and not t.flags
    assert [h.device for h in t.request.hops] == ["su1-srv01", "su1-leaf-r0", "su1-srv02"]
    assert "local destination" in t.request.hops[1].decision
    assert t.request.spines == [] and t.reply.egress_nic == "su1-srv02/nic0"


def test_cross_su_follows_the_ppd_pins_both_ways(default_fabric):
    fw = Forwarding(default_fabric)
    plan = ppd_plan(default_fabric)
    t = trace(fw, "su1-srv01/nic2", "su2-srv03/nic2")
    pin = next(b for b in plan["su1-leaf-r2"].bindings if b.nic == "su1-srv01/nic2")
    back = next(b for b in plan["su2-leaf-r2"].bindings if b.nic == "su2-srv03/nic2")
    req, rep = t.request, t.reply
    assert [h.device for h in req.hops] == ["su1-srv01", "su1-leaf-r2", pin.spine, "su2-leaf-r2", "su2-srv03"]
    assert req.hops[0].decision.startswith("rule 1002: from ") and "lookup 102" in req.hops[0].decision
    assert req.hops[1].egress == pin.uplink and pin.next_hop in req.hops[1].decision
    assert req.hops[3].egress == default_fabric.peer("su2-srv03/nic2").split("/", 1)[1]
    assert rep.hops[1].egress == back.uplink and rep.spines == [back.spine]
    assert rep.egress_nic == req.arrival_nic == "su2-srv03/nic2"
    assert ("PATH-SPINE-DIFFERS" in codes(t)) == (pin.spine != back.spine)
    assert t.ok


def test_spine_hop_lists_every_parallel_link(default_fabric):
    t = trace(Forwarding(default_fabric), "su1-srv01/nic0", "su2-srv01/nic0")
    spine_hop = t.request.hops[2]
    parallel = [l for l in default_fabric.links_of(spine_hop.device)
                if l.other(endpoint(spine_hop.device, spine_hop.egress)).startswith("su2-leaf-r0/")
                or "su2-leaf-r0/" in l.id]
    assert set(spine_hop.links) == {l.id for l in parallel} and len(parallel) == 2


def test_p2p31_n_to_1_design_delivers_on_the_connected_31():
    fabric = preset_fabric("rail-optimized-64x4")
    fw = Forwarding(fabric)
    assert ppd_plan(fabric)["su1-leaf-r0"].n == 2
    traces = [trace(fw, s, d) for s, d in pairs(fw, "su1-srv05", "su1-srv60")]
    assert len(traces) == 4 and all(t.ok for t in traces)
    for t in traces:
        assert "connected /31" in t.request.hops[1].decision
        assert t.request.hops[0].decision.endswith(f"dev {fabric.nic(t.src_nic).netdev}")


def test_rail_only_has_no_path_between_leaves():
    fw = Forwarding(preset_fabric("rail-only-32x4", sus=2))
    t = trace(fw, "su1-srv01/nic0", "su2-srv02/nic0")
    assert not t.ok and "PATH-NO-ROUTE" in codes(t)
    assert "no uplinks" in t.request.problem and t.reply is None


def test_removed_nic_address_is_caught(default_fabric):
    default_fabric.set_address("su2-srv02/nic1", None)
    t = trace(Forwarding(default_fabric), "su1-srv01/nic1", "su2-srv02/nic1")
    assert not t.ok and "PATH-NO-ADDRESS" in codes(t) and t.request is None
    t = trace(Forwarding(default_fabric), "su2-srv02/nic1", "su1-srv01/nic1")
    assert not t.ok and "no rule or table" in t.flags[0].message


def test_removed_leaf_port_address_leaves_no_route():
    fabric = preset_fabric("rail-optimized-64x4")
    fabric.set_address(fabric.peer("su1-srv02/nic0"), None)      # the /31's leaf end: NIC loses its gateway
    t = trace(Forwarding(fabric), "su1-srv01/nic0", "su1-srv02/nic0")
    # not local any more, so the leaf's PPD pin sends it up; the spine learns no prefix holding it
    assert not t.ok and "no adjacent leaf advertises 10.0.0.3" in t.request.problem
    assert t.request.hops[1].decision.startswith("PPD pin") and t.request.hops[-1].device.startswith("spine-")


def test_two_nics_on_one_rail_make_the_reply_asymmetric(default_fabric):
    default_fabric.set_nic_rail("su2-srv02/nic1", 0)     # both NICs now write table 100's default route
    t = trace(Forwarding(default_fabric), "su1-srv01/nic0", "su2-srv02/nic0")
    assert t.request.arrival_nic == "su2-srv02/nic0"
    assert t.reply.egress_nic == "su2-srv02/nic1"
    assert "PATH-ASYMMETRIC" in codes(t)


def test_cross_rail_pair_is_flagged(default_fabric):
    fw = Forwarding(default_fabric)
    t = trace(fw, "su1-srv01/nic0", "su2-srv01/nic3")
    assert "PATH-CROSS-RAIL" in codes(t) and t.ok      # shared spines still carry it


def test_pairs_by_hostname_and_netdev(default_fabric):
    default_fabric.set_hostname("su1-srv01", "gpu-a")
    fw = Forwarding(default_fabric)
    assert pairs(fw, "gpu-a:ens2np0", "su1-srv02") == [("su1-srv01/nic1", "su1-srv02/nic1")]
    assert len(pairs(fw, "gpu-a", "su1-srv02")) == 4
