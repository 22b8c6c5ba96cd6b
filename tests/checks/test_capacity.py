"""RD001 oversubscription, RD016 ratio report, RD002 ports the model does not have."""

from __future__ import annotations

from types import SimpleNamespace

from designer.checks import Severity, check
from designer.checks.capacity import missing_ports
from designer.model.entities import Link, Role, Switch

from tests.checks.check_helpers import of_code

LEAVES = [f"su{su}-leaf-r{r}" for su in (1, 2) for r in range(4)]


def test_two_to_one_design_is_an_error_when_one_to_one_is_allowed(make):
    findings = of_code(make(leaf_uplinks=2), "RD001")
    assert [f.ids for f in findings] == [(leaf,) for leaf in LEAVES]
    assert findings[0].severity is Severity.ERROR
    assert "su1-leaf-r0 is oversubscribed 2.00:1, allowed 1:1 (1,600G down, 800G up)" == findings[0].message


def test_two_to_one_design_allowed_is_reported_once_with_its_ratio(make):
    findings = check(make(leaf_uplinks=2, oversubscription=2))
    assert [f.code for f in findings if f.code != "RD050"] == ["RD016"]   # RD050: the growth note
    assert findings[0].severity is Severity.INFO
    assert findings[0].ids == tuple(LEAVES)
    assert findings[0].message.startswith("8 leaves run at 2.00:1 downlink:uplink (allowed 2:1)")


def test_fractional_allowed_ratio_is_shown_with_two_decimals(make):
    findings = of_code(make(leaf_uplinks=2, oversubscription=1.5), "RD001")
    assert len(findings) == 8 and "2.00:1, allowed 1.50:1" in findings[0].message


def test_leaf_with_servers_and_no_uplink_is_an_error_once(default):
    for link in default.links_of("su1-leaf-r2"):
        if "spine" in link.id:
            default.disconnect(link.id)
    findings = [f for f in check(default) if f.severity is Severity.ERROR]
    assert [(f.code, f.ids) for f in findings] == [("RD001", ("su1-leaf-r2",))]
    assert "no uplink to a spine" in findings[0].message and "1,600G" in findings[0].message


def test_rail_only_design_has_no_ratio(make):
    assert of_code(make("rail-only-32x4"), "RD001") == of_code(make("rail-only-32x4"), "RD016") == []


def _ctx(catalog, switch, cables=()):
    ports = {}
    if switch.id:
        model = catalog.switches[switch.model]
        ports = {p.name: p for c in range(1, model.ports + 1) for p in model.cage_ports(c, model.native_mode)}
    fabric = SimpleNamespace(catalog=catalog, ports=lambda _sid: ports)
    usable = frozenset([switch.id]) if not switch.breakouts else frozenset()
    return SimpleNamespace(fabric=fabric, switches={switch.id: switch}, usable_switches=usable, cables=list(cables))


# RD002 cannot be reached through Fabric's API (connect, add_switch and set_breakout refuse such
# states; a design file or a changed catalog can produce them), so the rule runs on crafted input.
def test_cable_on_a_port_the_switch_does_not_have(catalog):
    leaf = Switch("su1-leaf-r0", "su1-leaf-r0", Role.LEAF, "asterfusion-cx732q-n", su=1, rail=0)
    link = Link("su1-leaf-r0/Ethernet999", "su1-srv01/nic0", 400)
    cable = (link, (link.a, "su1-leaf-r0", "leaf", None), (link.b, "su1-srv01", "nic", 400))
    [(message, ids)] = list(missing_ports(_ctx(catalog, leaf, [cable])))
    assert ids == ("su1-leaf-r0", "su1-leaf-r0/Ethernet999")
    assert message == ("su1-leaf-r0 (asterfusion-cx732q-n, 32 ports under its breakouts) has 1 cable(s) "
                       "on ports it does not have: Ethernet999")


def test_unsupported_breakout(catalog):
    leaf = Switch("su1-leaf-r0", "su1-leaf-r0", Role.LEAF, "asterfusion-cx732q-n", su=1, rail=0,
                  breakouts=((3, "8x50G"),))
    [(message, ids)] = list(missing_ports(_ctx(catalog, leaf)))
    assert ids == ("su1-leaf-r0",)
    assert "has unsupported breakouts: cage 3 (8x50G)" in message
