"""RD010-RD012, RD015: host names, ASNs, loopbacks."""

from __future__ import annotations

from types import SimpleNamespace

from designer.checks import Severity
from designer.checks.naming import invalid_hostnames
from designer.model.entities import Server

from tests.checks.check_helpers import of_code


def test_host_names_equal_but_for_case_are_duplicates(default):
    default.set_hostname("su2-srv01", "SU1-SRV01")    # the model compares exactly; DNS does not
    [finding] = of_code(default, "RD011")
    assert finding.ids == ("su1-srv01", "su2-srv01") and finding.severity is Severity.ERROR
    assert finding.message == "2 devices share one host name: su1-srv01 ('su1-srv01'), su2-srv01 ('SU1-SRV01')"


# The model refuses an invalid host name on every path (add_server, add_switch, set_hostname),
# so RD010 runs on crafted input: a design read by a future, laxer path must still be caught.
def test_invalid_host_name_on_crafted_input():
    bad = Server("su1-srv01", "srv_01", "gpu-4x400g", 1, (), 4)
    ctx = SimpleNamespace(servers={bad.id: bad}, switches={})
    assert list(invalid_hostnames(ctx)) == [
        ("su1-srv01's host name 'srv_01' is not valid: it contains '_'; only letters, digits, hyphens and dots "
         "are allowed", ("su1-srv01",))]


def test_two_leaves_with_one_asn(default):
    default.set_asn("su2-leaf-r2", default.asns["su1-leaf-r1"], pinned=True)
    [finding] = of_code(default, "RD012")
    assert finding.ids == ("su1-leaf-r1", "su2-leaf-r2")
    assert finding.message == "ASN 4200000001 is used by 2 leaves: su1-leaf-r1, su2-leaf-r2"


def test_leaf_sharing_the_spines_asn(default):
    default.set_asn("su1-leaf-r3", default.asns["spine-01"], pinned=True)
    [finding] = of_code(default, "RD012")
    assert finding.ids == ("su1-leaf-r3", "spine-01", "spine-02")
    assert finding.message == "ASN 4200100000 of leaf su1-leaf-r3 is also used by spine spine-01, spine-02"


def test_spines_may_share_an_asn(default):
    assert default.asns["spine-01"] == default.asns["spine-02"]
    assert of_code(default, "RD012") == []


def test_switch_without_asn_or_loopback(default):
    default.set_asn("spine-02", None)
    default.set_address("su1-leaf-r0/lo", None)
    findings = of_code(default, "RD015")
    assert [(f.message, f.ids) for f in findings] == [
        ("1 switch(es) have no BGP ASN (or one out of range): spine-02", ("spine-02",)),
        ("1 switch(es) have no loopback address: su1-leaf-r0", ("su1-leaf-r0",))]
    assert findings[0].severity is Severity.ERROR       # every switch config needs both: export refuses
