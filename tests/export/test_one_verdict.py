"""One verdict (issue 13, item 7): over mutated designs, what `validate` says is what export does.

For every design mutated through the Fabric API (`fuzz.edits`: hostile NIC names, stray and
out-of-pool addresses, missing ASNs, re-cabling, breakouts, settings...), and for each part, either
- `check()` reports an error the part cannot get past (one of its `Part.refused_by` codes): a forced
  export of the part refuses at once, naming exactly those codes, with nothing written; or
- the part renders, every bundle path is one the writer accepts, and no two files collide.
So a design `validate` passes (no error at all) always exports, one that cannot export fails
`validate` with the code the forced export names, and a forced export of other parts goes ahead.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from designer.checks import Severity, check
from designer.export.bundle import ExportRefused, _safe_relpath, blocking, export
from designer.export.registry import parts
from fuzz.edits import edits
from tests.conftest import preset_fabric

BASES = {"subnet-per-leaf": lambda: preset_fabric("default"),
         "p2p31": lambda: preset_fabric("rail-optimized-64x4", sus=1, servers_per_su=4),
         "three-tier": lambda: preset_fabric("b200-superpod", sus=2, servers_per_su=2, rails=2, core_tier="on"),
         "twin-plane": lambda: preset_fabric("twin-plane-800g", sus=1, servers_per_su=2)}


def _rendered_paths(f, part) -> list[str]:
    paths = []
    for device in part.devices(f):
        paths += part.render_device(f, device)
    return paths + list(part.render_global(f))


@pytest.mark.parametrize("base", sorted(BASES))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), count=st.integers(1, 6))
def test_validate_and_export_agree_on_mutated_designs(base, rng, count, tmp_path_factory):
    f = BASES[base]()
    edits(f, rng, count)
    findings = check(f)
    assert "RD000" not in {x.code for x in findings}, [x.message for x in findings if x.code == "RD000"]
    errors = {x.code for x in findings if x.severity is Severity.ERROR}
    event("rendered, validate passes" if not errors else "refused up front" if errors & blocking(parts())
          else "rendered, with errors")
    paths = []
    for part in parts():
        stops = errors & part.refused_by
        if stops:
            out = tmp_path_factory.mktemp("b") / "bundle"
            with pytest.raises(ExportRefused) as refused:
                export(f, out, force=True, only=[part.name])
            assert refused.value.forced and {x.code for x in refused.value.findings} == stops, part.name
            assert not out.exists()
        else:
            paths += _rendered_paths(f, part)      # what a forced (or, with no errors, any) export writes
    for path in paths:
        _safe_relpath(path)
    assert len(set(paths)) == len(paths), "two objects write one file"


def test_a_forced_export_writes_the_parts_an_error_does_not_stop(tmp_path):
    f = BASES["p2p31"]()
    f.set_nic_names("su1-srv01/nic0", "bad name!", "mlx5_0")          # RD027: stops hosts, switches, lab
    with pytest.raises(ExportRefused) as refused:
        export(f, tmp_path / "all", force=True)
    assert [x.code for x in refused.value.findings] == ["RD027"] and "--only" in str(refused.value)
    written = export(f, tmp_path / "some", force=True, only=["aid", "ansible", "monitoring"])
    assert "aid/fabric.aid.json" in written.files and not (tmp_path / "all").exists()


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
