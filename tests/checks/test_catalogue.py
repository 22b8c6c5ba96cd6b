"""The catalogue itself and the engine's promises: clean presets, sorting, never raising."""

from __future__ import annotations

import subprocess
import sys

import pytest

from designer.checks import RULES, Finding, Severity, check, has_errors
from designer.checks.registry import Rule, run_guarded, sort_key
from designer.storage.presets import preset_names


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_has_no_errors_and_no_warnings(make, name):
    findings = check(make(name))
    assert [f for f in findings if f.severity is not Severity.INFO] == []


def test_superpod_with_four_sus_is_clean(make):
    fabric = make("superpod-su", sus=4)
    assert len(fabric.leaves()) == 32
    assert [f.code for f in check(fabric)] == ["RD050"]   # only the note of how far it can grow


def test_catalogue_lists_each_code_once_in_order_with_title_and_hint():
    codes = [r.code for r in RULES]
    assert codes == sorted(set(codes))
    assert codes[0] == "RD000"
    assert {"RD001", "RD002", "RD003", "RD004", "RD005", "RD006", "RD007", "RD008", "RD009", "RD010",
            "RD011", "RD012", "RD013", "RD014", "RD015", "RD016"} <= set(codes)
    for rule in RULES:
        assert rule.title and rule.hint.endswith(".") and isinstance(rule.severity, Severity)


def test_a_rule_that_crashes_becomes_one_rd000_error_naming_it(default):
    def broken(ctx):
        yield "never", ()
        raise KeyError("spine-99")
    findings = run_guarded(Rule("RD900", "Broken rule", Severity.WARNING, "x.", broken), None)
    assert [(f.code, f.severity) for f in findings] == [("RD000", Severity.ERROR)]
    assert "RD900 (Broken rule)" in findings[0].message and "KeyError" in findings[0].message


def test_findings_are_sorted_by_severity_then_code_then_ids(default):
    default.disconnect(default.link_at("su2-srv04/nic3").id)                     # RD005 warning
    default.disconnect(default.link_at("su1-srv01/nic0").id)                     # RD005 warning
    default.set_asn("su1-leaf-r1", default.asns["su1-leaf-r0"], pinned=True)    # RD012 error
    findings = check(default)
    # the two leaves that lost a server now run at 0.75:1, reported as information
    assert [f.code for f in findings] == ["RD012", "RD005", "RD005", "RD016", "RD050"]
    assert [f.ids for f in findings[1:]] == [("su1-srv01/nic0",), ("su2-srv04/nic3",), ("su1-leaf-r0", "su2-leaf-r3"), ()]
    assert findings == sorted(findings, key=sort_key)
    assert check(default) == findings


def test_has_errors_looks_only_at_errors():
    warning = Finding("RD005", Severity.WARNING, "m", (), "h")
    error = Finding("RD004", Severity.ERROR, "m", (), "h")
    assert not has_errors([warning]) and has_errors([warning, error]) and not has_errors([])


def test_checks_never_import_qt():
    code = "import sys, designer.checks; print(sorted(m for m in sys.modules if m.startswith('PySide6')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
