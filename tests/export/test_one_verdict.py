"""One verdict (issue 13, item 7): over mutated designs, what `validate` says is what export does.

For every design mutated through the Fabric API (`fuzz.edits`: hostile NIC names, stray and
out-of-pool addresses, missing ASNs, re-cabling, breakouts, settings...), either
- `check()` reports a finding export cannot get past (`bundle.BLOCKING`): a forced export refuses at
  once, naming exactly those codes, with nothing written; or
- every part renders, every bundle path is one the writer accepts, and no two files collide.
So a design `validate` passes (no error at all) always exports, and one that cannot export fails
`validate` with the code the forced export names.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from designer.checks import Severity, check
from designer.export.bundle import BLOCKING, ExportRefused, _safe_relpath, export
from designer.export.registry import parts
from fuzz.edits import edits
from tests.conftest import preset_fabric

BASES = {"subnet-per-leaf": lambda: preset_fabric("default"),
         "p2p31": lambda: preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4)}


def _rendered_paths(f) -> list[str]:
    paths = []
    for part in parts():
        for device in part.devices(f):
            paths += part.render_device(f, device)
        paths += part.render_global(f)
    return paths


@pytest.mark.parametrize("base", sorted(BASES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 6))
def test_validate_and_export_agree_on_mutated_designs(base, rng, count, tmp_path_factory):
    f = BASES[base]()
    edits(f, rng, count)
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
    paths = _rendered_paths(f)             # what a forced (or, with no errors, any) export writes
    for path in paths:
        _safe_relpath(path)
    assert len(set(paths)) == len(paths), "two objects write one file"


def test_a_nic_on_a_spine_is_refused_by_a_forced_export_with_its_code(tmp_path):
    """Found by the property above: validate said RD003/RD004 (forceable), and the forced export then
    failed late on 'leaf downlink spine-01/Ethernet32 has no address'."""
    f = BASES["p2p31"]()
    nic = "su1-srv01/nic0"
    f.disconnect(f.link_at(nic).id)
    f.connect(nic, f"spine-01/{f.free_ports('spine-01')[0].name}")
    with pytest.raises(ExportRefused) as refused:
        export(f, tmp_path / "bundle", force=True)
    assert refused.value.forced and [x.code for x in refused.value.findings] == ["RD032"]
    assert refused.value.findings[0].ids == (nic, "spine-01") and not (tmp_path / "bundle").exists()
